"""Mixture-of-experts layers, latent attention and explicit head widths: their shapes, FLOPs,
sharding and all-to-all traffic.

Shape. A block's attention weights are h·(a·d) for the queries and the output projection each and
h·(kv·d) for the keys and the values each, d the head width (h ÷ a unless the workload states it:
Qwen3 runs 32 heads of 128 on a width of 2048). Multi-head latent attention (DeepSeek-V2 report
§2.1, Eq. 9-19) projects the hidden state down to a query latent of q_c and a key/value latent of
c_kv plus one shared rotary key of d_r, then up to a heads of d_n + d_r for queries, d_n for keys
and d_v for values; the output projection reads the a·d_v values. A query latent of 0 means the
queries are projected straight from h (DeepSeek-V2-Lite). Each head scores s keys of its
query-key width and reads s values of its value width, so a layer's attention core costs
4·s²·h_att forward FLOPs per sequence with h_att = a·(d_qk + d_v) ÷ 2: a·d for ordinary heads
(h itself when d = h ÷ a), a·(d_n + d_r + d_v) ÷ 2 for latent attention, 2.9·h for DeepSeek-V3.

An MoE layer's MLP is E routed experts and s_e shared experts of width f_e, n matrices each
(3 for SwiGLU), and a router of h × E; the first D layers keep a dense MLP of width f. Ψ counts
every expert; a token passes through k routed experts, the shared ones and the router. The model
keeps its one width ratio r (`shape.py`), now of the weights a token passes through, averaged over
the layers: r = (W_att + (D·W_dense + (L − D)·W_active) ÷ L) ÷ (12h²). The FLOPs of a step are
72·B·s·L·h²·r + the attention and logit terms as before (`compute.py`); the stored activations are
scaled by the same r (each token's expert intermediates are those of the k + s_e experts it
visits).

Expert parallelism (e GPUs share a layer's experts, E ÷ e experts each, whole with expert tensor
parallelism t_e = 1, as DeepSeek-V3 trains and Megatron-Core's folded expert mesh allows; with
t_e = t, Megatron-Core's default, each is also split over the tensor-parallel group, the e GPUs
sit t apart, Ψ_E is split over e·t·p, N_E is t·N_d·c ÷ (e·t), and a GPU's expert GEMMs are t
times taller and t times narrower):
- memory: the routed experts' Ψ_E = (L − D)·E·n·h·f_e parameters are split over e·p GPUs, the
  rest of Ψ over t·p; ZeRO partitions the experts' states over the expert data-parallel group of
  t·N_d·c ÷ e GPUs (the GPUs that hold the same experts), the rest over N_d·c;
- compute: the routed experts' share φ of a layer's matmul FLOPs runs as E ÷ e GEMMs per GPU of
  M_e = b·s_c·k·e ÷ (t·E) tokens each (a GPU's b·s_c ÷ t tokens, sequence-parallel under tensor
  parallelism, times k, gathered from the e GPUs and spread over E experts), at the GEMM
  efficiency of that size (`compute.gemm_efficiency`); the busiest GPU carries λ times the mean,
  so the layer's GEMMs run at η_moe = η·η_e ÷ ((1 − φ)·η_e + φ·λ·η), the FLOP-weighted harmonic
  mean of the dense and the expert efficiencies;
- all-to-all: per MoE layer and micro-batch, a dispatch and a combine in the forward pass and
  both again in the backward (6 under full recomputation, which repeats the forward). Each sends
  λ·(b·s_c ÷ t)·x·h 16-bit values per GPU, x the copies of a token bound elsewhere: with the e
  GPUs consecutive, e_n = min(e, g) of them in a node, k·(e_n − 1) ÷ e copies stay in the node
  and k·(e − e_n) ÷ e leave it. Node-limited routing (DeepSeek-V3 §2.1.2: M nodes at most) sends
  a token over the network once per remote node, at most M·(N_e − 1) ÷ N_e copies with N_e = e ÷ e_n
  the EP group's nodes, and fans it out over NVLink there. NVLink and the NICs carry their parts
  at once: T_a2a = max(S_net ÷ B_net, S_intra ÷ B_intra) + α (nccl-tests: the all-to-all's bus
  bandwidth is its per-rank bytes leaving the rank over the time, (n−1)/n of its algorithm
  bandwidth). A share o of it (the layout's `ep_overlap`: DualPipe, or Megatron-Core's
  --overlap-moe-expert-parallel-comm) hides behind the micro-batch's compute, no more than that
  compute: T_a2a − min(o·T_a2a, T_mb) stays in every pipeline slot.
Tensor parallelism: an expert layer takes the sequence-parallel shard of its tokens as it is (no
gather before the router), so with whole experts its MLP has no tensor-parallel collectives, and
with t_e = t the group gathers the λ·k dispatched copies of its tokens before the experts and
scatters them after (Megatron-Core's alltoall dispatcher), collectives Transformer Engine's
overlap of the linear layers does not hide; the attention's and the dense layers' collectives
stay as a dense model's.
What the model leaves out, stated: the router's softmax and top-k, the permutation kernels and
FP8 dispatch (DeepSeek-V3 sends FP8 activations and BF16 gradients; the model counts 16 bits
both ways), the multi-token-prediction module, the SMs a hidden all-to-all occupies, and token
dropping (a capacity factor caps λ; the model does not drop FLOPs).
"""

