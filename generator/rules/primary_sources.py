"""sources: a hardware figure (of a GPU, an interconnect, a network) cites a primary source: a
datasheet, a standard or the vendor's documentation. An article's figure is recorded as a claim
about the hardware, with a verdict, never as the hardware's figure (DESIGN.md section 2)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.common import Count, Price, Quantity
from ..model.entities import Source
from .base import Check, Context

NOT_PRIMARY = Rule("sources-not-primary", "sources", "硬件规格数字必须引用一手来源（数据手册、标准、厂商文档），不能引用文章。")

_HARDWARE_KINDS = {"gpus", "interconnects", "networks"}


def check_primary_figures(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        if entity.kind not in _HARDWARE_KINDS:
            continue
        for path, value, _marks in entity.nodes:
            if not isinstance(value, (Quantity, Count)) or isinstance(value, Price):
                continue
            source = ctx.kb.get(value.source, Source)
            if source is not None and source.model.kind == "article":
                yield NOT_PRIMARY.report(entity, path + ("source",),
                                         f"hardware figure cites the article {value.source!r}: cite a datasheet, standard "
                                         "or vendor document, and record the article's figure as a claim")


RULES = (NOT_PRIMARY,)
CHECKS: tuple[Check, ...] = (check_primary_figures,)
