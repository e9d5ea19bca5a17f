"""The cost model reproduces published figures from first principles: the ZeRO paper's memory
and communication accounting, the nccl-tests bus-bandwidth relations, Korthikanti et al.'s
activation memory and FLOPs, Narayanan et al.'s pipeline bubble. Each test cites its source."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate
from generator.costmodel import collectives as co
from generator.costmodel import compute as cp
from generator.costmodel import memory as me
from generator.costmodel import step as st

GB = 1e9
A100_BF16 = 312e12  # dense BF16 tensor rate of an A100, as Korthikanti et al. use for MFU


def _model_states(parameters: float, data_parallel: float, zero_stage: int) -> float:
    weights, gradients, optimizer = (
        me.partitioned_bytes(parameters, k, data_parallel) if partitioned else me.replicated_bytes(parameters, k)
        for partitioned, k in zip(me.partitions(zero_stage), (2.0, 2.0, 12.0), strict=True))
    return weights + gradients + optimizer


@pytest.mark.parametrize(("zero_stage", "published_gb", "exact_gb"), [
    (0, 120.0, 120.0), (1, 31.4, 31.40625), (2, 16.6, 16.640625), (3, 1.9, 1.875)])
def test_zero_figure_1(zero_stage: int, published_gb: float, exact_gb: float) -> None:
    """ZeRO (Rajbhandari et al. 2020) Figure 1: Ψ = 7.5B, N_d = 64, K = 12 gives 120, 31.4, 16.6, 1.9 GB."""
    value = _model_states(7.5e9, 64.0, zero_stage)
    assert value == exact_gb * GB
    assert round(value / GB, 1) == published_gb


def test_zero_section_5_reduction_limits() -> None:
    """ZeRO §5.1: P_os cuts model states up to 4x, P_os+g up to 8x, P_os+g+p by N_d."""
    baseline = _model_states(7.5e9, 64.0, 0)
    assert baseline / _model_states(7.5e9, 1e12, 1) == pytest.approx(4.0, rel=1e-9)
    assert baseline / _model_states(7.5e9, 1e12, 2) == pytest.approx(8.0, rel=1e-9)
    assert baseline / _model_states(7.5e9, 64.0, 3) == 64.0


def _node(gpus: int = 8) -> Node:
    return Node("n", GpuSpec("g", 80e9, 2.039e12, 312e12), gpus, 300e9, gpus, 25e9)


def _assumptions(**changes: float) -> Assumptions:
    values = dict(gemm_efficiency_max=0.5, gemm_half_intensity=0.0, memory_bound_bytes=0.0,
                  intra_node_collective_efficiency=1.0, network_collective_efficiency=1.0, intra_node_step_latency_s=0.0, network_step_latency_s=0.0, dp_overlap_fraction=0.0,
                  memory_reserve_fraction=0.0, tensor_sync_rank_overhead_s=0.0)
    values.update(changes)
    return Assumptions(**values)


def _dp_seconds(zero_stage: int, nodes: int, **assumed: float) -> float:
    workload = Workload("w", 1e9, 8, 1024, 8, 1000)
    layout = Layout(1, 1, zero_stage, micro_batch_size=1, sequence_length=128, global_batch_size=8 * nodes)
    result = estimate(workload, Cluster(_node(), nodes), layout, _assumptions(**assumed))
    assert result.estimate is not None
    return result.estimate.step.dp_intra_node_s + result.estimate.step.dp_network_s


@pytest.mark.parametrize("nodes", [1, 4])
def test_zero_3_pays_the_ring_latency_once_per_layer(nodes: int) -> None:
    """ZeRO-3 gathers and reduces each of the 8 layers on its own: its three phases per micro-batch
    pay NCCL's ring latency ((N − n)·α_intra + (n − 1)·α_net, N = 8n ranks) 8 times each; stage 1's
    two phases pay it once."""
    alphas = {"intra_node_step_latency_s": 3e-6, "network_step_latency_s": 11e-6}
    ring = (8 * nodes - nodes) * 3e-6 + (nodes - 1) * 11e-6
    assert _dp_seconds(3, nodes, **alphas) - _dp_seconds(3, nodes) == pytest.approx(3 * 8 * ring, rel=1e-9)
    assert _dp_seconds(1, nodes, **alphas) - _dp_seconds(1, nodes) == pytest.approx(2 * ring, rel=1e-9)


@pytest.mark.parametrize("nodes", [1, 4])
def test_zero_section_7_communication_volume(nodes: int) -> None:
    """ZeRO §7.2: P_os and P_os+g move 2Ψ per step like plain data parallelism, P_os+g+p 3Ψ (1.5x),
    with one micro-batch per step."""
    plain = _dp_seconds(0, nodes)
    assert _dp_seconds(1, nodes) == pytest.approx(plain, rel=1e-15)
    assert _dp_seconds(2, nodes) == pytest.approx(plain, rel=1e-15)
    assert _dp_seconds(3, nodes) == pytest.approx(1.5 * plain, rel=1e-15)


def _ring_phase_s(ranks: float, size: float, bandwidth: float, alpha: float) -> float:
    """One reduce-scatter or all-gather on one node's ring: n − 1 steps of latency α."""
    return co.collectives_phase_s(1.0, co.ring_intra_latency_s(ranks, 1.0, alpha), ranks, size, bandwidth)


