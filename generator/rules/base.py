"""What a rule sees and how it reports: a read-only context and a helper that turns an entity
plus data path into a positioned diagnostic."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..derive import FigureIndex
from ..diagnostics import Diagnostic, Severity
from ..knowledge import KnowledgeBase, Loaded
from ..load import DataPath
from ..model.common import Identified
from .catalog import RULES


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    figures: FigureIndex


Rule = Callable[[Context], Iterator[Diagnostic]]


def report(entity: Loaded[Identified], path: DataPath, rule: str, message: str, *, at_key: bool = False,
           severity: Severity = Severity.ERROR) -> Diagnostic:
    if rule not in RULES:  # a programming error, caught by the tests, never by users
        raise KeyError(f"rule {rule!r} is not in the catalog")
    mark = entity.file.key_mark(path) if at_key else entity.at(path)
    return Diagnostic(entity.path, mark.line, mark.col, rule, message, severity)
