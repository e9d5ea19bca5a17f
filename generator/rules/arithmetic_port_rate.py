"""arithmetic: a network port's stated rate is its lanes times the lane rate (NDR: 4 x 100 Gb/s
= 400 Gb/s per direction). Port rates are quoted in Gb/s; a port written in GB/s is the classic
8x slip, named by units-bit-byte."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Network
from .base import Check, Context
from .figure_slips import judge

PORT_RATE = Rule("arithmetic-port-rate", "arithmetic", "网络端口速率 = 通道数 × 每通道速率。")


def check_port_rate(ctx: Context) -> Iterator[Diagnostic]:
    for network in ctx.kb.of_type(Network):
        yield from judge(ctx, network, {"port_rate": PORT_RATE})


RULES = (PORT_RATE,)
CHECKS: tuple[Check, ...] = (check_port_rate,)
