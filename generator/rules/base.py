"""What a rule is, what it sees and how it reports.

A `Rule` is declared once, as a module constant of the module of generator/rules/ that holds its
check: stable id, family and the sentence the site's rules page shows. Every diagnostic is made
through its rule object (`RULE.report(entity, path, message)` in the rules,
`RULE.at(file, line, col, message)` in the loader and schema stages), so an id is spelled in
exactly one place and a misspelt one is a NameError, not a silent new id.

Importing this module is cheap (the knowledge base types are for annotations only): the loader
imports its rule objects from generator/rules/ while the rules import the loader.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from ..diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from ..derive import FigureIndex
    from ..knowledge import KnowledgeBase, Loaded
    from ..load import DataPath
    from ..model.common import Identified

# The families in the order the rules page lists them.
Family = Literal["yaml", "schema", "refs", "units", "arithmetic", "claims", "tables", "tree", "model", "sources"]
FAMILIES: tuple[Family, ...] = get_args(Family)


@dataclass(frozen=True)
class Rule:
    id: str  # stable kebab-case id, printed in brackets after each message
    family: Family
    zh: str  # what it checks, one sentence for the rules page
    # A warning flags what is probably, not certainly, wrong: it does not stop a build, but
    # `--strict` (CI, `make check`, `mkdocs build --strict`) counts it as an error.
    severity: Severity = Severity.ERROR
    # A consequence of gaps other rules name (a leaf the model cannot judge because a figure it
    # needs is missing or invalid): shown only once the knowledge base has no errors, so that a
    # contributor sees the cause first and not the same problem twice.
    after_errors: bool = False

    def report(self, entity: Loaded[Identified], path: DataPath, message: str) -> Diagnostic:
        """A diagnostic at the value `path` of `entity` (at its parent, if the value is missing)."""
        mark = entity.at(path)
        return Diagnostic(entity.path, mark.line, mark.col, self.id, message, self.severity)

    def at(self, file: str, line: int, col: int, message: str) -> Diagnostic:
        """A diagnostic at a position of a file that is not (yet) an entity."""
        return Diagnostic(file, line, col, self.id, message, self.severity)


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    figures: FigureIndex
    today: dt.date | None = None  # the build date, read at the edge; None: dates are not judged


# A rule's check: a small function named check_<invariant> yielding diagnostics.
Check = Callable[[Context], Iterator[Diagnostic]]
