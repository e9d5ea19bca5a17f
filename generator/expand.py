"""Figure references in hand-written pages: `[[entity#figure]]` or `[[entity#figure UNIT]]`
becomes the figure with its unit, direction and a link to its source, so narrative text can
never drift from the knowledge base. Fenced code blocks are left alone."""

from __future__ import annotations

import re

from .derive import FigureIndex
from .diagnostics import Diagnostic
from .figure_text import FIGURE_REF
from .render.text import DIRECTION_ZH, in_unit, md, with_unit
from .units import DERIVED_UNITS, UNITS

_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def expand_figures(markdown: str, figures: FigureIndex, source_titles: dict[str, str], page: str,
                   depth: int = 0) -> tuple[str, list[Diagnostic]]:
    """Expand every reference outside fenced code; unknown ones become diagnostics."""
    fences = _fenced_ranges(markdown)
    problems: list[Diagnostic] = []

    def replace(match: re.Match[str]) -> str:
        if any(start <= match.start() < end for start, end in fences):
            return match.group(0)
        return _one(match, markdown, figures, source_titles, page, depth, problems)

    return FIGURE_REF.sub(replace, markdown), problems


def _fenced_ranges(markdown: str) -> list[tuple[int, int]]:
    marks = [m.start() for m in _FENCE.finditer(markdown)]
    if len(marks) % 2:  # an unclosed fence runs to the end
        marks.append(len(markdown))
    return list(zip(marks[::2], marks[1::2], strict=True))


def _one(match: re.Match[str], whole: str, figures: FigureIndex, source_titles: dict[str, str], page: str,
         depth: int, problems: list[Diagnostic]) -> str:
    ref, unit = match.group(1), match.group(2)
    figure = figures.get(ref)
    position = match.start()
    line = whole.count("\n", 0, position) + 1
    col = position - (whole.rfind("\n", 0, position) + 1) + 1
    if figure is None:
        problems.append(Diagnostic(page, line, col, "refs-unknown-figure", f"no figure {ref!r} in the knowledge base"))
        return match.group(0)
    if unit is not None:
        table = UNITS if unit in UNITS else DERIVED_UNITS
        if unit not in table or table[unit].dimension != figure.dimension:
            problems.append(Diagnostic(page, line, col, "units-dimension",
                                       f"{ref} cannot be shown in {unit!r} ({figure.dimension.replace('_', ' ')})"))
            return match.group(0)
    value, shown_unit, direction = in_unit(figure, unit)
    text = with_unit(value, shown_unit)
    if direction in DIRECTION_ZH:
        text += f"（{DIRECTION_ZH[direction]}）"
    if figure.source and figure.source in source_titles:
        target = "../" * depth + f"sources.md#src-{figure.source}"
        # Python-Markdown escapes a title into the attribute itself; only a quote could end it early.
        title = " ".join(source_titles[figure.source].replace('"', "'").split())
        return f'[{md(text)}]({target} "来源：{title}")'
    return str(md(text))
