"""Every value of each closed vocabulary has its Chinese label in generator/labels.py, and no
label names a value the vocabulary does not have: a value added to a `Literal` of the typed
model or of the cost model fails here until it is named."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from generator import labels
from generator.costmodel.inputs import Recompute
from generator.costmodel.step import Bottleneck
from generator.diagnostics import FAMILIES, Severity
from generator.edge.diff import Change
from generator.estimates.calibration import Block
from generator.model import KINDS
from generator.model.common import Direction
from generator.model.entities import (
    Advice,
    Basis,
    ComputeNode,
    NodeNic,
    Pitfall,
    PublisherRole,
    SourceKind,
    TierTable,
    Verdict,
)
from generator.model.entities import Network as NetworkSpec
from generator.model.markets import Status
from generator.model.runs import Convention, ExpertRouting, Metric, PipelineSchedule
from generator.planner.plan import Goal
from generator.planner.report import PICK_FIELDS
from generator.provenance import Footing
from generator.selection.advice import Parallelism


def _field(model: Any, name: str) -> tuple[object, ...]:
    """The values a pydantic field's Literal allows (inside Optional or list, too)."""
    annotation = model.model_fields[name].annotation
    while not all(isinstance(a, str) for a in get_args(annotation)):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    return get_args(annotation)


VOCABULARIES: dict[str, tuple[object, ...]] = {
    "DIRECTION_ZH": get_args(Direction),
    "SOURCE_KIND_ZH": get_args(SourceKind),
    "PUBLISHER_ROLE_ZH": get_args(PublisherRole),
    "FAMILY_ZH": FAMILIES,
    "DIAGNOSTIC_SEVERITY_ZH": tuple(s.value for s in Severity),
    "SPEC_KIND_ZH": tuple(KINDS),
    "PITFALL_SEVERITY_ZH": _field(Pitfall, "severity"),
    "TIER_SUBJECT_ZH": _field(TierTable, "subject"),
    "LAYER_ZH": _field(Advice, "layer"),
    "MODEL_SIZE_ZH": _field(Advice, "model"),
    "RDMA_ZH": _field(NetworkSpec, "rdma"),
    "NIC_ROLE_ZH": _field(NodeNic, "role"),
    "NODE_KIND_ZH": _field(ComputeNode, "kind"),
    "VERDICT_ZH": get_args(Verdict),
    "BASIS_ZH": get_args(Basis),
    "FOOTING_ZH": get_args(Footing),
    "BOTTLENECK_ZH": get_args(Bottleneck),
    "GOAL_ZH": get_args(Goal),
    "PARALLELISM_ZH": get_args(Parallelism),
    "RECOMPUTE_ZH": get_args(Recompute),
    "PICK_ZH": PICK_FIELDS,
    "CHANGE_ZH": get_args(Change),
    "BLOCK_ZH": get_args(Block),
    "METRIC_ZH": get_args(Metric),
    "CONVENTION_ZH": get_args(Convention),
    "SCHEDULE_ZH": get_args(PipelineSchedule),
    "ROUTING_ZH": get_args(ExpertRouting),
    "MARKET_STATUS_ZH": get_args(Status),
}


def test_every_table_is_held_to_a_vocabulary() -> None:
    tables = {name for name in vars(labels) if name.endswith("_ZH")}
    assert tables == set(VOCABULARIES)


@pytest.mark.parametrize("name", sorted(VOCABULARIES))
def test_each_value_has_one_label(name: str) -> None:
    table = getattr(labels, name)
    values = VOCABULARIES[name]
    assert values, f"{name}: the vocabulary read from the model is empty"
    assert sorted(map(str, table)) == sorted(map(str, values))
    assert all(isinstance(label, str) and label.strip() for label in table.values())


def test_the_field_reader_reads_optional_and_list_fields() -> None:
    """`_field` finds the Literal inside `X | None` and `list[X]` (Advice.model; a list field)."""
    from typing import Literal

    from pydantic import BaseModel

    class Listed(BaseModel):
        kinds: list[Literal["data", "tensor"]] = []

    assert _field(Advice, "model") == ("small", "medium", "large")
    assert _field(Listed, "kinds") == ("data", "tensor")
