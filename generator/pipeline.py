"""Validate and render in one go, for the commands that need both (`build`, the MkDocs hook).

On a big knowledge base the pages are rendered while the rules run: a helper process starts on
its share of the pages as soon as the knowledge base has loaded, and its work is thrown away if a
rule then fails. Rendering an unchecked knowledge base is harmless there (render is pure, and
the helper is stopped, even mid-loop, when the rules fail); the pages are only ever used when
every rule passed.
"""

from __future__ import annotations

from .diagnostics import Diagnostic
from .gcpause import without_cycle_collection
from .render import PendingRender
from .render.context import Site
from .validate import Built, Result, SpecFile, check, load


@without_cycle_collection
def validate_and_render(files: list[SpecFile], early: list[Diagnostic] | None = None,
                        memo: dict[SpecFile, Built] | None = None) -> tuple[Result, dict[str, str] | None]:
    """The same as `validate` followed, when it passes, by `render_site`."""
    loaded = load(files, early, memo)
    if loaded.kb is None or loaded.figures is None:
        return loaded, None
    pending = PendingRender(Site(loaded.kb, loaded.figures))
    try:
        result = Result(loaded.kb, loaded.figures, check(loaded.kb, loaded.figures))
    except BaseException:
        pending.cancel()
        raise
    if not result.ok:
        pending.cancel()
        return result, None
    return result, pending.finish()
