"""Figures in spec text: prose references figures (`[[entity#figure]]`) instead of typing them,
except where a field records what a source said (`Quote`); every reference resolves."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..figure_refs import Malformed, find_references
from ..figure_text import typed_figures
from ..knowledge import Loaded
from ..model.common import Identified, Quote, Text
from ..units import DERIVED_UNITS, UNITS
from .base import Context, report


def check_text_figures(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Text):
                continue
            for lang, text in (("zh", value.zh), ("en", value.en)):
                if not text:
                    continue
                where = path + (lang,)
                yield from _references(ctx, entity, where, text)
                if not any(isinstance(m, Quote) for m in marks):
                    typed = typed_figures(text)
                    if typed:
                        yield report(entity, where, "text-typed-figure",
                                     f"typed figure {typed[0]!r} in prose: reference it as [[entity#figure]] "
                                     "(the build shows it with unit, direction and source), or leave it out")


def _references(ctx: Context, entity: Loaded[Identified], where: tuple[str | int, ...], text: str) -> Iterator[Diagnostic]:
    for found in find_references(text):  # spec text is escaped, never read as Markdown: no code in it
        if isinstance(found, Malformed):
            yield report(entity, where, "text-figure-ref-malformed", found.message)
            continue
        ref, unit = found.ref, found.unit
        figure = ctx.figures.get(ref)
        if figure is None and ctx.figures.unusable(ref.partition("#")[0]):
            continue  # the figure's unit is wrong; that is reported where it is written
        if figure is None:
            yield report(entity, where, "refs-unknown-figure", f"text references {ref!r}, which is not a figure")
        elif unit is not None:
            table = UNITS if unit in UNITS else DERIVED_UNITS
            if table[unit].dimension != figure.dimension:
                yield report(entity, where, "units-dimension",
                             f"text shows {ref} in {unit!r}, which is not a unit of {figure.dimension.replace('_', ' ')}")
