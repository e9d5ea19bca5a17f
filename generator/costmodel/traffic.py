"""What each kind of parallelism sends, per step or per micro-batch.

Data parallel (ZeRO §7, "Communication analysis of ZeRO-DP"): counted in ring phases (one
reduce-scatter or one all-gather over the group), on S_g = Ψ'·gradient bytes or S_w = Ψ'·weight
bytes per GPU, with m micro-batches per step:
- stage 0: one all-reduce of the gradients per step (2 phases on S_g: 2Ψ, §7.1);
- stage 1: reduce-scatter of the gradients, all-gather of the updated weights (§7.2.1: 2Ψ);
- stage 2: the gradients are partitioned, so each micro-batch's gradients are reduce-scattered
  as its backward pass makes them (m phases on S_g), then one all-gather of the weights;
- hybrid sharding (shard groups of G ranks): the stage's phases run inside a group, on the same
  S_g and S_w (each rank holds 1/G of the states), and once a step each rank all-reduces its
  gradient shard, S_g ÷ G, with its N_d·c ÷ G replicas in the other groups (2 phases);
- stage 3: per micro-batch, all-gather the weights for the forward and again for the backward
  pass, and reduce-scatter the gradients (§7.2.2: 3Ψ per micro-batch, 1.5× stage 0 when m = 1).
  Each layer is gathered and reduced on its own (PyTorch FSDP's unit is a transformer block; the
  ZeRO paper's §7.2.2 gathers "in a pipelined manner" layer by layer), so each phase is L ÷ p
  collectives and pays the ring's latency that many times; the other stages move their state in
  one collective per phase (bucketing makes a few, whose latency is negligible). DeepSpeed's
  ZeRO-3 from its first release (v0.3.13, 2021-03) through v0.5.4 (`zero_gather: tensor-sync`)
  instead gathers and reduce-scatters every parameter tensor on its own, T = 2·k_n + (2 + n)·k_b
  a layer (k_n = 2 tensors a LayerNorm, 1 an RMSNorm; n MLP matrices; k_b = 2 with biases, else
  1; QKV fused, as Megatron's GPT has it), so each phase is (L ÷ p)·T collectives, and each
  all-gather waits for a device-wide synchronize, so the gathers are exposed whole (`step.py`).
  Each of those collectives also costs the host N·κ: DeepSpeed hands PyTorch a list of one
  tensor per rank of the N-rank group, and PyTorch's NCCL backend of that time (ProcessGroupNCCL,
  2021) copies the list item by item, after an all-gather and before a reduce-scatter, each copy
  a kernel launch. At a few microseconds a launch this is what makes those runs slower as N grows
  at a fixed batch per GPU (Narayanan et al. 2021, Table 2).
- FP8 weights gathered in FP8 (the layout's `fp8_param_gather`: Megatron-Core's
  --fp8-param-gather, NeMo's fp8_params, Transformer Engine's fp8_model_init): the linear layers'
  weights are held in FP8, so every weight all-gather moves them at 1 byte; the embedding, the
  output layer and a position table stay 16-bit. S_w = Ψ'·(φ₈·1 + (1 − φ₈)·B), with φ₈ the FP8
  share of the gathered parameters, 1 − (e·V·h + P·h) ÷ Ψ (the norms' and biases' vectors, under
  a thousandth of Ψ, are counted with the linear weights); a mixture of experts' routed experts
  are linear weights only (φ₈ = 1), and the share of the rest is taken over Ψ − Ψ_E. The
  gradients are reduced as before (the gathered weights are what shrinks).

Tensor parallel (Megatron-LM, Shoeybi et al. 2019 §3; Korthikanti et al. 2022 §4.2.2): per layer
and micro-batch two all-reduces in the forward and two in the backward pass, of b·s·h 16-bit
values, over the t GPUs on the scale-up link; sequence parallelism turns each into a
reduce-scatter plus an all-gather of the same volume (the same α-β time); full recomputation
repeats the forward pass's two. Grouped-query attention and gated MLPs change none of this: the
all-reduced tensors are the outputs of the row-parallel layers (the attention's output projection
and the MLP's down projection), b·s·h whatever the key/value heads and the MLP width.

Pipeline parallel (Narayanan et al. 2021 §2.2 and §4.1): per micro-batch, a stage sends its
output activations forward and receives their gradients back, b·s·h 16-bit values, each GPU of
the tensor-parallel group sending its 1/t share (the scatter/gather optimisation). Both
transfers sit on the critical path (b·s·h for any block shape: a stage's output is the residual
stream). DeepSpeed's pipeline engine has no such split: each GPU of the group sends the whole
output (the layout's `pp_scatter_gather` False). They cross the network when the pipeline spans nodes; the
slowest boundary sets the pace, and each GPU then has its 1/g share of the node's NICs, as for the
data-parallel collectives. Under the interleaved schedule (§2.2.2) each micro-batch crosses every
stage boundary v times, so the transfers per micro-batch are v times as many.

Context parallel (ring attention; Liu et al. 2023, Megatron-LM context parallelism): per layer and
micro-batch, each of the c GPUs of a sequence passes its keys and values, S_kv = 2·b·(s/c)·h_kv·2 ÷ t
bytes (K and V of its s/c tokens, 16-bit, its 1/t share of the key/value heads), around the ring in
c − 1 steps, each a send/receive; three passes of it per micro-batch: the forward's K and V, the
backward's K and V again and their gradients. It runs on the scale-up link when t·c GPUs fit in a
node, else on the network. Overlap (stated as a formula): the ring hides behind the attention
core's compute, up to that compute, T_cp − min(T_cp, T_attn).
"""

