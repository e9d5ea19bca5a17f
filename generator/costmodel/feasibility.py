"""Whether the model can estimate a configuration at all: a list of problems, never an exception.

Two kinds of problem, each with a stable code: a value outside its domain (a count below 1, any
count, even one that may be 0, beyond 2^53 − 1, a fraction outside [0, 1], a rate that is not positive or not a normal float),
and a layout that cannot be placed on the
cluster (tensor parallelism that leaves a node or does not divide the heads, the key/value
heads or the MLP width as Megatron-LM requires, key/value heads that do not group the heads, more
pipeline stages (p·v) than layers and two (the embedding and the logits may each take a stage of
their own, as in Llama 3's schedule and Megatron-LM's --account-for-embedding-in-pipeline-split
and --account-for-loss-in-pipeline-split), an interleaved schedule without a pipeline or with micro-batches
that p does not divide (Megatron-LM's rule), a sequence that context parallelism c does not
split evenly, a GPU count that t·p·c does not divide, a global
batch that N_d·b does not divide, a data-parallel group that does not map evenly onto nodes,
FP8 on a GPU without an FP8 rate). Layout checks run only once the values are in their domains,
so that they never divide by zero. Stages that p·v does not divide evenly are not a problem: they
differ by one layer (`compute.paced_layers`). Whether the memory fits is an output, not a problem.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import get_args

from .inputs import Assumptions, AttentionKernel, Cluster, GpuSpec, Layout, Workload, ZeroGather

BASE_BITS = (16, 8, 4)  # what a frozen LoRA base weight is stored in (QLoRA: 4-bit NormalFloat)


@dataclass(frozen=True)
class Problem:
    """Why a configuration cannot be estimated: a stable `code`, the input `field`, a message."""

    code: str
    field: str
    message: str


def check(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, *,
          inputs_checked: bool = False) -> tuple[Problem, ...]:
    """Every problem of a configuration; empty when the model can estimate it. `inputs_checked`:
    the caller found `input_problems` empty for these inputs and a layout with the same attention
    kernel, so only what the layout changes is checked. A layout search tries dozens of layouts on
    the same inputs, and this was most of its time; with the inputs in their domains the problems,
    and their order, are the same."""
    domain = _layout_domain(workload, layout) if inputs_checked else _domain(workload, cluster, layout, assumptions)
    problems = tuple(domain)
    if problems:
        return problems
    return tuple(_placement(workload, cluster, layout))


def input_problems(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> tuple[Problem, ...]:
    """The domain problems that a layout search does not change: the workload's, the cluster's,
    the assumptions', and the attention kernel's of `layout`."""
    return (*_input_domain(workload, cluster, layout), *_assumption_domain(assumptions))


ZERO_GATHERS: tuple[str, ...] = get_args(ZeroGather)  # read once: a layout search checks thousands of layouts
ATTENTION_KERNELS: tuple[str, ...] = get_args(AttentionKernel)

MAX_COUNT = 2**53 - 1
"""The largest count the model takes (JavaScript's Number.MAX_SAFE_INTEGER, so that the browser's
port refuses the same counts): every count becomes a float before any arithmetic, a double holds
whole numbers exactly only up to 2^53, and a count beyond a double (10^320) would raise."""


def _at_least_one(field: str, value: int) -> Iterator[Problem]:
    if value < 1:
        yield Problem("count-below-one", field, f"{field} is {value}; it must be a whole number of at least 1")
    else:
        yield from _at_most_max(field, value)


def _at_most_max(field: str, value: int) -> Iterator[Problem]:
    """A count past MAX_COUNT: also for the counts that may be 0 (a LoRA rank, shared experts),
    which would otherwise reach float() and raise there (10^320) or lose their last digits."""
    if value > MAX_COUNT:  # not len(str(value)): str() refuses an int of more than 4,300 digits
        yield Problem("count-too-large", field, f"{field} is beyond 2^53 − 1 ({MAX_COUNT:,}), the largest count "
                      "the model takes")


def _positive(field: str, value: float) -> Iterator[Problem]:
    if not value > 0.0:
        yield Problem("not-positive", field, f"{field} is {value}; it must be greater than 0")
    elif not math.isfinite(value) or value < sys.float_info.min:
        # a denormal (1e-320) divides to infinity; an infinite rate or size has no meaning
        yield Problem("not-normal", field, f"{field} is {value}; it must be a finite number of at least "
                      f"{sys.float_info.min:g}")


def _fraction(field: str, value: float, *, zero_ok: bool, one_ok: bool) -> Iterator[Problem]:
    low_ok = value >= 0.0 if zero_ok else value > 0.0
    high_ok = value <= 1.0 if one_ok else value < 1.0
    if not (low_ok and high_ok):
        interval = f"{'[' if zero_ok else '('}0, 1{']' if one_ok else ')'}"
        yield Problem("fraction-out-of-range", field, f"{field} is {value}; it must lie in {interval}")


def _domain(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> Iterator[Problem]:
    yield from _input_domain(workload, cluster, layout)
    yield from _layout_domain(workload, layout)
    yield from _assumption_domain(assumptions)


def _input_domain(workload: Workload, cluster: Cluster, layout: Layout) -> Iterator[Problem]:
    """The workload's and the cluster's domains; of the layout only the attention kernel it runs,
    which a layout search does not change."""
    node, gpu = cluster.node, cluster.node.gpu
    yield from _positive("workload.parameter_count", workload.parameter_count)
    for name in ("layers", "hidden_size", "attention_heads", "vocabulary_size"):
        yield from _at_least_one(f"workload.{name}", getattr(workload, name))
    for name in ("ffn_hidden_size", "kv_heads"):
        if getattr(workload, name) is not None:
            yield from _at_least_one(f"workload.{name}", getattr(workload, name))
    if workload.position_embeddings < 0:
        yield Problem("negative", "workload.position_embeddings",
                      f"workload.position_embeddings is {workload.position_embeddings}; it must not be negative")
    yield from _at_most_max("workload.position_embeddings", workload.position_embeddings)
    if workload.norm not in ("layernorm", "rmsnorm"):
        yield Problem("norm", "workload.norm", f"norm {workload.norm!r} is not layernorm or rmsnorm")
    yield from _positive("gpu.memory_capacity_bytes", gpu.memory_capacity_bytes)
    yield from _positive("gpu.memory_bandwidth_bytes_per_s", gpu.memory_bandwidth_bytes_per_s)
    yield from _positive("gpu.dense_bf16_flop_per_s", gpu.dense_bf16_flop_per_s)
    if gpu.flash_attention_efficiency is not None:  # a share of the peak: 0 would divide by zero
        yield from _fraction("gpu.flash_attention_efficiency", gpu.flash_attention_efficiency, zero_ok=False,
                             one_ok=True)
    if gpu.cudnn_attention_speedup is not None:
        yield from _positive("gpu.cudnn_attention_speedup", gpu.cudnn_attention_speedup)
        if (gpu.flash_attention_efficiency is not None and layout.flash_attention and layout.attention_kernel == "cudnn"
                and gpu.flash_attention_efficiency * gpu.cudnn_attention_speedup > 1.0):  # faster than the peak
            yield Problem("fraction-out-of-range", "gpu.cudnn_attention_speedup",
                          f"gpu.cudnn_attention_speedup {gpu.cudnn_attention_speedup} times FlashAttention-2's "
                          f"{gpu.flash_attention_efficiency} exceeds the peak; the product must lie in (0, 1]")
    yield from _at_least_one("node.gpus_per_node", node.gpus_per_node)
    yield from _positive("node.scale_up_per_direction_bytes_per_s", node.scale_up_per_direction_bytes_per_s)
    yield from _at_least_one("cluster.node_count", cluster.node_count)
    yield from _fraction("cluster.fabric_bandwidth_fraction", cluster.fabric_bandwidth_fraction, zero_ok=False, one_ok=True)
    if cluster.node_count > 1:
        yield from _at_least_one("node.nics_per_node", node.nics_per_node)
        yield from _positive("node.nic_port_per_direction_bytes_per_s", node.nic_port_per_direction_bytes_per_s)
    else:  # unused by one node's step, but still a float in the wiring
        yield from _at_most_max("node.nics_per_node", node.nics_per_node)


def _layout_domain(workload: Workload, layout: Layout) -> Iterator[Problem]:
    for name in ("tensor_parallel", "pipeline_parallel", "micro_batch_size", "sequence_length", "global_batch_size",
                 "virtual_pipeline", "context_parallel"):
        yield from _at_least_one(f"layout.{name}", getattr(layout, name))
    if layout.zero_stage not in (0, 1, 2, 3):
        yield Problem("zero-stage", "layout.zero_stage", f"ZeRO stage {layout.zero_stage} does not exist; use 0, 1, 2 or 3")
    if layout.recompute not in ("none", "selective", "full"):
        yield Problem("recompute", "layout.recompute", f"recompute {layout.recompute!r} is not none, selective or full")
    if layout.recompute_layers:  # 0, every layer: nothing to check (a layout search checks thousands)
        yield from _recompute_layers(layout)
    yield from _fraction("layout.tp_overlap", layout.tp_overlap, zero_ok=True, one_ok=True)
    if layout.precision not in ("bf16", "fp8"):
        yield Problem("precision", "layout.precision", f"precision {layout.precision!r} is not bf16 or fp8")
    if layout.zero_gather not in ZERO_GATHERS:
        yield Problem("zero-gather", "layout.zero_gather",
                      f"ZeRO gather {layout.zero_gather!r} is not {' or '.join(ZERO_GATHERS)}")
    elif layout.zero_gather == "tensor-sync" and layout.zero_stage != 3:
        yield Problem("zero-gather-without-zero-3", "layout.zero_gather",
                      f"per-tensor synchronous gathers are ZeRO-3's; the layout runs ZeRO stage {layout.zero_stage}")
    if layout.adapter_rank < 0:
        yield Problem("adapter-rank", "layout.adapter_rank", f"adapter rank {layout.adapter_rank} is below 0")
    yield from _at_most_max("layout.adapter_rank", layout.adapter_rank)
    yield from _at_most_max("layout.shard_group", layout.shard_group)  # below 0: `_shard_group`'s problem
    if layout.base_bits not in BASE_BITS:
        yield Problem("base-bits", "layout.base_bits", f"a frozen base weight takes 16, 8 or 4 bits, not {layout.base_bits}")
    elif layout.base_bits != 16 and layout.adapter_rank == 0:
        yield Problem("base-bits-without-adapters", "layout.base_bits",
                      f"a {layout.base_bits}-bit base is frozen: it needs adapters (adapter rank above 0) to train")
    if layout.fp8_param_gather and layout.precision != "fp8":
        yield Problem("fp8-param-gather-without-fp8", "layout.fp8_param_gather",
                      f"FP8 weights gathered in FP8 need FP8 linear layers; the layout's precision is {layout.precision}")
    elif layout.fp8_param_gather and layout.adapter_rank > 0:
        yield Problem("fp8-param-gather-with-adapters", "layout.fp8_param_gather",
                      "LoRA gathers its 16-bit adapters, not FP8 weights: FP8 weight gathers need full training")
    if layout.attention_kernel not in ATTENTION_KERNELS:
        yield Problem("attention-kernel", "layout.attention_kernel",
                      f"attention kernel {layout.attention_kernel!r} is not {' or '.join(ATTENTION_KERNELS)}")
    yield from _expert_domain(workload, layout)


def _recompute_layers(layout: Layout) -> Iterator[Problem]:
    """Some layers of each chunk recomputed: a count of at least 1, under full recomputation."""
    if layout.recompute_layers < 0:
        yield Problem("negative", "layout.recompute_layers",
                      f"layout.recompute_layers is {layout.recompute_layers}; it must not be negative (0: every layer)")
    elif layout.recompute != "full":
        yield Problem("recompute-layers-without-full", "layout.recompute_layers",
                      f"recomputing {layout.recompute_layers} layers of each chunk is full recomputation of those "
                      f"layers; the layout's recompute is {layout.recompute!r}")
    yield from _at_most_max("layout.recompute_layers", layout.recompute_layers)


def _expert_domain(workload: Workload, layout: Layout) -> Iterator[Problem]:
    """Experts, latent attention and head widths: counts in their domains, and the layout knobs
    the model does not combine with them, refused rather than estimated wrongly."""
    yield from _at_least_one("layout.expert_parallel", layout.expert_parallel)
    if layout.expert_tensor_parallel not in (1, layout.tensor_parallel):
        yield Problem("expert-tensor-parallel", "layout.expert_tensor_parallel",
                      f"expert tensor parallel {layout.expert_tensor_parallel} is neither 1 nor the tensor-parallel "
                      f"size {layout.tensor_parallel}")
    elif layout.expert_tensor_parallel > 1 and (workload.moe is None or layout.expert_parallel == 1):
        yield Problem("expert-tensor-parallel-unspread", "layout.expert_tensor_parallel",
                      f"expert tensor parallel {layout.expert_tensor_parallel} splits experts spread over "
                      "expert-parallel GPUs (ep above 1); with ep 1 the experts are split over the tensor-parallel "
                      "group like any MLP")
    yield from _fraction("layout.ep_overlap", layout.ep_overlap, zero_ok=True, one_ok=True)
    if not 1.0 <= layout.expert_imbalance < math.inf:
        yield Problem("expert-imbalance", "layout.expert_imbalance",
                      f"expert imbalance {layout.expert_imbalance} must be a finite number of at least 1 (1: balanced)")
    if workload.head_dim is not None:
        yield from _at_least_one("workload.head_dim", workload.head_dim)
    if workload.mla is not None:
        for name in ("kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            yield from _at_least_one(f"workload.mla.{name}", getattr(workload.mla, name))
        if workload.mla.q_lora_rank < 0:
            yield Problem("negative", "workload.mla.q_lora_rank",
                          f"workload.mla.q_lora_rank is {workload.mla.q_lora_rank}; it must not be negative (0: no query latent)")
        yield from _at_most_max("workload.mla.q_lora_rank", workload.mla.q_lora_rank)
    m = workload.moe
    if m is not None:
        for name in ("experts", "experts_per_token", "expert_ffn_hidden_size"):
            yield from _at_least_one(f"workload.moe.{name}", getattr(m, name))
        for name in ("shared_experts", "dense_layers", "nodes_per_token"):
            if getattr(m, name) < 0:
                yield Problem("negative", f"workload.moe.{name}", f"workload.moe.{name} is {getattr(m, name)}; it must not be negative")
            yield from _at_most_max(f"workload.moe.{name}", getattr(m, name))
        if m.experts_per_token > m.experts:
            yield Problem("experts-per-token", "workload.moe.experts_per_token",
                          f"{m.experts_per_token} experts per token exceed the {m.experts} experts")
        if m.dense_layers >= workload.layers:
            yield Problem("dense-layers", "workload.moe.dense_layers",
                          f"{m.dense_layers} dense layers leave none of the {workload.layers} layers to experts")
    elif layout.expert_parallel > 1:
        yield Problem("expert-parallel-without-experts", "layout.expert_parallel",
                      f"expert parallel {layout.expert_parallel} needs a mixture-of-experts workload; {workload.name} is dense")
    if workload.head_dim is None and workload.mla is None and m is None:
        return
    # What the model does not combine with these blocks: refused, not estimated wrongly.
    unmodelled = (("workload.linear_biases", workload.linear_biases, "linear biases"),
                  ("layout.context_parallel", layout.context_parallel > 1 and (
                      workload.head_dim is not None or workload.mla is not None), "context parallelism"),
                  ("layout.adapter_rank", layout.adapter_rank > 0, "LoRA adapters"),
                  ("layout.zero_gather", layout.zero_gather == "tensor-sync", "per-tensor ZeRO-3 gathers"),
                  ("layout.shard_group", m is not None and layout.shard_group > 0, "hybrid sharding of experts"),
                  ("layout.zero_stage", m is not None and layout.expert_parallel > 1 and layout.zero_stage == 3,
                   "ZeRO-3 over spread experts"))
    for field, on, what in unmodelled:
        if on:
            # context parallelism is estimated with experts (a ring of ordinary heads), not with the other two
            blocks = ("latent attention or an explicit head width" if field == "layout.context_parallel"
                      else "experts, latent attention or an explicit head width")
            yield Problem("not-modelled", field, f"the model does not estimate {what} with {blocks}")


def _assumption_domain(assumptions: Assumptions) -> Iterator[Problem]:
    for name in ("gemm_efficiency_max", "intra_node_collective_efficiency", "network_collective_efficiency"):
        yield from _fraction(f"assumptions.{name}", getattr(assumptions, name), zero_ok=False, one_ok=True)
    yield from _fraction("assumptions.dp_overlap_fraction", assumptions.dp_overlap_fraction, zero_ok=True, one_ok=True)
    yield from _fraction("assumptions.memory_reserve_fraction", assumptions.memory_reserve_fraction, zero_ok=True, one_ok=False)
    for name in ("gemm_half_intensity", "memory_bound_bytes", "intra_node_step_latency_s", "network_step_latency_s",
                 "tensor_sync_rank_overhead_s",
                 "weight_bytes_per_parameter",
                 "gradient_bytes_per_parameter", "optimizer_bytes_per_parameter"):
        value = getattr(assumptions, name)
        if not value >= 0.0:
            yield Problem("negative", f"assumptions.{name}", f"assumptions.{name} is {value}; it must not be negative")
        elif value != 0.0:
            yield from _positive(f"assumptions.{name}", value)
    for name in ("gemm_efficiency_max", "intra_node_collective_efficiency", "network_collective_efficiency"):
        value = getattr(assumptions, name)
        if 0.0 < value < sys.float_info.min:
            yield Problem("not-normal", f"assumptions.{name}", f"assumptions.{name} is {value}; a share the model "
                          f"divides by must be at least {sys.float_info.min:g}")


def _placement(workload: Workload, cluster: Cluster, layout: Layout) -> Iterator[Problem]:
    yield from placement(workload, cluster.node.gpu, cluster.node.gpus_per_node, cluster.node_count, layout)


def placement(workload: Workload, gpu: GpuSpec, gpus_per_node: int, node_count: int,
              layout: Layout) -> Iterator[Problem]:
    """Whether a layout can be placed on `node_count` nodes of `gpus_per_node` GPUs: it needs no
    link or port rate, so a rule can ask it of a study whose network is still to be chosen."""
    g, t, p = gpus_per_node, layout.tensor_parallel, layout.pipeline_parallel
    gpus = node_count * g
    if t > g:
        yield Problem("tensor-parallel-exceeds-node", "layout.tensor_parallel",
                      f"tensor parallel {t} exceeds the {g} GPUs of a node; a tensor-parallel group must sit in one node")
    elif g % t:
        yield Problem("tensor-parallel-splits-node", "layout.tensor_parallel",
                      f"tensor parallel {t} does not divide the {g} GPUs of a node")
    yield from _shape(workload, t)
    v = layout.virtual_pipeline
    if p * v > workload.layers + 2:
        yield Problem("pipeline-exceeds-layers", "layout.pipeline_parallel",
                      f"pipeline parallel {p} × virtual pipeline {v} = {p * v} stages exceed the {workload.layers} "
                      "layers and the embedding's and the logits' stages")
    if v > 1 and p == 1:
        yield Problem("interleave-without-pipeline", "layout.virtual_pipeline",
                      f"virtual pipeline {v} needs pipeline parallel above 1")
    if layout.precision == "fp8" and not (gpu.dense_fp8_flop_per_s or 0.0) > 0.0:
        yield Problem("fp8-unavailable", "layout.precision", f"{gpu.name} has no dense FP8 rate")
    c = layout.context_parallel
    if layout.sequence_length % c:
        yield Problem("context-parallel-sequence", "layout.context_parallel",
                      f"context parallel {c} does not divide the sequence of {layout.sequence_length} tokens")
    if gpus % (t * p * c):
        what = "tensor × pipeline parallel" if c == 1 else "tensor × pipeline × context parallel"
        yield Problem("gpus-indivisible", "layout", f"the {gpus} GPUs are not a multiple of {what} = {t * p * c}")
        return
    yield from _data_parallel(g, layout, gpus // (t * p * c))
    yield from _shard_group(g, layout, gpus // (t * p * c))
    yield from _experts(workload, g, layout, gpus // p)


def _experts(workload: Workload, g: int, layout: Layout, stage_gpus: int) -> Iterator[Problem]:
    """Expert parallelism: e divides the experts, and the e·t_e GPUs that hold a layer's experts
    once divide the t·c·N_d GPUs of a stage and sit in one node or span whole nodes."""
    e = layout.expert_parallel
    if workload.moe is None or e == 1:
        return
    if workload.moe.experts % e:
        yield Problem("expert-parallel-experts", "layout.expert_parallel",
                      f"expert parallel {e} does not divide the {workload.moe.experts} experts")
    block = e * layout.expert_tensor_parallel
    what = f"expert parallel {e}" if block == e else f"expert × expert tensor parallel {block}"
    if stage_gpus % block:
        yield Problem("expert-parallel-stage", "layout.expert_parallel",
                      f"{what} does not divide the {stage_gpus} GPUs of a pipeline stage")
    elif block % g and g % block:
        yield Problem("expert-parallel-placement", "layout.expert_parallel",
                      f"{what} neither divides nor is a multiple of the {g} GPUs of a node")


def _shard_group(g: int, layout: Layout, data_parallel: int) -> Iterator[Problem]:
    """Hybrid sharding: groups of G ranks that divide the gradient group (N_d·c ranks) and sit
    whole in a node or span whole nodes, so every group has the same ring."""
    size = layout.shard_group
    if size == 0:
        return
    ranks = data_parallel * layout.context_parallel
    peers = min(ranks, g // layout.tensor_parallel)
    if size < 0 or ranks % size:
        yield Problem("shard-group", "layout.shard_group",
                      f"shard group {size} does not divide the {ranks} ranks that reduce the gradients")
    elif size % peers and peers % size:
        yield Problem("shard-group-placement", "layout.shard_group",
                      f"shard group {size} neither divides nor is a multiple of the {peers} data-parallel ranks in a node")
    elif layout.zero_stage == 0:
        yield Problem("shard-group-without-zero", "layout.shard_group",
                      "a shard group needs a ZeRO stage of 1 or more: stage 0 partitions nothing")


def _shape(workload: Workload, t: int) -> Iterator[Problem]:
    """The block must split over t GPUs: heads, key/value heads and MLP width (checked only when
    stated, since the defaults follow from the heads and the hidden size)."""
    heads, kv, ffn = workload.attention_heads, workload.kv_heads, workload.ffn_hidden_size
    if heads % t:
        yield Problem("tensor-parallel-heads", "layout.tensor_parallel",
                      f"tensor parallel {t} does not divide the {heads} attention heads")
    if workload.hidden_size % heads and workload.head_dim is None and workload.mla is None:
        yield Problem("heads-hidden", "workload.attention_heads",
                      f"{heads} heads do not divide the hidden size {workload.hidden_size}")
    if kv is not None and heads % kv:
        yield Problem("kv-heads-heads", "workload.kv_heads",
                      f"{kv} key/value heads do not divide the {heads} attention heads into equal groups")
    if kv is not None and kv % t:
        yield Problem("tensor-parallel-kv-heads", "layout.tensor_parallel",
                      f"tensor parallel {t} does not divide the {kv} key/value heads")
    if ffn is not None and ffn % t:
        yield Problem("tensor-parallel-ffn", "layout.tensor_parallel",
                      f"tensor parallel {t} does not divide the MLP width {ffn}")


def _data_parallel(g: int, layout: Layout, data_parallel: int) -> Iterator[Problem]:
    t, c = layout.tensor_parallel, layout.context_parallel
    stage_gpus = t * c * data_parallel
    if stage_gpus % g and g % stage_gpus:
        yield Problem("data-parallel-placement", "layout",
                      f"a pipeline stage spans t × {'c × ' if c > 1 else ''}N_d = {stage_gpus} GPUs, which neither divides nor is a multiple "
                      f"of the {g} GPUs of a node")
    per_step = data_parallel * layout.micro_batch_size
    if layout.global_batch_size % per_step:
        yield Problem("batch-indivisible", "layout.global_batch_size",
                      f"global batch {layout.global_batch_size} is not a multiple of data parallel {data_parallel} "
                      f"× micro-batch {layout.micro_batch_size} = {per_step}")
    elif layout.virtual_pipeline > 1 and (layout.global_batch_size // per_step) % layout.pipeline_parallel:
        yield Problem("interleave-microbatches", "layout.virtual_pipeline",
                      f"the interleaved schedule needs micro-batches per step ({layout.global_batch_size // per_step}) "
                      f"divisible by pipeline parallel {layout.pipeline_parallel}")
