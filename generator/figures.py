"""Figures: every number of the knowledge base under one name, `entity#dotted.path`.

A *stated* figure is a quantity written in a spec; a *derived* one is computed from others by
`generator.derive`. Claims, tables and narrative pages all reference figures by name, so that a
page can never show a number that the validator did not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .diagnostics import DataPath
from .model.common import Count, Dim, Keyed, Quantity
from .model.walk import Visit
from .units import DERIVED_UNITS, UNITS, decimals_of, from_base, to_base


@dataclass(frozen=True)
class Figure:
    entity: str
    name: str
    value: Fraction  # in the dimension's base unit (bit/s, FLOP/s, W, ...)
    dimension: str
    unit: str  # the unit it is shown in
    direction: str | None = None
    scope: str | None = None
    source: str | None = None
    path: DataPath | None = None  # where it is stated; None for a derived-only figure
    formula: str | None = None  # how it was derived
    tolerance: Fraction = Fraction(0)  # absolute, base units: how far a derived value may be
    tolerance_pct: float | None = None  # as stated in the spec, if it was
    usable: bool = True  # False when its unit is unknown or of the wrong dimension

    @property
    def ref(self) -> str:
        return f"{self.entity}#{self.name}"

    @property
    def shown(self) -> Fraction:
        """The value in its display unit."""
        known = self.unit in UNITS or self.unit in DERIVED_UNITS
        return from_base(self.value, self.unit) if known else self.value


def stated_figures(entity_id: str, nodes: list[Visit], data: object = None) -> dict[str, Figure]:
    """All quantities and counts written in one entity, from its walked `nodes` (`Loaded.nodes`),
    keyed by dotted name: field names, and list items by their `key` where they have one. `data`
    is the raw parsed file: it still tells `41` from `41.0`, which sets the rounding a figure is
    read with."""
    figures: dict[str, Figure] = {}
    names = figure_names(nodes)
    for path, value, marks in nodes:
        if isinstance(value, Quantity):
            dim = next((m.dimension for m in marks if isinstance(m, Dim)), None)
            figure = _quantity_figure(entity_id, value, names[path], path, dim, _written(data, path + ("value",)))
            figures[figure.name] = figure
        elif isinstance(value, Count):
            name = ".".join(names[path])
            figures[name] = Figure(entity_id, name, Fraction(value.value), "count", "", source=value.source, path=path)
    return figures


def figure_names(nodes: list[Visit]) -> dict[DataPath, tuple[str, ...]]:
    """The name of each walked value as figures are named (`rows.ndr.cluster`, not
    `rows.1.cluster`): field names, and list items by their `key` where they have one."""
    names: dict[DataPath, tuple[str, ...]] = {(): ()}
    for path, value, _marks in nodes:  # parents come before their children
        if path:
            last = path[-1]
            names[path] = names[path[:-1]] + (str(value.key if isinstance(value, Keyed) else last),)
    return names


def _written(data: object, path: DataPath) -> object:
    """The value at `path` in the parsed file, or None."""
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _quantity_figure(entity_id: str, q: Quantity, names: tuple[str, ...], path: DataPath, dim: str | None,
                     literal: object) -> Figure:
    unit = UNITS.get(q.unit)
    if unit is None or (dim is not None and unit.dimension != dim):
        # The units rule reports it; nothing is derived from or compared with this figure.
        return Figure(entity_id, ".".join(names), Fraction(q.value), dim or "unknown", q.unit,
                      q.direction, q.scope, q.source, path, usable=False)
    value = to_base(q.value, q.unit)
    if q.tolerance_pct is not None:
        tolerance = abs(value) * Fraction(q.tolerance_pct) / 100
    else:  # half a unit of the last digit as written: `41` and `41.0` are read differently
        written = literal if isinstance(literal, (int, float)) and not isinstance(literal, bool) else q.value
        tolerance = Fraction(1, 2) / Fraction(10) ** decimals_of(written) * unit.factor
    return Figure(entity_id, ".".join(names), value, unit.dimension, q.unit, q.direction, q.scope,
                  q.source, path, tolerance=tolerance, tolerance_pct=q.tolerance_pct)
