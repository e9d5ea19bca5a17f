"""Llama-style workloads: the parameter counts, FLOPs and activation memory that follow from the
published shapes. Each test names its source; /work/research/costmodel.md (the research dossier)
records the quotes and whether each source was read in a stored copy or only seen cited."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate, explain_lines, walk
from generator.costmodel import compute as cp
from generator.costmodel import memory as me
from generator.costmodel import shape as sh

LLAMA = dict(gated_mlp=True, tied_embeddings=False, linear_biases=False, norm="rmsnorm")

# Shapes: Llama 2 from the Hugging Face config.json of meta-llama/Llama-2-{7b,13b,70b}-hf (read in
# copies: hidden_size, intermediate_size, num_hidden_layers, num_attention_heads,
# num_key_value_heads, vocab_size, tie_word_embeddings false, rms_norm_eps, no biases in
# LlamaForCausalLM); Llama 3.1 from Meta's llama-models models/llama3_1/api/sku_list.py (read:
# dim, n_layers, n_heads, n_kv_heads 8, VOCAB_SIZE = 128256) and the Llama 3 paper Table 3
# (FFN dimension 14,336 / 28,672 / 53,248). Exact counts: the total of each released checkpoint as
# the Hugging Face API reports it (safetensors.total; read only as quoted in public repositories,
# e.g. a GGUF general.parameter_count of 8030261248) and transformers' num_parameters() for
# Llama 2 (6738415616, 13015864320), the counts the model cards round to 7B ... 405B.
SHAPES = [
    ("Llama 2 7B", 32, 4096, 32, 32, 11008, 32000, 6_738_415_616),
    ("Llama 2 13B", 40, 5120, 40, 40, 13824, 32000, 13_015_864_320),
    ("Llama 2 70B", 80, 8192, 64, 8, 28672, 32000, 68_976_648_192),
    ("Llama 3.1 8B", 32, 4096, 32, 8, 14336, 128256, 8_030_261_248),
    ("Llama 3.1 70B", 80, 8192, 64, 8, 28672, 128256, 70_553_706_496),
    ("Llama 3.1 405B", 126, 16384, 128, 8, 53248, 128256, 405_853_388_800),
]


def _llama(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int, vocabulary: int) -> Workload:
    return Workload(name, 0.0, layers, hidden, heads, vocabulary, ffn_hidden_size=ffn, kv_heads=kv, **LLAMA)


@pytest.mark.parametrize(("name", "layers", "hidden", "heads", "kv", "ffn", "vocabulary", "published"), SHAPES)
def test_parameter_count_follows_from_the_shape(name: str, layers: int, hidden: int, heads: int, kv: int, ffn: int,
                                               vocabulary: int, published: int) -> None:
    """Each layer: Q and output h×h, K and V h×(kv·h/a), three SwiGLU matrices h×f, two RMSNorm
    scales; then untied input and output embeddings V×h and the final norm. Exact, not rounded."""
    workload = _llama(name, layers, hidden, heads, kv, ffn, vocabulary)
    assert sh.parameters_from_shape(workload) == float(published)
    assert sh.parameters_chain(workload).value == float(published)


@pytest.mark.parametrize(("name", "checkpoint_total"), [
    ("Llama 2 7B", 6_738_417_664), ("Llama 2 13B", 13_015_866_880), ("Llama 2 70B", 68_976_653_312)])
def test_llama_2_checkpoints_also_store_rotary_buffers(name: str, checkpoint_total: int) -> None:
    """The Hugging Face API's safetensors totals of meta-llama/Llama-2-*-hf exceed the parameter
    count by L·(h/a)/2: those conversions saved each layer's rotary inverse frequencies (64 floats
    for a head width of 128), a buffer, not a parameter. (Totals read only as quoted in a public
    repository's data file; the Llama 3.1 checkpoints have no such buffers, so their totals equal
    the counts above.)"""
    row = next(row for row in SHAPES if row[0] == name)
    layers, hidden, heads = row[1], row[2], row[3]
    buffers = layers * (hidden // heads) // 2
    assert sh.parameters_from_shape(_llama(*row[:7])) + buffers == float(checkpoint_total)


def _meta_ffn(dim: int, multiple_of: int, multiplier: float | None) -> int:
    """Meta's FeedForward width rule (meta-llama/llama llama/model.py; llama-models
    models/llama3/reference_impl/model.py): int(2·4h/3), times ffn_dim_multiplier, rounded up to a
    multiple of multiple_of."""
    width = int(2 * (4 * dim) / 3)
    if multiplier is not None:
        width = int(multiplier * width)
    return multiple_of * ((width + multiple_of - 1) // multiple_of)


@pytest.mark.parametrize(("dim", "multiple_of", "multiplier", "ffn"), [
    (4096, 256, None, 11008), (5120, 256, None, 13824),  # Llama 2 7B, 13B (ModelArgs multiple_of = 256)
    (4096, 1024, 1.3, 14336), (8192, 4096, 1.3, 28672), (16384, 4096, 1.2, 53248),  # Llama 3.1 sku_list.py
])
def test_mlp_width_follows_metas_rule(dim: int, multiple_of: int, multiplier: float | None, ffn: int) -> None:
    """The FFN widths of the configs and of Llama 3 Table 3 follow from Meta's own rule, so a spec
    can state the width and a check can derive it."""
    assert _meta_ffn(dim, multiple_of, multiplier) == ffn


def test_gpt_3_175b_cross_check() -> None:
    """GPT-3 175B (Brown et al. 2020, Table 2.1: 96 layers, d_model 12288, 96 heads, context 2048;
    GPT-2's 50,257-token vocabulary, tied embeddings, biases, LayerNorm, learned positions) has
    174.60B parameters by this count, 0.23 % under the paper's "175.0B": the paper gives no exact
    count, and the gap is not in the shape: Megatron's count 12lh²(1 + 13/12h + (V + s)/12lh)
    (Narayanan et al. 2021 Eq. 2, recalled, not re-read for this test) gives the same 174.6B with
    Megatron's padded V = 51,200."""
    gpt3 = Workload("gpt-3", 175.0e9, 96, 12288, 96, 50257, position_embeddings=2048)
    assert sh.parameters_from_shape(gpt3) == 174_604_259_328.0
    assert abs(sh.parameters_from_shape(gpt3) / 175.0e9 - 1.0) < 0.003
    narayanan = 12 * 96 * 12288**2 * (1 + 13 / (12 * 12288) + (51200 + 2048) / (12 * 96 * 12288))
    megatron = replace(gpt3, vocabulary_size=51200)
    assert sh.parameters_from_shape(megatron) - 2 * 12288 == pytest.approx(narayanan, rel=1e-12)  # Eq. omits final norm


def test_gpt_block_has_width_ratio_one() -> None:
    """r = (2h + 2h + 2·4h) ÷ 12h is exactly 1 for the GPT block, so Narayanan's and Korthikanti's
    formulas are what the model computes for GPT-style workloads; stating the GPT block's fields
    explicitly changes no estimate, bit for bit."""
    gpt = Workload("gpt", 13e9, 40, 5120, 40, 50257)
    assert sh.width_ratio_of(gpt) == 1.0
    explicit = replace(gpt, ffn_hidden_size=4 * 5120, kv_heads=40, gated_mlp=False)
    node = Node("n", GpuSpec("g", 80e9, 3.35e12, 1e15), 8, 450e9, 8, 50e9)
    layout = Layout(8, 2, 1, micro_batch_size=1, sequence_length=2048, global_batch_size=64, recompute="selective")
    a = Assumptions(0.45, 2.0, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1, 4e-6)
    assert estimate(explicit, Cluster(node, 4), layout, a) == estimate(gpt, Cluster(node, 4), layout, a)


def test_flops_of_a_gqa_swiglu_block() -> None:
    """Narayanan et al. 2021 §5.1 generalised: each matmul of m×k by k×n costs 2mkn forward and twice
    that backward, so training costs 6 FLOPs per weight per token for Q, output (h×h), K, V
    (h×h_kv) and three SwiGLU matrices (h×f), plus 12·s·h per token and layer for QKᵀ and attention
    over V (every query head scores every key) and 6·h·V for the logits. Llama 3.1 70B shape."""
    b, s, layers, h, v = 2.0, 8192.0, 80.0, 8192.0, 128256.0
    h_kv, f = 1024.0, 28672.0
    ratio = sh.width_ratio_of(_llama(*SHAPES[4][:7]))
    flop = cp.model_flop(b, s, layers, h, v, ratio)
    expected = 6 * b * s * layers * h * (2 * h + 2 * h_kv + 3 * f) + 12 * b * s * s * layers * h + 6 * b * s * h * v
    assert flop == pytest.approx(expected, rel=1e-14)
    full = cp.full_recompute_flop(b, s, layers, h, v, ratio)
    assert full - flop == pytest.approx(2 * b * s * layers * h * (2 * h + 2 * h_kv + 3 * f) + 4 * b * s * s * layers * h,
                                        rel=1e-12)


def test_llama_3_405b_training_compute() -> None:
    """Llama 3 paper §1 and §3.2: "3.8 × 10^25 FLOPs" for "405B trainable parameters on 15.6T text
    tokens". 6·Ψ·D with the derived Ψ gives 3.80 × 10^25, so the paper counts 6 FLOPs per parameter
    per token; the model's FLOPs add attention over 8,192-token sequences, 7.8 % more (which
    matters when a published MFU is compared with the model's achieved MFU)."""
    workload = _llama(*SHAPES[5][:7])
    psi = sh.parameters_from_shape(workload)
    assert f"{6 * psi * 15.6e12:.1e}" == "3.8e+25"
    per_token = cp.model_flop(1.0, 8192.0, 126.0, 16384.0, 128256.0, sh.width_ratio_of(workload)) / 8192.0
    assert round(per_token / (6 * psi), 3) == 1.078


def test_activations_of_a_gqa_swiglu_layer() -> None:
    """Korthikanti et al. 2022 §4.1 item by item, with K and V h_kv wide and a SwiGLU MLP (t = 1, no
    recomputation, 2-byte activations, 1-byte masks): norm inputs 4sbh, QKV input 2sbh, Q 2sbh,
    K and V 2sb·h_kv each, softmax output, its dropout mask and output 5as²b, projection input
    2sbh, attention dropout mask sbh, MLP input 2sbh, the fused SwiGLU's saved input 4sbf (gate and
    up), the down projection's input 2sbf, MLP dropout mask sbh. Selective recomputation drops the
    5as²b; sequence parallelism splits all the rest by t (Eq. 4). Llama 3.1 70B shape."""
    s, b, h, a, h_kv, f = 8192.0, 1.0, 8192.0, 64.0, 1024.0, 28672.0
    ratio = sh.width_ratio_of(_llama(*SHAPES[4][:7]))
    items = (4 * s * b * h + 2 * s * b * h + 2 * s * b * h + 2 * s * b * h_kv + 2 * s * b * h_kv + 5 * a * s * s * b
             + 2 * s * b * h + s * b * h + 2 * s * b * h + 4 * s * b * f + 2 * s * b * f + s * b * h)
    assert me.activations_tensor_parallel(s, b, h, a, 1.0, ratio) == pytest.approx(items, rel=1e-14)
    assert me.activations_sequence_parallel(s, b, h, a, 1.0, ratio) == pytest.approx(items, rel=1e-14)
    core = 5 * a * s * s * b  # what selective recomputation drops; sequence parallelism splits the rest by t
    assert me.activations_selective_sequence_parallel(s, b, h, a, 8.0, ratio) == pytest.approx((items - core) / 8,
                                                                                              rel=1e-14)


def test_parameter_chain_names_its_figures() -> None:
    """The parameter count's chain shows each term once, inputs before what is derived from them."""
    root = sh.parameters_chain(_llama(*SHAPES[3][:7]))
    lines = explain_lines(root)
    assert lines[-1].startswith("workload.parameters_from_shape = L·(W + X) + e·V·h + P·h + ν·h [L = workload.layers")
    assert any(line.startswith("workload.kv_width = kv·h ÷ a") and line.endswith("= 1024") for line in lines)
    assert any(line == "workload.embedding_matrices = 2 (workload)" for line in lines)
    assert len({figure.key for figure in walk(root)}) == len(lines)
