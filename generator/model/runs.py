"""Published, measured training runs: what a source measured (a step time, a throughput, a FLOP
rate or utilisation under a named FLOP convention) and the exact configuration it measured it on:
the model (a workload of specs/workloads/ or a shape written inline), the hardware and the
parallel layout. The cost model is checked against them (DESIGN.md section 7a: measured beats
plausible); only generator/estimates/ turns a run into the model's inputs.

A field the source does not state is left out (null), and the run's `note` says so: a run records
what was published, never what we would guess. Counts are plain ints (a layout must divide
exactly); measured values keep the digits the source printed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .common import MAX_TEXT, NOT_VANISHING, NUMBER_OUT, Entity, SourceRef, Strict, Text
from .costs import Experts
from .entities import GpuRef, NetworkRef, WorkloadRef

Metric = Literal["step_time_s", "tokens_per_s", "tokens_per_s_per_gpu", "gpu_hours_per_trillion_tokens",
                 "tflops_per_gpu", "pflops_total", "mfu_pct", "hfu_pct", "peak_memory_gib"]
"""What a measured figure is: seconds per optimizer step; tokens per second of the whole job or of
one GPU; GPU-hours spent per trillion (10¹²) training tokens (DeepSeek's reports state their cost
so); achieved TFLOP/s per GPU or PFLOP/s of the whole job, or the model (MFU) or hardware (HFU)
FLOP utilisation in percent, each under a FLOP convention; peak memory per GPU in GiB (2³⁰ bytes,
as the tools that print it count)."""

FLOP_METRICS: tuple[Metric, ...] = ("tflops_per_gpu", "pflops_total", "mfu_pct", "hfu_pct")

Convention = Literal["narayanan_eq3", "korthikanti_eq7_model", "korthikanti_eq8_hardware",
                     "per_token_6n_attention", "per_token_8n_attention", "unstated"]
"""How a FLOP figure counts FLOPs per step (B sequences of s tokens, l layers, width h, vocabulary V,
N parameters):

- `narayanan_eq3`: Narayanan et al. 2021, Eq. 3, 96·B·s·l·h²·(1 + s/6h + V/16lh): every matmul of
  the forward, backward and a recompute forward pass (a hardware count).
- `korthikanti_eq7_model`: Korthikanti et al. 2022, Eq. 7, 72·B·s·l·h²·(1 + s/6h + V/12hl): model
  FLOPs, no recompute.
- `korthikanti_eq8_hardware`: Korthikanti et al. 2022, Eq. 8, 72·B·s·l·h²·(1 + s/3h + V/12hl):
  hardware FLOPs with selective recompute.
- `per_token_6n_attention`: (6N + 12·l·h·s) per token (PaLM, Chowdhery et al. 2022, appendix B;
  attention counted non-causal): model FLOPs.
