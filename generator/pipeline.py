"""Validate, then render if the knowledge base passed: what `python -m generator build` and the
MkDocs hook run. Pages are only rendered from a knowledge base that every rule accepted."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from .diagnostics import Diagnostic
from .language import DEFAULT
from .render import render_site
from .repository import Repository
from .validate import Result, SpecFile, validate


def validate_and_render(files: list[SpecFile], early: list[Diagnostic] | None = None,
                        repository: Repository | None = None, today: dt.date | None = None,
                        languages: Sequence[str] = (DEFAULT,)) -> tuple[Result, dict[str, str] | None]:
    """`validate` followed, when it passes, by `render_site` in each of `languages`; no pages
    when it fails."""
    result = validate(files, early, today=today)
    if not result.ok or result.kb is None or result.figures is None:
        return result, None
    return result, render_site(result.kb, result.figures, repository, languages)
