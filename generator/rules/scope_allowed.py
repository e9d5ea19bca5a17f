"""units: a figure's scope is one its field allows (`Allows` in the model). A GPU's power or
FP rate is per GPU: `per_node` or `per_system` there means a server's or a rack's figure was
typed into a GPU's field, the classic slip with rack-scale systems."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from .base import Check, Context
from .direction_allowed import not_allowed

SCOPE_NOT_ALLOWED = Rule("units-scope-not-allowed", "units",
                         "范围（scope）必须是该字段允许的范围（GPU 的功耗和算力只能是 per_gpu）。")


def check_scope_allowed(ctx: Context) -> Iterator[Diagnostic]:
    return not_allowed(ctx, SCOPE_NOT_ALLOWED, "scope")


RULES = (SCOPE_NOT_ALLOWED,)
CHECKS: tuple[Check, ...] = (check_scope_allowed,)
