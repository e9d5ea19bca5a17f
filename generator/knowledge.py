"""The loaded knowledge base: every entity with its kind, typed model and source positions.

This is the typed boundary between the parsed files and everything that reads them: an entity
is a `Loaded[M]` whose `model` is its pydantic model `M`, and the knowledge base hands them out
by model type (`kb.of_type(Gpu)` is a `list[Loaded[Gpu]]`, `kb.get(id, Pcie)` a
`Loaded[Pcie] | None`), so every attribute a rule or a renderer reads is checked by mypy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar, cast, overload

from .diagnostics import DataPath, Mark
from .load.parse import ParsedFile
from .model.common import Identified, Text
from .model.costs import Assumption, Workload
from .model.entities import (
    Claim,
    ComputeNode,
    FieldReport,
    Gpu,
    Layer,
    Network,
    Nic,
    Nvlink,
    Nvswitch,
    Pcie,
    Pitfall,
    Recommendation,
    ScalingStudy,
    Source,
    TierTable,
    Topology,
    VocabularyValue,
)
from .model.markets import Market
from .model.runs import Run
from .model.selection import Selection
from .model.walk import Visit, cites_source, walk

M = TypeVar("M", bound=Identified, covariant=True)
T = TypeVar("T", bound=Identified)
U = TypeVar("U", bound=Identified)
V = TypeVar("V", bound=Identified)
R = TypeVar("R")

# The models named by a `name`, and those named by a `title`; a claim has neither.
_NAMED = (Gpu, Pcie, Nvlink, Nvswitch, Network, Layer, Topology, Nic, ComputeNode, Run, Market, Workload, Assumption)
CLAIM_LABEL_CHARS = 28  # a claim is named by the start of what the article said: a link's text, not the claim
_TITLED = (Source, TierTable, Recommendation, ScalingStudy, FieldReport, Pitfall, Selection)


@dataclass(frozen=True)
class Loaded(Generic[M]):
    kind: str  # the spec folder, e.g. "gpus"
    model: M
    file: ParsedFile = field(repr=False)

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def path(self) -> str:
        return self.file.path

    @property
    def label(self) -> str:
        """How pages and the recommender name the entity: its name or title (in the language being
        written, generator.language, where it is a text); a claim, which has neither, by the start of what the article said. Never the
        id: a reader does not see ids (tests/test_site_build.py scans the pages for them)."""
        model: Identified = self.model
        name: str | Text
        if isinstance(model, _NAMED):
            name = model.name
        elif isinstance(model, _TITLED):
            name = model.title
        elif isinstance(model, VocabularyValue):
            name = model.label
        elif isinstance(model, Claim):
            said = " ".join(model.said.shown().split())
            if len(said) <= CLAIM_LABEL_CHARS:
                return said
            cut = CLAIM_LABEL_CHARS
            if said[cut - 1].isascii() and said[cut].isascii():
                # not inside a run of Latin text or figures ("82.6 TFL…", "64 GB…"): back to where it
                # starts, or, in an all-Latin text, to the last space
                start = cut
                while start > 0 and said[start - 1].isascii():
                    start -= 1
                cut = start if start > 0 else max(said.rfind(" ", 0, cut), 1)
            return said[:cut].rstrip("，、；：,;:. ") + "…"
        else:
            return model.id
        return name if isinstance(name, str) else name.shown()

    def at(self, path: DataPath) -> Mark:
        return self.file.value_mark(path)

    @cached_property
    def nodes(self) -> list[Visit]:
        """The checkable values of the entity with their paths and markers (see `walk`), walked
        once and read by the stated figures and every rule that looks at values."""
        # Shared rather than walked by each reader: that costs 0.3 s more at 100x, leaving the
        # 5 s budget of DESIGN.md section 8 too thin a margin on a shared machine.
        return list(walk(self.model))


@dataclass(frozen=True)
class _Kept:
    """A value of `KnowledgeBase.memo`, with the object it was computed for (None: the base's own)."""

    of: object
    value: object


@dataclass(frozen=True)
class KnowledgeBase:
    entities: dict[str, Loaded[Identified]]

    @overload
    def get(self, entity_id: str) -> Loaded[Identified] | None: ...
    @overload
    def get(self, entity_id: str, model_type: type[T]) -> Loaded[T] | None: ...

    def get(self, entity_id: str, model_type: type[Identified] = Identified) -> Loaded[Identified] | None:
        """The entity `entity_id`; with `model_type`, only if its model is of that type."""
        entity = self.entities.get(entity_id)
        return entity if entity is not None and isinstance(entity.model, model_type) else None

    @cached_property
    def _by_kind(self) -> dict[str, list[Loaded[Identified]]]:
        # Computed once: rules and renderers ask for a kind many times per build.
        by_kind: dict[str, list[Loaded[Identified]]] = {}
        for entity in sorted(self.entities.values(), key=lambda e: (e.kind, e.id)):
            by_kind.setdefault(entity.kind, []).append(entity)
        return by_kind

    @cached_property
    def memo(self) -> dict[str, object]:
        """Results derived from this knowledge base that several stages, or many calls, read: the
        tree's answers (the flowchart, the tiers page and data/tree.json), the calibration (a rule
        and the pages), a GPU's model record and the assumptions (every estimate of the planner and
        of calibration). Filled by their pure functions, once each (`once`)."""
        return {}

    def once(self, key: str, make: Callable[[], R], of: object = None) -> R:
        """`make()`, computed once per knowledge base under `key` and kept in `memo`. Given `of`,
        what was kept serves only that very object (an entity or a tree), not another of its id."""
        kept = self.memo.get(key)
        if isinstance(kept, _Kept) and kept.of is of:
            return cast("R", kept.value)
        value = make()
        self.memo[key] = _Kept(of, value)
        return value

    @cached_property
    def _by_type(self) -> dict[type[Identified], list[Loaded[Identified]]]:
        by_type: dict[type[Identified], list[Loaded[Identified]]] = {}
        for entity in self:
            by_type.setdefault(type(entity.model), []).append(entity)
        return by_type

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

    def label_of(self, entity_id: str) -> str:
        """The label of the entity with this id (a vocabulary value's Chinese label), or the id
        itself when there is none: pages name vocabulary values only through this."""
        entity = self.get(entity_id)
        return entity.label if entity is not None else entity_id

    def of_kind(self, kind: str) -> list[Loaded[Identified]]:
        """Every entity of one spec folder, by id (for what treats them alike: links, pages)."""
        return list(self._by_kind.get(kind, []))

    @overload
    def of_type(self, t: type[T], /) -> list[Loaded[T]]: ...
    @overload
    def of_type(self, t: type[T], u: type[U], /) -> list[Loaded[T | U]]: ...
    @overload
    def of_type(self, t: type[T], u: type[U], v: type[V], /) -> list[Loaded[T | U | V]]: ...

    def of_type(self, *model_types: type[Identified]) -> Sequence[Loaded[Identified]]:
        """Every entity whose model is one of `model_types` (a spec folder's type, or some of the
        types a folder holds: `of_type(Pcie)`, or `of_type(Pcie, Nvlink, Nvswitch)` for all the
        interconnects), by folder and id."""
        groups = [group for cls, group in self._by_type.items() if issubclass(cls, model_types)]
        found = [entity for group in groups for entity in group]
        if len(groups) > 1:
            found.sort(key=lambda e: (e.kind, e.id))
        return found

    def __iter__(self) -> Iterator[Loaded[Identified]]:
        return (entity for kind in sorted(self._by_kind) for entity in self._by_kind[kind])
