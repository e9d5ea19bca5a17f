"""arithmetic: a GPU's datasheet figures that follow from its other figures agree with them:
memory bandwidth from bus width and pin rate, FP32 peak from SMs, cores and boost clock (an FMA
is two FLOP), scale-up bandwidth from its links and the per-link rate (its own, or its link
generation's), in the direction the bandwidth is stated in. Each
is checked only where the file states the inputs."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Gpu
from .base import Check, Context
from .figure_slips import judge

MEMORY_BANDWIDTH = Rule("arithmetic-memory-bandwidth", "arithmetic", "显存带宽 = 位宽 × 每针脚速率 ÷ 8。")
FP32 = Rule("arithmetic-fp32", "arithmetic", "FP32 峰值 = SM 数 × 每 SM 的 FP32 单元 × 2（FMA）× 加速频率。")
SCALE_UP = Rule("arithmetic-gpu-scale-up", "arithmetic", "GPU 的 scale-up 带宽 = 链路数 × 单链路带宽（按所写方向换算）。")

_JUDGED = {"memory.bandwidth": MEMORY_BANDWIDTH, "compute.fp32": FP32, "scale_up.bandwidth": SCALE_UP}


def check_gpu_arithmetic(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
        yield from judge(ctx, gpu, _JUDGED)


RULES = (MEMORY_BANDWIDTH, FP32, SCALE_UP)
CHECKS: tuple[Check, ...] = (check_gpu_arithmetic,)
