"""refs: every source file is cited by some figure or entity. A source nobody cites is either a
leftover or a figure that forgot to cite it; either way the sources page would list it for
nothing."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Source
from .base import Check, Context

UNUSED_SOURCE = Rule("refs-unused-source", "refs", "每个来源文件都必须至少被引用一次。")


def check_unused_sources(ctx: Context) -> Iterator[Diagnostic]:
    cited = ctx.kb.citations()
    for source in ctx.kb.of_type(Source):
        if source.id not in cited:
            yield UNUSED_SOURCE.report(source, ("id",),
                                       f"source {source.id!r} is cited by no figure or entity: cite it or remove the file")


RULES = (UNUSED_SOURCE,)
CHECKS: tuple[Check, ...] = (check_unused_sources,)
