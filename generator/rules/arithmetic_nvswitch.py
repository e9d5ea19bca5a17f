"""arithmetic: an NVSwitch fabric gives each GPU all of its NVLink bandwidth: its stated per-GPU
figure equals the links of its NVLink generation times their per-link rate (bidirectional). The
switch adds all-to-all reach, not bandwidth per GPU."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Nvswitch
from .base import Check, Context
from .figure_slips import judge

PER_GPU = Rule("arithmetic-nvswitch-per-gpu", "arithmetic", "NVSwitch 给每个 GPU 的带宽等于该代 NVLink 的每 GPU 总带宽。")


def check_nvswitch_per_gpu(ctx: Context) -> Iterator[Diagnostic]:
    for switch in ctx.kb.of_type(Nvswitch):
        yield from judge(ctx, switch, {"per_gpu": PER_GPU})


RULES = (PER_GPU,)
CHECKS: tuple[Check, ...] = (check_nvswitch_per_gpu,)
