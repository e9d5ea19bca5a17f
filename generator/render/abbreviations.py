"""Glossary tooltips on first use only.

includes/abbreviations.md is appended to every page, so Python-Markdown's `abbr` extension wraps
every occurrence of a term in `<abbr title="...">`, repeating the whole explanation each time: on
the sources page that was a quarter of the HTML, and every repeat draws the dotted underline.
A term is explained where a page first uses it, as print does; later uses are plain text (an
`<abbr>` without a title would still draw Material's dotted underline and help cursor, promising
a tooltip that is not there).
"""

from __future__ import annotations

import re

# The markup Python-Markdown's abbr extension writes: the title is already escaped by it.
_ABBR = re.compile(r'<abbr title="([^"]*)">([^<]*)</abbr>')


def first_use_only(html: str) -> str:
    seen: set[str] = set()

    def keep_first(match: re.Match[str]) -> str:
        term = match.group(2)
        if term in seen:
            return term
        seen.add(term)
        return match.group(0)

    return _ABBR.sub(keep_first, html)
