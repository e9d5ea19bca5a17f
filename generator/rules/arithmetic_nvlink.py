"""arithmetic: an NVLink generation's stated total per GPU is its links times the per-link rate,
as a bidirectional sum (the vendors' headline figure: 600 GB/s for NVLink 3 is 12 links x 25 GB/s
each way x 2)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Nvlink
from .base import Check, Context
from .figure_slips import judge

TOTAL = Rule("arithmetic-nvlink-total", "arithmetic", "NVLink 每 GPU 总带宽 = 链路数 × 单链路带宽（换算为双向）。")


def check_nvlink_total(ctx: Context) -> Iterator[Diagnostic]:
    for link in ctx.kb.of_type(Nvlink):
        yield from judge(ctx, link, {"total": TOTAL})


RULES = (TOTAL,)
CHECKS: tuple[Check, ...] = (check_nvlink_total,)
