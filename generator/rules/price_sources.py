"""sources: a price is dated (`as_of`) and cites an estimate, an article or a vendor's dated
announcement. Vendors publish no list price for data-center GPUs in their datasheets, so a
price citing one is invented precision (DESIGN.md section 2)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.common import Price
from ..model.entities import Source
from .base import Check, Context

PRICE = Rule("sources-price", "sources", "价格必须带日期，并引用估算、文章或厂商公告类来源。")

_PRICE_KINDS = {"estimate", "article", "documentation", "press"}


def check_prices(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, _marks in entity.nodes:
            if isinstance(value, Price):
                source = ctx.kb.get(value.source, Source)
                if source is not None and source.model.kind not in _PRICE_KINDS:
                    yield PRICE.report(entity, path + ("source",),
                                       f"a price cites a {source.model.kind}: vendors publish no list price in "
                                       "datasheets; cite an estimate, an article or a dated announcement")


RULES = (PRICE,)
CHECKS: tuple[Check, ...] = (check_prices,)
