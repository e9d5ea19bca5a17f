"""Generic traversal of a typed entity: every value a rule can check (sub-models such as
quantities and texts, and references to other entities) with its data path and the metadata
markers (`Dim`, `Ref`) of its annotation. Rules use it instead of knowing every entity type.

This is the one walker of the models: of an entity (`walk`, read through the shared
`Loaded.nodes`), and of the model types along a path of raw data (`model_at`, for the schema
stage's "allowed keys here" hint, where there is no entity yet). Both read the annotations
through `models_in` and `markers`.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from functools import cache

from pydantic import BaseModel

from ..diagnostics import DataPath
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
    return bool(models_in(annotation))


def models_in(annotation: object) -> list[type[BaseModel]]:
    """The pydantic models a value of this annotation can be or contain, through unions, lists
    and Annotated."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in typing.get_args(annotation) for model in models_in(arg)]


def model_at(annotation: object, data: object, path: DataPath) -> type[BaseModel] | None:
    """The model that the raw `data` of this annotation holds at `path` (tagged unions resolved
    by the data's `type` or `kind`), or None where that cannot be told: an error path's hint."""
    model = _model_of(annotation, data)
    for part in path:
        if model is None:
            return None
        if isinstance(part, int):
            data = data[part] if isinstance(data, list) and 0 <= part < len(data) else None
            continue
        data = data.get(part) if isinstance(data, dict) else None
        field = model.model_fields.get(part)
        model = _model_of(field.annotation, data) if field is not None else None
    return model


def _model_of(annotation: object, data: object) -> type[BaseModel] | None:
    candidates = models_in(annotation)
    if len(candidates) == 1:
        return candidates[0]
    for model in candidates:  # tagged unions: pick the member whose tag matches
        for tag in ("type", "kind"):
            field = model.model_fields.get(tag)
            if isinstance(data, dict) and field is not None and data.get(tag) in typing.get_args(field.annotation):
                return model
    return None


# (path, value, markers): the value is whatever the model holds there (a sub-model, a list, a
# reference), so readers narrow it with isinstance before they look inside.
Visit = tuple[DataPath, object, tuple[object, ...]]  # (where, value, the values around it)


def walk(node: object, path: DataPath = (), marks: tuple[object, ...] = ()) -> Iterator[Visit]:
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
