"""The inputs of the model's one wiring (`wiring.py`) for one configuration: the workload, layout
and cluster values several formulas read, named by the formulas' symbols, and the few figures that
stand in for them when a layout knob is on (the paced layer count of uneven stages, the tokens per
GPU and the gradient group of context parallelism, the FP32 gradient bytes), and the links'
bandwidths and latencies. Read through an evaluator (`evaluate.py`), like the wiring itself.
"""

from __future__ import annotations

from typing import Generic, NamedTuple

from . import collectives as co
from . import compute as cp
from . import experts as ex
from . import memory as me
from . import shape as sh
from . import step as st
from . import traffic as tr
from .evaluate import Evaluator, V
from .inputs import Assumptions, Cluster, Layout, Workload


class Leaves(NamedTuple, Generic[V]):
    """The inputs of one configuration that several parts of the wiring read, named by the
    formulas' symbols (Ψ, L, h, a, V, t, p, b, s, B, N_d, g, N, R, r; `vocab` for V), with v the
    model chunks per stage and `L_paced` the layer count the per-stage formulas see: L itself when
    p·v divides it (`uneven` False), else p·v·⌈L/(p·v)⌉, the largest stage's layers p·v times;
    c the context-parallel GPUs of a sequence, `s_c` = s ÷ c the tokens each holds and `d_grad` =
    N_d·c the ranks that reduce the gradients (s and N_d themselves when c = 1, `context` False);
    f the FFN width (4h unless the workload states it); `shard` the ranks a ZeRO stage partitions
    the states over: the shard group G of hybrid sharding, else d_grad; `dropout` whether the
    workload trains with dropout (its masks are stored activations); `tensors` the parameter tensors
    of a layer, counted only where ZeRO-3 gathers them one by one (`zero_gather: tensor-sync`);
    `adapters` Ψ_A, the parameters of LoRA's adapters where the layout trains them (`adapter_rank`);
    `h_att` the attention core's width where it differs from h, `moe` the experts' figures."""

    psi: V
    L: V
    h: V
    a: V
    vocab: V
    t: V
    p: V
    b: V
    s: V
    B: V
    d: V
    g: V
    gpus: V
    peak: V
    r: V
    v: V
    L_paced: V
    uneven: bool
    c: V
    s_c: V
    d_grad: V
    context: bool
    h_kv: V
    f: V
    shard: V
    dropout: bool
    tensors: V | None  # parameter tensors per layer, where ZeRO-3 gathers tensor by tensor
    adapters: V | None = None  # Ψ_A, the LoRA adapters' parameters, where the layout trains adapters
    h_att: V | None = None  # the attention core's width where it is not h (explicit head width, latent attention)
    moe: Experts[V] | None = None  # a mixture-of-experts workload's figures
    moe_spread: bool = False  # experts spread over expert-parallel GPUs (e > 1)
    phi: V | None = None  # the share of the layers recomputed in full, where only some are (`recompute_layers`)
    fp8_share: V | None = None  # φ₈, the FP8-held share of the gathered weights, where they are (`fp8_param_gather`)


class Experts(NamedTuple, Generic[V]):
    """A mixture-of-experts workload's figures (`experts.py`): E routed experts, k a token, f_e
    wide, D dense layers, n MLP matrices, e the expert-parallel GPUs, λ the busiest GPU's load ÷
    the mean, Ψ_E the routed experts' parameters, N_E the expert data-parallel group, M the nodes
    a token may reach (None: no limit), `block` the consecutive GPUs that hold a layer's experts
    once (e, or e·t_e), t_e the GPUs each expert is split over (None: 1, whole)."""

    E: V
    k: V
    f_e: V
    D: V
    n: V
    e: V
    lam: V
    psi_e: V
    d_e: V
    M: V | None
    block: V
    t_e: V | None = None


