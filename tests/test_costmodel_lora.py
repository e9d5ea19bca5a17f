"""LoRA in the cost model, against its formulas by hand: the adapters' parameter count, model
states with a frozen base of 16, 8 or 4 bits (only the adapters have gradients and Adam states),
executed FLOPs without the frozen weights' gradients, and data-parallel traffic of the adapters
alone; a quantized base without adapters is refused."""

from __future__ import annotations

import dataclasses

import pytest

from generator.costmodel.inputs import Assumptions, Cluster, GpuSpec, Layout, Node, Workload
from generator.costmodel.result import estimate

A = Assumptions(0.6, 2.0, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.0, 0.1, 4e-6)
NODE = Node("n", GpuSpec("g", 24e9, 1.0e12, 165e12), 4, 32e9, 1, 12.5e9)
LLAMA = Workload("7b", 6.74e9, 32, 4096, 32, 32000, ffn_hidden_size=11008, gated_mlp=True, tied_embeddings=False,
                 linear_biases=False, norm="rmsnorm")
ADAPTERS = 16 * (6 * 4096 + 2 * 4096 + 3 * (4096 + 11008)) * 32


def _run(layout: Layout, nodes: int = 1):  # type: ignore[no-untyped-def]
    result = estimate(LLAMA, Cluster(NODE, nodes), layout, A)
    assert result.estimate is not None, result.problems
    return result.estimate


def _layout(**kw: object) -> Layout:
    return dataclasses.replace(Layout(1, 1, 0, 1, 4096, 64, "full"), **kw)  # type: ignore[arg-type]


def test_adapter_count_is_rank_times_the_adapted_widths() -> None:
    assert ADAPTERS == 39_976_960  # PEFT's trainable-parameter count for Llama-2-7B, r = 16 on every linear layer


@pytest.mark.parametrize("bits", [16, 8, 4])
def test_only_the_adapters_carry_gradients_and_optimizer_states(bits: int) -> None:
    m = _run(_layout(adapter_rank=16, base_bits=bits)).memory
    assert m.weights_bytes == pytest.approx(6.74e9 * bits / 8 + ADAPTERS * 2)
    assert m.gradients_bytes == pytest.approx(ADAPTERS * 2)
    assert m.optimizer_bytes == pytest.approx(ADAPTERS * 12)


def test_zero_3_partitions_the_frozen_base_too() -> None:
    m = _run(_layout(adapter_rank=16, zero_stage=3)).memory
    assert m.weights_bytes == pytest.approx((6.74e9 * 2 + ADAPTERS * 2) / 4)
    assert m.gradients_bytes == pytest.approx(ADAPTERS * 2 / 4)


def test_frozen_weights_take_no_gradient_flops() -> None:
    full, lora = _run(_layout()), _run(_layout(adapter_rank=16))
    b, s, L, h, V = 1, 4096, 32, 4096, 32000
    r = (2 * h + 2 * h + 3 * 11008) / (12 * h)
    frozen = 24 * b * s * L * h * h * (r + V / (12 * L * h))
    assert full.compute.executed_flop_per_microbatch_per_gpu - lora.compute.executed_flop_per_microbatch_per_gpu \
        == pytest.approx(frozen)
    assert lora.compute.forward_s == pytest.approx(full.compute.forward_s)
    assert lora.step.step_s < full.step.step_s


def test_data_parallel_reduces_the_adapters_alone() -> None:
    full, lora = _run(_layout(), nodes=2), _run(_layout(adapter_rank=16), nodes=2)
    assert lora.step.network_s < full.step.network_s / 50


def test_a_quantized_base_needs_adapters() -> None:
    result = estimate(LLAMA, Cluster(NODE, 1), _layout(base_bits=4), A)
    assert result.estimate is None and result.problems[0].code == "base-bits-without-adapters"
    assert estimate(LLAMA, Cluster(NODE, 1), _layout(adapter_rank=8, base_bits=3), A).problems[0].code == "base-bits"
