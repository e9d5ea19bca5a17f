"""The cost model's knowledge: workloads (published transformer shapes) and assumptions (the
figures the model cannot derive, each with a source, a stated range and an estimate flag).

Values here are plain numbers in the unit the model parameter names (a fraction, seconds, bytes
per parameter), not `Quantity` records: an assumption is one number the reader may change within
its range, and its unit is fixed by the parameter it sets (`PARAMETERS`), not chosen per file.
Only generator/estimates/ reads these fields for the model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from ..units import fmt_number
from .common import NOT_VANISHING, NUMBER_OUT, Entity, SourceRef, Strict, Text

Parameter = Literal[
    "gemm_efficiency_max", "gemm_half_intensity", "memory_bound_bytes", "intra_node_collective_efficiency",
    "network_collective_efficiency", "intra_node_step_latency_s", "network_step_latency_s", "tensor_sync_rank_overhead_s", "dp_overlap_fraction",
    "memory_reserve_fraction", "weight_bytes_per_parameter", "gradient_bytes_per_parameter", "optimizer_bytes_per_parameter", "leaf_comm_share_threshold",
    "calibration_error_threshold", "calibration_source_error_threshold", "ep_overlap_fraction", "expert_imbalance",
    "tp_overlap_fraction"]


@dataclass(frozen=True)
class Domain:
    """Where a parameter's value may lie at all (the model's own domain, see
    costmodel/feasibility.py), its unit as the pages show it, and its name on the pages.

    Bounds, not only the interval: a value other than 0 must be at least `least` and at most
    `most`. The interval alone lets through a positive, finite value such as 1.0e-320 (a denormal)
    that the model divides by, and every estimate then comes out infinite or NaN; each bound is
    far outside what any source states, so it refuses only values no hardware or run has."""

    unit: str
    low: float
    high: float | None
    low_open: bool
    high_open: bool
    zh: str
    least: float = 0.0
    most: float = math.inf

    def holds(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        below = self.high is None or (value < self.high if self.high_open else value <= self.high)
        return above and below and (value == 0 or self.least <= abs(value) <= self.most)

    def shown(self, value: float) -> str:
        """`value` as a reader reads it, in its unit: a latency of 1e-05 s as "10 µs", bytes as
        "2 B", a plain number or fraction as itself ("0.85")."""
        if self.unit == "s" and 0 < abs(value) < 1:
            scaled, unit = (value * 1e6, "µs") if abs(value) < 1e-3 else (value * 1e3, "ms")
            return f"{fmt_number(scaled)} {unit}"
        return fmt_number(value) if self.unit == "1" else f"{fmt_number(value)} {self.unit}"

    def label(self) -> str:
        high = "∞)" if self.high is None else f"{self.high:g}{')' if self.high_open else ']'}"
        if self.most < (math.inf if self.high is None else self.high):
            high = f"{self.most:g}]"
        low = f"{'(' if self.low_open else '['}{self.low:g}"
        if self.least > self.low:
            low = f"{{0}} ∪ [{self.least:g}" if not self.low_open and self.low == 0 else f"[{self.least:g}"
        return f"{low}, {high}"


_FRACTION = ("1", 0.0, 1.0, True, False)
_SHARE = 1e-3  # a share of a peak, or a threshold, below 0.1 %: no device or run is that slow
_LATENCY = {"least": 1e-9, "most": 1.0}  # 1 ns to 1 s a step: below a wire's delay, above a timeout
PARAMETERS: dict[str, Domain] = {
    "gemm_efficiency_max": Domain(*_FRACTION, "矩阵乘法效率上限", least=_SHARE),
    "gemm_half_intensity": Domain("1", 0.0, None, False, True, "矩阵乘法半效强度比", least=1e-3, most=1e3),
    "memory_bound_bytes": Domain("B", 0.0, None, False, True, "访存受限字节数", least=1e-3, most=1e4),
    "intra_node_collective_efficiency": Domain(*_FRACTION, "机内集合通信效率", least=_SHARE),
    "network_collective_efficiency": Domain(*_FRACTION, "网络集合通信效率", least=_SHARE),
    "intra_node_step_latency_s": Domain("s", 0.0, None, False, True, "机内每步延迟 α", **_LATENCY),
    "network_step_latency_s": Domain("s", 0.0, None, False, True, "网络每步延迟 α", **_LATENCY),
    "tensor_sync_rank_overhead_s": Domain("s", 0.0, None, False, True, "逐张量收集时每个 rank 的主机开销", **_LATENCY),
    "dp_overlap_fraction": Domain("1", 0.0, 1.0, False, False, "数据并行通信可重叠比例"),
    "memory_reserve_fraction": Domain("1", 0.0, 1.0, False, True, "显存预留比例"),
    "weight_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数权重字节数", most=1e3),
    "gradient_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数梯度字节数", most=1e3),
    "optimizer_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数优化器状态字节数", most=1e3),
    # Not an input of the estimate: the share of a step above which the planner's answer comes
    # with a communication warning (generator/selection/advice.py `comm_warning`).
    "leaf_comm_share_threshold": Domain(*_FRACTION, "选型叶子的通信占比警戒线", least=_SHARE),
    # Not inputs either: the mean absolute error of the step time over the published runs
    # (specs/runs/), overall and per source, above which `check` warns (rules/calibration.py).
    "calibration_error_threshold": Domain(*_FRACTION, "成本模型在已发表实测上的平均误差上限", least=_SHARE),
    "calibration_source_error_threshold": Domain(*_FRACTION, "成本模型在每个来源的实测上的平均误差上限", least=_SHARE),
    # Not fields of the model's `Assumptions` either, but defaults of its layout for a
    # mixture-of-experts workload (`Layout.ep_overlap`, `Layout.expert_imbalance`), read with
    # estimates/records.py `assumption_value`: the share of the expert all-to-all a DualPipe-style
    # schedule hides behind compute, and the busiest GPU's routed tokens ÷ the mean (1: balanced).
    "ep_overlap_fraction": Domain("1", 0.0, 1.0, False, False, "专家并行全互联可重叠比例"),
    "expert_imbalance": Domain("1", 1.0, None, False, True, "专家负载不均衡系数", most=1e3),
    # A layout default as well (`Layout.tp_overlap`), for a published run whose framework
    # overlapped tensor-parallel communication with compute (`tp_comm_overlap: true`).
    "tp_overlap_fraction": Domain("1", 0.0, 1.0, False, False, "张量并行通信可重叠比例"),
}

Number = Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NOT_VANISHING, NUMBER_OUT]


class StatedRange(Strict):
    """The range the source supports (or, for an estimate, the range we believe plausible)."""

    low: Number
    high: Number


class Assumption(Entity):
    """One value of the cost model's `Assumptions`: the value the site uses, the range a reader
    may move it in, and whether it is read from a source (`estimate: false`) or our estimate."""

    parameter: Parameter
    name: Text
    value: Number
    range: StatedRange
    estimate: bool
    source: SourceRef
    also: list[SourceRef] = []  # further sources the value or its range draws on
    why: Text


class LatentAttention(Strict):
    """Multi-head latent attention (DeepSeek-V2 report §2.1): keys and values go through a latent
    of `kv_lora_rank`, queries through one of `q_lora_rank` (0: projected directly from the hidden
    state, as in DeepSeek-V2-Lite); each head scores with keys of `qk_nope_head_dim` +
    `qk_rope_head_dim` and reads values of `v_head_dim`."""

    q_lora_rank: Annotated[int, Field(ge=0, le=1_000_000)]
    kv_lora_rank: Annotated[int, Field(ge=1, le=1_000_000)]
    qk_nope_head_dim: Annotated[int, Field(ge=1, le=100_000)]
    qk_rope_head_dim: Annotated[int, Field(ge=1, le=100_000)]
    v_head_dim: Annotated[int, Field(ge=1, le=100_000)]


class Experts(Strict):
    """Mixture-of-experts MLPs: every layer after the first `dense_layers` has `experts` routed
    experts of `expert_ffn_hidden_size` (the MLP's matrices, gated or not, as `mlp` says), of which
    the router sends each token to `experts_per_token`, plus `shared_experts` every token passes
    through. `nodes_per_token` > 0: node-limited routing (each token reaches at most that many
    nodes, DeepSeek-V3 §2.1.2); 0: no limit. The dense layers keep the workload's `ffn_hidden_size`."""

    experts: Annotated[int, Field(ge=1, le=1_000_000)]
    experts_per_token: Annotated[int, Field(ge=1, le=1_000_000)]
    expert_ffn_hidden_size: Annotated[int, Field(ge=1, le=10_000_000)]
    shared_experts: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    dense_layers: Annotated[int, Field(ge=0, le=10_000)] = 0
    nodes_per_token: Annotated[int, Field(ge=0, le=1_000_000)] = 0


class Dropout(Strict):
    """Whether a workload trains with dropout (`value`), as `source` states it (`where`: the
    setting read there, e.g. a framework preset's attention_dropout and hidden_dropout of 0.0)."""

    value: bool
    source: SourceRef
    where: Annotated[str, Field(min_length=1, max_length=300)]


class Workload(Entity):
    """A published decoder-only transformer: its parameter count and shape, as the paper or the
    model card states them. `parameters` is the stated count; a rule compares it with the count
    that follows from the shape.

    `head_dim` is each attention head's width where the model states it (Qwen3: 128 on a width of
    2048 with 32 heads); absent, it is `hidden_size` ÷ `attention_heads`. `mla` replaces that
    attention by latent attention, `moe` the MLPs by experts; a mixture-of-experts workload also
    states `active_parameters`, the published count a token passes through, which a rule compares
    with the count its shape gives. `ffn_hidden_size` is then the width of the dense layers' MLP
    (the model's stated intermediate size where it has no dense layers).

    `dropout` says whether the model trains with dropout, whose masks are stored activations
    (Korthikanti et al. 2022, Table 2); absent, it does, as GPT-3 and Megatron-LM's defaults do."""

    name: Annotated[str, Field(min_length=1, max_length=120)]
    family: Annotated[str, Field(min_length=1, max_length=60)]
    parameters: Annotated[int, Field(ge=1, le=10**14)]
    layers: Annotated[int, Field(ge=1, le=10_000)]
    hidden_size: Annotated[int, Field(ge=1, le=1_000_000)]
    attention_heads: Annotated[int, Field(ge=1, le=10_000)]
    kv_heads: Annotated[int, Field(ge=1, le=10_000)]
    ffn_hidden_size: Annotated[int, Field(ge=1, le=10_000_000)]
    vocabulary_size: Annotated[int, Field(ge=1, le=10_000_000)]
    mlp: Literal["gelu", "swiglu"]
    norm: Literal["layernorm", "rmsnorm"]
    tied_embeddings: bool
    linear_biases: bool
    context_length: Annotated[int, Field(ge=1, le=10_000_000)]
    head_dim: Annotated[int, Field(ge=1, le=100_000)] | None = None
    mla: LatentAttention | None = None
    moe: Experts | None = None
    active_parameters: Annotated[int, Field(ge=1, le=10**14)] | None = None
    dropout: Dropout | None = None
    source: SourceRef
    shape_source: SourceRef | None = None  # where the exact shape is read, when not in `source`
    summary: Text
