"""The cost model's inputs: a workload, a cluster built from nodes, a parallel layout, and the
assumptions. Plain frozen dataclasses in SI units (bytes, bytes per second, FLOP per second,
seconds); every bandwidth is per direction, and its name says so. Counts are ints so that
divisibility can be checked; the arithmetic converts them to floats first (`given`, evaluate.py), so
that a JavaScript port computes the same IEEE doubles in the same order.

Nothing here names a product: the knowledge base supplies GPUs, nodes, networks and the values
of the assumptions; an adapter builds these records from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Recompute = Literal["none", "selective", "full"]
"""Activation recomputation (Korthikanti et al. 2022, §5): `selective` recomputes the attention
core (QKᵀ, softmax, softmax dropout, attention over V); `full` keeps only each layer's input."""

Precision = Literal["bf16", "fp8"]
"""Which dense tensor rate the linear layers' GEMMs run at. The model states stay the ZeRO paper's
16-bit mixed precision either way (FP8 recipes keep 16-bit weights and FP32 master copies); under
FP8 the linear layers' inputs saved for the backward pass take one byte a value (`memory.py`)."""


AttentionKernel = Literal["flash-attention-2", "cudnn"]
"""The fused attention kernel under FlashAttention: the `flash-attn` package's FlashAttention-2,
or cuDNN's fused flash attention, which Transformer Engine (NeMo, Megatron-Core) picks first on
Hopper and Blackwell. cuDNN runs at FlashAttention-2's efficiency times the architecture's
published speed-up; on an architecture that states none (Ampere, where Transformer Engine picks
flash-attn first), at FlashAttention-2's."""

ZeroGather = Literal["layer", "tensor-sync"]
"""How ZeRO-3 gathers the weights: `layer`, one all-gather (and one reduce-scatter) per layer,
prefetched beside compute (PyTorch FSDP's per-block units, DeepSpeed from v0.5.5 on); or
`tensor-sync`, one collective per parameter tensor, each all-gather issued after a device-wide
torch.cuda.synchronize(), so none hides behind compute (DeepSpeed's ZeRO-3 from its first release,
v0.3.13 of 2021-03, through v0.5.4: `_allgather_param` in runtime/zero/partition_parameters.py)."""

Norm = Literal["layernorm", "rmsnorm"]
"""The block's normalisation: LayerNorm has a scale and a bias per channel (GPT-2/3, Megatron
GPT), RMSNorm a scale only (Zhang and Sennrich 2019; Llama). It only changes the parameter count."""


@dataclass(frozen=True)
class Mla:
    """Multi-head latent attention (DeepSeek-V2 report §2.1; DeepSeek-V3 report §2.1.1): keys and
    values are projected down to a latent of `kv_lora_rank` (plus a shared rotary key of
    `qk_rope_head_dim`) and up again per head; queries likewise through `q_lora_rank` (0: queries
    are projected directly from the hidden state, as in DeepSeek-V2-Lite). Each head scores with
    keys of `qk_nope_head_dim` + `qk_rope_head_dim` and reads values of `v_head_dim`."""

    q_lora_rank: int
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int


@dataclass(frozen=True)
class Moe:
    """Mixture-of-experts MLPs (Shazeer et al. 2017; GShard; DeepSeekMoE): every layer after the
    first `dense_layers` replaces its MLP by `experts` routed experts of `expert_ffn_hidden_size`
    each (the MLP's matrices, gated or not, as the workload's `gated_mlp` says), of which a router
    (h × experts) sends each token to `experts_per_token`, plus `shared_experts` that every token
    passes through. The dense layers keep the workload's `ffn_hidden_size`. `nodes_per_token` > 0 is
    node-limited routing (DeepSeek-V3 §2.1.2: each token reaches at most M nodes, and crosses the
    network once per node, the node forwarding it over NVLink); 0 means no limit."""

    experts: int
    experts_per_token: int
    expert_ffn_hidden_size: int
    shared_experts: int = 0
    dense_layers: int = 0
    nodes_per_token: int = 0


