"""One training step: the pipeline schedule, the overlap of data-parallel communication, the
outputs and the bottleneck.

Pipeline (1F1B; Narayanan et al. 2021 §2.2.1, GPipe's bubble): a step runs m + p − 1 slots, each
one micro-batch's compute plus its tensor-parallel communication plus its two pipeline
transfers; (p − 1) of them are the bubble, a fraction (p − 1)/(m + p − 1) of the pipeline time.

Interleaved 1F1B (Narayanan et al. 2021 §2.2.2): with v model chunks per stage the bubble
shrinks to (p − 1)/v slots, so a step runs m + (p − 1)/v slots (each still one micro-batch's
compute over all of a stage's chunks); the point-to-point traffic grows v-fold (`traffic.py`).

Tensor-parallel overlap (a layout input, Megatron-LM's --tp-comm-overlap): a share o of the
tensor-parallel time per micro-batch hides behind the GEMMs it is split with, no more than the
micro-batch's compute: T_tp − min(o·T_tp, T_mb) stays on the critical path.

Context-parallel ring exchange (traffic.py): only what the attention core's compute cannot hide,
T_cp − min(T_cp, T_attn), sits in each slot beside the tensor-parallel and pipeline time.

Data-parallel communication (an assumption, stated): a fraction `dp_overlap_fraction` of it can
hide behind compute, but no more than the compute it can run beside: with stages 0-1 the
gradient reduction starts in the last micro-batch's backward pass (earlier ones accumulate
locally), so one micro-batch's backward time; with stage 2 each micro-batch's backward pass; with
stage 3 (parameter all-gathers are prefetched) each micro-batch's forward and backward. The rest
is exposed and adds to the step. ZeRO-3 gathers issued after a device synchronize (`zero_gather:
tensor-sync`) hide behind nothing: they are exposed whole, and only the rest overlaps.
Tensor-parallel and pipeline transfers are not overlapped.

Definitions:
- step time = pipeline time + exposed data-parallel communication;
- exposed communication = (m + p − 1)·(tensor-parallel + pipeline time per micro-batch) +
  exposed data-parallel communication; of it, the tensor-parallel part is (m + p − 1)·T_tp; communication share = exposed communication ÷ step time,
  in [0, 1) as compute is never zero; the rest of the step is compute, bubble included;
- achieved MFU = model FLOPs per step ÷ (step time × GPUs × dense peak);
- bottleneck: `memory` when the total does not fit; otherwise the largest of compute (with the
  bubble's share), intra-node communication and network communication, where exposed data-
  parallel time is split between the two links in proportion to their shares of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal

from .chain import formula
from .evaluate import V

Bottleneck = Literal["memory", "compute", "intra_node", "network"]
PIPELINE = "Narayanan et al. 2021 §2.2.1 (1F1B)"
OVERLAP = "assumption: data-parallel overlap"


@dataclass(frozen=True)
class Step(Generic[V]):
    """Seconds per step and the outputs derived from them, as floats (the estimate) or figures
    (its chain)."""

    microbatches: V
    tp_microbatch_s: V
    pp_microbatch_s: V
    pp_on_network: bool
    dp_intra_node_s: V
    dp_network_s: V
    slot_s: V
    pipeline_s: V
    compute_s: V
    bubble_s: V
    dp_overlap_window_s: V
    dp_exposed_s: V
    step_s: V
    exposed_comm_s: V
    comm_share: V
    tokens_per_s: V
    achieved_mfu: V
    intra_node_s: V
    network_s: V
    tp_s: V
    """The tensor-parallel collectives left exposed, per step: T_tp over the schedule's slots."""
    ep_microbatch_s: V | None = None
    """The expert-parallel all-to-all left exposed per micro-batch (None without experts spread
    over GPUs), and below whether it crosses the network, its seconds per step and share."""
    ep_on_network: bool = False
    all_to_all_s: V | None = None
    all_to_all_share: V | None = None


@formula("B ÷ (N_d·b)", "B N_d b", "micro-batches per pipeline per step")
def microbatches(global_batch: float, data_parallel: float, micro_batch: float) -> float:
    return global_batch / (data_parallel * micro_batch)


@formula("T_mb + T_tp + T_pp", "T_mb T_tp T_pp", PIPELINE)
def slot_s(compute_s: float, tp_s: float, pp_s: float) -> float:
    return compute_s + tp_s + pp_s


@formula("(m + p − 1)·T", "m p T", PIPELINE)
def slots_s(microbatches: float, pipeline: float, per_slot_s: float) -> float:
    return (microbatches + pipeline - 1.0) * per_slot_s


