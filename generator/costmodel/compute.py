"""Compute: FLOPs per step and per micro-batch, and the time they take.

Model FLOPs of one training iteration over B sequences (Narayanan et al. 2021, "Efficient
Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", §5.1; the no-
recomputation form is the model-FLOPs count of Korthikanti et al. 2022, §6 and appendix):

    F = 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h))

The 72·B·s·L·h² term is 6 FLOPs per parameter per token for the 12·L·h² parameters of the
transformer layers (Kaplan et al. 2020 §2.1); s/(6h) is attention over the sequence; V/(12Lh) is
the logit layer. The forward pass is a third of F, the backward pass two thirds.

Executed FLOPs add the forward FLOPs that recomputation repeats, which cost time but are not
model FLOPs (MFU as defined by Chowdhery et al. 2022, PaLM, appendix B):
- selective: F + 4·B·s²·L·h, the forward of the recomputed attention core (Korthikanti et al.
  2022 §5: QKᵀ and attention over V, 2·B·s²·h each per layer; softmax and dropout add no matmul
  FLOPs). The paper's own hardware-FLOPs figures (Table 5 HFU, "2.7 %" for GPT-3) count
  72·B·s·L·h²·(1 + s/(3h) + V/(12Lh)), three times that; with it selective recomputation would
  cost more than full recomputation whenever s > 3h, so the model counts the forward FLOPs;
- full: 96·B·s·L·h²·(1 + s/(6h) + V/(16·L·h)) (Narayanan et al. 2021, Eq. 3), one more forward
  pass of every layer (not of the logit layer).

Llama-style blocks (grouped-query attention, SwiGLU MLP, any MLP width): the 12·L·h² weights
become 12·L·h²·r with r the block's width ratio (`shape.py`: r = (2h + 2h_kv + n·f) ÷ (12h)),
so 72·B·s·L·h²·(1 + …) becomes 72·B·s·L·h²·(r + s/(6h) + V/(12Lh)) and the full-recomputation
form 96·B·s·L·h²·(r + s/(6h) + V/(16Lh)). What stays: the attention term s/(6h), because every
query head scores every key whatever the number of key/value heads, and the logit term. r = 1
for the GPT block, so its figures are unchanged bit for bit (r is the parameter's default).

Per GPU, the FLOPs of a micro-batch are split evenly over the t·p GPUs of a model replica (the
logit layer is counted as spread over the stages). Their time is that of the GPU while it computes,
from two costs that depend on the hardware in different ways (an end-to-end MFU is an output of the
whole model, never this input: the bubble, exposed communication and recomputation come on top):

    T = F ÷ (R·η_gemm) + M ÷ B_hbm,   η_gemm = η_max · I ÷ (I + ρ·I_ridge)

- matrix multiplications run at a share η_gemm of the dense peak R. It is set by the roofline
  (Williams, Waterman and Patterson 2009): a GEMM whose arithmetic intensity I (FLOPs per byte of
  operands it reads and writes) is low against the GPU's ridge point I_ridge = R ÷ B_hbm spends
  its time on memory, not on the tensor cores. The smooth form I ÷ (I + ρ·I_ridge) gives half of
  η_max at I = ρ·I_ridge and η_max for I ≫ I_ridge; ρ and η_max are fitted on the published runs
  (`specs/assumptions/`). I is that of the layer's MLP up-projection on one rank, the GEMM of
  M = b·s ÷ c tokens by K = h by N = f ÷ t (the FFN width split t ways), with e bytes per operand
  element (2 for 16-bit, 1 for FP8):  I = 2·M·K·N ÷ (e·(M·K + K·N + M·N)).
  So narrow layers, high tensor-parallel degrees and short micro-batches lower η_gemm, and more on
  a GPU with more FLOPs per byte of HBM (H100 against A100) than on one with fewer;
- the elementwise work that tensor parallelism does not split unless sequence parallelism is on
  (norms, activations, dropout, residual adds) is bound by memory bandwidth: it moves
  M = c·b·s·h·(L ÷ p)·n ÷ t_sp bytes, with n = 3 passes (a forward and a backward twice as long)
  or 4 with full recomputation, t_sp = t under sequence parallelism else 1, at the datasheet
  bandwidth B_hbm (c folds in the share of it that is achieved). A GPU with more FLOPs per byte
  of HBM (H100 against A100) thus computes at a lower share of its peak;
- without FlashAttention, the softmax and the attention dropout run over the s×s scores, a·s²·b
  per layer (s ÷ d_head times the hidden states' b·s·h, 16 to 21 times for the suite's shapes), in
  kernels of their own: 16-bit scores and a 1-byte mask (Korthikanti et al. 2022, Table 2) read
  and written once each, 9 bytes a score forward and 11 backward (4 and 6 without dropout), the
  forward twice under either recomputation, at the datasheet bandwidth with nothing fitted. It
  weighs most on narrow models: a·s ÷ h² falls with the width.

The forward pass is the forward FLOPs and one pass of the memory-bound bytes; the backward pass is
the rest of the micro-batch (recomputed forward included).

FlashAttention (Dao et al. 2022, §3.1): the backward pass recomputes the scores QKᵀ from the
stored softmax statistics, 2·B·s²·h FLOPs per layer: executed, not model FLOPs.

FP8 (Transformer Engine's fp8_autocast, as Megatron-LM, NeMo and llm-foundry use it) runs the
transformer layers' linear GEMMs at the FP8 peak. Two parts stay in 16 bits:
- the attention core (QKᵀ and attention over V, in the FlashAttention kernel): of a micro-batch's
  executed FLOPs F, A = κ·b·s²·(L ÷ p)·h ÷ (t·c), with κ = 12 for a forward and backward pass, 16
  when recomputation repeats the forward, 2 more with FlashAttention, and 4 for the forward alone;
- the output layer: Megatron-Core's is a ColumnParallelLinear, not a Transformer Engine module;
  llm-foundry's MPT computes its logits with the tied embedding, outside Transformer Engine; and
  DeepSeek-V3's FP8 recipe keeps "the output head" in its original precision (DeepSeek-AI 2024,
  §3.3.1). Its FLOPs are G = k·b·s·h·V ÷ (t·p·c), spread over the stages as in F, with k = 2 for
  the forward pass, 6 for a micro-batch, and 4 under LoRA (no weight gradient).
FP8 also moves bytes BF16 does not: each GEMM operand that arrives in 16 bits is cast to FP8
before the GEMM, in a kernel of its own that reads 2 bytes a value and writes 2, the FP8 copy and
its transpose (`transformer_engine/pytorch/module/linear.py` quantizes the input with rowwise and
columnwise usage, the columnwise copy serving the weight gradient; `module/base.py`
`grad_output_preprocess` casts and transposes the output gradient). The QKV and MLP-input GEMMs
take their input from a fused norm (`LayerNormLinear`), which writes the FP8 copies in place of
its 16-bit output: nothing extra. The rest are, per token and layer, in the forward pass the
attention projection's input (h) and the down projection's (f), both split by t, and in the
backward pass the four GEMMs' output gradients: QKV (h + 2h_kv) and the MLP input's ((n − 1)·f),
split by t, and the projection's and the down projection's (h each), split only under sequence
parallelism. With 12hr = 2h + 2h_kv + n·f the backward's t-split part is 12hr − h − f, so
M_fp8 = 4·b·s·(L ÷ p)·(n_f·(h + f) ÷ t + (12hr − h − f) ÷ t + 2h ÷ t_sp), n_f = 2 under full
recomputation (the forward's casts repeat), at the datasheet bandwidth with nothing fitted. For a
mixture of experts h, f and r are the workload's dense width and active width ratio: an
approximation of the experts' own casts.
So T = (F − A − G) ÷ (R_8·η) + G ÷ (R_16·η) + A ÷ (R_16·η) + (M + M_fp8) ÷ B_hbm. η is the same
at both precisions: an FP8 operand is half the bytes and the FP8 peak twice the BF16 one, so I ÷ I_ridge
does not change. The output layer weighs most on narrow models with large vocabularies.
At long sequences, where the attention core is most of the FLOPs, FP8 thus gains little.

The attention core under FlashAttention is one fused kernel, not a GEMM: it runs at the share
η_attn of the dense 16-bit peak that FlashAttention-2 reaches on the GPU's architecture, as its
authors publish it (`specs/architectures/`: Ampere's from Dao 2023, Hopper's, far lower because
FlashAttention-2 does not use Hopper's asynchronous tensor cores, from Shah et al. 2024), in place
of η. The model counts the core's
FLOPs in full (12·b·s²·h per layer, as the MFU conventions do), and a causal kernel skips about
half of them; applied to the full count, the published utilization thus stands for half of it on
the FLOPs a causal kernel runs. That is what llm-foundry's 216 runs measure: counting half the
FLOPs at the published figure predicts their steps a fifth too fast. Under cuDNN's fused attention
(the layout's `attention_kernel`; Transformer Engine's first choice on Hopper, which NeMo and
Megatron-Core train with), η_attn is FlashAttention-2's figure times the architecture's published
speed-up of cuDNN over it (`cudnn_attention_efficiency`). Where the architecture publishes no
figure, or FlashAttention is off, the core runs at η. So
T = (F − A) ÷ (R·η) + A ÷ (R_16·η_attn) + M ÷ B_hbm, with R the precision's peak.

Context parallelism (c GPUs per sequence): each GPU runs 1/c of the micro-batch's FLOPs (causal
load balancing assumed, as Megatron-LM's split of the sequence into 2c chunks gives) and its
memory-bound work is that of s ÷ c tokens. The attention core's FLOPs, 12·b·s²·h per layer for the
forward and backward passes (the s/(6h) term of F), are what the ring exchange can hide behind.

Uneven stages: when p·v does not divide L, the slowest stage runs ⌈L/(p·v)⌉ layers per chunk, so
the micro-batch's FLOPs and memory-bound work are counted with L_paced = p·v·⌈L/(p·v)⌉ layers in
place of L (the logit layer stays spread over the stages); model FLOPs per step keep L.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic

from .chain import formula
from .evaluate import V

NARAYANAN = "Narayanan et al. 2021 §5.1"
KORTHIKANTI = "Korthikanti et al. 2022 §6"


@dataclass(frozen=True)
class Compute(Generic[V]):
    """FLOPs and seconds per GPU and micro-batch, and the model FLOPs of a whole step, as floats
    (the estimate) or figures (its chain)."""

    peak_flop_per_s: V
    model_flop_per_step: V
    model_flop_per_microbatch_per_gpu: V
    executed_flop_per_microbatch_per_gpu: V
    forward_s: V
    backward_s: V
    microbatch_s: V
    attention_s: V | None = None
    """The attention core's matmul time per micro-batch, only with context parallelism (what its
    ring exchange hides behind)."""


@formula("72·B·s·L·h²·(r + s/(6h) + V/(12Lh))", "B s L h V r",
         NARAYANAN + "; " + KORTHIKANTI + " (model FLOPs); r: shape.py")
def model_flop(batch: float, s: float, layers: float, h: float, vocabulary: float, ratio: float = 1.0) -> float:
    return 72.0 * batch * s * layers * h * h * (ratio + s / (6.0 * h) + vocabulary / (12.0 * layers * h))


@formula("72·B·s·L·h²·(r + s/(6h) + V/(12Lh)) + 4·B·s²·L·h", "B s L h V r",
         "Korthikanti et al. 2022 §5 (selective recomputation repeats the attention core's forward)")
def selective_recompute_flop(batch: float, s: float, layers: float, h: float, vocabulary: float,
                             ratio: float = 1.0) -> float:
    return (72.0 * batch * s * layers * h * h * (ratio + s / (6.0 * h) + vocabulary / (12.0 * layers * h))
            + 4.0 * batch * s * s * layers * h)


@formula("96·B·s·L·h²·(r + s/(6h) + V/(16Lh))", "B s L h V r", "Narayanan et al. 2021 Eq. 3 (full recomputation)")
def full_recompute_flop(batch: float, s: float, layers: float, h: float, vocabulary: float,
                        ratio: float = 1.0) -> float:
    return 96.0 * batch * s * layers * h * h * (ratio + s / (6.0 * h) + vocabulary / (16.0 * layers * h))


@formula("2·B·s²·L·h (FlashAttention's backward recomputes QKᵀ)", "B s L h",
         "Dao et al. 2022 §3.1 (backward recomputes the attention scores)")
def flash_backward_flop(batch: float, s: float, layers: float, h: float) -> float:
    return 2.0 * batch * s * s * layers * h


@formula("F + F_flash", "F F_flash", "executed FLOPs with FlashAttention's recomputation")
def plus_flop(flop: float, extra: float) -> float:
    return flop + extra


@formula("24·B·s·L·h²·(r + V/(12Lh)) (the weight gradients of frozen layers)", "B s L h V r",
         "LoRA (Hu et al. 2021 §4.2): frozen weights get no gradient; a third of the linear layers' FLOPs")
def frozen_weight_gradient_flop(batch: float, s: float, layers: float, h: float, vocabulary: float,
                                ratio: float = 1.0) -> float:
    return 24.0 * batch * s * layers * h * h * (ratio + vocabulary / (12.0 * layers * h))


@formula("F − F_frozen", "F F_frozen", "executed FLOPs without the frozen weights' gradients")
def minus_flop(flop: float, frozen: float) -> float:
    return flop - frozen


@formula("p·v·⌈L/(p·v)⌉", "L p v", "uneven stages: the largest stage's layers, p·v times (it sets the pace)")
def paced_layers(layers: float, pipeline: float, chunks: float) -> float:
    return pipeline * chunks * math.ceil(layers / (pipeline * chunks))


EXECUTED_FLOP = {"none": model_flop, "selective": selective_recompute_flop, "full": full_recompute_flop}


@formula("min(1, N·p·v ÷ L_paced)", "N p v L_paced",
         "Megatron-LM --recompute-method block: N layers of each chunk of the busiest stage recomputed")
def recompute_share(layers_recomputed: float, pipeline: float, chunks: float, paced_layers: float) -> float:
    return min(1.0, layers_recomputed * pipeline * chunks / paced_layers)


@formula("φ·X_full + (1 − φ)·X_none", "φ X_full X_none", "the recomputed layers at full recomputation's figure, the others at none's")
def recompute_blend(share: float, recomputed: float, stored: float) -> float:
    return share * recomputed + (1.0 - share) * stored


@formula("F ÷ (t·p)", "F t p", "even split over a model replica's GPUs")
def per_gpu(flop: float, tensor: float, pipeline: float) -> float:
    return flop / (tensor * pipeline)


@formula("F_model ÷ 3", "F_model", NARAYANAN + " (backward = 2 × forward)")
def forward_flop(model: float) -> float:
    return model / 3.0


ROOFLINE = "roofline (Williams, Waterman and Patterson 2009)"


@formula("2·M·K·N ÷ (e·(M·K + K·N + M·N))", "M K N e", ROOFLINE + ": a GEMM's FLOPs per operand byte")
def gemm_intensity(tokens: float, hidden: float, ffn_per_rank: float, element_bytes: float) -> float:
    return (2.0 * tokens * hidden * ffn_per_rank
            / (element_bytes * (tokens * hidden + hidden * ffn_per_rank + tokens * ffn_per_rank)))


@formula("R ÷ B_hbm", "R B_hbm", ROOFLINE + ": the ridge point, FLOPs per byte at which compute and memory balance")
def ridge_intensity(peak: float, bandwidth: float) -> float:
    return peak / bandwidth


@formula("η_max · I ÷ (I + ρ·I_ridge)", "η_max I ρ I_ridge",
         "assumptions: gemm_efficiency_max, gemm_half_intensity (" + ROOFLINE + ")")
def gemm_efficiency(efficiency_max: float, intensity: float, half_intensity: float, ridge: float) -> float:
    return efficiency_max * intensity / (intensity + half_intensity * ridge)


@formula("b·s_c", "b s_c", "tokens of a micro-batch on one GPU")
def microbatch_tokens(b: float, local_sequence: float) -> float:
    return b * local_sequence


@formula("f ÷ t", "f t", "the FFN width on one tensor-parallel rank")
def ffn_per_rank(ffn: float, tensor: float) -> float:
    return ffn / tensor


@formula("F ÷ (R·η)", "F R η", "matmul FLOPs at the GEMM efficiency")
def seconds_at_rate(flop: float, peak_flop_per_s: float, efficiency: float) -> float:
    return flop / (peak_flop_per_s * efficiency)


FP8_SCOPE = ("FP8 covers the transformer layers' linear GEMMs (Transformer Engine's fp8_autocast), not the "
             "attention core nor the output layer")


@formula("2 (forward)", "", "the output layer's FLOPs, in b·s·h·V")
def logit_forward_coefficient() -> float:
    return 2.0


@formula("6 (forward 2, backward 4)", "", "the output layer's FLOPs, in b·s·h·V")
def logit_coefficient() -> float:
    return 6.0


@formula("4 (forward 2, input gradient 2; frozen weights get no gradient)", "",
         "the output layer's FLOPs, in b·s·h·V; LoRA")
def logit_frozen_coefficient() -> float:
    return 4.0


@formula("k·b·s·h·V ÷ (t·p·c)", "k b s h V t p c",
         "the output layer's FLOPs per GPU and micro-batch (spread over the stages, as in F)")
def logit_flop(coefficient: float, b: float, s: float, h: float, vocabulary: float, tensor: float, pipeline: float,
               context: float) -> float:
    return coefficient * b * s * h * vocabulary / (tensor * pipeline * context)


@formula("4 (QKᵀ and attention over V, forward)", "", "the attention core's FLOPs, in b·s²·h per layer")
def attention_forward_coefficient() -> float:
    return 4.0


@formula("12 (forward 4, backward 8)", "", "the attention core's FLOPs, in b·s²·h per layer")
def attention_core_coefficient() -> float:
    return 12.0


@formula("16 (forward 4, backward 8, recomputed forward 4)", "",
         "the attention core's FLOPs, in b·s²·h per layer; selective or full recomputation")
def attention_recomputed_coefficient() -> float:
    return 16.0


ATTENTION_COEFFICIENT = {"none": attention_core_coefficient, "selective": attention_recomputed_coefficient,
                         "full": attention_recomputed_coefficient}


@formula("κ + 2 (FlashAttention's backward recomputes QKᵀ)", "κ", "Dao et al. 2022 §3.1")
def flash_attention_coefficient(coefficient: float) -> float:
    return coefficient + 2.0


@formula("κ·b·s²·(L ÷ p)·h ÷ (t·c)", "κ b s L p h t c", "the attention core's FLOPs per GPU and micro-batch")
def attention_core_flop(coefficient: float, b: float, s: float, layers: float, pipeline: float, h: float,
                        tensor: float, context: float) -> float:
    return coefficient * b * s * s * (layers / pipeline) * h / (tensor * context)


@formula("(F − A) ÷ (R·η) + A ÷ (R_16·η_attn)", "F A R R_16 η η_attn",
         "the attention core apart: at the 16-bit peak (" + FP8_SCOPE + ") and at FlashAttention's efficiency")
def split_seconds_at_rate(flop: float, attention_flop: float, peak: float, bf16_peak: float, efficiency: float,
                          attention_efficiency: float) -> float:
    return (flop - attention_flop) / (peak * efficiency) + attention_flop / (bf16_peak * attention_efficiency)


@formula("(F − A − G) ÷ (R·η) + G ÷ (R_16·η) + A ÷ (R_16·η_attn)", "F A G R R_16 η η_attn",
         "FP8: the attention core and the output layer apart, at the 16-bit peak (" + FP8_SCOPE + ")")
def fp8_split_seconds_at_rate(flop: float, attention_flop: float, logit_flop: float, peak: float, bf16_peak: float,
                              efficiency: float, attention_efficiency: float) -> float:
    return ((flop - attention_flop - logit_flop) / (peak * efficiency) + logit_flop / (bf16_peak * efficiency)
            + attention_flop / (bf16_peak * attention_efficiency))


@formula("η_fa2 · k", "η_fa2 k", "cuDNN's fused attention: FlashAttention-2's share of the peak times its "
         "published speed-up on the architecture")
def cudnn_attention_efficiency(flash_efficiency: float, speedup: float) -> float:
    return flash_efficiency * speedup


@formula("1 pass (forward)", "", "memory-bound passes")
def one_pass() -> float:
    return 1.0


@formula("3 passes (forward, backward = 2 × forward)", "", "memory-bound passes")
def three_passes() -> float:
    return 3.0


@formula("4 passes (forward, backward = 2 × forward, recomputed forward)", "", "memory-bound passes; full recomputation")
def four_passes() -> float:
    return 4.0


PASSES = {"none": three_passes, "selective": three_passes, "full": four_passes}
"""Selective recomputation repeats only the attention core, whose memory traffic FlashAttention
keeps on chip, so it adds no pass of the elementwise work over the hidden states (without
FlashAttention the scores' traffic is counted apart, `SCORE_FORWARD_PASSES`)."""


@formula("c·b·s·h·(L ÷ p)·n", "c b s h L p n", "assumption: memory_bound_bytes (not split by tensor parallelism)")
def memory_bound_bytes(per_token: float, b: float, s: float, h: float, layers: float, pipeline: float,
                       passes: float) -> float:
    return per_token * b * s * h * (layers / pipeline) * passes


@formula("c·b·s·h·(L ÷ p)·n ÷ t", "c b s h L p n t", "assumption: memory_bound_bytes (sequence parallelism splits it)")
def memory_bound_bytes_split(per_token: float, b: float, s: float, h: float, layers: float, pipeline: float,
                             passes: float, tensor: float) -> float:
    return per_token * b * s * h * (layers / pipeline) * passes / tensor


FP8_CASTS = ("Transformer Engine's FP8 casts (module/linear.py, module/base.py grad_output_preprocess): "
             "2 B read, the FP8 copy and its transpose written, for every GEMM operand no fused norm casts")


@formula("4·b·s·(L ÷ p)·(h + f) ÷ t (FP8 casts of the projection's and the down projection's inputs)",
         "b s L p h f t", FP8_CASTS)
def fp8_forward_cast_bytes(b: float, s: float, layers: float, pipeline: float, h: float, f: float,
                           tensor: float) -> float:
    return 4.0 * b * s * (layers / pipeline) * (h + f) / tensor


@formula("4·b·s·(L ÷ p)·((12hr − h − f) ÷ t + 2h ÷ t_sp) (FP8 casts of the four GEMMs' output gradients)",
         "b s L p h r f t t_sp", FP8_CASTS)
def fp8_backward_cast_bytes(b: float, s: float, layers: float, pipeline: float, h: float, r: float, f: float,
                            tensor: float, split: float) -> float:
    return 4.0 * b * s * (layers / pipeline) * ((12.0 * h * r - h - f) / tensor + 2.0 * h / split)


@formula("n_f·M_f + M_b", "n_f M_f M_b", "FP8 casts of a micro-batch: the forward's repeat under full recomputation")
def fp8_microbatch_cast_bytes(forward_passes: float, forward: float, backward: float) -> float:
    return forward_passes * forward + backward


SCORES = "Korthikanti et al. 2022 Table 2's 16-bit scores and 1-byte dropout mask, read and written once a kernel"


@formula("9 B a score (softmax reads 2, writes 2; dropout reads 2, writes 2 and a 1-B mask)", "", SCORES)
def score_forward_bytes_with_dropout() -> float:
    return 9.0


@formula("4 B a score (softmax reads 2, writes 2)", "", SCORES)
def score_forward_bytes() -> float:
    return 4.0


@formula("11 B a score (dropout's backward reads 2 and the mask, writes 2; softmax's reads the gradient "
         "and the output, writes 2)", "", SCORES)
def score_backward_bytes_with_dropout() -> float:
    return 11.0


@formula("6 B a score (softmax's backward reads the gradient and the output, writes 2)", "", SCORES)
def score_backward_bytes() -> float:
    return 6.0


SCORE_FORWARD_BYTES = {True: score_forward_bytes_with_dropout, False: score_forward_bytes}
SCORE_BACKWARD_BYTES = {True: score_backward_bytes_with_dropout, False: score_backward_bytes}
"""By whether the workload trains with dropout."""


@formula("2 forward passes (the forward, and its recomputation)", "", "memory-bound passes over the scores")
def two_forward_passes() -> float:
    return 2.0


SCORE_FORWARD_PASSES = {"none": one_pass, "selective": two_forward_passes, "full": two_forward_passes}
"""Selective recomputation repeats the attention core, its softmax and dropout included, as full
recomputation repeats every layer's forward."""

FP8_FORWARD_PASSES = {"none": one_pass, "selective": one_pass, "full": two_forward_passes}
"""Full recomputation repeats the forward's FP8 casts; selective repeats only the attention core,
which runs in 16 bits."""


@formula("n_f·k_f + k_b", "n_f k_f k_b", "bytes a score moves in a micro-batch")
def score_microbatch_bytes(forward_passes: float, forward: float, backward: float) -> float:
    return forward_passes * forward + backward


@formula("k·a·s²·b·(L ÷ p) ÷ (t·c)", "k a s b L p t c",
         "the s×s scores' elementwise work without FlashAttention: a·s²·b scores a layer, split over the "
         "t·c GPUs that share the heads and the queries")
def score_bytes(per_score: float, heads: float, s: float, b: float, layers: float, pipeline: float,
                tensor: float, context: float) -> float:
    return per_score * heads * s * s * b * (layers / pipeline) / (tensor * context)


@formula("M_e + M_s", "M_e M_s", "the elementwise work over the hidden states and over the scores")
def memory_bound_bytes_total(elementwise: float, scores: float) -> float:
    return elementwise + scores


@formula("M ÷ B_hbm", "M B_hbm", "memory-bound work at the datasheet memory bandwidth")
def memory_bound_s(size: float, bandwidth: float) -> float:
    return size / bandwidth


@formula("T_gemm + T_mem", "T_gemm T_mem", "matmuls, then memory-bound work")
def compute_s(gemm_s: float, memory_s: float) -> float:
    return gemm_s + memory_s


@formula("T_mb − T_fwd", "T_mb T_fwd", "backward includes any recomputed forward")
def backward_s(microbatch_s: float, forward_s: float) -> float:
    return microbatch_s - forward_s


@formula("F ÷ (t·p·c)", "F t p c", "even split over a model replica's GPUs and the c GPUs of a sequence")
def per_gpu_context(flop: float, tensor: float, pipeline: float, context: float) -> float:
    return flop / (tensor * pipeline * context)


@formula("s ÷ c", "s c", "context parallelism: tokens of a sequence per GPU")
def local_sequence(s: float, context: float) -> float:
    return s / context


@formula("12·b·s²·(L ÷ p)·h ÷ (t·c)", "b s L p h t c",
         NARAYANAN + " (the attention term s/(6h) of F: QKᵀ and attention over V, forward and backward)")
def attention_flop(b: float, s: float, layers: float, pipeline: float, h: float, tensor: float,
                   context: float) -> float:
    return 12.0 * b * s * s * (layers / pipeline) * h / (tensor * context)