@dataclass(frozen=True)
class Workload:
    """A decoder-only transformer: `layers` blocks of self-attention and an MLP.

    The defaults describe the GPT block of Narayanan et al. 2021 and Korthikanti et al. 2022,
    for which every result of the model is the one computed before these fields existed:
    `ffn_hidden_size` None means 4h; `kv_heads` None means multi-head attention (as many key/value
    heads as query heads); `gated_mlp` False means two MLP matrices (h×f and f×h) around a GeLU;
    `tied_embeddings` True means the output layer reuses the input embedding (Megatron's GPT);
    `linear_biases`, `norm` and `position_embeddings` (rows of a learned absolute position table,
    0 for rotary embeddings) only enter `shape.parameters_from_shape`.

    A Llama block (Touvron et al. 2023; Llama 3 paper §3.2) sets `kv_heads` below the heads
    (grouped-query attention), `gated_mlp` True (SwiGLU: three h×f matrices), `tied_embeddings`
    False, `linear_biases` False and `norm` "rmsnorm". Head width is h ÷ `attention_heads` for
    queries and keys/values alike, as in every model the knowledge base holds.

    `parameter_count` (Ψ) drives the model states and the data-parallel traffic; it is stated, not
    derived, so that a published count can be checked against `shape.parameters_from_shape`.

    `head_dim` d states the width of each attention head where it is not h ÷ `attention_heads`
    (Qwen3: 32 heads of 128 on a width of 2048); queries are then a·d wide and keys and values kv·d.
    `mla` replaces that attention by multi-head latent attention (`Mla`), `moe` the MLPs by experts
    (`Moe`); None keeps the dense block. With either, Ψ still counts every parameter (all experts),
    while the FLOPs follow the parameters a token passes through.

    `dropout` True keeps Korthikanti's dropout masks among the stored activations (GPT-3 and
    Megatron train with dropout); False drops them (MPT, whose dropout probabilities default to 0)."""

    name: str
    parameter_count: float
    layers: int
    hidden_size: int
    attention_heads: int
    vocabulary_size: int
    ffn_hidden_size: int | None = None
    kv_heads: int | None = None
    gated_mlp: bool = False
    tied_embeddings: bool = True
    linear_biases: bool = True
    norm: Norm = "layernorm"
    position_embeddings: int = 0
    dropout: bool = True
    head_dim: int | None = None
    mla: Mla | None = None
    moe: Moe | None = None


@dataclass(frozen=True)
class GpuSpec:
    """One GPU variant: memory capacity, memory bandwidth (the datasheet's aggregate figure per
    GPU, reads and writes together), dense (not 2:4-sparse) tensor rates, and the share of the
    dense 16-bit peak that the FlashAttention-2 kernel reaches on its attention core (None: not
    published; the attention core then runs at the GEMM efficiency), and how many times faster
    cuDNN's fused attention runs it on the architecture (None: not published)."""

    name: str
    memory_capacity_bytes: float
    memory_bandwidth_bytes_per_s: float
    dense_bf16_flop_per_s: float
    dense_fp8_flop_per_s: float | None = None
    flash_attention_efficiency: float | None = None
    cudnn_attention_speedup: float | None = None


@dataclass(frozen=True)
class Node:
    """A node is one scale-up domain: `gpus_per_node` GPUs joined by a scale-up link (NVLink,
    NVSwitch or PCIe) of `scale_up_per_direction_bytes_per_s` per GPU, each direction, and
    `nics_per_node` network ports of `nic_port_per_direction_bytes_per_s` each (a 400 Gb/s
    port is 50e9 bytes/s per direction)."""

    name: str
    gpu: GpuSpec
    gpus_per_node: int
    scale_up_per_direction_bytes_per_s: float
    nics_per_node: int
    nic_port_per_direction_bytes_per_s: float


@dataclass(frozen=True)
class Cluster:
    """`node_count` identical nodes on one network. `fabric_bandwidth_fraction` is the share of
    the nodes' injection bandwidth the topology sustains between nodes: 1 for a non-blocking
    (rail-optimised) fat tree, 0.5 for a 2:1 taper."""

    node: Node
    node_count: int
    fabric_bandwidth_fraction: float = 1.0


