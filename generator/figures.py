"""Figures: every number of the knowledge base under one name, `entity#dotted.path`.

A *stated* figure is a quantity written in a spec; a *derived* one is computed from others by
`generator.derive`. Claims, tables and narrative pages all reference figures by name, so that a
page can never show a number that the validator did not see.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from pydantic import BaseModel

from .load import DataPath
from .model.common import Count, Dim, Quantity
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


def stated_figures(entity_id: str, model: BaseModel, data: Any = None) -> dict[str, Figure]:
    """All quantities and counts written in one entity, keyed by dotted name. `data` is the raw
    parsed file: it still tells `41` from `41.0`, which sets the rounding a figure is read with."""
    figures: dict[str, Figure] = {}
    # Depth first with an explicit stack: (node, name parts, data path, dimension, same place in `data`).
    stack: list[tuple[Any, tuple[str, ...], DataPath, str | None, Any]] = [(model, (), (), None, data)]
    while stack:
        node, names, path, dim, raw = stack.pop()
        if isinstance(node, Quantity):
            literal = raw.get("value") if isinstance(raw, dict) else None
            figure = _quantity_figure(entity_id, node, names, path, dim, literal)
            figures[figure.name] = figure
        elif isinstance(node, Count):
            name = ".".join(names)
            figures[name] = Figure(entity_id, name, Fraction(node.value), "count", "", source=node.source, path=path)
        elif isinstance(node, BaseModel):
            raw_fields = raw if isinstance(raw, dict) else {}
            for field_name, field_dim in reversed(_figure_fields(type(node))):
                child = getattr(node, field_name)
                if child is not None:
                    stack.append((child, names + (field_name,), path + (field_name,), field_dim,
                                  raw_fields.get(field_name)))
        elif isinstance(node, list):
            raw_items = raw if isinstance(raw, list) and len(raw) == len(node) else [None] * len(node)
            for index in range(len(node) - 1, -1, -1):
                item = node[index]
                stack.append((item, names + (str(getattr(item, "key", index)),), path + (index,), dim,
                              raw_items[index]))
    return figures


@cache
def _figure_fields(model: type[BaseModel]) -> tuple[tuple[str, str | None], ...]:
    """Per class, once: the fields that can hold a figure (a quantity or a count, or a model or
    list that can contain one), with the dimension their annotation declares. Everything else
    (text, ids, numbers, and models without figures such as a claim's check) is skipped
    without a look, so an entity with no figures costs one step."""
    return tuple((name, _dim(info.metadata, info.annotation)) for name, info in model.model_fields.items()
                 if _holds_figure(info.annotation))


def _holds_figure(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        # A model met again while its own fields are being looked at (a recursive model) is
        # taken to hold a figure: walking it costs a little, skipping it could miss one.
        return annotation in _VISITING or _model_holds_figure(annotation)
    return any(_holds_figure(arg) for arg in typing.get_args(annotation))


@cache
def _model_holds_figure(model: type[BaseModel]) -> bool:
    if issubclass(model, (Quantity, Count)):
        return True
    _VISITING.add(model)
    try:
        return any(_holds_figure(info.annotation) for info in model.model_fields.values())
    finally:
        _VISITING.discard(model)


_VISITING: set[type[BaseModel]] = set()


def _dim(metadata: list[Any], annotation: Any) -> str | None:
    for item in metadata:
        if isinstance(item, Dim):
            return item.dimension
    for arg in typing.get_args(annotation):  # Optional[Annotated[Quantity, Dim(...)]]
        for item in getattr(arg, "__metadata__", ()):
            if isinstance(item, Dim):
                return item.dimension
    return None


def _quantity_figure(entity_id: str, q: Quantity, names: tuple[str, ...], path: DataPath, dim: str | None,
                     literal: Any) -> Figure:
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
        tolerance = Fraction(1, 2 * 10 ** decimals_of(written)) * unit.factor
    return Figure(entity_id, ".".join(names), value, unit.dimension, q.unit, q.direction, q.scope,
                  q.source, path, tolerance=tolerance, tolerance_pct=q.tolerance_pct)
