"""units: a figure's scope is one its field allows (`Allows` in the model). A GPU's power or
FP rate is per GPU: `per_node` or `per_system` there means a server's or a rack's figure was
typed into a GPU's field, the classic slip with rack-scale systems."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..figures import figure_names
from ..model.common import Allows, Quantity
from .base import Check, Context, Rule

SCOPE_NOT_ALLOWED = Rule("units-scope-not-allowed", "units",
                         "范围（scope）必须是该字段允许的范围（GPU 的功耗和算力只能是 per_gpu）。")


def check_scope_allowed(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Quantity) or value.scope is None:
                continue
            allows = next((m for m in marks if isinstance(m, Allows)), None)
            if allows is None or value.scope in allows.scopes:
                continue
            field = ".".join(figure_names(entity.nodes)[path])  # only once something is wrong
            expected = (f"allowed: {', '.join(allows.scopes)}" if allows.scopes
                        else "this figure has no scope: remove the key")
            yield SCOPE_NOT_ALLOWED.report(entity, path + ("scope",), f"{field} cannot be {value.scope}; {expected}")


RULES = (SCOPE_NOT_ALLOWED,)
CHECKS: tuple[Check, ...] = (check_scope_allowed,)
