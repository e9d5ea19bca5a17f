"""units: each quantity uses a known unit of the field's dimension; bandwidths carry a direction."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..model.common import Dim, Quantity
from ..units import UNITS, units_of
from .base import Context, report


def check_units(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Quantity):
                continue
            dim = next((m.dimension for m in marks if isinstance(m, Dim)), None)
            unit = UNITS.get(value.unit)
            if unit is None:
                expected = f"; expected one of: {', '.join(units_of(dim))}" if dim else ""
                yield report(entity, path + ("unit",), "units-unknown", f"unknown unit {value.unit!r}{expected}")
                continue
            if dim is not None and unit.dimension != dim:
                yield report(entity, path + ("unit",), "units-dimension",
                             f"{'.'.join(map(str, path))} is a {dim.replace('_', ' ')} figure, but {value.unit!r} "
                             f"measures {unit.dimension.replace('_', ' ')}; expected one of: {', '.join(units_of(dim))}")
            if unit.dimension == "data_rate" and value.direction is None:
                yield report(entity, path, "units-direction-missing",
                             f"bandwidth {value.value:g} {value.unit} has no direction: add "
                             "`direction: per_direction`, `bidirectional` or (memory) `aggregate`")
