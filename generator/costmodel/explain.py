"""The estimate as chains of figures: each output with the named inputs and formulas behind it.

This mirrors `model.py` step by step with the same formulas, so every value equals the fast
path's (a test holds them equal on generated configurations); it is slower, and only runs when a
page or the CLI asks how a number was computed. Keys name the `Estimate` field a figure equals,
e.g. `step.step_s`; inputs are keyed by where they come from, e.g. `layout.tensor_parallel`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import collectives as co
from . import compute as cp
from . import memory as me
from . import shape as sh
from . import step as st
from . import traffic as tr
from .chain import Figure, derive, given
from .evaluate import Figures
from .inputs import Assumptions, Cluster, Layout, Workload
from .model import data_parallel_size, estimate, peak_flop_per_s, reference_layout, scaling_efficiency


@dataclass(frozen=True)
class _Leaves:
    """The inputs of one configuration as chain leaves."""

    psi: Figure
    L: Figure
    h: Figure
    a: Figure
    V: Figure
    t: Figure
    p: Figure
    b: Figure
    s: Figure
    B: Figure
    d: Figure
    g: Figure
    gpus: Figure
    peak: Figure
    mfu: Figure
    r: Figure


def _leaves(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> _Leaves:
    g = cluster.node.gpus_per_node
    h = given("workload.hidden_size", "1", workload.hidden_size, "workload")
    a = given("workload.attention_heads", "1", workload.attention_heads, "workload")
    return _Leaves(
        given("workload.parameter_count", "1", workload.parameter_count, "workload"),
        given("workload.layers", "1", workload.layers, "workload"), h, a,
        given("workload.vocabulary_size", "1", workload.vocabulary_size, "workload"),
        given("layout.tensor_parallel", "1", layout.tensor_parallel, "layout"),
        given("layout.pipeline_parallel", "1", layout.pipeline_parallel, "layout"),
        given("layout.micro_batch_size", "1", layout.micro_batch_size, "layout"),
        given("layout.sequence_length", "1", layout.sequence_length, "layout"),
        given("layout.global_batch_size", "1", layout.global_batch_size, "layout"),
        given("layout.data_parallel", "1", data_parallel_size(cluster, layout), "layout"),
        given("node.gpus_per_node", "1", g, "cluster"),
        given("cluster.gpus", "1", cluster.node_count * g, "cluster"),
        given(f"gpu.dense_{layout.precision}_flop_per_s", "FLOP/s", peak_flop_per_s(cluster, layout), "cluster"),
        given("assumptions.mfu", "1", assumptions.mfu, "assumption"),
        sh.width_ratio_from(Figures(), workload, h, a),
    )


def explain(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> dict[str, Figure]:
    """Every output of `estimate` as a chain, keyed by its field; empty when there are problems."""
    result = estimate(workload, cluster, layout, assumptions)
    if result.estimate is None:
        return {}
    x = _leaves(workload, cluster, layout, assumptions)
    m = derive("step.microbatches", "1", st.microbatches, x.B, x.d, x.b)
    out = _memory(workload, cluster, layout, assumptions, x, m)
    work = _compute(layout, x)
    out.update(work)
    out.update(_step(cluster, layout, assumptions, x, m, work))
    reference = _scaling(workload, cluster, layout, assumptions, out["step.step_s"])
    if reference is not None:
        out["scaling_efficiency"] = reference
    return out


def _memory(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, x: _Leaves,
            m: Figure) -> dict[str, Figure]:
    psi = derive("parameters_per_gpu", "1", me.parameters_per_gpu, x.psi, x.t, x.p)
    out = {}
    for (key, assumption, per_parameter), partitioned in zip((
            ("memory.weights_bytes", "weight", assumptions.weight_bytes_per_parameter),
            ("memory.gradients_bytes", "gradient", assumptions.gradient_bytes_per_parameter),
            ("memory.optimizer_bytes", "optimizer", assumptions.optimizer_bytes_per_parameter)),
            me.partitions(layout.zero_stage), strict=True):
        bytes_each = given(f"assumptions.{assumption}_bytes_per_parameter", "B", per_parameter, "assumption")
        out[key] = (derive(key, "B", me.partitioned_bytes, psi, bytes_each, x.d) if partitioned
                    else derive(key, "B", me.replicated_bytes, psi, bytes_each))
    per_layer = derive("memory.activation_per_layer_bytes", "B",
                       me.ACTIVATIONS_PER_LAYER[(layout.recompute, layout.sequence_parallel)], x.s, x.b, x.h, x.a, x.t, x.r)
    held = derive("memory.activation_layers_held", "1", me.activation_layers_held, x.L, x.p, m)
    out["memory.activations_bytes"] = derive("memory.activations_bytes", "B", me.activations_held, per_layer, held)
    out["memory.total_bytes"] = derive("memory.total_bytes", "B", me.total_bytes, out["memory.weights_bytes"],
                                       out["memory.gradients_bytes"], out["memory.optimizer_bytes"],
                                       out["memory.activations_bytes"])
    out["memory.usable_bytes"] = derive(
        "memory.usable_bytes", "B", me.usable_bytes,
        given("gpu.memory_capacity_bytes", "B", cluster.node.gpu.memory_capacity_bytes, "cluster"),
        given("assumptions.memory_reserve_fraction", "1", assumptions.memory_reserve_fraction, "assumption"))
    out["memory.headroom_bytes"] = derive("memory.headroom_bytes", "B", me.headroom_bytes, out["memory.usable_bytes"],
                                          out["memory.total_bytes"])
    return out


def _compute(layout: Layout, x: _Leaves) -> dict[str, Figure]:
    model_mb = derive("compute.model_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu,
                      derive("model_flop_per_microbatch", "FLOP", cp.model_flop, x.b, x.s, x.L, x.h, x.V, x.r),
                      x.t, x.p)
    executed_mb = derive("compute.executed_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu,
                         derive("executed_flop_per_microbatch", "FLOP", cp.EXECUTED_FLOP[layout.recompute],
                                x.b, x.s, x.L, x.h, x.V, x.r), x.t, x.p)
    forward = derive("compute.forward_s", "s", cp.seconds_at_rate,
                     derive("forward_flop_per_microbatch_per_gpu", "FLOP", cp.forward_flop, model_mb), x.peak, x.mfu)
    microbatch = derive("compute.microbatch_s", "s", cp.seconds_at_rate, executed_mb, x.peak, x.mfu)
    return {
        "compute.model_flop_per_step": derive("compute.model_flop_per_step", "FLOP", cp.model_flop,
                                              x.B, x.s, x.L, x.h, x.V, x.r),
        "compute.forward_s": forward,
        "compute.backward_s": derive("compute.backward_s", "s", cp.backward_s, microbatch, forward),
        "compute.microbatch_s": microbatch,
    }


def _links(cluster: Cluster, assumptions: Assumptions, x: _Leaves) -> tuple[Figure, Figure, Figure, Figure]:
    """(intra-node bandwidth, network bandwidth per GPU, intra-node α, network α)."""
    node = cluster.node
    b_intra = derive("intra_node_bandwidth", "B/s", co.intra_node_bandwidth,
                     given("node.scale_up_per_direction_bytes_per_s", "B/s", node.scale_up_per_direction_bytes_per_s,
                           "cluster"),
                     given("assumptions.intra_node_collective_efficiency", "1",
                           assumptions.intra_node_collective_efficiency, "assumption"))
    b_net = derive("network_bandwidth_per_gpu", "B/s", co.network_bandwidth_per_gpu,
                   given("node.nics_per_node", "1", node.nics_per_node, "cluster"),
                   given("node.nic_port_per_direction_bytes_per_s", "B/s", node.nic_port_per_direction_bytes_per_s,
                         "cluster"), x.g,
                   given("assumptions.network_collective_efficiency", "1", assumptions.network_collective_efficiency,
                         "assumption"),
                   given("cluster.fabric_bandwidth_fraction", "1", cluster.fabric_bandwidth_fraction, "cluster"))
    alpha_i = given("assumptions.intra_node_step_latency_s", "s", assumptions.intra_node_step_latency_s, "assumption")
    alpha_n = given("assumptions.network_step_latency_s", "s", assumptions.network_step_latency_s, "assumption")
    return b_intra, b_net, alpha_i, alpha_n


def _step(cluster: Cluster, layout: Layout, a: Assumptions, x: _Leaves, m: Figure,
          work: dict[str, Figure]) -> dict[str, Figure]:
    b_intra, b_net, alpha_i, alpha_n = _links(cluster, a, x)
    message = derive("activation_message_bytes", "B", tr.activation_message_bytes, x.b, x.s, x.h)
    tp_ar = derive("tp_all_reduce_s", "s", co.ring_all_reduce_s, x.t, message, b_intra, alpha_i)
    tp = derive("step.tp_microbatch_s", "s", tr.tp_microbatch_s,
                derive("tp_collectives_per_layer", "1", tr.TP_COLLECTIVES_PER_LAYER[layout.recompute], x.t),
                x.L, x.p, tp_ar)
    on_network = layout.pipeline_parallel > 1 and cluster.node_count > 1
    send = derive("pp_send_s", "s", co.send_recv_s,
                  derive("pipeline_message_bytes", "B", tr.pipeline_message_bytes, message, x.t),
                  b_net if on_network else b_intra, alpha_n if on_network else alpha_i)
    pp = derive("step.pp_microbatch_s", "s", tr.pp_microbatch_s, x.p, send)
    dp_intra, dp_net = _data_parallel(layout, a, x, m, (b_intra, b_net, alpha_i, alpha_n))
    return _combine(layout, a, x, m, work, (tp, pp, dp_intra, dp_net), on_network)


def _data_parallel(layout: Layout, a: Assumptions, x: _Leaves, m: Figure,
                   links: tuple[Figure, Figure, Figure, Figure]) -> tuple[Figure, Figure]:
    b_intra, b_net, alpha_i, alpha_n = links
    k = derive("dp_peers_per_node", "1", co.dp_peers_per_node, x.d, x.g, x.t)
    n = derive("dp_nodes", "1", co.dp_nodes, x.d, k)
    psi = derive("parameters_per_gpu", "1", me.parameters_per_gpu, x.psi, x.t, x.p)
    grads = derive("gradient_bytes_per_gpu", "B", me.replicated_bytes, psi,
                   given("assumptions.gradient_bytes_per_parameter", "B", a.gradient_bytes_per_parameter, "assumption"))
    weights = derive("weight_bytes_per_gpu", "B", me.replicated_bytes, psi,
                     given("assumptions.weight_bytes_per_parameter", "B", a.weight_bytes_per_parameter, "assumption"))
    n_g = derive("dp_gradient_phases", "1", tr.GRADIENT_PHASES[layout.zero_stage], m)
    n_w = derive("dp_weight_phases", "1", tr.WEIGHT_PHASES[layout.zero_stage], m)
    intra = derive("step.dp_intra_node_s", "s", tr.phases_s,
                   n_g, derive("dp_gradient_phase_intra_s", "s", co.ring_phase_s, k, grads, b_intra, alpha_i),
                   n_w, derive("dp_weight_phase_intra_s", "s", co.ring_phase_s, k, weights, b_intra, alpha_i))
    net = derive("step.dp_network_s", "s", tr.phases_s,
                 n_g, derive("dp_gradient_phase_network_s", "s", co.ring_phase_s, n,
                             derive("gradient_shard_bytes", "B", co.shard_bytes, grads, k), b_net, alpha_n),
                 n_w, derive("dp_weight_phase_network_s", "s", co.ring_phase_s, n,
                             derive("weight_shard_bytes", "B", co.shard_bytes, weights, k), b_net, alpha_n))
    return intra, net


def _combine(layout: Layout, a: Assumptions, x: _Leaves, m: Figure, work: dict[str, Figure],
             comm: tuple[Figure, Figure, Figure, Figure], on_network: bool) -> dict[str, Figure]:
    tp, pp, dp_intra, dp_net = comm
    zero = given("zero", "s", 0.0, "derived")
    dp = derive("dp_s", "s", st.sum_s, dp_intra, dp_net)
    window = derive("step.dp_overlap_window_s", "s", st.OVERLAP_WINDOW[layout.zero_stage], m,
                    work["compute.backward_s"], work["compute.forward_s"])
    exposed = derive("step.dp_exposed_s", "s", st.exposed_dp_s, dp,
                     given("assumptions.dp_overlap_fraction", "1", a.dp_overlap_fraction, "assumption"), window)
    slot = derive("step.slot_s", "s", st.slot_s, work["compute.microbatch_s"], tp, pp)
    pipeline = derive("step.pipeline_s", "s", st.slots_s, m, x.p, slot)
    step = derive("step.step_s", "s", st.sum_s, pipeline, exposed)
    exposed_comm = derive("step.exposed_comm_s", "s", st.sum_s,
                          derive("tp_pp_per_step_s", "s", st.slots_s, m, x.p,
                                 derive("tp_pp_microbatch_s", "s", st.sum_s, tp, pp)), exposed)
    pp_intra, pp_net = (zero, pp) if on_network else (pp, zero)
    intra = derive("step.intra_node_s", "s", st.sum_s,
                   derive("intra_node_slots_s", "s", st.slots_s, m, x.p,
                          derive("intra_node_microbatch_s", "s", st.sum_s, tp, pp_intra)),
                   derive("dp_exposed_intra_node_s", "s", st.exposed_part_s, exposed, dp_intra, dp))
    net = derive("step.network_s", "s", st.sum_s, derive("network_slots_s", "s", st.slots_s, m, x.p, pp_net),
                 derive("dp_exposed_network_s", "s", st.exposed_part_s, exposed, dp_net, dp))
    figures = [tp, pp, dp_intra, dp_net, slot, pipeline, window, exposed, step, exposed_comm, intra, net,
               derive("step.compute_s", "s", st.slots_s, m, x.p, work["compute.microbatch_s"]),
               derive("step.bubble_s", "s", st.bubble_s, x.p, slot),
               derive("step.comm_share", "1", st.share, exposed_comm, step),
               derive("step.tokens_per_s", "1/s", st.tokens_per_s, x.B, x.s, step),
               derive("step.achieved_mfu", "1", st.achieved_mfu, work["compute.model_flop_per_step"], step, x.gpus,
                      x.peak)]
    return {figure.key: figure for figure in figures}


def _scaling(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions,
             step: Figure) -> Figure | None:
    """Scaling efficiency against one node, the reference's step time explained in full."""
    if cluster.node_count == 1:
        return None
    ref_layout = reference_layout(cluster, layout)
    if isinstance(ref_layout, str):
        return None
    ref_cluster = Cluster(cluster.node, 1, cluster.fabric_bandwidth_fraction)
    x = _leaves(workload, ref_cluster, ref_layout, assumptions)
    m = derive("step.microbatches", "1", st.microbatches, x.B, x.d, x.b)
    ref_step = _step(ref_cluster, ref_layout, assumptions, x, m, _compute(ref_layout, x))["step.step_s"]
    return derive("scaling_efficiency", "1", scaling_efficiency, _one_node(ref_step, {}), step)


def _one_node(figure: Figure, done: dict[int, Figure]) -> Figure:
    """The reference's chain with `one_node.` before every key that is not shared with the cluster's."""
    if id(figure) not in done:
        shared = figure.origin in ("workload", "assumption") or figure.key.startswith("node.")
        inputs = tuple((symbol, _one_node(child, done)) for symbol, child in figure.inputs)
        done[id(figure)] = figure if shared else replace(figure, key=f"one_node.{figure.key}", inputs=inputs)
    return done[id(figure)]