from __future__ import annotations

from .chain import formula

DSV2 = "DeepSeek-V2 report §2.1 (multi-head latent attention)"
MOE = "mixture of experts (GShard; DeepSeekMoE; DeepSeek-V3 report §2.1.2)"
EP = "expert parallelism (GShard; Megatron-Core MoE; DeepSeek-V3 report §3.2.2)"
SPLIT = " (e·t_e GPUs where each expert is split over t_e)"  # e stands for the block of `leaves.Experts`
NCCL_A2A = "nccl-tests PERFORMANCE.md: all-to-all bus bandwidth = algorithm bandwidth × (n−1)/n"


@formula("2·h·(a·d) + 2·h·(kv·d)", "h a kv d", "queries and output a·d wide, keys and values kv·d")
def head_attention_weights(h: float, heads: float, kv: float, head: float) -> float:
    return 2.0 * h * (heads * head) + 2.0 * h * (kv * head)


@formula("h·q_c + q_c·a·(d_n + d_r) + h·(c_kv + d_r) + c_kv·a·(d_n + d_v) + a·d_v·h", "h a q_c c_kv d_n d_r d_v",
         DSV2 + ": query and key/value down- and up-projections, the shared rotary key, the output")
def latent_attention_weights(h: float, heads: float, q_latent: float, kv_latent: float, nope: float, rope: float,
                             value: float) -> float:
    return (h * q_latent + q_latent * heads * (nope + rope) + h * (kv_latent + rope)
            + kv_latent * heads * (nope + value) + heads * value * h)


@formula("h·a·(d_n + d_r) + h·(c_kv + d_r) + c_kv·a·(d_n + d_v) + a·d_v·h", "h a c_kv d_n d_r d_v",
         DSV2 + "; queries projected straight from h (no query latent, DeepSeek-V2-Lite)")
def latent_attention_weights_direct(h: float, heads: float, kv_latent: float, nope: float, rope: float,
                                    value: float) -> float:
    return h * heads * (nope + rope) + h * (kv_latent + rope) + kv_latent * heads * (nope + value) + heads * value * h


@formula("ν·(q_c + c_kv)", "ν q_c c_kv", DSV2 + ": the norms of the two latents")
def latent_norm_vectors(norm_vectors: float, q_latent: float, kv_latent: float) -> float:
    return norm_vectors * (q_latent + kv_latent)


@formula("a·d", "a d", "the attention core's width: every head scores and reads d-wide keys and values")
def head_score_width(heads: float, head: float) -> float:
    return heads * head


