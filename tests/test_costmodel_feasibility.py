"""An impossible layout or an out-of-domain value gives a list of problems with stable codes, not
an exception; whether the memory fits is an output, not a problem."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate

WORKLOAD = Workload("w", 13e9, 40, 5120, 40, 50257)
NODE = Node("n", GpuSpec("g", 80e9, 3.35e12, 1e15, None), 8, 450e9, 8, 50e9)
CLUSTER = Cluster(NODE, 4)
LAYOUT = Layout(8, 2, 1, micro_batch_size=1, sequence_length=2048, global_batch_size=64)
ASSUMPTIONS = Assumptions(0.45, 2.0, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1, 4e-6)


def _codes(workload: Workload = WORKLOAD, cluster: Cluster = CLUSTER, layout: Layout = LAYOUT,
           assumptions: Assumptions = ASSUMPTIONS) -> list[str]:
    result = estimate(workload, cluster, layout, assumptions)
    assert (result.estimate is None) == bool(result.problems)
    return [problem.code for problem in result.problems]


def test_the_base_configuration_is_feasible() -> None:
    """The configuration the other tests break is itself fine."""
    assert _codes() == []


@pytest.mark.parametrize(("layout", "code"), [
    (replace(LAYOUT, tensor_parallel=16), "tensor-parallel-exceeds-node"),
    (replace(LAYOUT, tensor_parallel=3, pipeline_parallel=1), "tensor-parallel-splits-node"),
    (replace(LAYOUT, pipeline_parallel=2, virtual_pipeline=32), "pipeline-exceeds-layers"),
    (replace(LAYOUT, tensor_parallel=4, pipeline_parallel=1, virtual_pipeline=2), "interleave-without-pipeline"),
    (replace(LAYOUT, global_batch_size=12, micro_batch_size=2, virtual_pipeline=2), "interleave-microbatches"),
    (replace(LAYOUT, virtual_pipeline=0), "count-below-one"),
    (replace(LAYOUT, tp_overlap=1.5), "fraction-out-of-range"),
    (replace(LAYOUT, global_batch_size=63), "batch-indivisible"),
    (replace(LAYOUT, precision="fp8"), "fp8-unavailable"),
    (replace(LAYOUT, zero_stage=4), "zero-stage"),
    (replace(LAYOUT, micro_batch_size=0), "count-below-one"),
])
def test_impossible_layouts(layout: Layout, code: str) -> None:
    """Each impossible layout is named by its code."""
    assert code in _codes(layout=layout)


@pytest.mark.parametrize(("nodes", "layout", "code"), [
    (4, replace(LAYOUT, shard_group=3), "shard-group"),
    (4, replace(LAYOUT, shard_group=-2), "shard-group"),
    (6, replace(LAYOUT, tensor_parallel=1, pipeline_parallel=1, global_batch_size=48, shard_group=12),
     "shard-group-placement"),
    (4, replace(LAYOUT, zero_stage=0, shard_group=2), "shard-group-without-zero"),
])
def test_impossible_shard_groups(nodes: int, layout: Layout, code: str) -> None:
    """A shard group divides the ranks that reduce the gradients, sits whole in a node or spans
    whole nodes (12 ranks on nodes of 8 do neither), and needs a ZeRO stage to shard."""
    assert _codes(cluster=replace(CLUSTER, node_count=nodes), layout=layout) == [code]
    assert _codes(cluster=replace(CLUSTER, node_count=nodes), layout=replace(layout, shard_group=0)) == []


def test_tensor_parallel_must_divide_heads() -> None:
    """Megatron splits attention heads over the tensor-parallel GPUs."""
    assert _codes(workload=replace(WORKLOAD, attention_heads=20, hidden_size=5120), layout=replace(LAYOUT, tensor_parallel=8)) == ["tensor-parallel-heads"]


GQA = Workload("gqa", 69e9, 80, 8192, 64, 32000, ffn_hidden_size=28672, kv_heads=8, gated_mlp=True,
               tied_embeddings=False, linear_biases=False, norm="rmsnorm")


def test_a_gqa_swiglu_workload_is_feasible() -> None:
    """Eight key/value heads and a 28,672-wide SwiGLU MLP split over eight GPUs."""
    assert _codes(workload=GQA) == []


@pytest.mark.parametrize(("workload", "layout", "code"), [
    (replace(GQA, kv_heads=6), replace(LAYOUT, tensor_parallel=2, pipeline_parallel=1, global_batch_size=16),
     "kv-heads-heads"),
    (replace(GQA, kv_heads=4), LAYOUT, "tensor-parallel-kv-heads"),
    (replace(GQA, ffn_hidden_size=28676), LAYOUT, "tensor-parallel-ffn"),
])
def test_tensor_parallelism_must_split_the_block(workload: Workload, layout: Layout, code: str) -> None:
    """Megatron-LM splits key/value heads and MLP width over the tensor-parallel GPUs; key/value heads
    must group the query heads evenly."""
    assert _codes(workload=workload, layout=layout) == [code]


@pytest.mark.parametrize(("change", "field", "code"), [
    ({"kv_heads": 0}, "workload.kv_heads", "count-below-one"),
    ({"ffn_hidden_size": 0}, "workload.ffn_hidden_size", "count-below-one"),
    ({"position_embeddings": -1}, "workload.position_embeddings", "negative"),
    ({"norm": "batchnorm"}, "workload.norm", "norm"),
])
def test_workload_fields_out_of_their_domain(change: dict[str, object], field: str, code: str) -> None:
    """A stated block field outside its domain is a problem naming the field."""
    result = estimate(replace(GQA, **change), CLUSTER, LAYOUT, ASSUMPTIONS)  # type: ignore[arg-type]
    assert [(p.code, p.field) for p in result.problems] == [(code, field)]


def test_gpus_must_be_a_multiple_of_the_replica() -> None:
    """t × p must divide the GPU count: 3 nodes of 8 cannot hold replicas of 16 GPUs."""
    assert _codes(cluster=replace(CLUSTER, node_count=3)) == ["gpus-indivisible"]


def test_a_stage_must_map_evenly_onto_nodes() -> None:
    """t × N_d = 12 GPUs per stage neither divides nor fills whole 8-GPU nodes."""
    layout = replace(LAYOUT, tensor_parallel=4, pipeline_parallel=2, global_batch_size=48)
    assert _codes(cluster=replace(CLUSTER, node_count=3), layout=layout) == ["data-parallel-placement"]


def test_a_multi_node_cluster_needs_a_network() -> None:
    """Without NICs a cluster of several nodes cannot communicate; one node needs none."""
    no_nics = replace(NODE, nics_per_node=0, nic_port_per_direction_bytes_per_s=0.0)
    assert _codes(cluster=Cluster(no_nics, 4)) == ["count-below-one", "not-positive"]
    assert _codes(cluster=Cluster(no_nics, 1), layout=replace(LAYOUT, pipeline_parallel=1, global_batch_size=16)) == []


@pytest.mark.parametrize("value", [0.0, 1.5, float("nan")])
def test_flash_attention_efficiency_is_a_share_of_the_peak(value: float) -> None:
    """A GPU's FlashAttention efficiency lies in (0, 1]: 0 would divide by zero, above 1 beats the peak."""
    gpu = replace(NODE.gpu, flash_attention_efficiency=value)
    assert _codes(cluster=replace(CLUSTER, node=replace(NODE, gpu=gpu))) == ["fraction-out-of-range"]
    assert _codes(cluster=replace(CLUSTER, node=replace(NODE, gpu=replace(gpu, flash_attention_efficiency=1.0)))) == []


