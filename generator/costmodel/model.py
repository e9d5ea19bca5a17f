"""The estimate: memory, compute, communication and step outputs for one configuration.

This is the fast path: it calls the registered formulas on floats and keeps the figures in
result records. `explain.py` computes the same figures as a chain, with the same formulas in the
same order; a test holds the two equal. Every count is converted to a float before any
arithmetic, so the order of IEEE operations is the one written in each formula.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import collectives as co
from . import compute as cp
from . import memory as me
from . import shape as sh
from . import step as st
from . import traffic as tr
from .chain import formula
from .feasibility import Problem, check
from .inputs import Assumptions, Cluster, Layout, Workload


@dataclass(frozen=True)
class Estimate:
    """All outputs of one configuration. `scaling_efficiency` is None when no one-node run with
    the same per-GPU work exists; `scaling_note` then says why."""

    memory: me.Memory
    compute: cp.Compute
    step: st.Step
    bottleneck: st.Bottleneck
    scaling_efficiency: float | None
    scaling_note: str


@dataclass(frozen=True)
class Result:
    """Either problems (and no estimate) or an estimate (and no problems)."""

    problems: tuple[Problem, ...]
    estimate: Estimate | None


@formula("T_ref ÷ T_step", "T_ref T_step", "weak scaling: same t, p, b, m per GPU on one node")
def scaling_efficiency(reference_step_s: float, step_s: float) -> float:
    return reference_step_s / step_s


def estimate(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> Result:
    """Estimate one configuration, or say why it cannot be estimated."""
    problems = check(workload, cluster, layout, assumptions)
    if problems:
        return Result(problems, None)
    data_parallel = data_parallel_size(cluster, layout)
    m = st.microbatches(float(layout.global_batch_size), data_parallel, float(layout.micro_batch_size))
    memory = memory_per_gpu(workload, cluster, layout, assumptions, data_parallel, m)
    work = compute(workload, cluster, layout, assumptions)
    step = step_time(workload, cluster, layout, assumptions, work, data_parallel, m)
    choke = st.bottleneck(memory.fits, step.compute_s, step.intra_node_s, step.network_s)
    efficiency, note = one_node_scaling(workload, cluster, layout, assumptions, step)
    return Result((), Estimate(memory, work, step, choke, efficiency, note))


def data_parallel_size(cluster: Cluster, layout: Layout) -> float:
    gpus = cluster.node_count * cluster.node.gpus_per_node
    return float(gpus // (layout.tensor_parallel * layout.pipeline_parallel))


def memory_per_gpu(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions,
                   data_parallel: float, microbatches: float) -> me.Memory:
    t, p = float(layout.tensor_parallel), float(layout.pipeline_parallel)
    psi = me.parameters_per_gpu(float(workload.parameter_count), t, p)
    states = []
    for partitioned, per_parameter in zip(me.partitions(layout.zero_stage), (
            assumptions.weight_bytes_per_parameter, assumptions.gradient_bytes_per_parameter,
            assumptions.optimizer_bytes_per_parameter), strict=True):
        states.append(me.partitioned_bytes(psi, per_parameter, data_parallel) if partitioned
                      else me.replicated_bytes(psi, per_parameter))
    weights, gradients, optimizer = states
    per_layer = me.ACTIVATIONS_PER_LAYER[(layout.recompute, layout.sequence_parallel)](
        float(layout.sequence_length), float(layout.micro_batch_size), float(workload.hidden_size),
        float(workload.attention_heads), t, sh.width_ratio_of(workload))
    held = me.activation_layers_held(float(workload.layers), p, microbatches)
    activations = me.activations_held(per_layer, held)
    total = me.total_bytes(weights, gradients, optimizer, activations)
    usable = me.usable_bytes(cluster.node.gpu.memory_capacity_bytes, assumptions.memory_reserve_fraction)
    return me.Memory(weights, gradients, optimizer, per_layer, held, activations, total, usable,
                     me.headroom_bytes(usable, total), total <= usable)


def peak_flop_per_s(cluster: Cluster, layout: Layout) -> float:
    gpu = cluster.node.gpu
    return (gpu.dense_fp8_flop_per_s or 0.0) if layout.precision == "fp8" else gpu.dense_bf16_flop_per_s


def compute(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> cp.Compute:
    s, b = float(layout.sequence_length), float(layout.micro_batch_size)
    layers, h, v = float(workload.layers), float(workload.hidden_size), float(workload.vocabulary_size)
    t, p = float(layout.tensor_parallel), float(layout.pipeline_parallel)
    peak, r = peak_flop_per_s(cluster, layout), sh.width_ratio_of(workload)
    per_step = cp.model_flop(float(layout.global_batch_size), s, layers, h, v, r)
    model_mb = cp.per_gpu(cp.model_flop(b, s, layers, h, v, r), t, p)
    executed_mb = cp.per_gpu(cp.EXECUTED_FLOP[layout.recompute](b, s, layers, h, v, r), t, p)
    forward = cp.seconds_at_rate(cp.forward_flop(model_mb), peak, assumptions.mfu)
    microbatch = cp.seconds_at_rate(executed_mb, peak, assumptions.mfu)
    return cp.Compute(peak, per_step, model_mb, executed_mb, forward, cp.backward_s(microbatch, forward), microbatch)


def step_time(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, work: cp.Compute,
              data_parallel: float, m: float) -> st.Step:
    node, a = cluster.node, assumptions
    t, p, g = float(layout.tensor_parallel), float(layout.pipeline_parallel), float(node.gpus_per_node)
    b_intra = co.intra_node_bandwidth(node.scale_up_per_direction_bytes_per_s, a.intra_node_collective_efficiency)
    b_net = co.network_bandwidth_per_gpu(float(node.nics_per_node), node.nic_port_per_direction_bytes_per_s, g,
                                         a.network_collective_efficiency, cluster.fabric_bandwidth_fraction)
    message = tr.activation_message_bytes(float(layout.micro_batch_size), float(layout.sequence_length),
                                          float(workload.hidden_size))
    tp_ar = co.ring_all_reduce_s(t, message, b_intra, a.intra_node_step_latency_s)
    tp = tr.tp_microbatch_s(tr.TP_COLLECTIVES_PER_LAYER[layout.recompute](t), float(workload.layers), p, tp_ar)
    on_network = layout.pipeline_parallel > 1 and cluster.node_count > 1
    send = co.send_recv_s(tr.pipeline_message_bytes(message, t), b_net if on_network else b_intra,
                          a.network_step_latency_s if on_network else a.intra_node_step_latency_s)
    pp = tr.pp_microbatch_s(p, send)
    dp_intra, dp_net = data_parallel_s(workload, cluster, layout, assumptions, data_parallel, m, b_intra, b_net)
    return combine(layout, assumptions, work, m, tp, pp, on_network, dp_intra, dp_net,
                   float(cluster.node_count) * g)


def data_parallel_s(workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions, data_parallel: float,
                    m: float, b_intra: float, b_net: float) -> tuple[float, float]:
    """Seconds of data-parallel communication per step: (intra-node part, network part)."""
    t, p = float(layout.tensor_parallel), float(layout.pipeline_parallel)
    k = co.dp_peers_per_node(data_parallel, float(cluster.node.gpus_per_node), t)
    n = co.dp_nodes(data_parallel, k)
    psi = me.parameters_per_gpu(float(workload.parameter_count), t, p)
    grads = me.replicated_bytes(psi, a.gradient_bytes_per_parameter)
    weights = me.replicated_bytes(psi, a.weight_bytes_per_parameter)
    n_g = tr.GRADIENT_PHASES[layout.zero_stage](m)
    n_w = tr.WEIGHT_PHASES[layout.zero_stage](m)
    alpha_i, alpha_n = a.intra_node_step_latency_s, a.network_step_latency_s
    intra = tr.phases_s(n_g, co.ring_phase_s(k, grads, b_intra, alpha_i),
                        n_w, co.ring_phase_s(k, weights, b_intra, alpha_i))
    net = tr.phases_s(n_g, co.ring_phase_s(n, co.shard_bytes(grads, k), b_net, alpha_n),
                      n_w, co.ring_phase_s(n, co.shard_bytes(weights, k), b_net, alpha_n))
    return intra, net


def combine(layout: Layout, a: Assumptions, work: cp.Compute, m: float, tp: float, pp: float, on_network: bool,
            dp_intra: float, dp_net: float, gpus: float) -> st.Step:
    p = float(layout.pipeline_parallel)
    dp = st.sum_s(dp_intra, dp_net)
    window = st.OVERLAP_WINDOW[layout.zero_stage](m, work.backward_s, work.forward_s)
    exposed = st.exposed_dp_s(dp, a.dp_overlap_fraction, window)
    slot = st.slot_s(work.microbatch_s, tp, pp)
    pipeline = st.slots_s(m, p, slot)
    step = st.sum_s(pipeline, exposed)
    exposed_comm = st.sum_s(st.slots_s(m, p, st.sum_s(tp, pp)), exposed)
    pp_intra, pp_net = (0.0, pp) if on_network else (pp, 0.0)
    intra = st.sum_s(st.slots_s(m, p, st.sum_s(tp, pp_intra)), st.exposed_part_s(exposed, dp_intra, dp))
    net = st.sum_s(st.slots_s(m, p, pp_net), st.exposed_part_s(exposed, dp_net, dp))
    return st.Step(
        m, tp, pp, on_network, dp_intra, dp_net, slot, pipeline, st.slots_s(m, p, work.microbatch_s),
        st.bubble_s(p, slot), window, exposed, step, exposed_comm, st.share(exposed_comm, step),
        st.tokens_per_s(float(layout.global_batch_size), float(layout.sequence_length), step),
        st.achieved_mfu(work.model_flop_per_step, step, gpus, work.peak_flop_per_s), intra, net)


def reference_layout(cluster: Cluster, layout: Layout) -> Layout | str:
    """The one-node run with the same per-GPU work (same t, p, b and micro-batches per step), or
    why there is none."""
    g, replica = cluster.node.gpus_per_node, layout.tensor_parallel * layout.pipeline_parallel
    if replica > g:
        return f"no one-node reference: a model replica needs t × p = {replica} GPUs, more than a node's {g}"
    if g % replica:
        return f"no one-node reference: a model replica of t × p = {replica} GPUs does not divide a node's {g}"
    data_parallel = cluster.node_count * g // replica
    per_replica = layout.global_batch_size // data_parallel
    return replace(layout, global_batch_size=per_replica * (g // replica))


def one_node_scaling(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions,
                     step: st.Step) -> tuple[float | None, str]:
    """Scaling efficiency against one node: its step time ÷ the cluster's (see `reference_layout`)."""
    if cluster.node_count == 1:
        return 1.0, "the cluster is one node"
    ref_layout = reference_layout(cluster, layout)
    if isinstance(ref_layout, str):
        return None, ref_layout
    ref_cluster = replace(cluster, node_count=1)
    data_parallel = data_parallel_size(ref_cluster, ref_layout)
    work = compute(workload, ref_cluster, ref_layout, assumptions)
    ref = step_time(workload, ref_cluster, ref_layout, assumptions, work, data_parallel, step.microbatches)
    return scaling_efficiency(ref.step_s, step.step_s), f"against one node running {ref_layout.global_batch_size} sequences per step"
