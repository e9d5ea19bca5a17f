"""The one place spec text and spec URLs are escaped for the page, one function per context.

Spec text is untrusted: it may hold Markdown, attr_list blocks (`{: onclick=... }`), HTML, or
Jinja syntax. Generated pages are Markdown with HTML blocks inside, and MkDocs reads them after
us, so every function below makes its output inert in both languages at once:

- `md_inline`: running Markdown text (headings, list items, paragraphs);
- `md_cell`: a cell of a Markdown pipe table (as `md_inline`: `|` is escaped there too);
- `html_text`: text inside an HTML element, which may itself sit in a Markdown line;
- `attr`: an HTML attribute value (always written inside double quotes by the caller);
- `link`: a whole `<a href>` for a source URL, or plain text if the URL is not a safe one.

Nothing here is ever spliced into Markdown link or attribute syntax (`[..](..)`, `{: ..}`):
URLs only ever become the value of an `href` written through `attr`.
"""

from __future__ import annotations

import re

from markupsafe import Markup

from ..rules.source_urls import url_is_safe

_SPACE = re.compile(r"\s+")
# Every ASCII punctuation mark that Markdown or a pymdownx extension could read, except &, < and
# >, which become HTML entities instead (an entity is inert in Markdown).
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~^=:\"'$%@/;,?])")


def md_inline(text: object) -> Markup:
    """Plain text for a Markdown context: HTML-escaped, then every ASCII punctuation mark
    backslash-escaped (with pymdownx.escapeall every such escape is literal); line breaks become
    spaces (a heading or list item stays one line)."""
    plain = _SPACE.sub(" ", str(text))
    escaped = _MD_SPECIAL.sub(r"\\\1", plain)
    return Markup(escaped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def md_cell(text: object) -> Markup:
    """Text for a cell of a Markdown pipe table: `md_inline` already escapes `|` (the cell
    separator) and a trailing `\\` (which would escape the separator after it)."""
    return md_inline(text)


# One pass, character by character: HTML's own five characters become entities, and every
# character Markdown or an extension could act on a numeric character reference.
_INERT = str.maketrans({
    **{ch: f"&#{ord(ch)};" for ch in "\\`*_{}[]()#+-.!|~^=:$@%"},
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;",
})
# Control characters other than tab and line breaks (C0, DEL, C1) have no business on a page:
# HTML calls them parse errors; they are dropped.
_CONTROL = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)], None)


def html_text(text: object) -> Markup:
    """Spec text for an HTML fragment, also inert if the fragment lands in a Markdown context
    (a table of a hand-written page, a list item): HTML-escaped, and every character Markdown or
    an extension could act on written as a numeric character reference (shown identically,
    parsed by nothing)."""
    return Markup(str(text).translate(_CONTROL).translate(_INERT))


def attr(value: object) -> Markup:
    """A value for a double-quoted HTML attribute: the same references as `html_text`, so the
    quote cannot close the attribute, and `|` or a trailing `\\` cannot cut a Markdown table
    the element sits in."""
    return html_text(value)


def link(url: str | None, text: object | None = None) -> Markup:
    """An external link to a source: the URL (checked again: a page never links to an address
    the rules would refuse) as an escaped `href`, the text (the URL itself by default) escaped.
    An unsafe or missing URL gives its text alone, unlinked."""
    shown = html_text(url if text is None else text) if (url or text is not None) else Markup("")
    if not url or not url_is_safe(url):
        return shown
    return Markup('<a href="{}" rel="noopener noreferrer">{}</a>').format(attr(url), shown)


# Kept under their historical names: `md` for Markdown text, `inert` for HTML text.
md = md_inline
inert = html_text


# C0 controls but tab and newline, DEL, and C1 controls (U+009B is a one-character CSI on some
# terminals): what lets text move the cursor, clear the screen or retitle the window.
_TERMINAL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


def terminal(text: str) -> str:
    """Text for a terminal (`python -m generator recommend`): control characters, and so every
    ANSI escape sequence's introducer, removed; the rest of a sequence is shown as harmless text."""
    return _TERMINAL.sub("", text)


def json_terminal(text: str) -> str:
    """JSON for a terminal: `json.dumps` leaves C1 controls and DEL raw; written as \\u escapes
    they read back the same and do nothing on screen."""
    return re.sub(r"[\x7f\x80-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)
