"""The loaded knowledge base: every entity with its kind, typed model and source positions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .load import DataPath, Mark, ParsedFile


@dataclass(frozen=True)
class Loaded:
    kind: str  # the spec folder, e.g. "gpus"
    model: Any
    file: ParsedFile = field(repr=False)

    @property
    def id(self) -> str:
        return str(self.model.id)

    @property
    def path(self) -> str:
        return self.file.path

    def at(self, path: DataPath) -> Mark:
        return self.file.value_mark(path)


@dataclass(frozen=True)
class KnowledgeBase:
    entities: dict[str, Loaded]

    def get(self, entity_id: str) -> Loaded | None:
        return self.entities.get(entity_id)

    def of_kind(self, kind: str) -> list[Loaded]:
        return sorted((e for e in self.entities.values() if e.kind == kind), key=lambda e: e.id)

    def __iter__(self) -> Iterator[Loaded]:
        return iter(sorted(self.entities.values(), key=lambda e: (e.kind, e.id)))
