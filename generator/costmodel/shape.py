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


def width_ratio_from(ev: Evaluator[V], workload: Workload, hidden: V, heads: V) -> V:
    """r from the workload's fields (`hidden` and `heads` are the caller's inputs)."""
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


def _parameters(ev: Evaluator[V], w: Workload) -> V:
    h = ev.given("workload.hidden_size", "1", w.hidden_size, "workload")
    nu = ev.given("workload.norm_vectors", "1", 2.0 if w.norm == "layernorm" else 1.0, "workload")
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