from __future__ import annotations

from collections.abc import Callable

from .chain import formula

ZERO_COMM = "ZeRO (Rajbhandari et al. 2020) §7"
ACTIVATION_BYTES = 2.0
"""Bytes per activation value: 16-bit, as in Korthikanti et al. 2022 §4.1."""
FP8_GATHER = ("Megatron-Core --fp8-param-gather (Megatron-Bridge's delayed, current-scaling and MXFP8 recipes set "
              "it), NeMo fp8_params: the linear layers' weights held and all-gathered in FP8; the embeddings and the "
              "output layer stay 16-bit")


@formula("1 − (e·V·h + P·h) ÷ Ψ (the linear layers' weights: all but the embeddings and a position table)",
         "e V h P Ψ", FP8_GATHER)
def fp8_parameter_share(embeddings: float, vocabulary: float, hidden: float, positions: float,
                        parameters: float) -> float:
    return max(0.0, 1.0 - (embeddings * vocabulary * hidden + positions * hidden) / parameters)


@formula("1 − (e·V·h + P·h) ÷ (Ψ − Ψ_E) (outside the routed experts: all but the embeddings and a position table)",
         "e V h P Ψ Ψ_E", FP8_GATHER)
def fp8_dense_parameter_share(embeddings: float, vocabulary: float, hidden: float, positions: float,
                              parameters: float, routed: float) -> float:
    return fp8_parameter_share(embeddings, vocabulary, hidden, positions, parameters - routed)


@formula("1 byte (FP8)", "", FP8_GATHER + "; routed experts are linear weights only")
def fp8_bytes_per_parameter() -> float:
    return 1.0


@formula("φ₈·1 + (1 − φ₈)·B (FP8 weights gathered at 1 byte)", "φ₈ B", FP8_GATHER)
def fp8_gather_bytes_per_parameter(share: float, bytes_per_parameter: float) -> float:
    return share * 1.0 + (1.0 - share) * bytes_per_parameter


@formula("2 (all-reduce once per step)", "m", ZERO_COMM + ".1")
def _two_phases(microbatches: float) -> float:
    return 2.0


@formula("1", "m", ZERO_COMM + ".2.1")
def _one_phase(microbatches: float) -> float:
    return 1.0


@formula("0", "m", ZERO_COMM)
def _no_phase(microbatches: float) -> float:
    return 0.0


@formula("m (a reduce-scatter per micro-batch)", "m", ZERO_COMM + ".2 (partitioned gradients)")
def _per_microbatch(microbatches: float) -> float:
    return microbatches


@formula("2m (all-gather for forward and backward of each micro-batch)", "m", ZERO_COMM + ".2.2")
def _twice_per_microbatch(microbatches: float) -> float:
    return 2.0 * microbatches


@formula("1 collective per phase", "L p", ZERO_COMM)
def _one_collective(layers: float, pipeline: float) -> float:
    return 1.0


@formula("L ÷ p (a collective per layer of the stage)", "L p", ZERO_COMM + ".2.2; PyTorch FSDP's per-block units")
def _per_layer(layers: float, pipeline: float) -> float:
    return layers / pipeline


@formula("2·k_n + (2 + n)·k_b (the norms' tensors; QKV, projection and MLP weights, and their biases)",
         "k_n n k_b", "DeepSpeed ZeRO-3 gathers and reduces each parameter tensor on its own")
def parameter_tensors_per_layer(norm_tensors: float, mlp_matrices: float, bias_factor: float) -> float:
    return 2.0 * norm_tensors + (2.0 + mlp_matrices) * bias_factor


@formula("(L ÷ p)·T (a collective per parameter tensor of the stage's layers)", "L p T",
         "DeepSpeed ZeRO-3 through v0.5.4: _allgather_param and _reduce_scatter_gradient, per tensor")
def per_tensor(layers: float, pipeline: float, tensors: float) -> float:
    return layers / pipeline * tensors