INTERLEAVED = "Narayanan et al. 2021 §2.2.2 (interleaved 1F1B)"


@formula("(m + (p − 1)/v)·T", "m p v T", INTERLEAVED)
def slots_interleaved_s(microbatches: float, pipeline: float, chunks: float, per_slot_s: float) -> float:
    return (microbatches + (pipeline - 1.0) / chunks) * per_slot_s


@formula("(p − 1)/v·T_slot", "p v T_slot", INTERLEAVED + " (bubble)")
def bubble_interleaved_s(pipeline: float, chunks: float, slot: float) -> float:
    return (pipeline - 1.0) / chunks * slot


@formula("T_tp − min(o·T_tp, T_mb)", "T_tp o T_mb", "layout: tp_overlap (Megatron-LM --tp-comm-overlap)")
def exposed_tp_s(tp_s: float, overlap: float, compute_s: float) -> float:
    return tp_s - min(overlap * tp_s, compute_s)


@formula("(p − 1)·T_slot", "p T_slot", PIPELINE + " (bubble)")
def bubble_s(pipeline: float, slot: float) -> float:
    return (pipeline - 1.0) * slot


@formula("T_bwd (last micro-batch only)", "m T_bwd T_fwd", OVERLAP + ", ZeRO 0-1")
def _window_last_backward(microbatches: float, backward_s: float, forward_s: float) -> float:
    return backward_s


@formula("m·T_bwd", "m T_bwd T_fwd", OVERLAP + ", ZeRO 2")
def _window_every_backward(microbatches: float, backward_s: float, forward_s: float) -> float:
    return microbatches * backward_s


@formula("m·(T_fwd + T_bwd)", "m T_bwd T_fwd", OVERLAP + ", ZeRO 3")
def _window_every_pass(microbatches: float, backward_s: float, forward_s: float) -> float:
    return microbatches * (forward_s + backward_s)


OVERLAP_WINDOW = {0: _window_last_backward, 1: _window_last_backward, 2: _window_every_backward, 3: _window_every_pass}


@formula("T_a + T_b", "T_a T_b", "sum")
def sum_s(first: float, second: float) -> float:
    return first + second


@formula("T_dp − min(o·T_dp, W)", "T_dp o W", OVERLAP)
def exposed_dp_s(dp_s: float, overlap: float, window_s: float) -> float:
    return dp_s - min(overlap * dp_s, window_s)


@formula("T_sync + (T_dp − T_sync) − min(o·(T_dp − T_sync), W)", "T_dp T_sync o W",
         OVERLAP + "; synchronous all-gathers hide behind nothing")
def exposed_dp_synchronous_s(dp_s: float, synchronous_s: float, overlap: float, window_s: float) -> float:
    rest = dp_s - synchronous_s
    return synchronous_s + rest - min(overlap * rest, window_s)


@formula("X ÷ T_step", "X T_step", "share of the step")
def share(part_s: float, step: float) -> float:
    return part_s / step


@formula("B·s ÷ T_step", "B s T_step", "tokens per second")
def tokens_per_s(global_batch: float, s: float, step: float) -> float:
    return global_batch * s / step


@formula("F_model ÷ (T_step·N·R)", "F_model T_step N R", "Chowdhery et al. 2022 appendix B (MFU)")
def achieved_mfu(model_flop: float, step: float, gpus: float, peak: float) -> float:
    return model_flop / (step * gpus * peak)


@formula("E·T_link ÷ T_dp (0 when T_dp = 0)", "E T_link T_dp", "exposed time split in proportion")
def exposed_part_s(exposed_s: float, link_s: float, dp_s: float) -> float:
    if dp_s <= 0.0:
        return 0.0
    return exposed_s * link_s / dp_s


def bottleneck(fits: bool, compute_s: float, intra_node_s: float, network_s: float) -> Bottleneck:
    """Memory when it does not fit; else the largest time, ties going to the earlier name."""
    if not fits:
        return "memory"
    if compute_s >= intra_node_s and compute_s >= network_s:
        return "compute"
    return "intra_node" if intra_node_s >= network_s else "network"


@formula("T_cp − min(T_cp, T_attn)", "T_cp T_attn", "context parallelism: the ring hides behind attention compute")
def exposed_ring_s(ring_s: float, attention_s: float) -> float:
    return ring_s - min(ring_s, attention_s)


@formula("T_mb + T_tp + T_pp + T_cp", "T_mb T_tp T_pp T_cp", "1F1B slot with context parallelism")
def slot_context_s(compute_s: float, tp_s: float, pp_s: float, cp_s: float) -> float:
    return compute_s + tp_s + pp_s + cp_s