@pytest.mark.parametrize("ranks", [2, 3, 8, 64, 1000])
@pytest.mark.parametrize(("operation", "seconds"), [
    ("all_reduce", co.ring_all_reduce_s), ("reduce_scatter", _ring_phase_s), ("all_gather", _ring_phase_s)])
def test_nccl_tests_bus_bandwidth(ranks: int, operation: co.Operation, seconds: Callable[..., float]) -> None:
    """nccl-tests doc/PERFORMANCE.md: busbw = algbw × 2(n−1)/n (all-reduce), × (n−1)/n (reduce-scatter,
    all-gather; S is the whole array); at zero latency the modelled busbw is the link bandwidth B."""
    size, bandwidth = 3.7e9, 123e9
    algbw = size / seconds(float(ranks), size, bandwidth, 0.0)
    assert algbw * co.bus_bandwidth_factor(operation, ranks) == pytest.approx(bandwidth, rel=1e-12)


@pytest.mark.parametrize("operation", ["send_recv", "broadcast", "reduce"])
def test_nccl_tests_point_to_point(operation: co.Operation) -> None:
    """nccl-tests doc/PERFORMANCE.md: for send/receive, broadcast and reduce busbw = algbw = S/t."""
    assert co.bus_bandwidth_factor(operation, 8) == 1.0
    assert 5e9 / co.send_recv_s(5e9, 50e9, 0.0) == 50e9


def test_nccl_tests_time_is_latency_plus_size_over_bandwidth() -> None:
    """nccl-tests doc/PERFORMANCE.md, Time: t ≈ overhead + size / bw; an all-reduce is a reduce-scatter
    plus an all-gather (2(n−1) ring steps)."""
    assert co.ring_all_reduce_s(8.0, 1e9, 1e11, 5e-6) == pytest.approx(2 * _ring_phase_s(8.0, 1e9, 1e11, 5e-6))
    assert _ring_phase_s(8.0, 0.0, 1e11, 5e-6) == pytest.approx(7 * 5e-6)


def test_nccl_ring_latency_counts_every_rank() -> None:
    """NCCL src/graph/tuning.cc: a ring all-gather or reduce-scatter over N ranks on n nodes has N − 1
    steps, n − 1 of them across the network: 64 ranks on 8 nodes make 56 steps inside nodes and 7 across."""
    assert co.ring_intra_latency_s(64.0, 8.0, 5e-6) == pytest.approx(56 * 5e-6)
    assert co.ring_network_latency_s(8.0, 10e-6) == pytest.approx(7 * 10e-6)
    assert co.ring_intra_latency_s(8.0, 8.0, 5e-6) == 0.0  # one GPU per node: every step crosses the network


def test_korthikanti_equation_1_components() -> None:
    """Korthikanti et al. 2022 §4.1: attention 11sbh + 5as²b, MLP 19sbh, two layer norms 4sbh, so
    Eq. 1 = sbh(34 + 5as/h); with t = 1 every Table 2 row without recomputation is Eq. 1."""
    s, b, h, a = 2048.0, 4.0, 6144.0, 64.0
    parts = (11 * s * b * h + 5 * a * s * s * b) + 19 * s * b * h + 4 * s * b * h
    assert me.activations_tensor_parallel(s, b, h, a, 1.0) == pytest.approx(parts, rel=1e-15)
    assert me.activations_sequence_parallel(s, b, h, a, 1.0) == pytest.approx(parts, rel=1e-15)