@dataclass(frozen=True)
class Layout:
    """The parallel layout. Ranks are placed tensor-parallel first, then data-parallel, then
    pipeline (Megatron-LM's default order), so a tensor-parallel group sits inside one node.
    `zero_stage` 0-3 is ZeRO-DP (Rajbhandari et al. 2020); PyTorch FSDP's NO_SHARD,
    SHARD_GRAD_OP and FULL_SHARD are stages 0, 2 and 3. Batch sizes count sequences.

    What real runs also set (the defaults keep the model's earlier figures, but for FlashAttention):
    - `flash_attention` (Dao et al. 2022): no s×s score matrix is stored, and the backward pass
      recomputes QKᵀ (`memory.py`, `compute.py`); on by default, as in today's training stacks;
      `attention_kernel` says whose kernel runs it (`AttentionKernel`);
    - `zero_gather`: how ZeRO-3 gathers the weights (`ZeroGather`), per layer by default;
    - `virtual_pipeline` v: model chunks per stage of the interleaved 1F1B schedule (Narayanan et
      al. 2021 §2.2.2), 1 for plain 1F1B;
    - `fp32_gradients`: gradients accumulated and reduced in FP32 (Megatron-LM's main grads,
      BLOOM), 4 bytes per parameter instead of the assumption's 2;
    - `pp_scatter_gather`: each GPU of a tensor-parallel group sends its 1/t of a stage's output
      (Megatron-LM's scatter/gather optimisation, the default); False: each sends the whole
      output, as DeepSpeed's pipeline engine does (`_exec_send_activations` sends the stage's
      output tensor as it is, on every rank of the group);
    - `tp_overlap`: the share of tensor-parallel communication hidden behind compute (Megatron's
      --tp-comm-overlap), 0 for none;
    - `fp8_param_gather` (with `precision` fp8, without adapters): the linear layers' weights are
      held in FP8 and every data-parallel weight all-gather moves them at 1 byte a parameter
      (Megatron-Core's --fp8-param-gather, NeMo's fp8_params; `traffic.py`); the memory the model
      counts for the weights is unchanged;
    - `context_parallel` c: the sequence split over c GPUs (ring attention; Megatron-LM's
      --context-parallel-size), ranks placed tensor-parallel, then context-parallel, then
      data-parallel, so GPUs = t·p·c·N_d; gradients are reduced over N_d·c;
    - `adapter_rank` r: LoRA fine-tuning (Hu et al. 2021): the base weights are frozen, and every
      linear layer of a block gets a trained pair of rank-r matrices; 0 (the default) trains every
      weight. `base_bits` is what a frozen base weight is stored in: 16, or 8 and 4 for quantized
      bases (QLoRA, Dettmers et al. 2023: 4-bit NormalFloat); below 16 only with adapters;
    - `shard_group` G: hybrid sharding (PyTorch FSDP's HYBRID_SHARD, DeepSpeed's MiCS): the ZeRO
      stage partitions the states over groups of G consecutive data-parallel ranks, the groups
      hold replicas, and the gradient shards are all-reduced across them once a step; 0 (the
      default) shards over the whole data-parallel group;
    - `expert_parallel` e (a mixture-of-experts workload only): each MoE layer's routed experts are
      spread over e GPUs, E ÷ e whole experts on each. The e GPUs are consecutive ranks of a
      pipeline stage's t·c·N_d GPUs, so the expert data-parallel group is t·c·N_d ÷ e; tokens reach
      their experts by an all-to-all, twice per layer each way (dispatch, combine);
    - `expert_tensor_parallel` t_e, 1 or t (with e > 1): 1 (the default) keeps each expert whole on
      its GPU, as DeepSeek-V3 and Megatron-Core's folded expert mesh run them (Megatron-Bridge's
      presets set expert_tensor_parallel_size 1); t splits every expert over the tensor-parallel
      group as well, as Megatron-Core did before it had the setting and does by default (it takes
      the tensor-parallel size): the expert-parallel GPUs are then t ranks apart, e·t consecutive
      ranks hold a layer's experts once, and the tensor-parallel group gathers the dispatched
      tokens before the experts and scatters them after (`experts.py`);
    - `ep_overlap`: the share of that all-to-all hidden behind compute (DualPipe, Megatron-Core's
      --overlap-moe-expert-parallel-comm), 0 for none;
    - `expert_imbalance` λ ≥ 1: the busiest GPU's routed tokens ÷ the mean (1: balanced routing, as
      benchmarks that force it measure; a capacity factor caps it);
    - `recompute_layers` N (with `recompute` "full"): only the first N layers of each pipeline chunk
      are recomputed in full and the others store everything (Megatron-LM's --recompute-method
      block with --recompute-num-layers N); 0 (the default) recomputes every layer. The model
      prices a layer either way and weighs the two by the share φ = min(1, N·p·v ÷ L_paced) of the
      busiest stage's layers recomputed (`compute.recompute_share`).
    A pipeline whose stages p (× v) does not divide the layers runs stages that differ by one layer
    (`compute.paced_layers`)."""

    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    micro_batch_size: int
    sequence_length: int
    global_batch_size: int
    recompute: Recompute = "none"
    sequence_parallel: bool = False
    precision: Precision = "bf16"
    flash_attention: bool = True
    virtual_pipeline: int = 1
    fp32_gradients: bool = False
    tp_overlap: float = 0.0
    context_parallel: int = 1
    shard_group: int = 0
    attention_kernel: AttentionKernel = "flash-attention-2"
    zero_gather: ZeroGather = "layer"
    adapter_rank: int = 0
    base_bits: int = 16
    expert_parallel: int = 1
    expert_tensor_parallel: int = 1
    ep_overlap: float = 0.0
    expert_imbalance: float = 1.0
    pp_scatter_gather: bool = True
    recompute_layers: int = 0
    fp8_param_gather: bool = False


