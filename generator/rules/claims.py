"""claims: every numeric statement of the articles is recomputed from the data. The verdict in
the file must equal the computed one, so an edit to a figure that a claim uses cannot pass
silently: either the verdict still holds or the claim file is flagged."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..derive import FigureIndex
from ..diagnostics import DataPath, Diagnostic, Rule
from ..figures import Figure
from ..knowledge import KnowledgeBase, Loaded
from ..load.schema_rules import VALUE
from ..model.entities import AssessedCheck, BoundCheck, Claim, RangeCheck, RatioExpr, ValueCheck
from ..units import UNITS, fmt_number, from_base, other_bit_byte_unit, to_base
from .base import Check, Context
from .quantity_units import UNKNOWN_UNIT
from .text_figures import UNKNOWN_FIGURE

VERDICT = Rule("claims-verdict", "claims",
               "文章论断的结论（confirmed/approximate/corrected/unsupported）必须等于按数据重新计算的结论。")
UNIT_MISMATCH = Rule("claims-unit-mismatch", "claims", "论断写出的单位必须与被比较数字的量纲一致。")
DIRECTION_MISMATCH = Rule("claims-direction-mismatch", "claims", "求比值前两边的方向必须一致（双向对双向，单向对单向）。")


@dataclass(frozen=True)
class Value:
    """An evaluated expression: base-unit value, dimension, and how to show it."""

    value: Fraction
    dimension: str
    text: str


@dataclass(frozen=True)
class Outcome:
    verdict: str
    stated: str
    actual: str
    deviation_pct: float | None


class _Problem(Exception):
    """A claim that cannot be evaluated; `diagnostic` is None when the cause is reported elsewhere."""

    def __init__(self, diagnostic: Diagnostic | None) -> None:
        self.diagnostic = diagnostic


def evaluate_claim(ctx: Context, entity: Loaded[Claim]) -> Outcome:
    """The verdict the data gives for one claim; raises _Problem for a claim that cannot be
    evaluated (the claims rule reports it). Pure: the rule and `claim_outcome` both call it."""
    claim = entity.model
    check = claim.check
    if isinstance(check, ValueCheck):
        actual = _evaluate(ctx, entity, check.actual, ("check", "actual"))
        stated = _stated(ctx, entity, check.stated.value, check.stated.unit, actual, ("check", "stated", "unit"))
        dev = _deviation(stated, actual.value)
        return Outcome(_grade(claim, dev), _show(check.stated.value, check.stated.unit), actual.text, dev)
    if isinstance(check, RangeCheck):
        low = _evaluate(ctx, entity, check.low, ("check", "low"))
        high = _evaluate(ctx, entity, check.high, ("check", "high"))
        unit, s = check.stated.unit, check.stated
        lo = _stated(ctx, entity, s.low, unit, low, ("check", "stated", "unit"))
        hi = _stated(ctx, entity, s.high, unit, high, ("check", "stated", "unit"))
        dev = max(_deviation(lo, low.value), _deviation(hi, high.value))
        return Outcome(_grade(claim, dev), f"{fmt_number(s.low)}–{_show(s.high, unit)}", f"{low.text} – {high.text}", dev)
    if isinstance(check, BoundCheck):
        actual = _evaluate(ctx, entity, check.actual, ("check", "actual"))
        b = check.stated
        limit = _stated(ctx, entity, b.value, b.unit, actual, ("check", "stated", "unit"))
        holds = actual.value < limit if b.bound == "below" else actual.value > limit
        sign = "<" if b.bound == "below" else ">"
        return Outcome("confirmed" if holds else "corrected", f"{sign} {_show(b.value, b.unit)}", actual.text, None)
    if isinstance(check, AssessedCheck):
        # No figure decides it: the verdict is the editor's reading of the evidence (what that
        # evidence is worth is the claims-basis rule's business).
        return Outcome(claim.verdict, "", "", None)
    return Outcome("unsupported", "", "", None)


def claim_outcome(kb: KnowledgeBase, figures: FigureIndex, claim_id: str) -> Outcome | None:
    """The verdict the data gives for one claim, for what shows or compares verdicts outside the
    rules (the claims page, `generator diff`): None when `claim_id` is not a claim or the claim
    cannot be evaluated (the claims rule reports why). Pure: no memo, no diagnostics."""
    entity = kb.get(claim_id, Claim)
    if entity is None:
        return None
    try:
        return evaluate_claim(Context(kb, figures), entity)
    except _Problem:
        return None


def check_claims(ctx: Context) -> Iterator[Diagnostic]:
    broken_by_figure: dict[str, list[str]] = {}
    for entity in ctx.kb.of_type(Claim):
        try:
            outcome = evaluate_claim(ctx, entity)
        except _Problem as problem:
            if problem.diagnostic is not None:
                yield problem.diagnostic
            continue
        claim = entity.model
        if outcome.verdict != claim.verdict:
            yield VERDICT.report(entity, ("verdict",), _verdict_message(claim, outcome))
            for ref in _operands(claim):
                broken_by_figure.setdefault(ref, []).append(f"{entity.id} ({claim.verdict} → {outcome.verdict})")
    yield from _at_operands(ctx, broken_by_figure)


def operands(claim: Claim) -> list[str]:
    """The figure references a claim's check compares (none for an unverifiable or assessed one)."""
    return _operands(claim)


