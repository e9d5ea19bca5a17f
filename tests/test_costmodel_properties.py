"""Property tests of the cost model on generated configurations: what must hold for every one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.costmodel import (
    Assumptions,
    Cluster,
    Estimate,
    GpuSpec,
    Layout,
    Node,
    Workload,
    check,
    estimate,
    explain,
)
from generator.costmodel.grid import configurations, estimate_all

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
Config = tuple[Workload, Cluster, Layout, Assumptions]


def _zero_or(high: float) -> st.SearchStrategy[float]:
    """0, or a value the model's domain takes (a normal float; a denormal is refused, and halving
    the smallest normal one in a test below would make one), up to `high`."""
    return st.one_of(st.just(0.0), st.floats(1e-300, high))


@st.composite
def configs(draw: st.DrawFn) -> Config:
    """A configuration the model can estimate (placement problems are filtered out)."""
    g = draw(st.sampled_from([1, 2, 4, 8]))
    t = draw(st.sampled_from([d for d in (1, 2, 4, 8) if g % d == 0]))
    p = draw(st.sampled_from([1, 2, 3, 4]))
    nodes = draw(st.integers(1, 8))
    groups = draw(st.integers(1, 8))
    heads = t * groups
    hidden = heads * draw(st.sampled_from([32, 64, 128]))
    layers = p * draw(st.integers(1, 12))
    psi = 12.0 * layers * hidden * hidden * draw(st.floats(1.0, 1.5))
    kv = draw(st.one_of(st.none(), st.sampled_from([t * d for d in range(1, groups + 1) if groups % d == 0])))
    ffn = draw(st.one_of(st.none(), st.integers(2, 6).map(lambda k: k * hidden)))
    workload = Workload("w", psi, layers, hidden, heads, draw(st.integers(1000, 130000)), ffn_hidden_size=ffn,
                        kv_heads=kv, gated_mlp=draw(st.booleans()), tied_embeddings=draw(st.booleans()))
    bf16 = draw(st.floats(1e13, 3e15))
    # FP8 tensor cores are never slower than BF16 ones (twice as fast on every datasheet)
    gpu = GpuSpec("g", draw(st.floats(8e9, 200e9)), draw(st.floats(3e11, 1e13)), bf16, bf16 * draw(st.floats(1.0, 2.5)),
                  draw(st.one_of(st.none(), st.floats(0.05, 1.0))))
    node = Node("n", gpu, g, draw(st.floats(8e9, 1e12)), draw(st.integers(1, 8)), draw(st.floats(1e9, 1e11)))
    cluster = Cluster(node, nodes, draw(st.floats(0.25, 1.0)))
    assume(nodes * g % (t * p) == 0)
    d = nodes * g // (t * p)
    layout = Layout(t, p, draw(st.integers(0, 3)), micro_batch_size=(b := draw(st.integers(1, 4))),
                    sequence_length=draw(st.sampled_from([128, 512, 2048, 8192])),
                    global_batch_size=d * b * draw(st.integers(1, 16)),
                    recompute=draw(st.sampled_from(["none", "selective", "full"])),
                    sequence_parallel=draw(st.booleans()), precision=draw(st.sampled_from(["bf16", "fp8"])))
    assumptions = Assumptions(
        gemm_efficiency_max=draw(st.floats(0.05, 1.0)), gemm_half_intensity=draw(_zero_or(5.0)),
        memory_bound_bytes=draw(_zero_or(50.0)), intra_node_collective_efficiency=draw(st.floats(0.3, 1.0)),
        network_collective_efficiency=draw(st.floats(0.3, 1.0)),
        intra_node_step_latency_s=draw(_zero_or(2e-5)), network_step_latency_s=draw(_zero_or(5e-5)),
        dp_overlap_fraction=draw(st.floats(0.0, 1.0)), memory_reserve_fraction=draw(st.floats(0.0, 0.5)),
        tensor_sync_rank_overhead_s=draw(_zero_or(2e-5)))
    config = (workload, cluster, layout, assumptions)
    assume(not check(*config))
    return config


def _non_increasing(values: list[float]) -> bool:
    """Each value at most the one before, give or take rounding (ties can differ in the last bit)."""
    return all(later <= earlier * (1 + 1e-12) for earlier, later in zip(values, values[1:], strict=False))


def _run(config: Config) -> Estimate:
    result = estimate(*config)
    assert result.problems == ()
    assert result.estimate is not None
    return result.estimate


@SETTINGS
@given(configs())
def test_more_zero_never_needs_more_memory(config: Config) -> None:
    """Each ZeRO stage partitions one more kind of model state, so memory per GPU never grows."""
    workload, cluster, layout, assumptions = config
    totals = [_run((workload, cluster, replace(layout, zero_stage=z), assumptions)).memory.total_bytes
              for z in range(4)]
    assert _non_increasing(totals)


@SETTINGS
@given(configs())
def test_recomputation_trades_memory_for_time(config: Config) -> None:
    """none → selective → full never needs more activation memory (selective with sequence
    parallelism keeps sbh(10 + 24r)/t ≥ 2sbh, as r ≥ 1/2 and t ≤ 8) and never takes less time."""
    workload, cluster, layout, assumptions = config
    runs = [_run((workload, cluster, replace(layout, recompute=mode), assumptions))
            for mode in ("none", "selective", "full")]
    memory = [run.memory.activations_bytes for run in runs]
    seconds = [run.step.step_s for run in runs]
    assert _non_increasing(memory)
    assert _non_increasing(seconds[::-1])


@SETTINGS
@given(configs())
def test_fewer_key_value_heads_never_cost_more(config: Config) -> None:
    """Grouping the query heads onto fewer key/value heads (down to one per tensor-parallel GPU)
    narrows K and V, so activation memory and compute time never grow."""
    workload, cluster, layout, assumptions = config
    fewest = replace(workload, kv_heads=layout.tensor_parallel)
    runs = [_run((w, cluster, layout, assumptions)) for w in (workload, fewest)]
    assert _non_increasing([run.memory.activations_bytes for run in runs])
    assert _non_increasing([run.step.compute_s for run in runs])


@SETTINGS
@given(configs())
def test_faster_links_never_slow_a_step(config: Config) -> None:
    """Doubling the network's port rate, or the scale-up link's, never increases the step time."""
    workload, cluster, layout, assumptions = config
    base = _run(config).step.step_s
    node = cluster.node
    faster_network = replace(cluster, node=replace(node, nic_port_per_direction_bytes_per_s=2 * node.nic_port_per_direction_bytes_per_s))
    faster_scale_up = replace(cluster, node=replace(node, scale_up_per_direction_bytes_per_s=2 * node.scale_up_per_direction_bytes_per_s))
    assert _non_increasing([base, _run((workload, faster_network, layout, assumptions)).step.step_s])
    assert _non_increasing([base, _run((workload, faster_scale_up, layout, assumptions)).step.step_s])


@SETTINGS
@given(configs())
def test_faster_memory_or_a_higher_gemm_efficiency_never_slows_a_step(config: Config) -> None:
    """More memory bandwidth, a higher GEMM efficiency or a smaller half intensity never lengthens a step."""
    workload, cluster, layout, assumptions = config
    base = _run(config).step.step_s
    gpu = cluster.node.gpu
    faster = replace(cluster, node=replace(cluster.node, gpu=replace(
        gpu, memory_bandwidth_bytes_per_s=2 * gpu.memory_bandwidth_bytes_per_s)))
    assert _non_increasing([base, _run((workload, faster, layout, assumptions)).step.step_s])
    higher = replace(assumptions, gemm_efficiency_max=min(1.0, 1.5 * assumptions.gemm_efficiency_max))
    assert _non_increasing([base, _run((workload, cluster, layout, higher)).step.step_s])
    narrower = replace(assumptions, gemm_half_intensity=assumptions.gemm_half_intensity / 2)
    assert _non_increasing([base, _run((workload, cluster, layout, narrower)).step.step_s])


@SETTINGS
@given(configs())
def test_more_overlap_never_slows_a_step(config: Config) -> None:
    """Raising the overlap assumption never increases the step time; with none, all DP time is exposed."""
    workload, cluster, layout, assumptions = config
    steps = [_run((workload, cluster, layout, replace(assumptions, dp_overlap_fraction=o)))
             for o in (0.0, 0.5, 1.0)]
    assert _non_increasing([s.step.step_s for s in steps])
    assert steps[0].step.dp_exposed_s == steps[0].step.dp_intra_node_s + steps[0].step.dp_network_s


@SETTINGS
@given(configs())
def test_step_decomposes(config: Config) -> None:
    """step = compute (bubble included) + exposed communication = compute + intra-node + network;
    communication share lies in [0, 1); tokens/s × step = tokens per step."""
    workload, cluster, layout, assumptions = config
    step = _run(config).step
    assert step.step_s == pytest.approx(step.compute_s + step.exposed_comm_s, rel=1e-12)
    assert step.step_s == pytest.approx(step.compute_s + step.intra_node_s + step.network_s, rel=1e-12)
    assert 0.0 <= step.comm_share < 1.0
    ceiling = max(assumptions.gemm_efficiency_max, cluster.node.gpu.flash_attention_efficiency or 0.0)
    assert 0.0 < step.achieved_mfu <= ceiling * (1 + 1e-12)
    assert step.tokens_per_s * step.step_s == pytest.approx(layout.global_batch_size * layout.sequence_length)


@SETTINGS
@given(configs())
def test_scaling_efficiency_at_most_one_on_a_slower_network(config: Config) -> None:
    """Against one node with the same per-GPU work, efficiency ≤ 1 whenever the network's effective
    per-GPU bandwidth is at most the scale-up link's and its step latency at least the scale-up link's;
    exactly 1 for a one-node cluster; None only when t·p does not fit a node evenly."""
    workload, cluster, layout, assumptions = config
    node = cluster.node
    net = (node.nics_per_node * node.nic_port_per_direction_bytes_per_s / node.gpus_per_node
           * assumptions.network_collective_efficiency * cluster.fabric_bandwidth_fraction)
    intra = node.scale_up_per_direction_bytes_per_s * assumptions.intra_node_collective_efficiency
    assume(net <= intra and assumptions.network_step_latency_s >= assumptions.intra_node_step_latency_s)
    result = _run(config)
    replica = layout.tensor_parallel * layout.pipeline_parallel
    if cluster.node_count == 1:
        assert result.scaling_efficiency == 1.0
    elif replica > node.gpus_per_node or node.gpus_per_node % replica:
        assert result.scaling_efficiency is None and "no one-node reference" in result.scaling_note
    else:
        assert result.scaling_efficiency is not None
        assert 0.0 < result.scaling_efficiency <= 1.0 + 1e-12


@SETTINGS
@given(configs())
def test_bottleneck(config: Config) -> None:
    """Memory when it does not fit, else the largest of compute, intra-node and network time."""
    result = _run(config)
    step = result.step
    assert result.memory.fits == (result.memory.headroom_bytes >= 0.0)
    if not result.memory.fits:
        assert result.bottleneck == "memory"
        return
    times = {"compute": step.compute_s, "intra_node": step.intra_node_s, "network": step.network_s}
    assert times[result.bottleneck] == max(times.values())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(configs())
def test_explain_agrees_with_estimate(config: Config) -> None:
    """Each chain is keyed by the `Estimate` field it equals, exactly (one wiring computes both, so
    this checks the names), and every explained output is derived by a formula."""
    result = _run(config)
    chains = explain(*config)
    for key, figure in chains.items():
        if key == "scaling_efficiency":
            assert figure.value == result.scaling_efficiency
            continue
        part, _, field = key.partition(".")
        assert figure.value == getattr(getattr(result, part), field), key
        assert figure.formula is not None
    assert ("scaling_efficiency" in chains) == (config[1].node_count > 1 and result.scaling_efficiency is not None)


def test_hierarchical_all_reduce_equals_a_flat_ring_at_equal_bandwidth() -> None:
    """With equal bandwidths and no latency, the hierarchical reduction moves what one ring over all
    k·n ranks moves: (k−1)/k + (n−1)/(n·k) = (nk−1)/(nk)."""
    node = Node("n", GpuSpec("g", 80e9, 3.35e12, 1e15), 8, 100e9, 8, 100e9)
    workload = Workload("w", 1e9, 8, 1024, 8, 1000)
    layout = Layout(1, 1, 0, micro_batch_size=1, sequence_length=128, global_batch_size=32)
    flat = Assumptions(1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    step = _run((workload, Cluster(node, 4), layout, flat)).step
    ring = 2 * (32 - 1) / 32 * (1e9 * 2) / 100e9
    assert step.dp_intra_node_s + step.dp_network_s == pytest.approx(ring, rel=1e-14)


@settings(max_examples=300, deadline=None)
@given(st.integers(-2, 9), st.integers(-2, 9), st.integers(-1, 5), st.integers(-1, 40), st.integers(-1, 9),
       st.floats(allow_nan=True), st.sampled_from(["none", "selective", "full", "some"]))
def test_never_raises(t: int, p: int, zero: int, batch: int, nodes: int, efficiency: float, mode: str) -> None:
    """Any input gives problems or an estimate, never an exception."""
    node = Node("n", GpuSpec("g", 80e9, 3.35e12, 1e15), 8, 100e9, 2, 50e9)
    workload = Workload("w", 1e9, 24, 2048, 16, 50000)
    layout = Layout(t, p, zero, micro_batch_size=1, sequence_length=2048, global_batch_size=batch,
                    recompute=mode)  # type: ignore[arg-type]
    result = estimate(workload, Cluster(node, nodes), layout, Assumptions(efficiency, 2.0, 16.0, 0.8, 0.8, 1e-6, 1e-6, 0.5, 0.1, 4e-6))
    assert (result.estimate is None) == bool(result.problems)


def test_grid_estimates_without_error() -> None:
    """The benchmark grid (10,000 configurations; not timed here) runs, with both outcomes."""
    results = estimate_all(configurations())
    assert len(results) == 10_000
    assert any(r.problems for r in results) and any(r.estimate for r in results)
