"""Memory per GPU: model states by the ZeRO paper, activations by Korthikanti et al. 2022.

Model states (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
Parameter Models", §3.1 and Term 1; §5.1 for the stages): mixed-precision Adam keeps 2Ψ bytes
of 16-bit weights, 2Ψ of 16-bit gradients and KΨ of optimizer states, K = 12 (FP32 master
weights, momentum and variance). Stage 1 (P_os) partitions the optimizer states over the N_d
data-parallel ranks, stage 2 (P_os+g) the gradients too, stage 3 (P_os+g+p) the weights too.
Tensor and pipeline parallelism first split the Ψ parameters evenly over t·p GPUs (embeddings
are counted as evenly spread). Not counted: ZeRO-3's gathered-parameter buffers and other
temporary buffers, which the memory reserve covers.

Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
Models", §4 and Table 2), in bytes per transformer layer and micro-batch, 16-bit activations and
1-byte dropout masks, s = sequence, b = micro-batch, h = hidden, a = heads, t = tensor parallel.
Pipeline parallelism (§4.2.3, Eq. 5): under 1F1B the first stage holds L/p layers for p
micro-batches in flight, L layers' worth whatever p is; with m < p micro-batches only m are in
flight, so we use L/p · min(p, m). Ignored as Eq. 5 does: the embedding dropout and the output
layer's activations, and the working set of recomputing one layer under full recomputation.

Llama-style blocks: Table 2's 24/t term (Q and K 4sbh, V 2sbh, projection input 2sbh, GeLU
input and output 16sbh) becomes 24r/t with r the block's width ratio (`shape.py`): K and V are
h_kv wide under grouped-query attention, and a SwiGLU MLP stores 3f (Megatron-LM's fused SwiGLU
saves its 2f-wide input, the down projection its f-wide input) where the GeLU MLP stores 2f. So
Eq. 2 becomes sbh(10 + 24r/t + 5as/(ht)) and Eq. 4 sbh((10 + 24r)/t + 5as/(ht)). Unchanged: the
10sbh that tensor parallelism does not split (two norm inputs, the attention and MLP inputs, two
dropout masks), kept although Llama trains without dropout (an overestimate of 2sbh), and the
5as²b of the attention core, which has one score matrix per query head. r = 1 for the GPT block
(the parameter's default): 10 + 24·1 = 34, so every Table 2 row is computed as before, bit for bit.

FlashAttention (Dao et al. 2022, §3.1): the attention core runs in tiles on chip and stores only
its output and the softmax statistics, never the s×s scores, so the 5as/(ht) term goes whatever
the recomputation: "none" and "selective" both store sbh(10 + 24r/t), or sbh((10 + 24r)/t) with
sequence parallelism (the row's name says FlashAttention, its value is the selective row's).

Interleaved 1F1B (Narayanan et al. 2021 §2.2.2, v model chunks per stage): the first stage holds
more micro-batches' activations in flight, L(1 + (p − 1)/(p·v)) layers' worth (Korthikanti et
al. 2022 §4.2.3: "the interleaving schedule ... requires storing activations for L(1 + (p−1)/(pm))
layers where m is the number of interleaving stages").

Context parallelism (c GPUs share each sequence, Liu et al. 2023 ring attention; Megatron-LM
context parallelism): each GPU holds 1/c of every layer's activations, A ÷ c, and the model states
are partitioned by ZeRO over the N_d·c ranks that reduce the gradients.

FP8 (Transformer Engine, `transformer_engine/pytorch/module/linear.py`: under FP8 the tensor a
linear layer saves for its weight gradient is the quantized input, one byte a value): of the
16-bit terms above, the four linear-layer inputs halve. Two are h wide and split only under
sequence parallelism (the QKV GEMM's and the MLP's first GEMM's, 2sbh of the 10sbh), two are
split by t (the attention projection's input, sbh of 2sbh, and the down projection's f-wide input,
sbf of 2sbf). The norms' inputs, Q, K, V and the activation function's input stay 16-bit (the
attention runs in BF16), and full recomputation's layer input too.

Uneven stages (p·v not dividing L): the wiring passes the paced layer count p·v·⌈L/(p·v)⌉ for L
and the parameters Ψ scaled by it, so the largest stage's memory is the one counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic

from .chain import formula
from .evaluate import V

ZERO = "ZeRO (Rajbhandari et al. 2020) §3.1, §5.1, Term 1"
KORTHIKANTI = "Korthikanti et al. 2022, §4, Table 2"


@dataclass(frozen=True)
class Memory(Generic[V]):
    """Bytes per GPU, as floats (the estimate) or figures (its chain); `fits` says whether
    `total_bytes` fits in `usable_bytes`, `headroom_bytes` by how much (negative: short by that much)."""

    weights_bytes: V
    gradients_bytes: V
    optimizer_bytes: V
    activation_per_layer_bytes: V
    activation_layers_held: V
    activations_bytes: V
    total_bytes: V
    usable_bytes: V
    headroom_bytes: V
    fits: bool


@formula("Ψ ÷ (t·p)", "Ψ t p", "Shoeybi et al. 2019; Narayanan et al. 2021 §2")
def parameters_per_gpu(parameters: float, tensor: float, pipeline: float) -> float:
    return parameters / (tensor * pipeline)


@formula("Ψ'·B (replicated on every data-parallel rank)", "Ψ' B", ZERO)
def replicated_bytes(parameters: float, bytes_per_parameter: float) -> float:
    return parameters * bytes_per_parameter


@formula("Ψ'·B ÷ N_d (partitioned over the data-parallel ranks)", "Ψ' B N_d", ZERO)
def partitioned_bytes(parameters: float, bytes_per_parameter: float, data_parallel: float) -> float:
    return parameters * bytes_per_parameter / data_parallel


def partitions(zero_stage: int) -> tuple[bool, bool, bool]:
    """Whether ZeRO stage 0-3 partitions (weights, gradients, optimizer states)."""
    return zero_stage >= 3, zero_stage >= 2, zero_stage >= 1


@formula("sbh(10 + 24r/t + 5as/(ht))", "s b h a t r", KORTHIKANTI + ", tensor parallel (Eq. 2)")
def activations_tensor_parallel(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * (10.0 + 24.0 * r / t + 5.0 * a * s / (h * t))


@formula("sbh((10 + 24r)/t + 5as/(ht))", "s b h a t r", KORTHIKANTI + ", tensor + sequence parallel (Eq. 4)")
def activations_sequence_parallel(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * ((10.0 + 24.0 * r) / t + 5.0 * a * s / (h * t))


@formula("sbh(10 + 24r/t)", "s b h a t r", KORTHIKANTI + ", tensor parallel + selective recomputation")
def activations_selective(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * (10.0 + 24.0 * r / t)


@formula("sbh((10 + 24r)/t)", "s b h a t r", KORTHIKANTI + ", tensor + sequence parallel + selective recomputation")
def activations_selective_sequence_parallel(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * ((10.0 + 24.0 * r) / t)


@formula("2sbh (each layer's input only)", "s b h a t r", KORTHIKANTI + ", full recomputation")
def activations_full_recompute(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return 2.0 * s * b * h


FLASH = "Dao et al. 2022 (FlashAttention: no s×s scores stored)"


@formula("sbh(10 + 24r/t) (FlashAttention)", "s b h a t r", KORTHIKANTI + ", tensor parallel; " + FLASH)
def activations_flash(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * (10.0 + 24.0 * r / t)


@formula("sbh((10 + 24r)/t) (FlashAttention)", "s b h a t r", KORTHIKANTI + ", tensor + sequence parallel; " + FLASH)
def activations_flash_sequence_parallel(s: float, b: float, h: float, a: float, t: float, r: float = 1.0) -> float:
    return s * b * h * ((10.0 + 24.0 * r) / t)


@formula("M − 2sbh ÷ t_sp (no dropout masks)", "M s b h t_sp",
         KORTHIKANTI + ": the attention and MLP dropout masks, one byte a value each, left out")
def without_dropout_masks(per_layer: float, s: float, b: float, h: float, split: float) -> float:
    return per_layer - 2.0 * s * b * h / split


@formula("M − 2sbh ÷ t_sp − 3as²b ÷ t (no dropout masks, no dropped-out scores)", "M s b h t_sp a t",
         KORTHIKANTI + ": without attention dropout the softmax output (2as²b) is also the input of the "
         "product with V, so its mask (as²b) and its dropped-out copy (2as²b) go")
def without_dropout_scores(per_layer: float, s: float, b: float, h: float, split: float, a: float,
                           tensor: float) -> float:
    return per_layer - 2.0 * s * b * h / split - 3.0 * a * s * s * b / tensor


@formula("M − 2sbh ÷ t_sp − sb(h + f) ÷ t (FP8: linear-layer inputs kept in 8 bits)", "M s b h f t_sp t",
         "Transformer Engine under FP8 saves each linear layer's input for the backward pass as its FP8 "
         "copy, one byte a value: the QKV and MLP-input GEMMs' h-wide inputs (÷ t_sp), the projection's "
         "h-wide and the down projection's f-wide inputs (÷ t)")
def fp8_linear_inputs(per_layer: float, s: float, b: float, h: float, f: float, split: float,
                      tensor: float) -> float:
    return per_layer - 2.0 * s * b * h / split - s * b * (h + f) / tensor


ACTIVATIONS_FLASH = {
    ("none", False): activations_flash,
    ("none", True): activations_flash_sequence_parallel,
    ("selective", False): activations_flash,
    ("selective", True): activations_flash_sequence_parallel,
    ("full", False): activations_full_recompute,
    ("full", True): activations_full_recompute,
}
"""Table 2 without the attention core's 5as/(ht) term, by (recompute, sequence parallel)."""

