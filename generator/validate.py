"""The whole check, as a pure function: spec files (bytes) in, knowledge base and diagnostics out.

Stages run in order and each collects everything it finds: parse every file, build every
entity, then run the cross-entity rules only if every file made it through the earlier stages
(rules assume well-typed entities; reporting the rest after a schema error would only add noise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .derive import FigureIndex
from .diagnostics import Diagnostic
from .fanout import Shared, worth_forking
from .gcpause import without_cycle_collection
from .knowledge import KnowledgeBase, Loaded
from .load import ParsedFile, parse_spec
from .model import KINDS
from .rules import RULE_CHECKS, Context
from .schema import build_entity


@dataclass(frozen=True)
class SpecFile:
    path: str  # as shown in diagnostics, e.g. specs/gpus/a100-sxm4-80gb.yaml
    kind: str  # spec folder
    stem: str  # file name without .yaml
    raw: bytes


@dataclass(frozen=True)
class Result:
    kb: KnowledgeBase | None  # None when the files could not all be loaded
    figures: FigureIndex | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.kb is not None and not any(d.severity.value == "error" for d in self.diagnostics)


# What one file turns into: an entity, or the diagnostics that stopped it.
Built = Loaded | list[Diagnostic]


def _parsed(spec: SpecFile) -> ParsedFile | list[Diagnostic]:
    # The share of the work a helper process can take: its result is plain data.
    if spec.kind not in KINDS:
        return [Diagnostic(spec.path, 1, 1, "schema-folder",
                           f"unexpected folder {spec.kind!r}: spec files live in one of "
                           f"{', '.join(k + '/' for k in KINDS)}")]
    return parse_spec(spec.path, spec.raw)


def _parsed_to_send(spec: SpecFile) -> dict[str, Any] | ParsedFile | list[Diagnostic]:
    # In the helper: a file read by the fast path travels as its data alone, since the parent
    # holds its bytes already (they would double what crosses between the processes).
    parsed = _parsed(spec)
    return parsed.data if isinstance(parsed, ParsedFile) and parsed.needs_positions else parsed


def _received(spec: SpecFile, sent: dict[str, Any] | ParsedFile | list[Diagnostic]) -> ParsedFile | list[Diagnostic]:
    return ParsedFile(spec.path, sent, spec.raw) if isinstance(sent, dict) else sent


def _typed(spec: SpecFile, parsed: ParsedFile | list[Diagnostic]) -> Built:
    if isinstance(parsed, list):
        return parsed
    return build_entity(spec.kind, parsed, spec.stem)


# Files per queue item: small enough that the two processes end within a few milliseconds of
# each other, big enough that a message carries more data than overhead. A very big tree gets
# bigger items, to stay within the queue's size.
_CHUNK = 32


def _parsed_chunk(chunk: Sequence[SpecFile]) -> list[dict[str, Any] | ParsedFile | list[Diagnostic]]:
    return [_parsed_to_send(spec) for spec in chunk]


def _build_all(specs: list[SpecFile]) -> dict[SpecFile, Built]:
    """Every file parsed and typed, with its stated figures. On a big tree a helper process
    parses files and sends them back, while this process types and indexes each file the helper
    has sent (a typed model costs more to send than to build) and, whenever none is waiting,
    parses the next files itself: both stay busy, whatever each core's speed at the moment."""
    size = max(_CHUNK, -(-len(specs) // Shared.MAX_ITEMS))
    chunks = [specs[start:start + size] for start in range(0, len(specs), size)]
    work = Shared(_parsed_chunk, chunks, parallel=worth_forking(len(specs)))
    built: dict[SpecFile, Built] = {}
    try:
        for index, sent in work.as_completed():
            for spec, one in zip(chunks[index], sent, strict=True):
                built[spec] = _indexed(_typed(spec, _received(spec, one)))
    except BaseException:
        work.cancel()
        raise
    return {spec: built[spec] for spec in specs}


def _indexed(built: Built) -> Built:
    if not isinstance(built, list) and built.kind != "sources":
        _ = built.stated  # work the figures out now, while a helper may still be parsing
    return built


@without_cycle_collection
def validate(files: list[SpecFile], early: list[Diagnostic] | None = None,
             memo: dict[SpecFile, Built] | None = None) -> Result:
    """Check a whole tree. `memo` (owned by the caller, e.g. a `mkdocs serve` session or the
    tests) lets unchanged files skip parsing; results are the same with or without it."""
    loaded = load(files, early, memo)
    if loaded.kb is None or loaded.figures is None:
        return loaded
    return Result(loaded.kb, loaded.figures, check(loaded.kb, loaded.figures))


def load(files: list[SpecFile], early: list[Diagnostic] | None = None,
         memo: dict[SpecFile, Built] | None = None) -> Result:
    """The first stages: every file parsed and typed, ids unique, figures indexed. The result
    has no knowledge base when any of that failed; `check` runs the rules on one that loaded."""
    diagnostics: list[Diagnostic] = list(early or [])
    entities: dict[str, Loaded] = {}
    ordered = sorted(files, key=lambda f: f.path)
    todo = list(dict.fromkeys(spec for spec in ordered if memo is None or spec not in memo))
    built_now = _build_all(todo)
    if memo is not None:
        memo.update(built_now)
    for spec in ordered:
        built = built_now[spec] if memo is None else memo[spec]
        if isinstance(built, list):
            diagnostics.extend(built)
            continue
        first = entities.get(built.id)
        if first is not None:
            mark = built.at(("id",))
            diagnostics.append(Diagnostic(spec.path, mark.line, mark.col, "refs-duplicate-id",
                                          f"id {built.id!r} is already defined in {first.path}"))
            continue
        entities[built.id] = built
    if diagnostics:
        return Result(None, None, tuple(sorted(set(diagnostics))))
    kb = KnowledgeBase(entities)
    return Result(kb, FigureIndex(kb), ())


def check(kb: KnowledgeBase, figures: FigureIndex) -> tuple[Diagnostic, ...]:
    """Every cross-entity rule, on a knowledge base that loaded."""
    context = Context(kb, figures)
    diagnostics: list[Diagnostic] = []
    for rule_check in RULE_CHECKS:
        diagnostics.extend(rule_check(context))
    return tuple(sorted(set(diagnostics)))
