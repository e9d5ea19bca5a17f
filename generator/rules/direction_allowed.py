"""units: a figure's direction is one its field allows (`Allows` in the model). Memory bandwidth
is the total of a shared bus, so `per_direction` on it is a slip; a field named for its direction
(PCIe `per_direction`) takes only that one; a compute or power figure has none at all."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..figures import figure_names
from ..model.common import Allows, Quantity
from .base import Check, Context, Rule

DIRECTION_NOT_ALLOWED = Rule("units-direction-not-allowed", "units",
                             "方向必须是该字段允许的方向（内存带宽只能是 aggregate，算力和功耗不带方向）。")


def check_direction_allowed(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Quantity) or value.direction is None:
                continue
            allows = next((m for m in marks if isinstance(m, Allows)), None)
            if allows is None or value.direction in allows.directions:
                continue
            field = ".".join(figure_names(entity.nodes)[path])  # only once something is wrong
            expected = (f"allowed: {', '.join(allows.directions)}" if allows.directions
                        else "this figure has no direction: remove the key")
            yield DIRECTION_NOT_ALLOWED.report(entity, path + ("direction",),
                                               f"{field} cannot be {value.direction}; {expected}")


RULES = (DIRECTION_NOT_ALLOWED,)
CHECKS: tuple[Check, ...] = (check_direction_allowed,)
