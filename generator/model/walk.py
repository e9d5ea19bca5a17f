"""Generic traversal of a typed entity: every value a rule can check (sub-models such as
quantities and texts, and references to other entities) with its data path and the metadata
markers (`Dim`, `Ref`) of its annotation. Rules use it instead of knowing every entity type."""

from __future__ import annotations

import typing
from functools import cache
from typing import Any

from pydantic import BaseModel

from ..load import DataPath
from .common import Ref


def markers(annotation: Any) -> list[Any]:
    """All Annotated metadata found anywhere inside a type annotation."""
    found: list[Any] = list(getattr(annotation, "__metadata__", ()))
    for arg in typing.get_args(annotation):
        found.extend(markers(arg))
    return found


@cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    # Per class, once: reading annotations is the expensive part of a walk. Fields that can
    # hold neither a model nor a reference (names, numbers, flags) are left out altogether.
    out = []
    for name, info in model.model_fields.items():
        marks = tuple(info.metadata) + tuple(markers(info.annotation))
        if holds_model(info.annotation) or any(isinstance(m, Ref) for m in marks):
            out.append((name, marks))
    return tuple(out)


def holds_model(annotation: Any) -> bool:
    """Whether a value of this annotation can be, or contain, a pydantic model."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(holds_model(arg) for arg in typing.get_args(annotation))


Node = tuple[DataPath, Any, tuple[Any, ...]]


def walk(root: Any) -> list[Node]:
    """Every checkable value below `root` as (path, value, markers), depth first, parents before
    children: models, lists of them, and reference fields (plain scalars are skipped).
    A list rather than a generator: each entity is walked once and the result shared by every
    rule (see `Loaded.nodes`), which matters at thousands of files."""
    out: list[Node] = []
    stack: list[Node] = [((), root, ())]
    push = stack.append
    while stack:
        node = stack.pop()
        out.append(node)
        path, value, marks = node
        # Children go on the stack last first, so that they come off it in order.
        if isinstance(value, BaseModel):
            for name, field_marks in reversed(_fields(type(value))):
                child = getattr(value, name)
                if child is not None:
                    push((path + (name,), child, field_marks))
        elif isinstance(value, list):
            for index in range(len(value) - 1, -1, -1):
                push((path + (index,), value[index], marks))
    return out


@cache  # marker tuples are few (one per class and field) and hashable
def cites_source(marks: tuple[Any, ...]) -> bool:
    """Whether a field with these markers names a source."""
    return any(isinstance(m, Ref) and "sources" in m.kinds for m in marks)


@cache
def ref_of(marks: tuple[Any, ...]) -> Ref | None:
    """The `Ref` marker among a field's markers, if it is a reference field."""
    return next((m for m in marks if isinstance(m, Ref)), None)
