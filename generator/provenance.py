"""What a figure rests on: how its source was reached (read at the publisher, read through a
secondary copy, not read) and what kind of document it is. One place decides it, so the figure
links, the verification dates, the claims' basis and the provenance summary can never disagree.

Pure: reads the knowledge base, returns values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .knowledge import KnowledgeBase
from .model.common import Count, Quantity
from .model.entities import Encoding, Source

Access = Literal["read", "copy", "unread"]
# The categories of the summary, from strongest to weakest footing.
Footing = Literal["read_primary", "read_secondary", "copy", "unread", "article", "estimate"]
FOOTINGS: tuple[Footing, ...] = ("read_primary", "read_secondary", "copy", "unread", "article", "estimate")

# Kinds whose figures are the publisher's own statement of a specification.
PRIMARY_KINDS = frozenset({"datasheet", "standard", "documentation", "paper", "press"})
# Kinds that are not independent of the articles' authors' say-so: an article, an estimate.
DEPENDENT_KINDS = frozenset({"article", "estimate"})
# Which publishers may issue which kind of document (rule sources-kind-publisher).
KIND_PUBLISHERS: dict[str, frozenset[str]] = {
    "datasheet": frozenset({"vendor"}),
    "standard": frozenset({"standards_body"}),
    "documentation": frozenset({"vendor", "standards_body", "project", "academic"}),
    "paper": frozenset({"academic", "vendor"}),
    "press": frozenset({"vendor", "standards_body", "press"}),
    "patch": frozenset({"project"}),
    "measurement": frozenset({"vendor", "project", "academic", "third_party"}),
    "article": frozenset({"author", "third_party", "press"}),
    "estimate": frozenset({"author", "third_party", "press", "vendor"}),
    "regulation": frozenset({"regulator"}),
}

# Spec folders whose figures the summary counts: everything with figures a reader compares.
FIGURE_KINDS = ("gpus", "interconnects", "networks", "cases", "workloads", "assumptions")


def access(source: Source) -> Access:
    """How this project reached the document: its own page read, a copy read, or neither. The
    source articles are the project's own starting texts, read in full (they carry no date)."""
    if source.retrieved is not None or source.kind == "article":
        return "read"
    return "copy" if source.via is not None else "unread"


def footing(source: Source) -> Footing:
    """The summary category of a figure that cites `source`."""
    if source.kind == "article":
        return "article"
    if source.kind in ("estimate", "measurement"):
        return "estimate"
    reached = access(source)
    if reached != "read":
        return reached
    return "read_primary" if source.kind in PRIMARY_KINDS and source.publisher_role != "third_party" else "read_secondary"


def independent(source: Source) -> bool:
    """Whether the document is independent of an article's own numbers."""
    return source.kind not in DEPENDENT_KINDS


@dataclass(frozen=True)
class Summary:
    counts: dict[Footing, int]  # every footing, in FOOTINGS order

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def figure_sources(kb: KnowledgeBase, kinds: Iterable[str] = FIGURE_KINDS) -> list[str]:
    """The source id cited by each stated figure (quantity, count, encoding) of the entities of
    `kinds`, one entry per figure, in entity and path order."""
    wanted = set(kinds)
    cited: list[str] = []
    for entity in kb:
        if entity.kind not in wanted:
            continue
        for _path, value, _marks in entity.nodes:
            if isinstance(value, (Quantity, Count, Encoding)):
                cited.append(value.source)
    return cited


def summarize(kb: KnowledgeBase, kinds: Iterable[str] = FIGURE_KINDS) -> Summary:
    sources = {e.id: e.model for e in kb.of_type(Source)}
    counts: dict[Footing, int] = dict.fromkeys(FOOTINGS, 0)
    for source_id in figure_sources(kb, kinds):
        source = sources.get(source_id)
        if source is not None:  # an unknown id is reported by the refs rules
            counts[footing(source)] += 1
    return Summary(counts)


def entity_sources(kb: KnowledgeBase, entity_id: str) -> list[Source]:
    """The sources behind an entity's stated figures, each once, in first-cited order."""
    entity = kb.get(entity_id)
    if entity is None:
        return []
    seen: dict[str, Source] = {}
    for _path, value, _marks in entity.nodes:
        if isinstance(value, (Quantity, Count, Encoding)) and value.source not in seen:
            source = kb.get(value.source, Source)
            if source is not None:
                seen[value.source] = source.model
    return list(seen.values())
