"""Figures: every number of the knowledge base under one name, `entity#dotted.path`.

A *stated* figure is a quantity written in a spec; a *derived* one is computed from others by
`generator.derive`. Claims, tables and narrative pages all reference figures by name, so that a
page can never show a number that the validator did not see.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from pydantic import BaseModel

from .load import DataPath
from .model.common import Count, Dim, Quantity
from .model.walk import holds_model
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
    return {f.name: _with_rounding(f, data) for f in _walk(entity_id, model, (), (), None)}


def _with_rounding(figure: Figure, data: Any) -> Figure:
    if figure.path is None or figure.dimension == "count" or not figure.usable:
        return figure
    node = data
    for part in figure.path + ("value",):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return figure
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        return figure
    if figure.tolerance_pct is not None:
        return figure
    half_digit = Fraction(1, 2 * 10 ** decimals_of(node))
    return replace(figure, tolerance=to_base(half_digit, figure.unit))


def _walk(entity_id: str, node: Any, names: tuple[str, ...], path: DataPath, dim: str | None) -> Iterator[Figure]:
    if isinstance(node, Quantity):
        yield _quantity_figure(entity_id, node, names, path, dim)
    elif isinstance(node, Count):
        yield Figure(entity_id, ".".join(names), Fraction(node.value), "count", "", source=node.source, path=path)
    elif isinstance(node, BaseModel):
        for field_name, field_dim in _figure_fields(type(node)):
            child = getattr(node, field_name)
            if child is not None:
                yield from _walk(entity_id, child, names + (field_name,), path + (field_name,), field_dim)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            label = str(getattr(item, "key", index))
            yield from _walk(entity_id, item, names + (label,), path + (index,), dim)


@cache
def _figure_fields(model: type[BaseModel]) -> tuple[tuple[str, str | None], ...]:
    """Per class, once: the fields that can hold a figure (a model, or a list of them), with the
    dimension their annotation declares. Text, ids and numbers are skipped without a look."""
    return tuple((name, _dim(info.metadata, info.annotation)) for name, info in model.model_fields.items()
                 if holds_model(info.annotation))


def _dim(metadata: list[Any], annotation: Any) -> str | None:
    for item in metadata:
        if isinstance(item, Dim):
            return item.dimension
    for arg in typing.get_args(annotation):  # Optional[Annotated[Quantity, Dim(...)]]
        for item in getattr(arg, "__metadata__", ()):
            if isinstance(item, Dim):
                return item.dimension
    return None


def _quantity_figure(entity_id: str, q: Quantity, names: tuple[str, ...], path: DataPath, dim: str | None) -> Figure:
    unit = UNITS.get(q.unit)
    if unit is None or (dim is not None and unit.dimension != dim):
        # The units rule reports it; nothing is derived from or compared with this figure.
        return Figure(entity_id, ".".join(names), Fraction(q.value), dim or "unknown", q.unit,
                      q.direction, q.scope, q.source, path, usable=False)
    value = to_base(q.value, q.unit)
    if q.tolerance_pct is not None:
        tolerance = abs(value) * Fraction(q.tolerance_pct) / 100
    else:  # refined from the literal by _with_rounding
        tolerance = to_base(Fraction(1, 2 * 10 ** decimals_of(q.value)), q.unit)
    return Figure(entity_id, ".".join(names), value, unit.dimension, q.unit, q.direction, q.scope,
                  q.source, path, tolerance=tolerance, tolerance_pct=q.tolerance_pct)
