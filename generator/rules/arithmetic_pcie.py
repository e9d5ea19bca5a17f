"""arithmetic: a PCIe link's stated bandwidths follow from its transfer rate: per direction,
transfer rate x lanes x encoding efficiency / 8 (GT/s to GB/s), and the bidirectional headline
figure is twice that. Datasheets print the bidirectional total; collective bandwidth compares
with the per-direction rate, so both are stated and both are checked."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Pcie
from .base import Check, Context
from .figure_slips import judge

BANDWIDTH = Rule("arithmetic-pcie-bandwidth", "arithmetic", "PCIe 带宽 = 每通道传输率 × 通道数 × 编码效率 ÷ 8，双向为其两倍。")


def check_pcie_bandwidth(ctx: Context) -> Iterator[Diagnostic]:
    for link in ctx.kb.of_type(Pcie):
        yield from judge(ctx, link, {"per_direction": BANDWIDTH, "bidirectional": BANDWIDTH})


RULES = (BANDWIDTH,)
CHECKS: tuple[Check, ...] = (check_pcie_bandwidth,)
