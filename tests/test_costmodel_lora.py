"""LoRA in the cost model, against its formulas by hand: the adapters' parameter count, model
states with a frozen base of 16, 8 or 4 bits (only the adapters have gradients and Adam states),
executed FLOPs without the frozen weights' gradients, the adapters' GEMMs as memory-bound passes
over the adapted layers' inputs and outputs, and data-parallel traffic of the adapters alone; a
quantized base without adapters is refused."""

from __future__ import annotations

import dataclasses

import pytest

from generator.costmodel.chain import Term
from generator.costmodel.explain import explain
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
    assert lora.step.step_s < full.step.step_s


# The adapted layers' widths (Q, K, V, the projection, gate, up, down): inputs h, h, h, h, h, h, f and
# outputs h, h_kv, h_kv, h, f, f, h, here with h_kv = h; under tensor parallelism t the
# column-parallel layers' outputs and the row-parallel layers' inputs are split.
H, F = 4096, 11008


def _widths(t: int) -> tuple[float, float]:
    return 5 * H + (H + F) / t, 2 * H + (3 * H + 2 * F) / t


def _adapter_bytes(t: int, b: int = 1, s: int = 4096, layers: int = 32) -> tuple[float, float]:
    """The adapters' bytes of the forward pass and of its backward: one pass over the inputs and two
    over the outputs forward, three over the inputs and two over the outputs backward, 2 B a value."""
    w_in, w_out = _widths(t)
    return 2 * b * s * layers * (w_in + 2 * w_out), 2 * b * s * layers * (3 * w_in + 2 * w_out)


def test_the_adapted_widths_are_the_layers_inputs_and_outputs() -> None:
    w_in, w_out = _widths(1)
    assert w_in + w_out == 9 * H + 2 * H + 3 * F  # every adapted layer's input and output, whole


@pytest.mark.parametrize("recompute, forwards", [("none", 1), ("selective", 1), ("full", 2)])
def test_the_adapters_gemms_run_at_the_memory_bandwidth(recompute: str, forwards: int) -> None:
    """The adapters' GEMMs read whole activations to write r values a token: their time is their bytes
    at the datasheet bandwidth (1 TB/s here), the forward's twice under full recomputation. The
    forward pass's FLOPs are the same with or without adapters, so the forward time differs by the
    adapters' forward bytes alone; the micro-batch's memory-bound bytes by all of them."""
    layout = _layout(recompute=recompute)
    full, lora = _run(layout), _run(dataclasses.replace(layout, adapter_rank=16))
    forward, backward = _adapter_bytes(1)
    assert lora.compute.forward_s - full.compute.forward_s == pytest.approx(forward / 1.0e12, rel=1e-9)
    chains = [explain(LLAMA, Cluster(NODE, 1), dataclasses.replace(layout, adapter_rank=rank), A) for rank in (0, 16)]
    plain, adapted = (_term(c["compute.microbatch_s"], "microbatch_memory_bound_bytes") for c in chains)
    with_adapters = _term(chains[1]["compute.microbatch_s"], "microbatch_lora_memory_bound_bytes")
    assert with_adapters.value - plain.value == pytest.approx(forwards * forward + backward, rel=1e-12)
    assert adapted.value == plain.value  # the elementwise work itself does not change


def test_tensor_parallelism_splits_only_the_split_widths() -> None:
    one, two = _run(_layout(recompute="none", adapter_rank=16)), _run(_layout(recompute="none", adapter_rank=16,
                                                                                  tensor_parallel=2))
    plain = [_run(_layout(recompute="none", tensor_parallel=t)) for t in (1, 2)]
    gained = [lora.compute.forward_s - base.compute.forward_s for lora, base in zip((one, two), plain, strict=True)]
    assert gained == pytest.approx([_adapter_bytes(t)[0] / 1.0e12 for t in (1, 2)], rel=1e-9)
    assert gained[1] > gained[0] / 2  # the whole-width parts stay whole on every rank


def _term(root: Term, key: str) -> Term:
    """The figure `key` in the chain under `root`."""
    stack = [root]
    while stack:
        term = stack.pop()
        if term.key == key:
            return term
        stack.extend(child for _symbol, child in term.inputs)
    raise AssertionError(f"{key} is not in the chain of {root.key}")


def test_data_parallel_reduces_the_adapters_alone() -> None:
    full, lora = _run(_layout(), nodes=2), _run(_layout(adapter_rank=16), nodes=2)
    assert lora.step.network_s < full.step.network_s / 50


def test_a_quantized_base_needs_adapters() -> None:
    result = estimate(LLAMA, Cluster(NODE, 1), _layout(base_bits=4), A)
    assert result.estimate is None and result.problems[0].code == "base-bits-without-adapters"
    assert estimate(LLAMA, Cluster(NODE, 1), _layout(adapter_rank=8, base_bits=3), A).problems[0].code == "base-bits"