- `per_token_8n_attention`: (8N + 16·l·h·s) per token: the same with a recompute forward pass.
- `unstated`: the source names no convention; the figure cannot be turned into a step time.
"""

MODEL_CONVENTIONS: frozenset[Convention] = frozenset({"korthikanti_eq7_model", "per_token_6n_attention"})
HARDWARE_CONVENTIONS: frozenset[Convention] = frozenset(
    {"narayanan_eq3", "korthikanti_eq8_hardware", "per_token_8n_attention"})

Mlp = Literal["gelu", "swiglu", "geglu", "relu"]  # relu and gelu: two h×f matrices; swiglu and geglu (gated GELU): three
Recompute = Literal["none", "selective", "full"]
RunPrecision = Literal["bf16", "fp16", "fp8", "16bit"]
"""The training format: `16bit` is 16-bit mixed precision where the source does not say whether
FP16 or BF16."""

VirtualPipeline = Literal["interleaved", "unstated"]
"""Pipeline interleaving besides a number of chunks per rank (1: not interleaved):
`interleaved` with the number of chunks unstated, or `unstated` whether it interleaves at all."""

AttentionKernel = Literal["flash-attention-2", "cudnn"]
"""Whose FlashAttention kernel the run's attention ran on: the flash-attn package's FlashAttention-2
(llm-foundry's `attn_impl: flash`), or cuDNN's fused attention (Transformer Engine's first choice
on Hopper, which NeMo and Megatron-Core train with). Absent: FlashAttention-2."""

ZeroGather = Literal["layer", "tensor-sync"]
"""How the run's ZeRO-3 gathered the weights: per layer, prefetched (PyTorch FSDP; DeepSpeed from
v0.5.5), or per parameter tensor after a device synchronize (DeepSpeed v0.3.13 to v0.5.4).
Absent: per layer."""

PipelineSchedule = Literal["1f1b", "interleaved", "dualpipe", "zero-bubble"]
"""The pipeline schedule as the source names it: one-forward-one-backward (Narayanan et al. 2021
§2.2.1, PipeDream-Flush), its interleaved form (§2.2.2; the chunks are `virtual_pipeline`),
DualPipe (DeepSeek-V3 report §3.2.1: micro-batches fed from both ends of the pipeline, each
rank holding two model chunks, a forward and a backward chunk overlapped with their all-to-all),
or a zero-bubble schedule (Qi et al. 2023, which splits the backward pass into input and weight
gradients; DeepSeek-V2's 16-way pipeline). Absent: not stated."""

OptimizerStates = Literal["fp32", "bf16"]
"""The precision of the optimizer's states: `fp32`, mixed-precision Adam's FP32 master weights and
moments (ZeRO §3.1: 12 bytes a parameter, the knowledge base's optimizer_bytes_per_parameter);
`bf16`, the parameter copy and both moments kept in BF16 (Apex DistributedFusedAdam with
`dtype: bf16`, as NeMo configs may set it). Absent: not stated, the knowledge base's value."""

ExpertRouting = Literal["balanced", "capacity", "learned"]
"""How the tokens of a mixture-of-experts run reached their experts: `balanced`, forced to an
even share per expert (NVIDIA's benchmarks state they force-balance); `capacity`, the router's
choice cut and padded to a capacity factor of 1 (Megatron-Core's moe_expert_capacity_factor 1.0
with moe_pad_expert_input_to_capacity), so every expert computes and receives exactly the mean
share, tokens past it dropped; or `learned`, the router's own choice, as in a real training run.
Absent: not stated."""

Degree = Annotated[int, Field(ge=1, le=1_000_000)]
Width = Annotated[int, Field(ge=1, le=10_000_000)]
Label = Annotated[str, Field(min_length=1, max_length=300)]


class RunShape(Strict):
    """A model shape as the source (or the model's own configuration file) states it, when it is
    not a workload of specs/workloads/. Only layers, width and heads are always known; the rest
    is left out where unstated. `parameters` is the published count (a rounded label such as
    1.7B is written out, 1700000000); `position_embeddings` the rows of a learned position table
    (0 or absent: none); `dropout` false where the model trains without dropout (absent: with it,
    as GPT-3 and Megatron-LM do); `moe` the experts that replace its MLPs, as a workload's
    (`ffn_hidden_size` is then the dense layers' width, or the stated intermediate size)."""

    layers: Annotated[int, Field(ge=1, le=10_000)]
    hidden_size: Width
    attention_heads: Annotated[int, Field(ge=1, le=10_000)]
    kv_heads: Annotated[int, Field(ge=1, le=10_000)] | None = None
    ffn_hidden_size: Width | None = None
    vocabulary_size: Width | None = None
    mlp: Mlp | None = None
    norm: Literal["layernorm", "rmsnorm"] | None = None
    tied_embeddings: bool | None = None
    linear_biases: bool | None = None
    position_embeddings: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    parameters: Annotated[int, Field(ge=1, le=10**14)] | None = None
    dropout: bool | None = None
    moe: Experts | None = None


class RunLayout(Strict):
    """The parallel layout as published. Batches count sequences. `zero_stage` is ZeRO-DP's stage
    (PyTorch FSDP FULL_SHARD is 3, SHARD_GRAD_OP 2); `shard_group` the size of a hybrid-sharding
    group when sharding does not span the whole data-parallel group. `fp32_gradients`: gradients
    are accumulated and reduced in FP32 (Megatron's main grads, BLOOM's BF16 optimizer).
    `expert_parallel`: the GPUs one mixture-of-experts layer's routed experts are spread over;
    `expert_tensor_parallel` the GPUs each of those experts is split over (Megatron-Core's
    expert_tensor_parallel_size, which takes the tensor-parallel size where a configuration leaves
    it unset; absent: 1, whole experts, as Megatron-Bridge's presets and DeepSeek-V3 run them);
    `expert_routing`, `pipeline_schedule` and `optimizer_states` as their vocabularies say.
    `pipeline_scatter_gather` false: each GPU of a tensor-parallel group sends a stage's whole
    output to the next stage (DeepSpeed's pipeline engine), not its 1/t share (Megatron-LM;
    absent: true).
    `recompute_layers`: with `recompute` full, only this many layers of each pipeline chunk were
    recomputed and the others stored everything (Megatron's recompute_method block with
    recompute_num_layers; absent: every layer).
    `tp_comm_overlap` true: the framework overlapped the tensor-parallel all-gathers and
    reduce-scatters with the GEMMs (Megatron-Core's `tp_comm_overlap` through Transformer Engine's
    userbuffers; it acts only with sequence parallelism); the share it hides is the knowledge base's
    `tp_overlap_fraction` (absent: not stated, nothing hidden).
    `lora_rank`: the run fine-tuned LoRA adapters of this rank on every linear layer of each block,
    the base weights frozen in 16 bits (absent: every weight trained).
    `fp8_param_gather` true (with precision fp8): the linear layers' weights were held in FP8 and
    the data-parallel weight all-gathers moved them at 1 byte (Megatron-Core's fp8_param_gather,
    which Megatron-Bridge's delayed, current-scaling and MXFP8 recipes set; NeMo's fp8_params); absent: not stated, 16-bit."""

    tensor_parallel: Degree | None = None
    pipeline_parallel: Degree | None = None
    data_parallel: Degree | None = None
    context_parallel: Degree | None = 1  # null: unstated
    virtual_pipeline: Annotated[int, Field(ge=1, le=1_000)] | VirtualPipeline = 1
    zero_stage: Annotated[int, Field(ge=0, le=3)] | None = None
    shard_group: Degree | None = None
    micro_batch: Degree | None = None
    global_batch: Annotated[int, Field(ge=1, le=100_000_000)] | None = None
    sequence_length: Annotated[int, Field(ge=1, le=100_000_000)]
    recompute: Recompute | None = None
    recompute_layers: Degree | None = None
    sequence_parallel: bool | None = None
    precision: RunPrecision | None = None
    flash_attention: bool | None = None
    attention_kernel: AttentionKernel | None = None
    zero_gather: ZeroGather | None = None
    fp32_gradients: bool | None = None
    optimizer_states: OptimizerStates | None = None
    expert_parallel: Degree | None = None
    expert_tensor_parallel: Degree | None = None
    expert_routing: ExpertRouting | None = None
    pipeline_schedule: PipelineSchedule | None = None
    pipeline_scatter_gather: bool | None = None
    tp_comm_overlap: bool | None = None
    lora_rank: Annotated[int, Field(ge=1, le=65_536)] | None = None
    fp8_param_gather: bool | None = None


class Measured(Strict):
    """One measured figure, with the FLOP convention of a FLOP metric (none for the others) and,
    where it is not the run's, the table column or sentence it was read from."""

    metric: Metric
    # Above zero: a time, a rate or a share of zero measures nothing (and would divide by zero
    # where a rate becomes a step time). Percentages are held to 100 by the model-run-measured rule.
    value: Annotated[float, Field(gt=0, le=1e10, allow_inf_nan=False), NOT_VANISHING, NUMBER_OUT]
    convention: Convention | None = None
    where: Label | None = None


class Run(Entity):
    """A measured training run: its source (`where` in it, and the `quote` read there), the model
    (exactly one of `workload` and `shape`), the hardware, the layout and what was measured.
    `config_source` is where the configuration fields the measuring source does not print were
    read, when that is another document: the authors' published launch scripts for the same runs,
    or the framework's configuration of the model (the note says which fields)."""

    name: Annotated[str, Field(min_length=1, max_length=120)]
    source: SourceRef
    config_source: SourceRef | None = None
    where: Label
    quote: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]  # the source's words, verbatim
    framework: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    workload: WorkloadRef | None = None
    shape: RunShape | None = None
    gpu: GpuRef
    gpus: Degree
    gpus_per_node: Annotated[int, Field(ge=1, le=10_000)] | None = None
    network: NetworkRef | None = None
    nics_per_node: Annotated[int, Field(ge=1, le=10_000)] | None = None
    layout: RunLayout
    measured: Annotated[list[Measured], Field(min_length=1, max_length=20)]
    note: Text | None = None  # what the source leaves unstated, and corrections of its misprints
