"""The shape of a workload's transformer block: its width ratio and its parameter count.

Width ratio. Narayanan et al. 2021 (§5.1) count a GPT layer's matmul weights as 12h² (Q, K, V
and the output projection h² each, the MLP 2 × 4h²), and Korthikanti et al. 2022 (§4.1, the
24/t term of Eq. 2) store 24sbh bytes per layer that tensor parallelism splits: Q and K 4sbh,
V 2sbh, the projection's input 2sbh, the GeLU's input and output 16sbh. Both are sums over the
widths of the same tensors, so one figure generalises both to grouped-query attention and gated
MLPs:

    r = (2h + 2h_kv + n·f) ÷ (12h),   h_kv = kv·h/a

weights per layer = 12h²·r = h·(2h + 2h_kv + n·f); split activations = 24sbh·r =
2sb·(h [Q] + h_kv [K] + h_kv [V] + h [projection input] + n·f [MLP intermediates]).
Here kv key/value heads share their projections across query heads (Ainslie et al. 2023, GQA;
Llama 2 70B and Llama 3 use 8), f is the MLP's hidden width and n its number of h×f matrices:
2 for the GPT MLP, whose stored intermediates are the GeLU's input and output (2f), 3 for SwiGLU
(Shazeer 2020), where Megatron-LM's fused SwiGLU (megatron/core/fusions/fused_bias_swiglu.py,
SwiGLUFunction) saves only its input, the gate and up projections (2f), and the down projection
saves its own input (f): 3f. r is exactly 1 for the GPT block (2h + 2h + 2·4h = 12h), so every
GPT-style result is unchanged bit for bit. Attention scores are not scaled by r: each of the a
query heads still scores all s keys (4·s²·h forward FLOPs and 5as²b bytes per layer as before).

Parameter count (the figures a model card rounds): per layer the weights above, plus biases when
the linear layers have them (Q h, K and V h_kv each, output h, MLP (n − 1)·f + h) and two norms of
ν·h (ν = 2 for LayerNorm's scale and bias, 1 for RMSNorm's scale); then the input embedding V·h,
an untied output layer V·h more, a learned position table P·h and the final norm ν·h. Rotary
embeddings have no parameters (some checkpoints store their inverse frequencies as buffers).
"""

from __future__ import annotations

from . import experts as ex
from .chain import Term, formula
from .evaluate import FLOATS, Evaluator, Terms, V
from .inputs import Workload

GQA = "Ainslie et al. 2023 (grouped-query attention); Llama 3 paper §3.2"
WIDTH = "Narayanan et al. 2021 §5.1 (12h² weights); Korthikanti et al. 2022 §4.1 (24sbh activations)"


def ffn_hidden_size(workload: Workload) -> int:
    """The MLP's hidden width f: as stated, or 4h (the GPT MLP)."""
    return 4 * workload.hidden_size if workload.ffn_hidden_size is None else workload.ffn_hidden_size


def kv_heads(workload: Workload) -> int:
    """Key/value heads: as stated, or one per query head (multi-head attention)."""
    return workload.attention_heads if workload.kv_heads is None else workload.kv_heads


def mlp_matrices(workload: Workload) -> float:
    """h×f matrices in the MLP: 3 for a gated MLP (SwiGLU's gate, up, down), else 2."""
    return 3.0 if workload.gated_mlp else 2.0


@formula("kv·h ÷ a", "h a kv", GQA)
def kv_width(hidden: float, heads: float, kv: float) -> float:
    return kv * hidden / heads


@formula("(2h + 2h_kv + n·f) ÷ (12h)", "h h_kv f n", WIDTH + "; 1 for the GPT block")
def width_ratio(hidden: float, kv_hidden: float, ffn: float, matrices: float) -> float:
    return (2.0 * hidden + 2.0 * kv_hidden + matrices * ffn) / (12.0 * hidden)


def extended(workload: Workload) -> bool:
    """Whether the block needs `experts.py`'s shapes: an explicit head width, latent attention or
    experts. The dense GPT and Llama blocks keep the formulas above, figure for figure."""
    return workload.head_dim is not None or workload.mla is not None or workload.moe is not None


def head_width(workload: Workload) -> float:
    """The head width d: as stated, or h ÷ a."""
    return (float(workload.head_dim) if workload.head_dim is not None
            else workload.hidden_size / workload.attention_heads)


def attention_weights_from(ev: Evaluator[V], w: Workload, hidden: V, heads: V) -> V:
    """W_att, a layer's attention weights (`experts.py`)."""
    if w.mla is not None:
        m = w.mla
        latent = [ev.given(f"workload.mla.{name}", "1", getattr(m, name), "workload")
                  for name in ("q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")]
        if m.q_lora_rank > 0:
            return ev.derive("workload.attention_weights", "1", ex.latent_attention_weights)(hidden, heads, *latent)
        return ev.derive("workload.attention_weights", "1", ex.latent_attention_weights_direct)(hidden, heads, *latent[1:])
    return ev.derive("workload.attention_weights", "1", ex.head_attention_weights)(
        hidden, heads, ev.given("workload.kv_heads", "1", kv_heads(w), "workload"),
        ev.given("workload.head_dim", "1", head_width(w), "workload"))


