"""units: each quantity uses a known unit of its field's dimension (a bandwidth field takes no
TFLOPS), and a bandwidth says its direction: per-direction and bidirectional figures differ by
two, and comparing one with the other is the commonest slip in this domain."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.common import Dim, Quantity
from ..units import UNITS, units_of
from .base import Check, Context

UNKNOWN_UNIT = Rule("units-unknown", "units", "单位必须在单位表里。")
DIMENSION = Rule("units-dimension", "units", "字段只接受其量纲的单位（带宽字段不能写 TFLOPS）。")
DIRECTION_MISSING = Rule("units-direction-missing", "units",
                         "带宽必须注明方向：单向（per_direction）、双向合计（bidirectional）或总量（aggregate）。")


def check_units(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Quantity):
                continue
            dim = next((m.dimension for m in marks if isinstance(m, Dim)), None)
            unit = UNITS.get(value.unit)
            if unit is None:
                expected = f"; expected one of: {', '.join(units_of(dim))}" if dim else ""
                yield UNKNOWN_UNIT.report(entity, path + ("unit",), f"unknown unit {value.unit!r}{expected}")
                continue
            if dim is not None and unit.dimension != dim:
                yield DIMENSION.report(entity, path + ("unit",),
                                       f"{'.'.join(map(str, path))} is a {dim.replace('_', ' ')} figure, but {value.unit!r} "
                                       f"measures {unit.dimension.replace('_', ' ')}; expected one of: {', '.join(units_of(dim))}")
            if unit.dimension == "data_rate" and value.direction is None:
                yield DIRECTION_MISSING.report(entity, path,
                                               f"bandwidth {value.value:g} {value.unit} has no direction: add "
                                               "`direction: per_direction`, `bidirectional` or (memory) `aggregate`")


RULES = (UNKNOWN_UNIT, DIMENSION, DIRECTION_MISSING)
CHECKS: tuple[Check, ...] = (check_units,)