@pytest.mark.parametrize(("field", "value", "code"), [
    ("gemm_efficiency_max", 0.0, "fraction-out-of-range"),
    ("gemm_efficiency_max", 1.5, "fraction-out-of-range"),
    ("gemm_half_intensity", -1.0, "negative"),
    ("memory_bound_bytes", -1.0, "negative"),
    ("memory_bound_bytes", float("nan"), "negative"),
    ("memory_reserve_fraction", 1.0, "fraction-out-of-range"),
    ("dp_overlap_fraction", -0.1, "fraction-out-of-range"),
    ("network_step_latency_s", -1e-6, "negative"),
    ("gemm_efficiency_max", float("nan"), "fraction-out-of-range"),
])
def test_assumptions_out_of_their_domain(field: str, value: float, code: str) -> None:
    """Assumption values outside their domain are problems naming the field."""
    result = estimate(WORKLOAD, CLUSTER, LAYOUT, replace(ASSUMPTIONS, **{field: value}))
    assert [(p.code, p.field) for p in result.problems] == [(code, f"assumptions.{field}")]


def test_problems_are_all_reported_with_readable_messages() -> None:
    """Every placement problem is listed at once, each message naming the numbers involved."""
    layout = replace(LAYOUT, tensor_parallel=16, pipeline_parallel=48)
    problems = estimate(WORKLOAD, CLUSTER, layout, ASSUMPTIONS).problems
    assert [p.code for p in problems] == [
        "tensor-parallel-exceeds-node", "tensor-parallel-heads", "pipeline-exceeds-layers", "gpus-indivisible"]
    assert "16" in problems[0].message and "8 GPUs" in problems[0].message