@formula("a·(d_n + d_r + d_v) ÷ 2", "a d_n d_r d_v", DSV2 + ": scores over d_n + d_r, values of d_v")
def latent_score_width(heads: float, nope: float, rope: float, value: float) -> float:
    return heads * (nope + rope + value) / 2.0


@formula("n·h·f", "n h f", "an MLP's weights: n matrices of h × f")
def mlp_weights(matrices: float, h: float, ffn: float) -> float:
    return matrices * h * ffn


@formula("(k + s_e)·n·h·f_e + h·E", "k s_e n h f_e E", MOE + ": the experts a token visits and the router")
def active_moe_weights(top_k: float, shared: float, matrices: float, h: float, expert_ffn: float,
                       experts: float) -> float:
    return (top_k + shared) * matrices * h * expert_ffn + h * experts


@formula("(E + s_e)·n·h·f_e + h·E", "E s_e n h f_e", MOE + ": every expert and the router")
def moe_weights(experts: float, shared: float, matrices: float, h: float, expert_ffn: float) -> float:
    return (experts + shared) * matrices * h * expert_ffn + h * experts


@formula("β·(E + s_e)·((n − 1)·f_e + h)", "β E s_e n f_e h", MOE + ": the experts' biases (β = 1 with biases)")
def moe_bias_vectors(biases: float, experts: float, shared: float, matrices: float, expert_ffn: float,
                     h: float) -> float:
    return biases * (experts + shared) * ((matrices - 1.0) * expert_ffn + h)


@formula("(D·W_d + (L − D)·W_m) ÷ L", "D W_d L W_m", "the MLP weights a token passes through, averaged over the layers")
def mean_mlp_weights(dense_layers: float, dense: float, layers: float, moe: float) -> float:
    return (dense_layers * dense + (layers - dense_layers) * moe) / layers


@formula("(W_att + W_mlp) ÷ (12h²)", "W_att W_mlp h", "shape.py's width ratio, from the weights a token passes through")
def active_width_ratio(attention: float, mlp: float, h: float) -> float:
    return (attention + mlp) / (12.0 * h * h)


@formula("(L − D)·E·n·h·f_e", "L D E n h f_e", MOE + ": the routed experts' weights")
def routed_parameters(layers: float, dense_layers: float, experts: float, matrices: float, h: float,
                      expert_ffn: float) -> float:
    return (layers - dense_layers) * experts * matrices * h * expert_ffn


@formula("κ·B·s²·L·(h_att − h)", "κ B s L h_att h", "attention cores wider than h (explicit head width, latent attention)")
def wide_attention_flop(coefficient: float, batch: float, s: float, layers: float, score_width: float,
                        h: float) -> float:
    return coefficient * batch * s * s * layers * (score_width - h)


@formula("12 (forward 4, backward 8)", "", "the attention core's model FLOPs, in B·s²·L·h_att")
def wide_model_coefficient() -> float:
    return 12.0


@formula("16 (forward 4, backward 8, recomputed forward 4)", "", "the attention core's executed FLOPs under recomputation")
def wide_recomputed_coefficient() -> float:
    return 16.0


WIDE_COEFFICIENT = {"none": wide_model_coefficient, "selective": wide_recomputed_coefficient,
                    "full": wide_recomputed_coefficient}


@formula("(L − D)·k·n·h·f_e ÷ (L·12h²·r)", "L D k n h f_e r", MOE + ": the routed experts' share of a layer's matmuls")
def routed_share(layers: float, dense_layers: float, top_k: float, matrices: float, h: float, expert_ffn: float,
                 ratio: float) -> float:
    return (layers - dense_layers) * top_k * matrices * h * expert_ffn / (layers * 12.0 * h * h * ratio)


@formula("b·s_c·k·e ÷ (t·E)", "b s_c k e t E", EP + ": tokens per local expert, balanced" + SPLIT)
def expert_tokens(b: float, local_sequence: float, top_k: float, expert_parallel: float, tensor: float,
                  experts: float) -> float:
    return b * local_sequence * top_k * expert_parallel / (tensor * experts)


