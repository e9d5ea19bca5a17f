"""units: a figure's direction is one its field allows (`Allows` in the model). Memory bandwidth
is the total of a shared bus, so `per_direction` on it is a slip; a field named for its direction
(PCIe `per_direction`) takes only that one; a compute or power figure has none at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from ..diagnostics import Diagnostic, Rule
from ..figures import figure_names
from ..model.common import Allows, Quantity
from .base import Check, Context

DIRECTION_NOT_ALLOWED = Rule("units-direction-not-allowed", "units",
                             "方向必须是该字段允许的方向（内存带宽只能是 aggregate，算力和功耗不带方向）。")


def not_allowed(ctx: Context, rule: Rule, key: Literal["direction", "scope"]) -> Iterator[Diagnostic]:
    """Each figure whose `key` (direction or scope) is stated but not among the ones its field's
    `Allows` lists; the scope rule shares this walk."""
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            stated = getattr(value, key) if isinstance(value, Quantity) else None
            if stated is None:
                continue
            allows = next((m for m in marks if isinstance(m, Allows)), None)
            allowed = () if allows is None else (allows.directions if key == "direction" else allows.scopes)
            if allows is None or stated in allowed:
                continue
            field = ".".join(figure_names(entity.nodes)[path])  # only once something is wrong
            expected = f"allowed: {', '.join(allowed)}" if allowed else f"this figure has no {key}: remove the key"
            yield rule.report(entity, path + (key,), f"{field} cannot be {stated}; {expected}")


def check_direction_allowed(ctx: Context) -> Iterator[Diagnostic]:
    return not_allowed(ctx, DIRECTION_NOT_ALLOWED, "direction")


RULES = (DIRECTION_NOT_ALLOWED,)
CHECKS: tuple[Check, ...] = (check_direction_allowed,)
