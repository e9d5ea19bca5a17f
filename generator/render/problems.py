"""What `mkdocs serve` shows instead of failing: a knowledge base that does not validate gets a
page listing every diagnostic (file:line:col, severity, message, rule) in place of each generated
page, and a hand-written page whose figure references do not resolve gets the same list at its
top. Diagnostics quote spec text, which is hostile: every part is escaped and Markdown-inert."""

from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import Diagnostic
from ..labels import DIAGNOSTIC_SEVERITY as SEVERITY
from . import PAGES, _template, environment
from .text import inert

# (labels.py is becoming bilingual on its own; until then the English is here, same keys.)


def _rows(diagnostics: Iterable[Diagnostic]) -> list[dict[str, object]]:
    return [{"where": inert(f"{d.path}:{d.line}:{d.col}"), "severity": SEVERITY[d.severity.value],
             "warning": d.severity.value == "warning",
             "message": inert(" ".join(d.message.split())), "rule": inert(d.rule)}
            for d in sorted(set(diagnostics))]


def problems_banner(diagnostics: Iterable[Diagnostic]) -> str:
    """The list of problems as a block for the top of a page (Markdown holding one HTML block)."""
    return environment().get_template(_template("problems.md")).render(page=False, problems=_rows(diagnostics))


def problems_pages(diagnostics: Iterable[Diagnostic]) -> dict[str, str]:
    """Every generated page (by path) replaced by the page that lists the problems."""
    page = environment().get_template(_template("problems.md")).render(page=True, problems=_rows(diagnostics))
    return dict.fromkeys(PAGES, page)
