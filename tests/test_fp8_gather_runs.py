"""A published run whose weights were gathered in FP8 (`fp8_param_gather`): its layout gathers the
linear layers' weights at 1 byte, so the model prices less data-parallel traffic; a run that states
nothing gathers 16-bit weights. On the fixture base, whose 70B run is the one edited (turned FP8
first), so that no real spec changes an outcome."""

from __future__ import annotations

from dataclasses import replace

from support import FIXTURE_RUN_TEXT, fixture_run_inputs, run_kb

from generator.costmodel import Assumptions, estimate

ASSUMPTIONS = Assumptions(0.8, 2.5, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1, 4e-6)

RUN = "specs/runs/test-run-llama-70b.yaml"


def _fp8(text: str) -> str:
    assert "  precision: bf16\n" in text
    return text.replace("  precision: bf16\n", "  precision: fp8\n")


FP8 = _fp8(FIXTURE_RUN_TEXT)
GATHERED = FP8.replace("  precision: fp8\n", "  precision: fp8\n  fp8_param_gather: true\n")


def test_the_field_reaches_the_layout() -> None:
    assert GATHERED != FP8
    assert fixture_run_inputs(run_kb({RUN: GATHERED})).layout.fp8_param_gather is True
    assert fixture_run_inputs(run_kb({RUN: FP8})).layout.fp8_param_gather is False


def test_fp8_gathers_reach_the_prediction() -> None:
    """Less data-parallel traffic: the run's own inputs, on its GPU given an FP8 rate (the fixture
    A100 has none), are predicted faster with the field than without it."""
    inputs = [fixture_run_inputs(run_kb({RUN: text})) for text in (FP8, GATHERED)]
    steps = []
    for got in inputs:
        node = replace(got.cluster.node, gpu=replace(got.cluster.node.gpu, dense_fp8_flop_per_s=624e12))
        result = estimate(got.workload, replace(got.cluster, node=node), got.layout, ASSUMPTIONS)
        assert result.estimate is not None, result.problems
        steps.append(result.estimate.step.step_s)
    assert steps[1] < steps[0]
