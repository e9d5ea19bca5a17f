"""A published run that kept its optimizer states in BF16 (`optimizer_states: bf16`, as a NeMo
config's `dtype: bf16` makes Apex's DistributedFusedAdam do): its memory counts the parameter copy
and both moments at 2 bytes each instead of the knowledge base's optimizer_bytes_per_parameter,
for that run only; `fp32` and silence keep the knowledge base's value; the step time does not move
(the states are memory, not traffic). On the fixture base, so that no real spec changes an
outcome."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support import FIXTURE_RUN, FIXTURE_RUN_TEXT, fixture_run, fixture_run_inputs, run_kb

from generator.costmodel import estimate
from generator.estimates.calibration import run_error
from generator.estimates.records import assumptions
from generator.knowledge import KnowledgeBase
from generator.language import speaking
from generator.render.runs import layout_label

RUN_TEXT = FIXTURE_RUN_TEXT
BF16 = RUN_TEXT.replace("  sequence_parallel: true\n", "  sequence_parallel: true\n  optimizer_states: bf16\n")


def _kb(run: str = BF16) -> KnowledgeBase:
    return run_kb({FIXTURE_RUN: run})


def _optimizer_bytes(kb: KnowledgeBase) -> float:
    inputs, model = fixture_run_inputs(kb), assumptions(kb)
    assert not isinstance(model, str)
    got = estimate(inputs.workload, inputs.cluster, inputs.layout, inputs.under(model)).estimate
    assert got is not None
    return got.memory.optimizer_bytes


def test_bf16_states_take_six_bytes_a_parameter() -> None:
    kb = _kb()
    model = assumptions(kb)
    assert not isinstance(model, str) and model.optimizer_bytes_per_parameter == 12.0
    inputs = fixture_run_inputs(kb)
    assert inputs.optimizer_bytes == 6.0
    assert inputs.under(model) == replace(model, optimizer_bytes_per_parameter=6.0)
    assert _optimizer_bytes(kb) == pytest.approx(_optimizer_bytes(_kb(RUN_TEXT)) / 2)


@pytest.mark.parametrize("run", [RUN_TEXT, BF16.replace("optimizer_states: bf16", "optimizer_states: fp32")],
                         ids=["unstated", "fp32"])
def test_other_runs_keep_the_knowledge_bases_bytes(run: str) -> None:
    kb = _kb(run)
    model = assumptions(kb)
    assert not isinstance(model, str)
    inputs = fixture_run_inputs(kb)
    assert inputs.optimizer_bytes is None and inputs.under(model) is model


def test_the_states_move_memory_not_the_step() -> None:
    plain, bf16 = (run_error(kb, fixture_run(kb)) for kb in (_kb(RUN_TEXT), _kb()))
    assert plain.predicted_s is not None and plain.predicted_s == bf16.predicted_s


def test_the_runs_page_says_so() -> None:
    layout = fixture_run(_kb()).model.layout
    with speaking("zh"):
        assert "BF16 优化器状态" in layout_label(layout)
    with speaking("en"):
        assert "BF16 optimizer states" in layout_label(layout)
    assert "BF16" not in layout_label(fixture_run(_kb(RUN_TEXT)).model.layout)


def test_calibration_estimates_the_run_with_its_own_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The calibration (and so the runs page and `calibrate`) hands the model the run's bytes."""
    import generator.estimates.calibration as calibration

    kb = _kb()  # validated before the spy: the validation calibrates every run too
    seen: list[float] = []

    def spy(workload, cluster, layout, model, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(model.optimizer_bytes_per_parameter)
        return estimate(workload, cluster, layout, model, **kwargs)

    monkeypatch.setattr(calibration, "estimate", spy)
    run_error(kb, fixture_run(kb))
    assert seen == [6.0]