def test_uneven_stages_are_estimated() -> None:
    """A pipeline that does not divide the layers runs stages one layer apart, at the largest's pace."""
    uneven = estimate(WORKLOAD, CLUSTER, replace(LAYOUT, tensor_parallel=2, pipeline_parallel=16,
                                                  global_batch_size=64), ASSUMPTIONS)
    assert uneven.problems == () and uneven.estimate is not None


def test_the_embedding_and_the_logits_may_each_take_a_stage() -> None:
    """Llama 3's schedule (126 layers on 16 × 8 stages, the first holding only the embedding and the
    last only the logits): p·v up to L + 2 is placed, one layer a stage; L + 3 is refused."""
    chunks = Workload("w", 13e9, 38, 5120, 40, 50257)  # 38 + 2 = 40 = 2 × 20
    two_more = estimate(chunks, CLUSTER, replace(LAYOUT, virtual_pipeline=20, global_batch_size=64), ASSUMPTIONS)
    assert two_more.problems == () and two_more.estimate is not None
    # one layer a chunk on every stage: the largest stage is paced as 40 layers' share of Ψ
    assert two_more.estimate.memory.weights_bytes == pytest.approx(13e9 * 40 / 38 / (8 * 2) * 2.0)
    three_more = replace(chunks, layers=37)
    assert _codes(three_more, layout=replace(LAYOUT, virtual_pipeline=20)) == ["pipeline-exceeds-layers"]


def test_not_fitting_is_an_output() -> None:
    """A layout whose memory does not fit is estimated, with memory as its bottleneck."""
    result = estimate(WORKLOAD, CLUSTER, replace(LAYOUT, tensor_parallel=1, pipeline_parallel=1, zero_stage=0),
                      ASSUMPTIONS)
    assert result.estimate is not None
    assert not result.estimate.memory.fits and result.estimate.bottleneck == "memory"


def test_a_gpu_without_memory_bandwidth_is_a_problem() -> None:
    """The compute time divides memory-bound bytes by the GPU's memory bandwidth: it must be positive."""
    no_bandwidth = replace(NODE, gpu=replace(NODE.gpu, memory_bandwidth_bytes_per_s=0.0))
    result = estimate(WORKLOAD, Cluster(no_bandwidth, 4), LAYOUT, ASSUMPTIONS)
    assert [(p.code, p.field) for p in result.problems] == [("not-positive", "gpu.memory_bandwidth_bytes_per_s")]