@dataclass(frozen=True)
class Assumptions:
    """What the model cannot derive. Each is a spec entity with a source and a stated range;
    the defaults of the last three are the ZeRO paper's mixed-precision Adam (§3.1: 2 + 2 + 12
    bytes per parameter).

    - `gemm_efficiency_max`, `gemm_half_intensity`: the share of the dense peak a GPU's matrix
      multiplications reach, η = η_max · I ÷ (I + ρ·I_ridge) with I the layer's GEMM intensity
      (FLOPs per operand byte) and I_ridge = peak ÷ HBM bandwidth the GPU's ridge point (a GEMM
      with little work per byte waits on memory). It is the efficiency while computing, not an
      end-to-end MFU: the bubble, exposed communication and recomputation are counted on top
      (`compute.py`).
    - `memory_bound_bytes`: c, the HBM bytes the elementwise work (norms, activations, dropout,
      residuals, softmax) moves per token, hidden unit, layer and pass, at the datasheet's
      bandwidth (the achievable share of that bandwidth is folded into c).
    - `*_collective_efficiency`: achieved nccl-tests bus bandwidth ÷ per-direction link rate.
    - `*_step_latency_s`: α of the α-β model, per ring step.
    - `tensor_sync_rank_overhead_s`: κ, the host time per rank of the group that each per-tensor
      collective of `zero_gather: tensor-sync` costs (PyTorch's NCCL backend copies a list of one
      tensor per rank one by one, `traffic.py`).
    - `dp_overlap_fraction`: the share of data-parallel communication that can hide behind
      compute (capped by the compute it can hide behind, see `step.py`).
    - `memory_reserve_fraction`: the share of GPU memory kept back for the CUDA context,
      allocator fragmentation and temporary buffers.
    """

    gemm_efficiency_max: float
    gemm_half_intensity: float
    memory_bound_bytes: float
    intra_node_collective_efficiency: float
    network_collective_efficiency: float
    intra_node_step_latency_s: float
    network_step_latency_s: float
    dp_overlap_fraction: float
    memory_reserve_fraction: float
    tensor_sync_rank_overhead_s: float
    weight_bytes_per_parameter: float = 2.0
    gradient_bytes_per_parameter: float = 2.0
    optimizer_bytes_per_parameter: float = 12.0
