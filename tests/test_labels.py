"""Every value of each closed vocabulary has its label in generator/labels.py, in Chinese and in
English, and no label names a value the vocabulary does not have: a value added to a `Literal`
of the typed model or of the cost model fails here until it is named in both languages."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest

from generator import labels
from generator.costmodel.inputs import Recompute
from generator.costmodel.step import Bottleneck
from generator.diagnostics import FAMILIES, Severity
from generator.edge.diff import Change
from generator.estimates.calibration import Block, Training
from generator.language import LANGUAGES, Bilingual, speaking
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
    "DIRECTION": get_args(Direction),
    "SOURCE_KIND": get_args(SourceKind),
    "PUBLISHER_ROLE": get_args(PublisherRole),
    "FAMILY": FAMILIES,
    "DIAGNOSTIC_SEVERITY": tuple(s.value for s in Severity),
    "SPEC_KIND": tuple(KINDS),
    "PITFALL_SEVERITY": _field(Pitfall, "severity"),
    "TIER_SUBJECT": _field(TierTable, "subject"),
    "LAYER": _field(Advice, "layer"),
    "MODEL_SIZE": _field(Advice, "model"),
    "RDMA": _field(NetworkSpec, "rdma"),
    "NIC_ROLE": _field(NodeNic, "role"),
    "NODE_KIND": _field(ComputeNode, "kind"),
    "VERDICT": get_args(Verdict),
    "BASIS": get_args(Basis),
    "FOOTING": get_args(Footing),
    "BOTTLENECK": get_args(Bottleneck),
    "GOAL": get_args(Goal),
    "PARALLELISM": get_args(Parallelism),
    "RECOMPUTE": get_args(Recompute),
    "PICK": PICK_FIELDS,
    "CHANGE": get_args(Change),
    "BLOCK": get_args(Block),
    "TRAINING": get_args(Training),
    "METRIC": get_args(Metric),
    "CONVENTION": get_args(Convention),
    "SCHEDULE": get_args(PipelineSchedule),
    "ROUTING": get_args(ExpertRouting),
    "MARKET_STATUS": get_args(Status),
}


CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def test_every_table_is_held_to_a_vocabulary() -> None:
    tables = {name for name, value in vars(labels).items() if isinstance(value, Bilingual) and not name.endswith("_ZH")}
    assert tables == set(VOCABULARIES)


def test_the_old_names_are_the_same_tables() -> None:
    """`DIRECTION_ZH`, the name from before the English edition, is `DIRECTION` itself (a table
    added since, such as `TRAINING`, has no old name)."""
    old = {name for name in vars(labels) if name.endswith("_ZH")}
    assert old <= {f"{name}_ZH" for name in VOCABULARIES} and "DIRECTION_ZH" in old
    assert all(getattr(labels, name) is getattr(labels, name.removesuffix("_ZH")) for name in old)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(VOCABULARIES))
def test_each_value_has_one_label(name: str, language: str) -> None:
    table = getattr(labels, name)
    values = VOCABULARIES[name]
    assert values, f"{name}: the vocabulary read from the model is empty"
    with speaking(language):
        assert sorted(map(str, table)) == sorted(map(str, values))
        shown = dict(table)
    assert all(isinstance(label, str) and label.strip() for label in shown.values())
    if language == "en":
        assert not [label for label in shown.values() if CJK.search(label)], f"{name}: Chinese in an English label"
    else:
        assert shown == table.zh


def test_the_field_reader_reads_optional_and_list_fields() -> None:
    """`_field` finds the Literal inside `X | None` and `list[X]` (Advice.model; a list field)."""
    from typing import Literal

    from pydantic import BaseModel

    class Listed(BaseModel):
        kinds: list[Literal["data", "tensor"]] = []

    assert _field(Advice, "model") == ("small", "medium", "large")
    assert _field(Listed, "kinds") == ("data", "tensor")
