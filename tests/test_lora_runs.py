"""A published run that fine-tuned LoRA adapters (`lora_rank`): its layout trains adapters of that
rank with the base frozen in 16 bits, so the model prices it as LoRA (no weight gradients for the
base, the adapters' memory-bound GEMMs); a run that states none trains every weight. On the fixture
base, whose 70B run is the one edited, so that no real spec changes an outcome."""

from __future__ import annotations

from support import FIXTURE_RUN_TEXT, fixture_run, fixture_run_inputs, run_kb

from generator.estimates.calibration import run_error

RUN = "specs/runs/test-run-llama-70b.yaml"
ADAPTED = FIXTURE_RUN_TEXT.replace("  sequence_parallel: true\n", "  sequence_parallel: true\n  lora_rank: 16\n")


def test_a_lora_run_trains_adapters_of_its_rank_on_a_16_bit_base() -> None:
    assert ADAPTED != FIXTURE_RUN_TEXT
    layout = fixture_run_inputs(run_kb({RUN: ADAPTED})).layout
    assert (layout.adapter_rank, layout.base_bits) == (16, 16)


def test_a_run_that_states_no_rank_trains_every_weight() -> None:
    assert fixture_run_inputs(run_kb({RUN: FIXTURE_RUN_TEXT})).layout.adapter_rank == 0


def test_the_adapters_reach_the_prediction() -> None:
    """LoRA skips the frozen weights' gradients: the same run is predicted faster."""
    full, lora = (run_error(kb, fixture_run(kb)) for kb in (run_kb({RUN: FIXTURE_RUN_TEXT}), run_kb({RUN: ADAPTED})))
    assert full.predicted_s is not None and lora.predicted_s is not None
    assert lora.predicted_s < full.predicted_s