ACTIVATIONS_PER_LAYER = {
    ("none", False): activations_tensor_parallel,
    ("none", True): activations_sequence_parallel,
    ("selective", False): activations_selective,
    ("selective", True): activations_selective_sequence_parallel,
    ("full", False): activations_full_recompute,
    ("full", True): activations_full_recompute,
}
"""Table 2 by (recompute, sequence parallel). With t = 1 and r = 1 every row reduces to Eq. 1,
sbh(34 + 5as/h), except full recomputation."""


@formula("L/p · min(p, m)", "L p m", "Korthikanti et al. 2022 §4.2.3 (Eq. 5); Narayanan et al. 2021 §2.2.1 (1F1B)")
def activation_layers_held(layers: float, pipeline: float, microbatches: float) -> float:
    return layers / pipeline * min(pipeline, microbatches)


@formula("L/p · min(m, p + (p − 1)/v)", "L p m v",
         "Korthikanti et al. 2022 §4.2.3; Narayanan et al. 2021 §2.2.2 (interleaved 1F1B, v chunks per stage); "
         "Megatron-Core's interleaved schedule: with m = p every forward pass is a warm-up one")
def activation_layers_held_interleaved(layers: float, pipeline: float, microbatches: float, chunks: float) -> float:
    # The first stage's warm-up holds p + (p − 1)/v micro-batches' worth of its layers (Korthikanti's
    # L(1 + (p − 1)/(p·v))), but never more than the m micro-batches a step has: with m = p
    # Megatron-Core runs every forward pass before the first backward, holding exactly m.
    return layers / pipeline * min(microbatches, pipeline + (pipeline - 1.0) / chunks)


