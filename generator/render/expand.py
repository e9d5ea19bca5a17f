"""Figure references in hand-written pages: `[[entity#figure]]` or `[[entity#figure UNIT]]`
becomes the figure with its unit, direction and a link to its source, so narrative text can
never drift from the knowledge base. Which parts of a page are text is decided by
generator.markdown_scan (code is left alone); what is inserted is escaped for Markdown, so a
source title cannot cut a table cell or escape the next character, and inside link text a
figure is inserted without a link of its own."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..derive import FigureIndex
from ..diagnostics import Diagnostic, Rule
from ..figure_format import in_unit, with_unit
from ..figure_refs import Reference, line_col
from ..labels import DIRECTION_ZH
from ..language import Bilingual, say
from ..markdown_scan import scan_markdown
from ..rules.quantity_units import DIMENSION
from ..rules.text_figures import MALFORMED_REF, UNKNOWN_FIGURE
from ..units import DERIVED_UNITS, UNITS
from .text import md

# (labels.py is becoming bilingual on its own; until then the English is here, same keys.)
DIRECTION = Bilingual(zh=DIRECTION_ZH, en={"per_direction": "per direction", "bidirectional": "bidirectional total",
                                           "aggregate": "aggregate"})


def expand_figures(markdown: str, figures: FigureIndex, source_titles: Mapping[str, tuple[str, str]], page: str,
                   depth: int = 0, first_line: int = 1) -> tuple[str, list[Diagnostic]]:
    """Expand every reference outside code; malformed and unknown ones become diagnostics.
    `first_line` is the line of the page file that `markdown` starts on (after front matter)."""
    scan = scan_markdown(markdown)
    problems: list[Diagnostic] = []
    parts: list[str] = []
    last = 0
    for found in scan.found:
        line, col = line_col(markdown, found.start, first_line)
        if not isinstance(found, Reference):
            problems.append(MALFORMED_REF.at(page, line, col, found.message))
            continue
        shown, problem = _shown(found, figures, source_titles, depth, linked=not scan.in_link_text(found))
        if problem is not None:
            rule, message = problem
            problems.append(rule.at(page, line, col, message))
            continue
        parts += [markdown[last:found.start], shown]
        last = found.end
    parts.append(markdown[last:])
    return "".join(parts), problems


BLOCK_MARKER = re.compile(r"^<!-- data: ([a-z-]+) -->$", re.M)


def expand_blocks(markdown: str, blocks: Mapping[str, str]) -> tuple[str, list[str]]:
    """Replace each line `<!-- data: NAME -->` of a hand-written page with the generated block
    NAME (HTML computed from the knowledge base, e.g. the provenance summary on the home page);
    returns the page and the names that are not known (left in place, reported by the caller)."""
    unknown: list[str] = []

    def block(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in blocks:
            unknown.append(name)
            return match.group(0)
        return blocks[name]

    return BLOCK_MARKER.sub(block, markdown), unknown


def body_first_line(source: str, body: str) -> int:
    """The line of `source` (a page file) on which `body` (its Markdown after MkDocs took the
    front matter off) starts; 1 when it cannot tell."""
    return source.count("\n", 0, len(source) - len(body)) + 1 if body and source.endswith(body) else 1


def _shown(ref: Reference, figures: FigureIndex, source_titles: Mapping[str, tuple[str, str]], depth: int,
           linked: bool) -> tuple[str, tuple[Rule, str] | None]:
    """The Markdown a reference becomes, or the (rule, message) of why it cannot be shown."""
    figure = figures.get(ref.ref)
    if figure is None:
        return "", (UNKNOWN_FIGURE, f"no figure {ref.ref!r} in the knowledge base")
    if ref.unit is not None:
        table = UNITS if ref.unit in UNITS else DERIVED_UNITS
        if table[ref.unit].dimension != figure.dimension:
            return "", (DIMENSION,
                        f"{ref.ref} cannot be shown in {ref.unit!r} ({figure.dimension.replace('_', ' ')})")
    value, shown_unit, direction = in_unit(figure, ref.unit)
    text = with_unit(value, shown_unit)
    if direction is not None and direction in DIRECTION:
        text += say("（{}）", " ({})").format(DIRECTION[direction])
    if linked and figure.source and figure.source in source_titles:
        title, page = source_titles[figure.source]
        target = "../" * depth + f"{page}.md#src-{figure.source}"
        return f'[{md(text)}]({target} "{say("来源：", "Source: ")}{md(title)}")', None
    return str(md(text)), None
