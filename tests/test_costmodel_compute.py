"""The compute time's physics: matrix multiplications at a GEMM efficiency that grows with the
per-rank width h ÷ t, plus memory-bound elementwise work at the GPU's memory bandwidth."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate, explain
from generator.costmodel import compute as cp
from generator.costmodel.result import Estimate

A100_LIKE = GpuSpec("a100-like", 80e9, 2.0e12, 1e15)
H100_LIKE = replace(A100_LIKE, name="h100-like", memory_bandwidth_bytes_per_s=1.0e12)
ASSUMPTIONS = Assumptions(0.6, 100.0, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1)
LAYOUT = Layout(1, 1, 1, micro_batch_size=1, sequence_length=2048, global_batch_size=8)


def _estimate(workload: Workload, gpu: GpuSpec = A100_LIKE, layout: Layout = LAYOUT,
              assumptions: Assumptions = ASSUMPTIONS) -> Estimate:
    result = estimate(workload, Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1), layout, assumptions)
    assert result.estimate is not None, result.problems
    return result.estimate


def _share_of_peak(e: Estimate) -> float:
    """The share of the peak the GPU computes at: executed FLOPs ÷ (compute time × peak)."""
    return e.compute.executed_flop_per_microbatch_per_gpu / (e.compute.microbatch_s * e.compute.peak_flop_per_s)


def test_gemm_efficiency_saturates_at_its_maximum() -> None:
    """η = η_max·x ÷ (x + x_half): half of η_max at x = x_half, rising towards η_max."""
    assert cp.gemm_efficiency(0.6, 100.0, 100.0) == pytest.approx(0.3)
    assert cp.gemm_efficiency(0.6, 1e9, 100.0) == pytest.approx(0.6, rel=1e-6)
    assert cp.gemm_efficiency(0.6, 512.0, 0.0) == 0.6


def test_wider_gemm_computes_at_a_higher_share_of_peak() -> None:
    """Without memory-bound work the share of peak is η_gemm itself, higher for a wider GEMM."""
    matmul_only = replace(ASSUMPTIONS, memory_bound_bytes=0.0)
    narrow = _estimate(Workload("narrow", 1e9, 8, 1024, 8, 1000), assumptions=matmul_only)
    wide = _estimate(Workload("wide", 1e9, 8, 8192, 64, 1000), assumptions=matmul_only)
    assert _share_of_peak(narrow) == pytest.approx(0.6 * 1024 / 1124, rel=1e-12)
    assert _share_of_peak(wide) == pytest.approx(0.6 * 8192 / 8292, rel=1e-12)
    split = _estimate(Workload("wide", 1e9, 8, 8192, 64, 1000), layout=replace(LAYOUT, tensor_parallel=8),
                      assumptions=matmul_only)
    assert _share_of_peak(split) == pytest.approx(0.6 * 1024 / 1124, rel=1e-12)  # h ÷ t is the width


def test_less_memory_bandwidth_is_slower_at_the_same_peak() -> None:
    """An H100-like GPU (same peak, less HBM bandwidth, more FLOPs per byte) computes at a lower share of peak."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    a100, h100 = _estimate(workload), _estimate(workload, H100_LIKE)
    assert h100.compute.microbatch_s > a100.compute.microbatch_s and h100.step.step_s > a100.step.step_s
    assert _share_of_peak(h100) < _share_of_peak(a100) < 0.6 * 2048 / 2148


def test_memory_bound_time_is_bytes_over_bandwidth() -> None:
    """Only the memory-bound part depends on the bandwidth: c·b·s·h·(L ÷ p)·3 bytes at B_hbm."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    a100, h100 = _estimate(workload), _estimate(workload, H100_LIKE)
    bound = 16.0 * 1 * 2048 * 2048 * 8 * 3
    assert h100.compute.microbatch_s - a100.compute.microbatch_s == pytest.approx(bound / 1e12 - bound / 2e12, rel=1e-9)
    assert h100.compute.forward_s - a100.compute.forward_s == pytest.approx((bound / 1e12 - bound / 2e12) / 3, rel=1e-9)


def test_sequence_parallelism_splits_the_memory_bound_work() -> None:
    """Without sequence parallelism tensor parallelism leaves the elementwise work whole on each rank."""
    workload = Workload("w", 1e9, 8, 4096, 32, 1000)
    tp = replace(LAYOUT, tensor_parallel=4)
    whole, split = _estimate(workload, layout=tp), _estimate(workload, layout=replace(tp, sequence_parallel=True))
    bound = 16.0 * 1 * 2048 * 4096 * 8 * 3 / 2e12
    assert whole.compute.microbatch_s - split.compute.microbatch_s == pytest.approx(bound * (1 - 1 / 4), rel=1e-9)


def test_full_recomputation_adds_a_memory_bound_pass() -> None:
    """Full recomputation repeats the forward: 4 passes of the memory-bound work instead of 3."""
    assert [cp.PASSES[mode]() for mode in ("none", "selective", "full")] == [3.0, 3.0, 4.0]


def test_the_chain_shows_both_costs() -> None:
    """`explain` shows the GEMM efficiency, the memory-bound bytes and the bandwidth behind the compute time."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    chains = explain(workload, Cluster(Node("n", A100_LIKE, 8, 450e9, 8, 50e9), 1), LAYOUT, ASSUMPTIONS)
    root = chains["compute.microbatch_s"]
    assert root.formula is not None and root.formula.text == "T_gemm + T_mem"
    keys = {figure.key for _symbol, child in root.inputs for _s, figure in child.inputs}
    assert {"compute.executed_flop_per_microbatch_per_gpu", "gemm_efficiency", "microbatch_memory_bound_bytes",
            "gpu.memory_bandwidth_bytes_per_s"} <= keys