def chunk_layers(layers: int, pipeline: int, chunks: int) -> int:
    """The layers of each model chunk of the busiest stage, ⌈L/(p·v)⌉ (`compute.paced_layers` ÷ p·v):
    the most `--recompute-layers` can take."""
    return -(-layers // (pipeline * chunks))


def recompute_boundary(stored: float, recomputed: float, usable: float, chunk: int) -> float:
    """How many layers of each chunk must be recomputed in full for `usable` bytes to hold a layout
    that needs `stored` bytes with none recomputed and `recomputed` with every one: memory is linear
    in the share φ = n ÷ chunk (`compute.recompute_blend`), so this is where the line crosses
    `usable`; the count is the whole number at or above it."""
    return (stored - usable) / (stored - recomputed) * chunk


@formula("Ψ · L_paced ÷ L", "Ψ L_paced L", "uneven stages: the largest stage's share of the parameters")
def paced_parameters(parameters: float, paced_layers: float, layers: float) -> float:
    return parameters * paced_layers / layers


@formula("4 bytes (FP32 gradients)", "", "Megatron-LM main grads in FP32 (--accumulate-allreduce-grads-in-fp32); "
         "BLOOM (Le Scao et al. 2022): 2 + 4 + 12 = 18 bytes per parameter")
def fp32_gradient_bytes() -> float:
    return 4.0


@formula("A_layer · n_layers", "A_layer n_layers", KORTHIKANTI)
def activations_held(per_layer: float, layers_held: float) -> float:
    return per_layer * layers_held


LORA = "LoRA (Hu et al. 2021 §4); QLoRA (Dettmers et al. 2023 §3)"


@formula("r·(6h + 2h_kv + n·(h + f))·L", "r h h_kv n f L",
         LORA + ": A (r × d_in) and B (d_out × r) on Q, K, V, the projection and the n MLP matrices")
def adapter_parameters(rank: float, h: float, kv_width: float, matrices: float, ffn: float, layers: float) -> float:
    return rank * (6.0 * h + 2.0 * kv_width + matrices * (h + ffn)) * layers


@formula("bits ÷ 8", "bits", LORA + ": the frozen base, 16-bit or quantized")
def frozen_weight_bytes(bits: float) -> float:
    return bits / 8.0


@formula("Ψ'·B_f + Ψ'_A·B (the frozen base and the adapters)", "Ψ' B_f Ψ'_A B", LORA)
def lora_weight_bytes(parameters: float, frozen_bytes: float, adapters: float, weight_bytes: float) -> float:
    return parameters * frozen_bytes + adapters * weight_bytes


@formula("W ÷ N_d (partitioned over the data-parallel ranks)", "W N_d", ZERO)
def partitioned_total(total: float, data_parallel: float) -> float:
    return total / data_parallel


@formula("W + G + O + A", "W G O A", ZERO + "; " + KORTHIKANTI)
def total_bytes(weights: float, gradients: float, optimizer: float, activations: float) -> float:
    return weights + gradients + optimizer + activations


@formula("M_gpu · (1 − r)", "M_gpu r", "assumption: memory reserve")
def usable_bytes(capacity: float, reserve_fraction: float) -> float:
    return capacity * (1.0 - reserve_fraction)


@formula("M_usable − M_total", "M_usable M_total", "negative when it does not fit")
def headroom_bytes(usable: float, total: float) -> float:
    return usable - total


@formula("A ÷ c (each GPU holds 1/c of the sequence)", "A c", "context parallelism (Megatron-LM; Liu et al. 2023)")
def context_share_bytes(per_layer: float, context: float) -> float:
    return per_layer / context


@formula("N_d·c", "N_d c", "context parallelism: gradients are reduced over the data- and context-parallel ranks")
def gradient_group(data_parallel: float, context: float) -> float:
    return data_parallel * context
