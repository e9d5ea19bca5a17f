"""Figures in prose. No figure on the site is typed by hand (DESIGN.md section 3): a text cites
one as `[[entity#figure]]`, which the build shows with its unit, direction and source, and which
must be well formed and name a figure that exists (in a unit of its dimension, if one is asked
for). Only texts
that record what a source said (`Quote`) may hold typed figures: the source's own words, which
are checked as claims."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..figure_refs import Malformed, find_references
from ..figure_text import typed_figures
from ..knowledge import Loaded
from ..model.common import Identified, Quote, Text
from ..units import DERIVED_UNITS, UNITS
from .base import Check, Context
from .quantity_units import DIMENSION

TYPED_FIGURE = Rule("text-typed-figure", "units",
                    "正文里不能手敲带单位的数字，要写成数字引用（entity#figure 的写法），构建时展开为带单位、方向和来源的数字；"
                    "只有记录来源原话的字段（论断原文、来源备注、实战现象、推荐原话）例外。")
UNKNOWN_FIGURE = Rule("refs-unknown-figure", "refs", "引用的数字（entity#figure）必须存在。")
MALFORMED_REF = Rule("text-figure-ref-malformed", "refs",
                     "代码之外的每一处双方括号都必须是合法的数字引用：全部小写、没有多余空格、没有零宽或双向控制字符、含 #，单位在单位表里。")


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
                        yield TYPED_FIGURE.report(entity, where,
                                                  f"typed figure {typed[0]!r} in prose: reference it as [[entity#figure]] "
                                                  "(the build shows it with unit, direction and source), or leave it out")


def _references(ctx: Context, entity: Loaded[Identified], where: tuple[str | int, ...], text: str) -> Iterator[Diagnostic]:
    for found in find_references(text):  # spec text is escaped, never read as Markdown: no code in it
        if isinstance(found, Malformed):
            yield MALFORMED_REF.report(entity, where, found.message)
            continue
        ref, unit = found.ref, found.unit
        figure = ctx.figures.get(ref)
        if figure is None and ctx.figures.unusable(ref.partition("#")[0]):
            continue  # the figure's unit is wrong; that is reported where it is written
        if figure is None:
            yield UNKNOWN_FIGURE.report(entity, where, f"text references {ref!r}, which is not a figure")
        elif unit is not None:
            table = UNITS if unit in UNITS else DERIVED_UNITS
            if table[unit].dimension != figure.dimension:
                yield DIMENSION.report(entity, where,
                                       f"text shows {ref} in {unit!r}, which is not a unit of {figure.dimension.replace('_', ' ')}")


RULES = (TYPED_FIGURE, UNKNOWN_FIGURE, MALFORMED_REF)
CHECKS: tuple[Check, ...] = (check_text_figures,)
