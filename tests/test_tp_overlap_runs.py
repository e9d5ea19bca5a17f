"""A published run that overlapped tensor-parallel communication (`tp_comm_overlap: true`): its
layout takes the knowledge base's `tp_overlap_fraction`, only with sequence parallelism (the only
case where Megatron-Core overlaps), and nothing where the run is silent; a knowledge base with such
a run and no such assumption is refused; `calibrate --scan` varies the fraction as if the file held
each value. On the fixture base, whose 70B run has tensor parallel 8 with sequence parallelism, so
that no real spec changes an outcome."""

from __future__ import annotations

import pytest
from support import FIXTURE_RUN, FIXTURE_RUN_TEXT, fixture_run, fixture_run_inputs, run_kb, validate_texts

from generator.estimates.calibration import calibrate, run_error
from generator.estimates.fit import scan
from generator.estimates.records import TP_OVERLAP
from generator.knowledge import KnowledgeBase
from generator.validate import Result

RUN = FIXTURE_RUN
ASSUMPTION = "specs/assumptions/test-tp-overlap.yaml"
RUN_TEXT = FIXTURE_RUN_TEXT
OVERLAPPED = RUN_TEXT.replace("  sequence_parallel: true\n", "  sequence_parallel: true\n  tp_comm_overlap: true\n")
FRACTION = 0.45


def _assumption(value: float = FRACTION) -> str:
    return f"""id: test-tp-overlap
last_verified: 2026-12-01
parameter: tp_overlap_fraction
name:
  zh: 张量并行通信可重叠比例
  en: "Fixture text in English."
value: {value}
range: {{low: 0, high: 1}}
estimate: true
source: test-topology-paper
why:
  zh: "夹具：开了张量并行通信重叠的运行被计算掩盖的那部分通信。"
  en: "Fixture text in English."
"""


def _added(run: str, assumption: str | None) -> dict[str, str]:
    return {RUN: run, **({ASSUMPTION: assumption} if assumption is not None else {})}


def _validate(run: str = OVERLAPPED, assumption: str | None = _assumption()) -> Result:
    return validate_texts(_added(run, assumption))


def _kb(run: str = OVERLAPPED, assumption: str | None = _assumption()) -> KnowledgeBase:
    return run_kb(_added(run, assumption))


def test_an_overlapped_run_takes_the_fraction() -> None:
    got = fixture_run_inputs(_kb())
    assert got.layout.tp_overlap == FRACTION and got.defaults == (TP_OVERLAP,)


@pytest.mark.parametrize("run", [
    RUN_TEXT,  # the source is silent: nothing is hidden
    OVERLAPPED.replace("  tp_comm_overlap: true\n", "  tp_comm_overlap: false\n"),
    OVERLAPPED.replace("  sequence_parallel: true\n", "  sequence_parallel: false\n"),  # Megatron-Core needs it
], ids=["unstated", "stated-off", "no-sequence-parallelism"])
def test_other_runs_hide_nothing(run: str) -> None:
    got = fixture_run_inputs(_kb(run))
    assert got.layout.tp_overlap == 0.0 and got.defaults == ()


def test_the_overlap_shortens_the_predicted_step() -> None:
    """The share hidden comes off the tensor-parallel time: the same run is predicted faster."""
    plain, hidden = (run_error(kb, fixture_run(kb)) for kb in (_kb(RUN_TEXT), _kb()))
    assert plain.predicted_s is not None and hidden.predicted_s is not None
    assert hidden.predicted_s < plain.predicted_s


def test_an_overlapped_run_without_the_assumption_is_refused() -> None:
    """Not a silent 0: the run reads the fraction, so its file must exist."""
    result = _validate(assumption=None)
    missing = [d for d in result.diagnostics if d.rule == "model-assumption-missing"]
    assert [(d.path, d.line, d.col) for d in missing] == [("specs/assumptions/tp-overlap-fraction.yaml", 1, 1)]
    assert "tp_comm_overlap: true" in missing[0].message and not result.passes(strict=False)
    assert not [d for d in _validate(RUN_TEXT, None).diagnostics if d.rule == "model-assumption-missing"]


def test_a_scan_of_the_fraction_is_the_calibration_with_that_value() -> None:
    found = scan(_kb(), {TP_OVERLAP: [0.0, 0.9]})
    assert not isinstance(found, str)
    for point in found.points:
        assert point.summary() == calibrate(_kb(assumption=_assumption(point.values[0]))).overall
    assert found.points[0].summary() != found.points[1].summary()  # the fraction reaches the run


def test_a_scan_leaves_a_run_that_takes_no_default_alone() -> None:
    found = scan(_kb(RUN_TEXT), {TP_OVERLAP: [0.0, 0.9]})
    assert not isinstance(found, str)
    assert found.points[0].runs == found.points[1].runs
