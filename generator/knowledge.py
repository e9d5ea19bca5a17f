"""The loaded knowledge base: every entity with its kind, typed model and source positions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .load import DataPath, Mark, ParsedFile
from .model.walk import Node, cites_source, walk


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

    @cached_property
    def nodes(self) -> list[Node]:
        """The checkable values of the entity with their paths and markers (see `walk`), walked
        once and read by the stated figures and every rule that looks at values."""
        # Shared rather than walked by each reader: that costs 0.3 s more at 100x, leaving the
        # 5 s budget of DESIGN.md section 8 too thin a margin on a shared machine.
        return list(walk(self.model))


@dataclass(frozen=True)
class KnowledgeBase:
    entities: dict[str, Loaded]

    def get(self, entity_id: str) -> Loaded | None:
        return self.entities.get(entity_id)

    @cached_property
    def _by_kind(self) -> dict[str, list[Loaded]]:
        # Computed once: rules and renderers ask for a kind many times per build.
        by_kind: dict[str, list[Loaded]] = {}
        for entity in sorted(self.entities.values(), key=lambda e: (e.kind, e.id)):
            by_kind.setdefault(entity.kind, []).append(entity)
        return by_kind

    def citations(self) -> dict[str, set[str]]:
        """Source id -> the ids of the entities that cite it (any field that references a source)."""
        cited: dict[str, set[str]] = {}
        for entity in self:
            if entity.kind == "sources":
                continue
            for _path, value, marks in entity.nodes:
                if isinstance(value, str) and cites_source(marks):
                    cited.setdefault(value, set()).add(entity.id)
        return cited

    def of_kind(self, kind: str) -> list[Loaded]:
        return list(self._by_kind.get(kind, []))

    def __iter__(self) -> Iterator[Loaded]:
        return (entity for kind in sorted(self._by_kind) for entity in self._by_kind[kind])
