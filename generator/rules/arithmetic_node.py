"""arithmetic: a node's scale-out bandwidth is its scale-out NICs × ports × port rate, per
direction; a stated `scale_out` (as a reference architecture prints it) must agree. Port rates
of nodes and NICs are per direction, as vendors quote them (400 Gb/s per port, not 800), so that
the per-GPU share and its ratio to the scale-up link compare like with like."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import ComputeNode, Nic
from .base import Check, Context
from .figure_slips import judge

SCALE_OUT = Rule("arithmetic-node-scale-out", "arithmetic",
                 "节点的 scale-out 带宽 = 计算网卡数 × 每卡端口数 × 端口速率（单向）。")
PORT_DIRECTION = Rule("node-port-direction", "units", "节点和网卡的端口速率按单向填写（direction: per_direction）。")


def check_node_scale_out(ctx: Context) -> Iterator[Diagnostic]:
    for node in ctx.kb.of_type(ComputeNode):
        yield from judge(ctx, node, {"scale_out": SCALE_OUT})


def check_port_direction(ctx: Context) -> Iterator[Diagnostic]:
    for node in ctx.kb.of_type(ComputeNode):
        for i, group in enumerate(node.model.nics):
            if group.port_rate.direction != "per_direction":
                yield PORT_DIRECTION.report(node, ("nics", i, "port_rate"),
                                            "write the port rate per direction (`direction: per_direction`)")
        if node.model.scale_out is not None and node.model.scale_out.direction != "per_direction":
            yield PORT_DIRECTION.report(node, ("scale_out",), "write scale-out bandwidth per direction")
    for nic in ctx.kb.of_type(Nic):
        for i, mode in enumerate(nic.model.modes):
            if mode.port_rate.direction != "per_direction":
                yield PORT_DIRECTION.report(nic, ("modes", i, "port_rate"),
                                            "write the port rate per direction (`direction: per_direction`)")


RULES = (SCALE_OUT, PORT_DIRECTION)
CHECKS: tuple[Check, ...] = (check_port_direction, check_node_scale_out)