@pytest.mark.parametrize(("recompute", "sequence_parallel", "expression"), [
    ("none", False, "sbh(10 + 24/t + 5as/(ht))"),
    ("none", True, "sbh(34/t + 5as/(ht))"),
    ("selective", False, "sbh(10 + 24/t)"),
    ("selective", True, "sbh(34/t)"),
    ("full", False, "2sbh"),
])
def test_korthikanti_table_2(recompute: str, sequence_parallel: bool, expression: str) -> None:
    """Korthikanti et al. 2022 Table 2, GPT-3 175B shape (s = 2048, b = 1, h = 12288, a = 96, t = 8)."""
    s, b, h, a, t = 2048.0, 1.0, 12288.0, 96.0, 8.0
    expected = {
        "sbh(10 + 24/t + 5as/(ht))": s * b * h * (10 + 24 / t + 5 * a * s / (h * t)),
        "sbh(34/t + 5as/(ht))": s * b * h * (34 / t + 5 * a * s / (h * t)),
        "sbh(10 + 24/t)": s * b * h * (10 + 24 / t),
        "sbh(34/t)": s * b * h * 34 / t,
        "2sbh": 2 * s * b * h,
    }[expression]
    assert me.ACTIVATIONS_PER_LAYER[(recompute, sequence_parallel)](s, b, h, a, t) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(("model", "heads", "hidden", "attention_term", "saved_percent"), [
    ("GPT-3 175B", 96, 12288, 80, 70), ("MT-NLG 530B", 128, 20480, 64, 65)])
def test_korthikanti_selective_recomputation_saving(model: str, heads: int, hidden: int, attention_term: float,
                                                    saved_percent: int) -> None:
    """Korthikanti et al. 2022 §5: 5as/h = 80 (GPT-3) and 64 (MT-NLG) at s = 2048, so selective
    recomputation (with sequence parallelism) saves 70 % and 65 % of the activation memory."""
    s, b, t = 2048.0, 1.0, 8.0
    assert 5 * heads * s / hidden == attention_term
    full = me.activations_sequence_parallel(s, b, hidden, heads, t)
    kept = me.activations_selective_sequence_parallel(s, b, hidden, heads, t)
    assert round(100 * (1 - kept / full)) == saved_percent


@pytest.mark.parametrize("pipeline", [1, 2, 4, 8, 16])
def test_korthikanti_equation_5_pipeline(pipeline: int) -> None:
    """Korthikanti et al. 2022 §4.2.3, Eq. 5: under 1F1B the first stage holds L layers' worth of
    activations (L/p layers × p micro-batches) whatever p is, given at least p micro-batches."""
    assert me.activation_layers_held(96.0, float(pipeline), 64.0) == 96.0


# Korthikanti et al. 2022 Table 3 (shapes, s = 2048, V = 51200, t = 8) and Table 5 (iteration time with
# sequence parallelism and selective recomputation, and MFU); the 2240-GPU row is the abstract's.
TABLE_5 = [
    ("22B", 48, 6144, 8, 4, 1.10, 41.5),
    ("175B", 96, 12288, 64, 64, 13.75, 51.4),
    ("530B", 105, 20480, 280, 280, 37.83, 56.0),
    ("1T", 128, 25600, 512, 512, 71.49, 56.3),
    ("530B on 2240 GPUs", 105, 20480, 2240, 2240, 39.15, 54.2),
]


@pytest.mark.parametrize(("model", "layers", "hidden", "gpus", "batch", "seconds", "mfu"), TABLE_5)
def test_korthikanti_table_5_mfu(model: str, layers: int, hidden: int, gpus: int, batch: int, seconds: float,
                                 mfu: float) -> None:
    """Korthikanti et al. 2022 Table 5 and abstract: the published MFU follows from the model FLOPs
    72BsLh²(1 + s/6h + V/12Lh) and the published iteration time on A100s (312 TFLOP/s), within the
    rounding of both published figures (0.1 % and 0.01 s)."""
    flop = cp.model_flop(float(batch), 2048.0, float(layers), float(hidden), 51200.0)
    low = 100 * st.achieved_mfu(flop, seconds + 0.005, float(gpus), A100_BF16)
    high = 100 * st.achieved_mfu(flop, seconds - 0.005, float(gpus), A100_BF16)
    assert low <= mfu + 0.05 and mfu - 0.05 <= high


def test_selective_recomputation_repeats_the_attention_core_forward() -> None:
    """Korthikanti et al. 2022 §5: selective recomputation repeats QKᵀ and attention over V
    (2·B·s²·h FLOPs each per layer). Not the paper's HFU accounting, which counts three times that
    (Table 5 HFU/MFU = (1 + s/3h + V/12Lh) ÷ (1 + s/6h + V/12Lh), e.g. 43.7/41.5 for 22B): the model keeps
    selective below full recomputation for every shape, and the paper's 2.7 % becomes 0.9 % for GPT-3."""
    b, s, layers, h, v = 1.0, 2048.0, 96.0, 12288.0, 51200.0
    model = cp.model_flop(b, s, layers, h, v)
    selective = cp.selective_recompute_flop(b, s, layers, h, v)
    assert selective - model == pytest.approx(layers * 2 * (2 * b * s * s * h), rel=1e-9)
    assert round(100 * (selective / model - 1), 1) == 0.9
    paper_hfu_ratio = (1 + s / (3 * h) + v / (12 * layers * h)) / (1 + s / (6 * h) + v / (12 * layers * h))
    assert round(100 * (paper_hfu_ratio - 1), 1) == 2.7
    for long_sequence in (4 * h, 16 * h):
        assert (cp.selective_recompute_flop(b, long_sequence, layers, h, v)
                < cp.full_recompute_flop(b, long_sequence, layers, h, v))


