"""Generic traversal of a typed entity: every field value with its data path and the metadata
markers (`Dim`, `Ref`) of its annotation. Rules use it instead of knowing every entity type."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from functools import cache
from typing import Any

from pydantic import BaseModel

from ..load import DataPath


def markers(annotation: Any) -> list[Any]:
    """All Annotated metadata found anywhere inside a type annotation."""
    found: list[Any] = list(getattr(annotation, "__metadata__", ()))
    for arg in typing.get_args(annotation):
        found.extend(markers(arg))
    return found


@cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    # Per class, once: reading annotations is the expensive part of a walk.
    return tuple((name, tuple(info.metadata) + tuple(markers(info.annotation)))
                 for name, info in model.model_fields.items())


def walk(node: Any, path: DataPath = (), marks: tuple[Any, ...] = ()) -> Iterator[tuple[DataPath, Any, tuple[Any, ...]]]:
    """Yield (path, value, markers) for every value below `node`, depth first."""
    yield path, node, marks
    if isinstance(node, BaseModel):
        for name, field_marks in _fields(type(node)):
            value = getattr(node, name)
            if value is not None:
                yield from walk(value, path + (name,), field_marks)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from walk(item, path + (index,), marks)