def score_width_from(ev: Evaluator[V], w: Workload, hidden: V, heads: V) -> V:
    """h_att, the width the attention core runs at: `hidden` itself for heads of h ÷ a."""
    if w.mla is not None:
        return ev.derive("workload.score_width", "1", ex.latent_score_width)(
            heads, *(ev.given(f"workload.mla.{name}", "1", getattr(w.mla, name), "workload")
                     for name in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")))
    if w.head_dim is None:
        return hidden
    return ev.derive("workload.score_width", "1", ex.head_score_width)(
        heads, ev.given("workload.head_dim", "1", head_width(w), "workload"))


def mlp_weights_from(ev: Evaluator[V], w: Workload, hidden: V, *, active: bool) -> V:
    """The MLP weights of a layer, averaged over the layers: those a token passes through
    (`active`), or all of them."""
    n = ev.given("workload.mlp_matrices", "1", mlp_matrices(w), "workload")
    dense = ev.derive("workload.dense_mlp_weights", "1", ex.mlp_weights)(
        n, hidden, ev.given("workload.ffn_hidden_size", "1", ffn_hidden_size(w), "workload"))
    if w.moe is None:
        return dense
    m = w.moe
    experts = ev.given("workload.moe.experts", "1", m.experts, "workload")
    shared = ev.given("workload.moe.shared_experts", "1", m.shared_experts, "workload")
    width = ev.given("workload.moe.expert_ffn_hidden_size", "1", m.expert_ffn_hidden_size, "workload")
    moe = (ev.derive("workload.active_moe_weights", "1", ex.active_moe_weights)(
               ev.given("workload.moe.experts_per_token", "1", m.experts_per_token, "workload"), shared, n, hidden,
               width, experts) if active
           else ev.derive("workload.moe_weights", "1", ex.moe_weights)(experts, shared, n, hidden, width))
    return ev.derive("workload.mean_active_mlp_weights" if active else "workload.mean_mlp_weights", "1",
                     ex.mean_mlp_weights)(
        ev.given("workload.moe.dense_layers", "1", m.dense_layers, "workload"), dense,
        ev.given("workload.layers", "1", w.layers, "workload"), moe)


def width_ratio_from(ev: Evaluator[V], workload: Workload, hidden: V, heads: V) -> V:
    """r from the workload's fields (`hidden` and `heads` are the caller's inputs)."""
    if extended(workload):
        return ev.derive("workload.width_ratio", "1", ex.active_width_ratio)(
            attention_weights_from(ev, workload, hidden, heads),
            mlp_weights_from(ev, workload, hidden, active=True), hidden)
    h_kv = ev.derive("workload.kv_width", "1", kv_width)(
        hidden, heads, ev.given("workload.kv_heads", "1", kv_heads(workload), "workload"))
    return ev.derive("workload.width_ratio", "1", width_ratio)(
        hidden, h_kv, ev.given("workload.ffn_hidden_size", "1", ffn_hidden_size(workload), "workload"),
        ev.given("workload.mlp_matrices", "1", mlp_matrices(workload), "workload"))


def width_ratio_of(workload: Workload) -> float:
    """r for a workload, as a float."""
    return width_ratio_from(FLOATS, workload, float(workload.hidden_size), float(workload.attention_heads))


@formula("h·(2h + 2h_kv) + n·h·f", "h h_kv f n", "Q and output h×h, K and V h×h_kv, n MLP matrices h×f")
def layer_weights(hidden: float, kv_hidden: float, ffn: float, matrices: float) -> float:
    return hidden * (2.0 * hidden + 2.0 * kv_hidden) + matrices * hidden * ffn


@formula("β·(3h + 2h_kv + (n − 1)·f) + 2·ν·h", "h h_kv f n β ν",
         "biases of Q, K, V, output and MLP (β = 1 with biases); two norms of ν vectors of h")
def layer_vectors(hidden: float, kv_hidden: float, ffn: float, matrices: float, biases: float,
                  norm_vectors: float) -> float:
    return (biases * (3.0 * hidden + 2.0 * kv_hidden + (matrices - 1.0) * ffn)
            + 2.0 * norm_vectors * hidden)


@formula("L·(W + X) + e·V·h + P·h + ν·h", "L W X e V h P ν",
         "layers; e = 1 tied or 2 untied embeddings; learned positions; final norm")
def parameters(layers: float, weights: float, vectors: float, embeddings: float, vocabulary: float,
               hidden: float, positions: float, norm_vectors: float) -> float:
    return (layers * (weights + vectors) + embeddings * vocabulary * hidden + positions * hidden
            + norm_vectors * hidden)


def parameters_chain(workload: Workload) -> Term:
    """The parameter count Ψ that follows from the shape, as a chain of figures."""
    return _parameters(Terms(), workload)


def parameters_from_shape(workload: Workload) -> float:
    """Ψ from the shape (an exact integer in IEEE doubles for every published model up to 2^53)."""
    return _parameters(FLOATS, workload)


def active_parameters_from_shape(workload: Workload) -> float:
    """The parameters one token's forward pass multiplies by: every layer's attention, norms and
    the MLP weights it passes through (the k routed experts, the shared ones and the router of an
    MoE layer), the final norm and the output layer; not the input embedding or a position table,
    which are looked up. For a dense block, Ψ less the input embedding and the position table."""
    w, ev = workload, FLOATS
    h, heads = float(w.hidden_size), float(w.attention_heads)
    nu = 2.0 if w.norm == "layernorm" else 1.0
    if extended(w):
        per_layer = (attention_weights_from(ev, w, h, heads) + _extended_vectors(ev, w, h, nu)
                     + mlp_weights_from(ev, w, h, active=True))
        return w.layers * per_layer + w.vocabulary_size * h + nu * h
    input_embedding = 0.0 if w.tied_embeddings else w.vocabulary_size * h  # tied: the output layer is that matrix
    return parameters_from_shape(w) - input_embedding - w.position_embeddings * h


def _extended_vectors(ev: Evaluator[V], w: Workload, hidden: V, nu: V) -> V:
    """A layer's norm vectors (two of h, and the two latents' under latent attention): extended
    blocks carry no linear biases (`feasibility.py`)."""
    zero = ev.given("workload.linear_biases", "1", 0.0, "workload")
    two = ev.derive("workload.layer_vectors", "1", layer_vectors)(hidden, hidden, hidden, zero, zero, nu)
    if w.mla is None:
        return two
    return ev.derive("workload.attention_norm_vectors", "1", ex.parameters_held)(two, ev.derive(
        "workload.latent_norm_vectors", "1", ex.latent_norm_vectors)(
            nu, ev.given("workload.mla.q_lora_rank", "1", w.mla.q_lora_rank, "workload"),
            ev.given("workload.mla.kv_lora_rank", "1", w.mla.kv_lora_rank, "workload")))


def _parameters(ev: Evaluator[V], w: Workload) -> V:
    h = ev.given("workload.hidden_size", "1", w.hidden_size, "workload")
    nu = ev.given("workload.norm_vectors", "1", 2.0 if w.norm == "layernorm" else 1.0, "workload")
    if extended(w):
        heads = ev.given("workload.attention_heads", "1", w.attention_heads, "workload")
        weights = ev.derive("workload.layer_weights", "1", ex.parameters_held)(
            attention_weights_from(ev, w, h, heads), mlp_weights_from(ev, w, h, active=False))
        return ev.derive("workload.parameters_from_shape", "1", parameters)(
            ev.given("workload.layers", "1", w.layers, "workload"), weights, _extended_vectors(ev, w, h, nu),
            ev.given("workload.embedding_matrices", "1", 1.0 if w.tied_embeddings else 2.0, "workload"),
            ev.given("workload.vocabulary_size", "1", w.vocabulary_size, "workload"), h,
            ev.given("workload.position_embeddings", "1", w.position_embeddings, "workload"), nu)
    h_kv = ev.derive("workload.kv_width", "1", kv_width)(
        h, ev.given("workload.attention_heads", "1", w.attention_heads, "workload"),
        ev.given("workload.kv_heads", "1", kv_heads(w), "workload"))
    f = ev.given("workload.ffn_hidden_size", "1", ffn_hidden_size(w), "workload")
    n = ev.given("workload.mlp_matrices", "1", mlp_matrices(w), "workload")
    biases = ev.given("workload.linear_biases", "1", 1.0 if w.linear_biases else 0.0, "workload")
    return ev.derive("workload.parameters_from_shape", "1", parameters)(
        ev.given("workload.layers", "1", w.layers, "workload"),
        ev.derive("workload.layer_weights", "1", layer_weights)(h, h_kv, f, n),
        ev.derive("workload.layer_vectors", "1", layer_vectors)(h, h_kv, f, n, biases, nu),
        ev.given("workload.embedding_matrices", "1", 1.0 if w.tied_embeddings else 2.0, "workload"),
        ev.given("workload.vocabulary_size", "1", w.vocabulary_size, "workload"), h,
        ev.given("workload.position_embeddings", "1", w.position_embeddings, "workload"), nu)
