"""sources: links are plain http(s); hardware figures cite primary sources; prices are dated and
come from an estimate, an article or a vendor announcement."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic
from ..model.common import Count, Price, Quantity
from ..model.entities import Source
from .base import Context, report

_PRIMARY_KINDS = {"sources", "gpus", "interconnects", "networks"}
_PRICE_KINDS = {"estimate", "article", "documentation"}
_UNSAFE = re.compile(r"[\s<>\"'`\\\x00-\x1f\x7f]")


def url_is_safe(url: str) -> bool:
    """http(s) with a host, and no character that could break out of an HTML attribute."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not _UNSAFE.search(url)


def check_source_urls(ctx: Context) -> Iterator[Diagnostic]:
    for source in ctx.kb.of_type(Source):
        url = source.model.url
        if url is None:
            if source.model.kind not in ("article", "measurement"):
                yield report(source, ("id",), "sources-url-missing",
                             f"a {source.model.kind} source needs a `url` (only articles may lack one)")
        elif not url_is_safe(url):
            yield report(source, ("url",), "sources-url-scheme",
                         f"url {url[:80]!r} is not a plain http(s) address")


def check_primary_figures(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        if entity.kind not in _PRIMARY_KINDS - {"sources"}:
            continue
        for path, value, _marks in entity.nodes:
            if not isinstance(value, (Quantity, Count)) or isinstance(value, Price):
                continue
            source = ctx.kb.get(value.source, Source)
            if source is not None and source.model.kind == "article":
                yield report(entity, path + ("source",), "sources-not-primary",
                             f"hardware figure cites the article {value.source!r}: cite a datasheet, standard "
                             "or vendor document, and record the article's figure as a claim")


def check_prices(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, _marks in entity.nodes:
            if isinstance(value, Price):
                source = ctx.kb.get(value.source, Source)
                if source is not None and source.model.kind not in _PRICE_KINDS:
                    yield report(entity, path + ("source",), "sources-price",
                                 f"a price cites a {source.model.kind}: vendors publish no list price in "
                                 "datasheets; cite an estimate, an article or a dated announcement")
