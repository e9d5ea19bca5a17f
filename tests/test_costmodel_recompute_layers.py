"""Recomputing only some layers of each pipeline chunk (Megatron-LM's --recompute-method block with
--recompute-num-layers N, `Layout.recompute_layers`): the model prices each layer as recomputed
in full or as storing everything, weighed by the share φ = min(1, N·p·v ÷ L_paced) of the busiest
stage's layers recomputed. These tests hold the two ends to full recomputation and to none, the
middle to the weighted figure, and memory and time to move the right way with N."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.costmodel import Cluster, GpuSpec, Layout, Moe, Node, Workload, check, estimate
from generator.costmodel.grid import illustrative_assumptions

NODE = Node("n", GpuSpec("g", 80e9, 3.35e12, 989e12, 1979e12), 8, 450e9, 8, 50e9)
CLUSTER = Cluster(NODE, 4)
A = illustrative_assumptions()
DENSE = Workload("dense-8b", 8.03e9, 32, 4096, 32, 128256, ffn_hidden_size=14336, kv_heads=8, gated_mlp=True,
                 tied_embeddings=False, linear_biases=False, norm="rmsnorm")
MOE = Workload("moe-47b", 46.7e9, 32, 4096, 32, 32000, ffn_hidden_size=14336, kv_heads=8, gated_mlp=True,
               tied_embeddings=False, linear_biases=False, norm="rmsnorm", moe=Moe(8, 2, 14336))
LAYOUT = Layout(2, 4, 1, 1, 8192, 256, "full", True, virtual_pipeline=2)  # 32 layers: 4 a chunk


def _run(workload: Workload = DENSE, **layout: object):
    result = estimate(workload, CLUSTER, replace(LAYOUT, **layout), A)  # type: ignore[arg-type]
    assert result.estimate is not None, result.problems
    return result.estimate


@pytest.mark.parametrize("workload", [DENSE, MOE], ids=["dense", "moe"])
def test_every_layer_of_a_chunk_is_full_recomputation(workload: Workload) -> None:
    """N at or past a chunk's 4 layers recomputes every layer: the figures of full recomputation."""
    full = _run(workload, expert_parallel=4 if workload.moe else 1)
    for n in (4, 5, 100):
        block = _run(workload, recompute_layers=n, expert_parallel=4 if workload.moe else 1)
        assert block.step.step_s == pytest.approx(full.step.step_s, rel=1e-12)
        assert block.memory.total_bytes == pytest.approx(full.memory.total_bytes, rel=1e-12)


def test_half_the_layers_of_each_chunk_sit_halfway() -> None:
    """N = 2 of a chunk's 4: every per-layer figure is the mean of none's and full's: the stored
    activations, the executed FLOPs and the tensor-parallel collectives."""
    none, full, half = _run(recompute="none"), _run(), _run(recompute_layers=2)
    assert half.memory.activation_per_layer_bytes == pytest.approx(
        (none.memory.activation_per_layer_bytes + full.memory.activation_per_layer_bytes) / 2, rel=1e-12)
    assert half.compute.executed_flop_per_microbatch_per_gpu == pytest.approx(
        (none.compute.executed_flop_per_microbatch_per_gpu + full.compute.executed_flop_per_microbatch_per_gpu) / 2,
        rel=1e-12)
    assert half.step.tp_microbatch_s == pytest.approx((none.step.tp_microbatch_s + full.step.tp_microbatch_s) / 2,
                                                      rel=1e-12)


def test_more_layers_recomputed_store_less_and_take_longer() -> None:
    shown = [_run(recompute_layers=n) for n in (1, 2, 3, 4)]
    memory = [e.memory.total_bytes for e in shown]
    steps = [e.step.step_s for e in shown]
    assert memory == sorted(memory, reverse=True) and len(set(memory)) == 4
    assert steps == sorted(steps) and len(set(steps)) == 4
    none = _run(recompute="none")
    assert none.memory.total_bytes > memory[0] and none.step.step_s < steps[0]


def test_the_all_to_alls_of_recomputed_layers_repeat() -> None:
    """An expert layer recomputed in full repeats its dispatch and combine: 4 all-to-alls a layer
    stored, 6 recomputed, 5 on average with half of them recomputed."""
    none = _run(MOE, recompute="none", expert_parallel=4)
    full = _run(MOE, expert_parallel=4)
    half = _run(MOE, recompute_layers=2, expert_parallel=4)
    assert none.step.ep_microbatch_s is not None and full.step.ep_microbatch_s is not None
    assert half.step.ep_microbatch_s == pytest.approx(none.step.ep_microbatch_s * 5 / 4, rel=1e-12)
    assert full.step.ep_microbatch_s == pytest.approx(none.step.ep_microbatch_s * 6 / 4, rel=1e-12)


@pytest.mark.parametrize(("layout", "code"), [
    (dict(recompute_layers=-1), "negative"),
    (dict(recompute="selective", recompute_layers=2), "recompute-layers-without-full"),
    (dict(recompute="none", recompute_layers=1), "recompute-layers-without-full"),
    (dict(recompute_layers=2**53), "count-too-large"),
])
def test_refused_counts(layout: dict[str, object], code: str) -> None:
    problems = check(DENSE, CLUSTER, replace(LAYOUT, **layout), A)  # type: ignore[arg-type]
    assert code in {p.code for p in problems}