def test_flops_decomposition_kaplan_and_narayanan() -> None:
    """Narayanan et al. 2021 §5.1: F = 6·(12Lh²)·Bs (6 FLOPs per parameter per token, Kaplan et al.
    2020 §2.1) + 12·B·s²·L·h (attention) + 6·B·s·h·V (logits); full recomputation (Eq. 3) adds one
    forward pass of the layers, 24BsLh²(1 + s/6h)."""
    b, s, layers, h, v = 8.0, 2048.0, 96.0, 12288.0, 51200.0
    model = cp.model_flop(b, s, layers, h, v)
    assert model == pytest.approx(6 * (12 * layers * h * h) * b * s + 12 * b * s * s * layers * h + 6 * b * s * h * v,
                                  rel=1e-14)
    full = cp.full_recompute_flop(b, s, layers, h, v)
    assert full - model == pytest.approx(24 * b * s * layers * h * h * (1 + s / (6 * h)), rel=1e-12)
    assert cp.forward_flop(model) * 3 == pytest.approx(model, rel=1e-15)


@pytest.mark.parametrize(("pipeline", "microbatches"), [(2, 1), (4, 8), (8, 64), (35, 280)])
def test_pipeline_bubble_fraction(pipeline: int, microbatches: int) -> None:
    """Narayanan et al. 2021 §2.2.1 (and GPipe): the 1F1B bubble is (p−1)/m of the ideal time, a fraction
    (p−1)/(m+p−1) of the pipeline time."""
    slot = 0.37
    bubble = st.bubble_s(float(pipeline), slot)
    pipeline_s = st.slots_s(float(microbatches), float(pipeline), slot)
    assert bubble / (microbatches * slot) == pytest.approx((pipeline - 1) / microbatches, rel=1e-14)
    assert bubble / pipeline_s == pytest.approx((pipeline - 1) / (microbatches + pipeline - 1), rel=1e-14)


def _hybrid(shard_group: int, nodes: int = 4, **assumed: float):  # type: ignore[no-untyped-def]
    workload = Workload("w", 7.5e9, 8, 1024, 8, 1000)
    layout = Layout(1, 1, 3, micro_batch_size=1, sequence_length=128, global_batch_size=8 * nodes,
                    shard_group=shard_group)
    result = estimate(workload, Cluster(_node(), nodes), layout, _assumptions(**assumed))
    assert result.estimate is not None, result.problems
    return result.estimate


def test_hybrid_sharding_partitions_over_the_group() -> None:
    """ZeRO-3 in groups of 8 of the 32 ranks: each GPU holds 1/8 of the 7.5B model's 16 bytes a
    parameter (15 GB) instead of 1/32; a group as large as the data-parallel group is plain ZeRO-3."""
    whole, grouped = _hybrid(0).memory, _hybrid(8).memory
    assert grouped.weights_bytes + grouped.gradients_bytes + grouped.optimizer_bytes == pytest.approx(15 * GB)
    assert whole.weights_bytes + whole.gradients_bytes + whole.optimizer_bytes == pytest.approx(15 * GB / 4)
    assert _hybrid(32).step == _hybrid(0).step and _hybrid(32).memory == _hybrid(0).memory


def test_hybrid_sharding_keeps_zero_3_in_the_node_and_all_reduces_shards_across() -> None:
    """Groups of one node's 8 GPUs: ZeRO-3's three phases per micro-batch stay on the scale-up link;
    the network carries only the all-reduce of each GPU's gradient shard (S_g ÷ 8) across the 4
    replicas, 2 ring phases of 3 network steps, once a step."""
    alpha = {"network_step_latency_s": 7e-6}
    grouped = _hybrid(8, **alpha).step
    shard = 7.5e9 * 2.0 / 8
    assert grouped.dp_network_s == pytest.approx(2 * (3 * 7e-6 + 3 / 4 * shard / 25e9), rel=1e-12)
    plain = _hybrid(0, **alpha).step
    assert grouped.dp_network_s < plain.dp_network_s


def test_hybrid_sharding_scales_against_a_fully_sharded_node() -> None:
    """A shard group of a whole node (8 ranks) leaves the one-node reference no replica: it is the
    same fully sharded node as ZeRO-3's own reference."""
    grouped, plain = _hybrid(8), _hybrid(0)
    assert grouped.scaling_efficiency is not None and plain.scaling_efficiency is not None
    assert grouped.scaling_efficiency * grouped.step.step_s == pytest.approx(
        plain.scaling_efficiency * plain.step.step_s, rel=1e-12)
