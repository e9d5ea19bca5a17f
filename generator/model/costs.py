"""The cost model's knowledge: workloads (published transformer shapes) and assumptions (the
figures the model cannot derive, each with a source, a stated range and an estimate flag).

Values here are plain numbers in the unit the model parameter names (a fraction, seconds, bytes
per parameter), not `Quantity` records: an assumption is one number the reader may change within
its range, and its unit is fixed by the parameter it sets (`PARAMETERS`), not chosen per file.
Only generator/estimates/ reads these fields for the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field

from .common import NUMBER_OUT, Entity, SourceRef, Strict, Text

Parameter = Literal[
    "gemm_efficiency_max", "gemm_half_intensity", "memory_bound_bytes", "intra_node_collective_efficiency",
    "network_collective_efficiency", "intra_node_step_latency_s", "network_step_latency_s", "tensor_sync_rank_overhead_s", "dp_overlap_fraction",
    "memory_reserve_fraction", "weight_bytes_per_parameter", "gradient_bytes_per_parameter", "optimizer_bytes_per_parameter", "leaf_comm_share_threshold",
    "calibration_error_threshold", "calibration_source_error_threshold"]


@dataclass(frozen=True)
class Domain:
    """Where a parameter's value may lie at all (the model's own domain, see
    costmodel/feasibility.py), its unit as the pages show it, and its name on the pages."""

    unit: str
    low: float
    high: float | None
    low_open: bool
    high_open: bool
    zh: str

    def holds(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        below = self.high is None or (value < self.high if self.high_open else value <= self.high)
        return above and below

    def label(self) -> str:
        high = "∞)" if self.high is None else f"{self.high:g}{')' if self.high_open else ']'}"
        return f"{'(' if self.low_open else '['}{self.low:g}, {high}"


_FRACTION = ("1", 0.0, 1.0, True, False)
PARAMETERS: dict[str, Domain] = {
    "gemm_efficiency_max": Domain(*_FRACTION, "矩阵乘法效率上限"),
    "gemm_half_intensity": Domain("1", 0.0, None, False, True, "矩阵乘法半效强度比"),
    "memory_bound_bytes": Domain("B", 0.0, None, False, True, "访存受限字节数"),
    "intra_node_collective_efficiency": Domain(*_FRACTION, "机内集合通信效率"),
    "network_collective_efficiency": Domain(*_FRACTION, "网络集合通信效率"),
    "intra_node_step_latency_s": Domain("s", 0.0, None, False, True, "机内每步延迟 α"),
    "network_step_latency_s": Domain("s", 0.0, None, False, True, "网络每步延迟 α"),
    "tensor_sync_rank_overhead_s": Domain("s", 0.0, None, False, True, "逐张量收集时每个 rank 的主机开销"),
    "dp_overlap_fraction": Domain("1", 0.0, 1.0, False, False, "数据并行通信可重叠比例"),
    "memory_reserve_fraction": Domain("1", 0.0, 1.0, False, True, "显存预留比例"),
    "weight_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数权重字节数"),
    "gradient_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数梯度字节数"),
    "optimizer_bytes_per_parameter": Domain("B", 0.0, None, False, True, "每参数优化器状态字节数"),
    # Not an input of the estimate: the share of a step above which the planner's answer comes
    # with a communication warning (generator/selection/advice.py `comm_warning`).
    "leaf_comm_share_threshold": Domain(*_FRACTION, "选型叶子的通信占比警戒线"),
    # Not inputs either: the mean absolute error of the step time over the published runs
    # (specs/runs/), overall and per source, above which `check` warns (rules/calibration.py).
    "calibration_error_threshold": Domain(*_FRACTION, "成本模型在已发表实测上的平均误差上限"),
    "calibration_source_error_threshold": Domain(*_FRACTION, "成本模型在每个来源的实测上的平均误差上限"),
}

Number = Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NUMBER_OUT]


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


class Workload(Entity):
    """A published decoder-only transformer: its parameter count and shape, as the paper or the
    model card states them. `parameters` is the stated count; a rule compares it with the count
    that follows from the shape."""

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
    source: SourceRef
    shape_source: SourceRef | None = None  # where the exact shape is read, when not in `source`
    summary: Text