class Links(NamedTuple, Generic[V]):
    """Per-GPU bandwidth and latency of one ring step, inside a node and over the network."""

    b_intra: V
    b_net: V
    alpha_intra: V
    alpha_net: V

def data_parallel_size(cluster: Cluster, layout: Layout) -> float:
    gpus = cluster.node_count * cluster.node.gpus_per_node
    return float(gpus // (layout.tensor_parallel * layout.pipeline_parallel * layout.context_parallel))


def peak_flop_per_s(cluster: Cluster, layout: Layout) -> float:
    gpu = cluster.node.gpu
    return (gpu.dense_fp8_flop_per_s or 0.0) if layout.precision == "fp8" else gpu.dense_bf16_flop_per_s


def leaves(ev: Evaluator[V], workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions) -> Leaves[V]:
    g = cluster.node.gpus_per_node
    h = ev.given("workload.hidden_size", "1", workload.hidden_size, "workload")
    heads = ev.given("workload.attention_heads", "1", workload.attention_heads, "workload")
    layers = ev.given("workload.layers", "1", workload.layers, "workload")
    p = ev.given("layout.pipeline_parallel", "1", layout.pipeline_parallel, "layout")
    v = ev.given("layout.virtual_pipeline", "1", layout.virtual_pipeline, "layout")
    uneven = workload.layers % (layout.pipeline_parallel * layout.virtual_pipeline) != 0
    paced = ev.derive("pipeline.paced_layers", "1", cp.paced_layers)(layers, p, v) if uneven else layers
    s = ev.given("layout.sequence_length", "1", layout.sequence_length, "layout")
    d = ev.given("layout.data_parallel", "1", data_parallel_size(cluster, layout), "layout")
    c = ev.given("layout.context_parallel", "1", layout.context_parallel, "layout")
    context = layout.context_parallel > 1
    s_c = ev.derive("local_sequence", "1", cp.local_sequence)(s, c) if context else s
    d_grad = ev.derive("gradient_group", "1", me.gradient_group)(d, c) if context else d
    t = ev.given("layout.tensor_parallel", "1", layout.tensor_parallel, "layout")
    wide = workload.head_dim is not None or workload.mla is not None
    psi = ev.given("workload.parameter_count", "1", workload.parameter_count, "workload")
    vocab = ev.given("workload.vocabulary_size", "1", workload.vocabulary_size, "workload")
    moe = experts(ev, workload, layout, h, layers, t, d_grad) if workload.moe is not None else None
    spread = workload.moe is not None and layout.expert_parallel > 1
    return Leaves(
        psi, layers, h, heads, vocab,
        t,
        p,
        ev.given("layout.micro_batch_size", "1", layout.micro_batch_size, "layout"),
        s,
        ev.given("layout.global_batch_size", "1", layout.global_batch_size, "layout"),
        d,
        ev.given("node.gpus_per_node", "1", g, "cluster"),
        ev.given("cluster.gpus", "1", cluster.node_count * g, "cluster"),
        ev.given(f"gpu.dense_{layout.precision}_flop_per_s", "FLOP/s", peak_flop_per_s(cluster, layout), "cluster"),
        sh.width_ratio_from(ev, workload, h, heads),
        v, paced, uneven, c, s_c, d_grad, context,
        ev.derive("workload.kv_width", "1", sh.kv_width)(
            h, heads, ev.given("workload.kv_heads", "1", sh.kv_heads(workload), "workload")),
        ev.given("workload.ffn_hidden_size", "1", sh.ffn_hidden_size(workload), "workload"),
        ev.given("layout.shard_group", "1", layout.shard_group, "layout") if layout.shard_group else d_grad,
        workload.dropout,
        ev.derive("workload.parameter_tensors_per_layer", "1", tr.parameter_tensors_per_layer)(
            ev.given("workload.norm_tensors", "1", 2.0 if workload.norm == "layernorm" else 1.0, "workload"),
            ev.given("workload.mlp_matrices", "1", sh.mlp_matrices(workload), "workload"),
            ev.given("workload.bias_factor", "1", 2.0 if workload.linear_biases else 1.0, "workload"))
        if layout.zero_gather == "tensor-sync" else None,
        ev.derive("workload.adapter_parameters", "1", me.adapter_parameters)(
            ev.given("layout.adapter_rank", "1", layout.adapter_rank, "layout"), h,
            ev.derive("workload.kv_width", "1", sh.kv_width)(
                h, heads, ev.given("workload.kv_heads", "1", sh.kv_heads(workload), "workload")),
            ev.given("workload.mlp_matrices", "1", sh.mlp_matrices(workload), "workload"),
            ev.given("workload.ffn_hidden_size", "1", sh.ffn_hidden_size(workload), "workload"), layers)
        if layout.adapter_rank > 0 else None,
        sh.score_width_from(ev, workload, h, heads) if wide else None,
        moe, spread,
        ev.derive("recompute_share", "1", cp.recompute_share)(
            ev.given("layout.recompute_layers", "1", layout.recompute_layers, "layout"), p, v, paced)
        if layout.recompute_layers > 0 else None,
        fp8_share(ev, workload, psi, vocab, h, moe if spread else None) if layout.fp8_param_gather else None,
    )


def fp8_share(ev: Evaluator[V], workload: Workload, psi: V, vocab: V, h: V, moe: Experts[V] | None) -> V:
    """φ₈, the share of the data-parallel weight gathers held in FP8 (`traffic.py`): of Ψ, or of
    Ψ − Ψ_E where the routed experts are gathered on their own (they are FP8 whole)."""
    e = ev.given("workload.embedding_matrices", "1", 1.0 if workload.tied_embeddings else 2.0, "workload")
    positions = ev.given("workload.position_embeddings", "1", workload.position_embeddings, "workload")
    if moe is None:
        return ev.derive("fp8_parameter_share", "1", tr.fp8_parameter_share)(e, vocab, h, positions, psi)
    return ev.derive("fp8_parameter_share", "1", tr.fp8_dense_parameter_share)(e, vocab, h, positions, psi, moe.psi_e)


def experts(ev: Evaluator[V], workload: Workload, layout: Layout, h: V, layers: V, t: V, d_grad: V) -> Experts[V]:
    m = workload.moe
    assert m is not None
    E = ev.given("workload.moe.experts", "1", m.experts, "workload")
    f_e = ev.given("workload.moe.expert_ffn_hidden_size", "1", m.expert_ffn_hidden_size, "workload")
    D = ev.given("workload.moe.dense_layers", "1", m.dense_layers, "workload")
    n = ev.given("workload.mlp_matrices", "1", sh.mlp_matrices(workload), "workload")
    e = ev.given("layout.expert_parallel", "1", layout.expert_parallel, "layout")
    t_e = (ev.given("layout.expert_tensor_parallel", "1", layout.expert_tensor_parallel, "layout")
           if layout.expert_tensor_parallel > 1 else None)
    block = e if t_e is None else ev.derive("expert_block_gpus", "1", ex.expert_block)(e, t_e)
    return Experts(
        E, ev.given("workload.moe.experts_per_token", "1", m.experts_per_token, "workload"), f_e, D, n, e,
        ev.given("layout.expert_imbalance", "1", layout.expert_imbalance, "layout"),
        ev.derive("workload.routed_parameters", "1", ex.routed_parameters)(layers, D, E, n, h, f_e),
        ev.derive("expert_data_parallel", "1", ex.expert_data_parallel)(t, d_grad, block),
        ev.given("workload.moe.nodes_per_token", "1", m.nodes_per_token, "workload") if m.nodes_per_token else None,
        block, t_e)


def microbatches(ev: Evaluator[V], x: Leaves[V]) -> V:
    return ev.derive("step.microbatches", "1", st.microbatches)(x.B, x.d, x.b)


def parameters_per_gpu(ev: Evaluator[V], x: Leaves[V]) -> V:
    split = expert_split(ev, x)
    if split is not None:
        return ev.derive("parameters_per_gpu", "1", ex.parameters_held)(*split)
    psi = ev.derive("paced_parameters", "1", me.paced_parameters)(x.psi, x.L_paced, x.L) if x.uneven else x.psi
    return ev.derive("parameters_per_gpu", "1", me.parameters_per_gpu)(psi, x.t, x.p)


def expert_split(ev: Evaluator[V], x: Leaves[V]) -> tuple[V, V] | None:
    """A mixture-of-experts model's parameters on one GPU: (outside the routed experts, routed
    experts); None for a dense model, or experts not spread over GPUs (e = 1: they are split
    like any MLP, over the tensor-parallel group)."""
    if x.moe is None or x.moe_spread is False:
        return None
    psi, psi_e = x.psi, x.moe.psi_e
    if x.uneven:
        psi = ev.derive("paced_parameters", "1", me.paced_parameters)(psi, x.L_paced, x.L)
        psi_e = ev.derive("paced_routed_parameters", "1", me.paced_parameters)(psi_e, x.L_paced, x.L)
    return (ev.derive("dense_parameters_per_gpu", "1", ex.dense_parameters_per_gpu)(psi, psi_e, x.t, x.p),
            ev.derive("expert_parameters_per_gpu", "1", ex.expert_parameters_per_gpu)(psi_e, x.moe.block, x.p))


def adapters_per_gpu(ev: Evaluator[V], x: Leaves[V]) -> V | None:
    """Ψ'_A, the adapters' parameters on one GPU (split like the matrices they adapt), or None."""
    if x.adapters is None:
        return None
    psi = ev.derive("paced_adapter_parameters", "1", me.paced_parameters)(x.adapters, x.L_paced, x.L) if x.uneven \
        else x.adapters
    return ev.derive("adapter_parameters_per_gpu", "1", me.parameters_per_gpu)(psi, x.t, x.p)


def gradient_bytes_per_parameter(ev: Evaluator[V], layout: Layout, a: Assumptions) -> V:
    if layout.fp32_gradients:
        return ev.derive("fp32_gradient_bytes_per_parameter", "B", me.fp32_gradient_bytes)()
    return ev.given("assumptions.gradient_bytes_per_parameter", "B", a.gradient_bytes_per_parameter, "assumption")

def links(ev: Evaluator[V], x: Leaves[V], cluster: Cluster, a: Assumptions) -> Links[V]:
    node = cluster.node
    b_intra = ev.derive("intra_node_bandwidth", "B/s", co.intra_node_bandwidth)(
        ev.given("node.scale_up_per_direction_bytes_per_s", "B/s", node.scale_up_per_direction_bytes_per_s, "cluster"),
        ev.given("assumptions.intra_node_collective_efficiency", "1", a.intra_node_collective_efficiency, "assumption"))
    b_net = ev.derive("network_bandwidth_per_gpu", "B/s", co.network_bandwidth_per_gpu)(
        ev.given("node.nics_per_node", "1", node.nics_per_node, "cluster"),
        ev.given("node.nic_port_per_direction_bytes_per_s", "B/s", node.nic_port_per_direction_bytes_per_s, "cluster"),
        x.g, ev.given("assumptions.network_collective_efficiency", "1", a.network_collective_efficiency, "assumption"),
        ev.given("cluster.fabric_bandwidth_fraction", "1", cluster.fabric_bandwidth_fraction, "cluster"))
    return Links(b_intra, b_net,
                 ev.given("assumptions.intra_node_step_latency_s", "s", a.intra_node_step_latency_s, "assumption"),
                 ev.given("assumptions.network_step_latency_s", "s", a.network_step_latency_s, "assumption"))
