"""arithmetic: a GPU's datasheet figures that follow from its other figures agree with them:
memory bandwidth from bus width and pin rate, FP32 peak from SMs, cores and boost clock (an FMA
is two FLOP), NVLink bandwidth from its links and its NVLink generation's per-link rate. Each
is checked only where the file states the inputs."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..model.entities import Gpu
from .base import Check, Context, Rule
from .figure_slips import judge

MEMORY_BANDWIDTH = Rule("arithmetic-memory-bandwidth", "arithmetic", "显存带宽 = 位宽 × 每针脚速率 ÷ 8。")
FP32 = Rule("arithmetic-fp32", "arithmetic", "FP32 峰值 = SM 数 × 每 SM 的 FP32 单元 × 2（FMA）× 加速频率。")
NVLINK = Rule("arithmetic-gpu-nvlink", "arithmetic", "GPU 的 NVLink 带宽 = 链路数 × 该代单链路带宽。")

_JUDGED = {"memory.bandwidth": MEMORY_BANDWIDTH, "compute.fp32": FP32, "nvlink.bandwidth": NVLINK}


def check_gpu_arithmetic(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
        yield from judge(ctx, gpu, _JUDGED)


RULES = (MEMORY_BANDWIDTH, FP32, NVLINK)
CHECKS: tuple[Check, ...] = (check_gpu_arithmetic,)
