"""sources: a source's link is a plain http(s) address (pages print it as a link, so no
javascript: or data: scheme, and nothing that could leave an HTML attribute), and every source
but an article or a measurement has one: a reader must be able to check the figure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic
from ..model.entities import Source
from .base import Check, Context, Rule

URL_SCHEME = Rule("sources-url-scheme", "sources", "来源链接只能是 http(s) 地址。")
URL_MISSING = Rule("sources-url-missing", "sources", "除文章外，每个来源都必须有链接（只经副本读到的来源可以只给副本的链接）。")

_UNSAFE = re.compile(r"[\s<>\"'`\\\x00-\x1f\x7f]")


def url_is_safe(url: str) -> bool:
    """http(s) with a host, and no character that could break out of an HTML attribute."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not _UNSAFE.search(url)


def check_source_urls(ctx: Context) -> Iterator[Diagnostic]:
    for source in ctx.kb.of_type(Source):
        url = source.model.url
        copy = source.model.via
        if url is None:
            # A document read only through a copy may have no address of its own that could be
            # opened: the copy's address is then the one a reader can check.
            if source.model.kind not in ("article", "measurement") and copy is None:
                yield URL_MISSING.report(source, ("id",),
                                         f"a {source.model.kind} source needs a `url` (only articles may lack one)")
        elif not url_is_safe(url):
            yield URL_SCHEME.report(source, ("url",), f"url {url[:80]!r} is not a plain http(s) address")
        if copy is not None and not url_is_safe(copy.url):
            yield URL_SCHEME.report(source, ("via", "url"), f"url {copy.url[:80]!r} is not a plain http(s) address")


RULES = (URL_SCHEME, URL_MISSING)
CHECKS: tuple[Check, ...] = (check_source_urls,)
