"""What a cross-entity rule sees (`Context`: the loaded knowledge base, its figures and the build
date) and the shape of its check. The `Rule` record itself is in generator/diagnostics.py, below
every stage, so that the loader declares its own yaml-* and schema-* rules without importing
anything of generator/rules/."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..derive import FigureIndex
    from ..knowledge import KnowledgeBase


@dataclass(frozen=True)
class Context:
    kb: KnowledgeBase
    figures: FigureIndex
    today: dt.date | None = None  # the build date, read at the edge; None: dates are not judged


# A rule's check: a small function named check_<invariant> yielding diagnostics.
Check = Callable[[Context], Iterator[Diagnostic]]