@formula("b·s_c·k ÷ E", "b s_c k E", MOE + ": tokens per expert, balanced, experts split over t like any MLP (e = 1)")
def expert_tokens_unspread(b: float, local_sequence: float, top_k: float, experts: float) -> float:
    return b * local_sequence * top_k / experts


@formula("η·η_e ÷ ((1 − φ)·η_e + φ·λ·η)", "η η_e φ λ", EP + ": dense and expert GEMMs, the busiest GPU λ times the mean")
def moe_gemm_efficiency(efficiency: float, expert_efficiency: float, share: float, imbalance: float) -> float:
    return efficiency * expert_efficiency / ((1.0 - share) * expert_efficiency + share * imbalance * efficiency)


@formula("(Ψ − Ψ_E) ÷ (t·p)", "Ψ Ψ_E t p", "the weights outside the routed experts, split like a dense model's")
def dense_parameters_per_gpu(parameters: float, routed: float, tensor: float, pipeline: float) -> float:
    return (parameters - routed) / (tensor * pipeline)


@formula("Ψ_E ÷ (e·p)", "Ψ_E e p", EP + ": E ÷ e whole experts per GPU and stage" + SPLIT)
def expert_parameters_per_gpu(routed: float, expert_parallel: float, pipeline: float) -> float:
    return routed / (expert_parallel * pipeline)


@formula("Ψ'_d + Ψ'_E", "Ψ'_d Ψ'_E", "the parameters one GPU holds")
def parameters_held(dense: float, experts: float) -> float:
    return dense + experts


@formula("t·N_d·c ÷ e", "t N_dc e", EP + ": the GPUs of a stage that hold the same experts" + SPLIT)
def expert_data_parallel(tensor: float, gradient_group: float, expert_parallel: float) -> float:
    return tensor * gradient_group / expert_parallel


@formula("Ψ'_d·B ÷ N + Ψ'_E·B ÷ N_E", "Ψ'_d Ψ'_E B N N_E", "ZeRO over the data-parallel and the expert data-parallel groups")
def moe_partitioned_bytes(dense: float, experts: float, bytes_per_parameter: float, group: float,
                          expert_group: float) -> float:
    return dense * bytes_per_parameter / group + experts * bytes_per_parameter / expert_group


@formula("min(N_E, max(1, g ÷ e))", "N_E g e", EP + ": ranks e apart, so g ÷ e of the group in a node")
def expert_dp_peers_per_node(expert_group: float, gpus_per_node: float, expert_parallel: float) -> float:
    return min(expert_group, max(1.0, gpus_per_node / expert_parallel))


@formula("min(e, g)", "e g", EP + ": the expert-parallel GPUs in one node (consecutive ranks)")
def ep_gpus_per_node(expert_parallel: float, gpus_per_node: float) -> float:
    return min(expert_parallel, gpus_per_node)


@formula("min(e, g ÷ t_e)", "e g t_e", EP + ": the expert-parallel GPUs in one node, t_e ranks apart")
def ep_gpus_per_node_sharded(expert_parallel: float, gpus_per_node: float, expert_tensor: float) -> float:
    return min(expert_parallel, gpus_per_node / expert_tensor)


@formula("k·(e_n − 1) ÷ e", "k e_n e", EP + ": copies of a token bound for another GPU of the node")
def intra_node_copies(top_k: float, in_node: float, expert_parallel: float) -> float:
    return top_k * (in_node - 1.0) / expert_parallel


@formula("k·(e − e_n) ÷ e", "k e e_n", EP + ": copies of a token bound for another node")
def network_copies(top_k: float, expert_parallel: float, in_node: float) -> float:
    return top_k * (expert_parallel - in_node) / expert_parallel


@formula("min(k·(e − e_n) ÷ e, M·(e ÷ e_n − 1) ÷ (e ÷ e_n))", "k e e_n M",
         "DeepSeek-V3 report §2.1.2, §3.2.2: node-limited routing crosses the network once per remote node")
