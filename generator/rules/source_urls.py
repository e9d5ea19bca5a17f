"""sources: a source's link is a plain http(s) address, and every source but an article or a
measurement has one: a reader must be able to check the figure.

The address is parsed (urllib), not pattern-matched: the scheme must be http or https, there
must be a host (and a numeric port, if any), and no user name or password (an address that
logs in as someone is either a leaked secret or a phishing disguise: `https://nvidia.com@evil`).
Its characters are those of RFC 3986 minus the ones Markdown or a Markdown extension reads
(`[ ] ( ) * ! '`): anything else – whitespace, control characters, quotes, angle brackets,
braces, non-ASCII – must be percent-encoded. Pages escape the address anyway
(generator/render/escape.py); the rule keeps what reaches them boring and copyable.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import SplitResult, urlsplit

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Source
from .base import Check, Context

URL_SCHEME = Rule("sources-url-scheme", "sources", "来源链接只能是 http 或 https 地址。")
URL_HOST = Rule("sources-url-host", "sources", "来源链接必须带主机名，端口（如有）必须是数字。")
URL_CREDENTIALS = Rule("sources-url-credentials", "sources", "来源链接不能带用户名或密码。")
URL_CHARACTERS = Rule("sources-url-characters", "sources",
                      "来源链接不能含空白、控制字符、非 ASCII 字符或 Markdown 会解读的字符，这些字符须先百分号编码。")
URL_MISSING = Rule("sources-url-missing", "sources", "除文章外，每个来源都必须有链接（只经副本读到的来源可以只给副本的链接）。")

# RFC 3986 unreserved and reserved characters and `%`, without the ones Markdown or an enabled
# extension acts on inside a line: brackets and parentheses (links), `*` (emphasis), `!`
# (images), `'` (attribute quoting). `_`, `~`, `+`, `&`, `=`, `;`, `$` stay: real datasheet
# addresses use them, and escaping on output makes them harmless.
_ALLOWED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@$&+,;=%")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# A host name or an IPv4 address: letters, digits, dots and hyphens (an IDN is written as punycode).
_HOST = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$")


def _describe(ch: str) -> str:
    """A character named so that an invisible one is visible in the message."""
    name = unicodedata.name(ch, "") or unicodedata.category(ch)
    return f"U+{ord(ch):04X} {name}".strip()


def url_problems(url: str) -> list[tuple[Rule, str]]:
    """What is wrong with `url` as a source link, as (rule, message) pairs: nothing more once
    the scheme is wrong (the rest of a `javascript:` address is not worth a second message)."""
    try:
        parts: SplitResult = urlsplit(url)
    except ValueError as err:  # an unbalanced `[` in the host
        return [(URL_HOST, f"the url does not parse: {err}")]
    if parts.scheme.lower() not in ("http", "https"):
        shown = f"`{parts.scheme}:`" if parts.scheme else "missing"
        return [(URL_SCHEME, f"the url's scheme is {shown}; only http and https are allowed")]
    found: list[tuple[Rule, str]] = []
    if parts.username is not None or parts.password is not None:
        found.append((URL_CREDENTIALS, "the url carries a user name or password (`user@` before the host); remove it"))
    host = parts.hostname or ""
    if not _HOST.match(host):
        found.append((URL_HOST, "the url has no host name" if not host else f"the url's host {host[:60]!r} is not a host name"))
    else:
        try:
            port = parts.port
        except ValueError:
            port = -1
        if port is not None and not 0 < port < 65536:
            found.append((URL_HOST, "the url's port is not a number from 1 to 65535"))
    for index, ch in enumerate(url):
        if ch not in _ALLOWED:
            encoded = "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
            found.append((URL_CHARACTERS, f"character {index + 1} of the url ({_describe(ch)}) must be "
                                          f"percent-encoded as {encoded}"))
            break
    else:
        bad_percent = _PERCENT.search(url)
        if bad_percent:
            found.append((URL_CHARACTERS, f"character {bad_percent.start() + 1} of the url: `%` must start a "
                                          "%XX escape (write a literal % as %25)"))
    return found


def url_is_safe(url: str) -> bool:
    return not url_problems(url)


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
        else:
            for rule, message in url_problems(url):
                yield rule.report(source, ("url",), message)
        if copy is not None:  # the copy's address is printed as a link too: the same checks
            for rule, message in url_problems(copy.url):
                yield rule.report(source, ("via", "url"), message)


RULES = (URL_SCHEME, URL_HOST, URL_CREDENTIALS, URL_CHARACTERS, URL_MISSING)
CHECKS: tuple[Check, ...] = (check_source_urls,)