def _operands(claim: Claim) -> list[str]:
    check = claim.check
    exprs = [check.low, check.high] if isinstance(check, RangeCheck) else \
        [check.actual] if isinstance(check, (ValueCheck, BoundCheck)) else []
    refs: list[str] = []
    for expr in exprs:
        if isinstance(expr, str):
            refs.append(expr)
        elif isinstance(expr, RatioExpr):
            refs.extend(expr.ratio)
    return refs


def _at_operands(ctx: Context, broken_by_figure: dict[str, list[str]]) -> Iterator[Diagnostic]:
    """A figure edit that overturns a claim is also reported where the figure is written, so the
    contributor who changed it sees it at their line."""
    for ref, claims in sorted(broken_by_figure.items()):
        figure = ctx.figures.get(ref)
        if figure is None or figure.path is None:
            continue
        entity = ctx.kb.entities[figure.entity]
        suffix = ("value",) if figure.dimension != "count" else ()
        yield VERDICT.report(entity, figure.path + suffix,
                             f"{figure.name} = {_figure_text(figure)} is used by {len(claims)} claim(s) whose verdict "
                             f"no longer holds: {', '.join(sorted(claims))}; check this figure or update the claims")


def _verdict_message(claim: Claim, outcome: Outcome) -> str:
    if outcome.verdict == "unsupported":
        return f"verdict is {claim.verdict!r} but an unverifiable claim can only be 'unsupported'"
    text = f"verdict is {claim.verdict!r} but the data gives {outcome.verdict!r}: stated {outcome.stated}, data {outcome.actual}"
    if outcome.deviation_pct is not None:
        text += (f" (off by {outcome.deviation_pct:.1f}%; confirmed within {claim.tolerance_pct:g}%, "
                 f"approximate within {claim.approximate_pct:g}%)")
    if isinstance(claim.check, ValueCheck):
        other = other_bit_byte_unit(claim.check.stated.unit)
        if other is not None and outcome.verdict == "corrected":
            text += f"; the figure matches if read as {fmt_number(claim.check.stated.value)} {other}?"
    return text


def _grade(claim: Claim, deviation: float) -> str:
    if deviation <= claim.tolerance_pct:
        return "confirmed"
    return "approximate" if deviation <= claim.approximate_pct else "corrected"


def _deviation(stated: Fraction, actual: Fraction) -> float:
    if actual == 0:
        return 0.0 if stated == 0 else float("inf")
    return float(abs(stated - actual) / abs(actual) * 100)


def _show(value: float, unit: str) -> str:
    return f"{fmt_number(value)} {unit}"


def _stated(ctx: Context, entity: Loaded[Claim], value: float, unit: str, actual: Value, path: DataPath) -> Fraction:
    info = UNITS.get(unit)
    if info is None:
        raise _Problem(UNKNOWN_UNIT.report(entity, path, f"unknown unit {unit!r}"))
    if info.dimension != actual.dimension:
        raise _Problem(UNIT_MISMATCH.report(entity, path,
                                            f"stated in {unit!r} ({info.dimension.replace('_', ' ')}) but the data is "
                                            f"{actual.dimension.replace('_', ' ')}: {actual.text}"))
    return to_base(value, unit)


def _evaluate(ctx: Context, entity: Loaded[Claim], expr: str | RatioExpr, path: DataPath) -> Value:
    if isinstance(expr, str):
        fig = _figure(ctx, entity, expr, path)
        return Value(fig.value, fig.dimension, _figure_text(fig))
    num = _figure(ctx, entity, expr.ratio[0], path + ("ratio", 0))
    den = _figure(ctx, entity, expr.ratio[1], path + ("ratio", 1))
    if num.dimension != den.dimension:
        raise _Problem(UNIT_MISMATCH.report(entity, path + ("ratio",),
                                            f"cannot divide {num.dimension} ({num.ref}) by {den.dimension} ({den.ref})"))
    if num.dimension == "data_rate" and num.direction != den.direction:
        raise _Problem(DIRECTION_MISMATCH.report(entity, path + ("ratio",),
                                                 f"{num.ref} is {num.direction} but {den.ref} is {den.direction}: "
                                                 "compare like with like (pick the figures with the same direction)"))
    if den.value == 0:
        raise _Problem(VALUE.report(entity, path + ("ratio", 1), f"{den.ref} is zero"))
    ratio = num.value / den.value
    return Value(ratio, "ratio", f"{_figure_text(num)} ÷ {_figure_text(den)} = {fmt_number(ratio)}x")


def _figure(ctx: Context, entity: Loaded[Claim], ref: str, path: DataPath) -> Figure:
    fig = ctx.figures.get(ref)
    if fig is None:
        target, _, name = ref.partition("#")
        if ctx.figures.unusable(target):
            raise _Problem(None)  # its units error is reported where it is written
        names = ctx.figures.names(target)
        if not names:
            raise _Problem(UNKNOWN_FIGURE.report(entity, path, f"{ref!r}: no entity {target!r}"))
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {target}#{close[0]}?" if close else f"its figures: {', '.join(names[:12])}"
        raise _Problem(UNKNOWN_FIGURE.report(entity, path, f"{target!r} has no figure {name!r}; {hint}"))
    return fig


def _figure_text(fig: Figure) -> str:
    shown = from_base(fig.value, fig.unit) if fig.unit in UNITS else fig.value
    direction = f" {fig.direction}" if fig.direction else ""
    return f"{fmt_number(shown)} {fig.unit}{direction} ({fig.ref})".replace("  ", " ")


RULES = (VERDICT, UNIT_MISMATCH, DIRECTION_MISMATCH)
CHECKS: tuple[Check, ...] = (check_claims,)