def limited_network_copies(top_k: float, expert_parallel: float, in_node: float, nodes_per_token: float) -> float:
    nodes = expert_parallel / in_node
    return min(top_k * (expert_parallel - in_node) / expert_parallel, nodes_per_token * (nodes - 1.0) / nodes)


@formula("C·(L'/p)·T_ar·(1 + D/L) ÷ 2", "C L' p T_ar D L",
         EP + ": the attention's half of a layer's collectives, and the MLP's half in the D dense layers only")
def tp_microbatch_moe_s(collectives: float, layers: float, pipeline: float, all_reduce_s: float, dense_layers: float,
                        total_layers: float) -> float:
    return collectives * (layers / pipeline) * all_reduce_s * (1.0 + dense_layers / total_layers) / 2.0


@formula("λ·k·S", "λ k S", EP + ": the dispatched copies of a GPU's tokens, gathered over the tensor-parallel group")
def etp_message_bytes(imbalance: float, top_k: float, size_bytes: float) -> float:
    return imbalance * top_k * size_bytes


@formula("C·(L'/p)·T_e·(L − D)/L ÷ 2", "C L' p T_e D L",
         EP + ": the expert layers' half of the collectives, carrying the dispatched tokens (t_e = t)")
def etp_microbatch_s(collectives: float, layers: float, pipeline: float, expert_all_reduce_s: float,
                     dense_layers: float, total_layers: float) -> float:
    return collectives * (layers / pipeline) * expert_all_reduce_s * (total_layers - dense_layers) / total_layers / 2.0


@formula("e·t_e", "e t_e", EP + ": the consecutive GPUs that hold a layer's experts once")
def expert_block(expert_parallel: float, expert_tensor: float) -> float:
    return expert_parallel * expert_tensor


@formula("λ·(b·s_c ÷ t)·x·h·2 bytes", "λ b s_c t x h", EP + ": 16-bit hidden states of the busiest GPU's tokens")
def all_to_all_bytes(imbalance: float, b: float, local_sequence: float, tensor: float, copies: float,
                     h: float) -> float:
    return imbalance * (b * local_sequence / tensor) * copies * h * 2.0


@formula("max(S_net ÷ B_net, S_intra ÷ B_intra) + α", "S_net B_net S_intra B_intra α",
         NCCL_A2A + "; NVLink and the NICs carry their parts at once")
def all_to_all_s(network_bytes: float, network_bandwidth: float, intra_bytes: float, intra_bandwidth: float,
                 latency_s: float) -> float:
    return max(network_bytes / network_bandwidth, intra_bytes / intra_bandwidth) + latency_s


@formula("S_intra ÷ B_intra + α", "S_intra B_intra α", NCCL_A2A + "; the expert-parallel group sits in one node")
def intra_node_all_to_all_s(intra_bytes: float, intra_bandwidth: float, latency_s: float) -> float:
    return intra_bytes / intra_bandwidth + latency_s


@formula("4 per MoE layer (dispatch and combine, forward and backward)", "", EP)
def four_all_to_alls() -> float:
    return 4.0


@formula("6 per MoE layer (full recomputation repeats the forward's two)", "", EP)
def six_all_to_alls() -> float:
    return 6.0


ALL_TO_ALLS = {"none": four_all_to_alls, "selective": four_all_to_alls, "full": six_all_to_alls}


@formula("n·(L_paced ÷ p)·(L − D) ÷ L·T_a2a", "n L_paced p L D T_a2a", EP + ": the MoE layers of a stage")
def ep_microbatch_s(count: float, paced_layers: float, pipeline: float, layers: float, dense_layers: float,
                    all_to_all: float) -> float:
    return count * (paced_layers / pipeline) * (layers - dense_layers) / layers * all_to_all


@formula("T_a2a − min(o·T_a2a, T_mb)", "T_a2a o T_mb",
         "layout: ep_overlap (DualPipe, DeepSeek-V3 report §3.2.1; Megatron-Core --overlap-moe-expert-parallel-comm)")
def exposed_ep_s(all_to_all: float, overlap: float, compute_s: float) -> float:
    return all_to_all - min(overlap * all_to_all, compute_s)
