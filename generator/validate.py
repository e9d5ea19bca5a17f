"""The whole check, as a pure function: spec files (bytes) in, knowledge base and diagnostics out.

Stages run in order and each collects everything it finds: parse every file, build every
entity, then run the cross-entity rules only if every file made it through the earlier stages
(rules assume well-typed entities; reporting the rest after a schema error would only add noise).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .build import build_entity
from .derive import FigureIndex
from .diagnostics import Diagnostic, Severity
from .knowledge import KnowledgeBase, Loaded
from .load.parse import parse_spec
from .load.schema_rules import FOLDER
from .model import KINDS
from .model.common import Identified
from .rules.base import Context
from .rules.catalog import CHECKS, RULES
from .rules.diagnostic_cap import cap_per_file
from .rules.text_hygiene import scan
from .rules.unique_ids import unique_entities


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
        """Loaded, and no errors: warnings do not count (see `passes`)."""
        return self.kb is not None and not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity is Severity.WARNING)

    def passes(self, strict: bool = False) -> bool:
        """`ok`, and under `strict` (CI) without warnings either."""
        return self.ok and not (strict and self.warnings)


# What one file turns into: an entity, or the diagnostics that stopped it.
Built = Loaded[Identified] | list[Diagnostic]


def _built(spec: SpecFile) -> Built:
    if spec.kind not in KINDS:
        return [FOLDER.at(spec.path, 1, 1, f"unexpected folder {spec.kind!r}: spec files live in one of "
                                           f"{', '.join(k + '/' for k in KINDS)}")]
    parsed = parse_spec(spec.path, spec.raw)
    if isinstance(parsed, list):
        return parsed
    hidden = scan(parsed)
    built = build_entity(spec.kind, parsed, spec.stem)
    if not hidden:
        return built
    # What the schema says about a value it could not read right (an id with a look-alike
    # letter has the wrong format) only repeats the problem: keep it for other values.
    shown = {(d.line, d.col) for d in hidden}
    return hidden + ([d for d in built if (d.line, d.col) not in shown] if isinstance(built, list) else [])


def validate(files: list[SpecFile], early: list[Diagnostic] | None = None,
             memo: dict[SpecFile, Built] | None = None, today: dt.date | None = None) -> Result:
    """Check a whole tree. `memo` (owned by the caller, e.g. the tests) lets unchanged files
    skip parsing; results are the same with or without it. `today` is the build date: no date
    of the tree may be later (none given: dates are not judged)."""
    diagnostics: list[Diagnostic] = list(early or [])
    loaded: list[Loaded[Identified]] = []
    ordered = sorted(files, key=lambda f: f.path)
    built_now = {spec: _built(spec) for spec in ordered if memo is None or spec not in memo}
    if memo is not None:
        memo.update(built_now)
    for spec in ordered:
        built = built_now[spec] if memo is None else memo[spec]
        if isinstance(built, list):
            diagnostics.extend(built)
        else:
            loaded.append(built)
    entities, duplicates = unique_entities(loaded)
    diagnostics.extend(duplicates)
    if diagnostics:
        return Result(None, None, cap_per_file(diagnostics))
    kb = KnowledgeBase(entities)
    figures = FigureIndex(kb)
    return Result(kb, figures, check(kb, figures, today))


def check(kb: KnowledgeBase, figures: FigureIndex, today: dt.date | None = None) -> tuple[Diagnostic, ...]:
    """Every cross-entity rule, on a knowledge base that loaded."""
    context = Context(kb, figures, today)
    diagnostics: list[Diagnostic] = []
    for rule_check in CHECKS:
        diagnostics.extend(rule_check(context))
    if any(d.severity is Severity.ERROR for d in diagnostics):
        diagnostics = [d for d in diagnostics if not RULES[d.rule].after_errors]
    return cap_per_file(diagnostics)
