"""Glossary tooltips on first use only.

includes/abbreviations.md is appended to every page, so Python-Markdown's `abbr` extension wraps
every occurrence of a term in `<abbr title="...">`, repeating the whole explanation each time: on
the sources page that was a quarter of the HTML, and every repeat draws the dotted underline.
A term is explained where a page first uses it, as print does; later uses stay `<abbr>` (the same
element, so styles and screen readers still see an abbreviation) without the title.
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
            return f"<abbr>{term}</abbr>"
        seen.add(term)
        return match.group(0)

    return _ABBR.sub(keep_first, html)
