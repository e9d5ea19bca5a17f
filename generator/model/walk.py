"""Generic traversal of a typed entity: every value a rule can check (sub-models such as
quantities and texts, and references to other entities) with its data path and the metadata
markers (`Dim`, `Ref`) of its annotation. Rules use it instead of knowing every entity type."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from functools import cache

from pydantic import BaseModel

from ..load import DataPath
from .common import Ref


def markers(annotation: object) -> list[object]:
    """All Annotated metadata found anywhere inside a type annotation."""
    found: list[object] = list(getattr(annotation, "__metadata__", ()))
    for arg in typing.get_args(annotation):
        found.extend(markers(arg))
    return found


@cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, tuple[object, ...]], ...]:
    # Per class, once: reading annotations is the expensive part of a walk. Fields that can
    # hold neither a model nor a reference (names, numbers, flags, dates) are left out: no rule
    # looks at them, and every rule walks every entity.
    out = []
    for name, info in model.model_fields.items():
        marks = tuple(info.metadata) + tuple(markers(info.annotation))
        if holds_model(info.annotation) or any(isinstance(m, Ref) for m in marks):
            out.append((name, marks))
    return tuple(out)


def holds_model(annotation: object) -> bool:
    """Whether a value of this annotation can be, or contain, a pydantic model."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(holds_model(arg) for arg in typing.get_args(annotation))


# (path, value, markers): the value is whatever the model holds there (a sub-model, a list, a
# reference), so readers narrow it with isinstance before they look inside.
Node = tuple[DataPath, object, tuple[object, ...]]


def walk(node: object, path: DataPath = (), marks: tuple[object, ...] = ()) -> Iterator[Node]:
    """Every checkable value below `node` as (path, value, markers), depth first, parents before
    children: models, lists of them, and reference fields (plain scalars are skipped)."""
    yield path, node, marks
    if isinstance(node, BaseModel):
        for name, field_marks in _fields(type(node)):
            value = getattr(node, name)
            if value is not None:
                yield from walk(value, path + (name,), field_marks)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from walk(item, path + (index,), marks)


def cites_source(marks: tuple[object, ...]) -> bool:
    """Whether a field with these markers names a source."""
    return any(isinstance(m, Ref) and "sources" in m.kinds for m in marks)


def ref_of(marks: tuple[object, ...]) -> Ref | None:
    """The `Ref` marker among a field's markers, if it is a reference field."""
    return next((m for m in marks if isinstance(m, Ref)), None)
