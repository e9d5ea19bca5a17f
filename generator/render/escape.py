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


# What a terminal acts on instead of showing, or what a stream cannot encode:
# - C0 controls but tab and newline (ESC opens every ANSI sequence, BEL ends an OSC one that
#   retitles the window, CR and BS overwrite what is already on the line), DEL, and C1 controls
#   (U+009B is a one-character CSI on some terminals), however a spec wrote them: YAML's escapes
#   ("\e", "\x9b", "\a") pass the byte check of the file and give the same characters;
# - bidi embeddings, overrides and isolates, which reorder what a terminal shows ("Trojan Source");
# - surrogates: a file name's undecodable bytes (os.listdir's surrogateescape lists the file
#   b"\xff.yaml" as "\udcff.yaml"), which a UTF-8 stream with strict errors refuses to write.
_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def terminal(text: str) -> str:
    """Text for standard output or error, the one escape everything the command line prints goes
    through (generator/edge/output.py): each character of `_TERMINAL` written as `\\uXXXX`,
    visible and inert. The same escape serves text and JSON alike: in the JSON the commands print
    (`json.dumps`, which already writes C0 controls as `\\u00XX`) such a character can only stand
    inside a string, where `\\uXXXX` is its own JSON escape, so the output stays valid JSON and
    reads back to the same text: a surrogate to the same surrogate, which os.fsencode turns back
    into the file name's bytes (but a high surrogate just before a low one, which JSON reads as
    the one character the pair encodes; surrogateescape only ever gives low ones)."""
    return _TERMINAL.sub(_unicode_escape, text)


def _unicode_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"
