"""How a stated figure is judged against the figure derived from its inputs, for every rule that
compares the two (arithmetic_*.py, case_table.py): they must agree within the stated rounding.
When they do not, the message says what the value should be and, where the slip is
recognisable, names it by its own rule, declared here:

- units-bit-byte: the stated figure is the derived one in the other unit (Gb/s for GB/s);
- units-direction-slip: it is twice or half the derived one (both directions for one), when it
  is the only figure of its rule that is off (if the per-direction and the bidirectional rate
  are both off by two, an input changed);
- gpu-variant-mix: it is the figure of another variant of the same GPU family.

Anything else is reported under the rule that judges the figure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..diagnostics import Diagnostic, Rule
from ..figures import Figure
from ..knowledge import Loaded
from ..model.common import Identified
from ..model.entities import Gpu
from ..units import UNITS, convert_direction, fmt_number, from_base, other_bit_byte_unit
from .base import Check, Context

BIT_BYTE = Rule("units-bit-byte", "units", "写出的数字恰好等于另一种单位（Gb/s 与 GB/s）下的推导值时，提示比特/字节混淆。")
DIRECTION_SLIP = Rule("units-direction-slip", "units", "写出的数字恰好是推导值的两倍或一半时，提示单向/双向混淆。")
VARIANT_MIX = Rule("gpu-variant-mix", "arithmetic", "一个 GPU 文件只描述一个版本：某个数字对不上、却等于同系列另一版本的数字时报错。")


@dataclass(frozen=True)
class Mismatch:
    stated: Figure
    derived: Figure
    expected: Fraction  # the derived value, in the stated figure's direction
    rule: Rule  # the rule that judges this figure, reported when no slip explains the difference


def judge(ctx: Context, entity: Loaded[Identified], judged: Mapping[str, Rule]) -> Iterator[Diagnostic]:
    """Each stated figure of `entity` named in `judged` against the figure derived under its
    name, by the rule `judged` gives it."""
    yield from diagnose(ctx, entity, mismatches(ctx, entity.id, judged))


def mismatches(ctx: Context, entity_id: str, judged: Mapping[str, Rule]) -> list[Mismatch]:
    """The derived figures named in `judged` that disagree with the stated figure of their name.
    A stated figure in an unknown unit or of another dimension is skipped: the units rules
    report it."""
    found = []
    for derived in ctx.figures.derived(entity_id):
        rule = judged.get(derived.name)
        stated = ctx.figures.stated[entity_id].get(derived.name)
        if rule is None or stated is None or stated.path is None:
            continue
        if (stated.unit not in UNITS and stated.dimension != "count") or stated.dimension != derived.dimension:
            continue
        expected = derived.value
        if stated.direction and derived.direction and stated.direction != derived.direction:
            expected = convert_direction(expected, derived.direction, stated.direction) or expected
        if abs(stated.value - expected) > stated.tolerance:
            found.append(Mismatch(stated, derived, expected, rule))
    return found


def diagnose(ctx: Context, entity: Loaded[Identified], found: list[Mismatch]) -> Iterator[Diagnostic]:
    """One diagnostic per mismatch, at the stated value, under the slip's rule or the judging one."""
    for mismatch in found:
        alone = sum(m.rule is mismatch.rule for m in found) == 1
        rule, message = _classify(ctx, mismatch, direction_slip_possible=alone)
        suffix = ("value",) if mismatch.stated.dimension != "count" else ()
        yield rule.report(entity, (mismatch.stated.path or ()) + suffix, message)


def _classify(ctx: Context, m: Mismatch, *, direction_slip_possible: bool) -> tuple[Rule, str]:
    stated, derived, expected = m.stated, m.derived, m.expected
    unit = stated.unit or derived.unit
    want = f"{fmt_number(from_base(expected, unit) if unit in UNITS else expected)} {unit}".strip()
    told = f"{fmt_number(stated.shown)} {unit}".strip()
    base = (f"{stated.name} is {told} but {derived.formula} = {want}"
            f"{' (' + stated.direction + ')' if stated.direction else ''}")
    slip = _bit_byte(stated, expected)
    if slip:
        return BIT_BYTE, f"{base}: did you mean {fmt_number(stated.shown)} {slip}? (bits vs bytes: a factor of 8)"
    # A factor of two is a direction slip only if it is this figure alone that is off: when
    # the per-direction and bidirectional figures are both off by two, an input changed.
    if direction_slip_possible and stated.dimension == "data_rate" and (
            _close(stated, expected * 2) or _close(stated, expected / 2)):
        other = "bidirectional total" if _close(stated, expected * 2) else "per-direction rate"
        return DIRECTION_SLIP, f"{base}: {told} is the {other}; expected {want} {stated.direction}"
    sibling = _sibling_with(ctx, stated)
    if sibling is not None:
        return VARIANT_MIX, (f"{base}: {told} is the figure of {sibling} (same family, other variant); "
                             "one file describes one variant")
    return m.rule, f"{base}; expected {want} (tolerance ±{_tolerance(stated)})"


def _close(stated: Figure, value: Fraction) -> bool:
    return abs(stated.value - value) <= stated.tolerance


def _bit_byte(stated: Figure, expected: Fraction) -> str | None:
    other = other_bit_byte_unit(stated.unit)
    if other is None:
        return None
    ratio = UNITS[other].factor / UNITS[stated.unit].factor
    alt_value = stated.shown * UNITS[other].factor
    return other if abs(alt_value - expected) <= stated.tolerance * ratio else None


def _sibling_with(ctx: Context, stated: Figure) -> str | None:
    entity = ctx.kb.get(stated.entity, Gpu)
    if entity is None:
        return None
    for other in ctx.kb.of_type(Gpu):
        if other.id != entity.id and other.model.family == entity.model.family:
            figure = ctx.figures.stated[other.id].get(stated.name)
            if figure is not None and abs(figure.value - stated.value) <= stated.tolerance:
                return other.id
    return None


def _tolerance(stated: Figure) -> str:
    if stated.unit in UNITS:
        return f"{fmt_number(from_base(stated.tolerance, stated.unit))} {stated.unit}"
    return fmt_number(stated.tolerance)


RULES = (BIT_BYTE, DIRECTION_SLIP, VARIANT_MIX)
CHECKS: tuple[Check, ...] = ()  # the arithmetic and case-table checks judge through `judge`