@formula("λ + N·κ (a copy per rank's tensor of the list)", "λ N κ",
         "PyTorch ProcessGroupNCCL (2021): allgather and reduce_scatter of a tensor list copy each item")
def per_tensor_latency_s(ring_latency_s: float, ranks: float, rank_overhead_s: float) -> float:
    return ring_latency_s + ranks * rank_overhead_s


@formula("n_w·(T_w,intra + T_w,net)", "n_w T_wi T_wn",
         "each all-gather follows torch.cuda.synchronize(): none hides behind compute")
def synchronous_gathers_s(weight_phases: float, intra_s: float, network_s: float) -> float:
    return weight_phases * (intra_s + network_s)


COLLECTIVES_PER_PHASE: dict[int, Callable[[float, float], float]] = {
    0: _one_collective, 1: _one_collective, 2: _one_collective, 3: _per_layer}

GRADIENT_PHASES: dict[int, Callable[[float], float]] = {0: _two_phases, 1: _one_phase, 2: _per_microbatch, 3: _per_microbatch}
WEIGHT_PHASES: dict[int, Callable[[float], float]] = {0: _no_phase, 1: _one_phase, 2: _one_phase, 3: _twice_per_microbatch}


@formula("2·T (a ring all-reduce: a reduce-scatter, then an all-gather)", "T",
         "hybrid sharding: the gradient shards across the replicas, once a step")
def all_reduce_s(phase_s: float) -> float:
    return 2.0 * phase_s


@formula("n_g·T_g + n_w·T_w", "n_g T_g n_w T_w", ZERO_COMM)
def phases_s(gradient_phases: float, gradient_phase_s: float, weight_phases: float, weight_phase_s: float) -> float:
    return gradient_phases * gradient_phase_s + weight_phases * weight_phase_s


@formula("b·s·h·2 bytes", "b s h", "16-bit activations")
def activation_message_bytes(b: float, s: float, h: float) -> float:
    return b * s * h * ACTIVATION_BYTES


@formula("4 all-reduces per layer (2 forward, 2 backward)", "t", "Shoeybi et al. 2019 §3")
def _four_per_layer(tensor: float) -> float:
    return 4.0


@formula("6 all-reduces per layer (the recomputed forward repeats 2)", "t", "Shoeybi et al. 2019 §3; full recomputation")
def _six_per_layer(tensor: float) -> float:
    return 6.0


TP_COLLECTIVES_PER_LAYER: dict[str, Callable[[float], float]] = {
    "none": _four_per_layer,
    "selective": _four_per_layer,
    "full": _six_per_layer,
}


@formula("n_c · L/p · T_ar", "n_c L p T_ar", "per micro-batch, on the critical path")
def tp_microbatch_s(collectives: float, layers: float, pipeline: float, all_reduce_s: float) -> float:
    return collectives * (layers / pipeline) * all_reduce_s


@formula("S ÷ t (scatter/gather optimisation)", "S t", "Narayanan et al. 2021 §4.1")
def pipeline_message_bytes(size_bytes: float, tensor: float) -> float:
    return size_bytes / tensor


@formula("S (every GPU of the tensor-parallel group sends the whole output)", "S t",
         "DeepSpeed's pipeline engine (deepspeed/runtime/pipe/engine.py, _exec_send_activations)")
def pipeline_whole_message_bytes(size_bytes: float, tensor: float) -> float:
    return size_bytes


@formula("2·min(p − 1, 1)·T_send (activation forward, gradient back)", "p T_send", "Narayanan et al. 2021 §2.2")
def pp_microbatch_s(pipeline: float, send_s: float) -> float:
    return 2.0 * min(pipeline - 1.0, 1.0) * send_s


@formula("2·min(p − 1, 1)·v·T_send (v chunks per stage)", "p v T_send", "Narayanan et al. 2021 §2.2.2 (interleaved)")
def pp_microbatch_interleaved_s(pipeline: float, chunks: float, send_s: float) -> float:
    return 2.0 * min(pipeline - 1.0, 1.0) * chunks * send_s


@formula("2·b·(s/c)·h_kv·2 ÷ t bytes (K and V)", "b s_c h_kv t", "context parallelism: each GPU's key/value chunk")
def kv_chunk_bytes(b: float, local_sequence: float, kv_width: float, tensor: float) -> float:
    return 2.0 * b * local_sequence * kv_width * ACTIVATION_BYTES / tensor


@formula("3·(L ÷ p)·(c − 1)·T_send (forward K, V; backward K, V and their gradients)", "L p c T_send",
         "ring attention (Liu et al. 2023); Megatron-LM context parallelism")
def ring_kv_s(layers: float, pipeline: float, context: float, send_s: float) -> float:
    return 3.0 * (layers / pipeline) * (context - 1.0) * send_s
