"""arithmetic (and the case-table rules, which work the same way): every derived value that is
also stated must agree with it within the stated rounding. When they disagree, say what the
value should be and, where the slip is recognisable, which slip it is: bits for bytes, one
direction for both, or a figure borrowed from a sibling variant."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from ..derive import Derivation
from ..diagnostics import Diagnostic
from ..figures import Figure
from ..units import UNITS, convert_direction, fmt_number, from_base, other_bit_byte_unit
from .base import Context, report


def check_derived_values(ctx: Context) -> Iterator[Diagnostic]:
    for entity_id, derivations in sorted(ctx.figures.derivations.items()):
        entity = ctx.kb.entities[entity_id]
        for derivation in derivations:
            stated = ctx.figures.stated[entity_id].get(derivation.figure.name)
            if derivation.rule is None or stated is None or stated.path is None:
                continue
            if stated.unit not in UNITS and stated.dimension != "count":
                continue  # units-unknown already reported
            found = _compare(ctx, stated, derivation)
            if found is not None:
                rule, message = found
                yield report(entity, stated.path + (("value",) if stated.dimension != "count" else ()), rule, message)


def _compare(ctx: Context, stated: Figure, derivation: Derivation) -> tuple[str, str] | None:
    derived = derivation.figure
    if stated.dimension != derived.dimension:
        return None  # units-dimension already reported
    expected = derived.value
    if stated.direction and derived.direction and stated.direction != derived.direction:
        expected = convert_direction(expected, derived.direction, stated.direction) or expected
    if abs(stated.value - expected) <= stated.tolerance:
        return None
    unit = stated.unit or derived.unit
    want = f"{fmt_number(from_base(expected, unit) if unit in UNITS else expected)} {unit}".strip()
    told = f"{fmt_number(stated.shown)} {unit}".strip()
    base = (f"{stated.name} is {told} but {derived.formula} = {want}"
            f"{' (' + stated.direction + ')' if stated.direction else ''}")
    slip = _bit_byte(stated, expected)
    if slip:
        return "units-bit-byte", f"{base}: did you mean {fmt_number(stated.shown)} {slip}? (bits vs bytes: a factor of 8)"
    if stated.dimension == "data_rate" and (_close(stated, expected * 2) or _close(stated, expected / 2)):
        other = "bidirectional total" if _close(stated, expected * 2) else "per-direction rate"
        return "units-direction-slip", f"{base}: {told} is the {other}; expected {want} {stated.direction}"
    sibling = _sibling_with(ctx, stated)
    if sibling is not None:
        return "gpu-variant-mix", (f"{base}: {told} is the figure of {sibling} (same family, other variant); "
                                   "one file describes one variant")
    return derivation.rule or "", f"{base}; expected {want} (tolerance ±{_tolerance(stated)})"


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
    entity = ctx.kb.entities[stated.entity]
    if entity.kind != "gpus":
        return None
    for other in ctx.kb.of_kind("gpus"):
        if other.id != entity.id and other.model.family == entity.model.family:
            figure = ctx.figures.stated[other.id].get(stated.name)
            if figure is not None and abs(figure.value - stated.value) <= stated.tolerance:
                return other.id
    return None


def _tolerance(stated: Figure) -> str:
    if stated.unit in UNITS:
        return f"{fmt_number(from_base(stated.tolerance, stated.unit))} {stated.unit}"
    return fmt_number(stated.tolerance)


def check_form_factor(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_kind("gpus"):
        nvlink = gpu.model.nvlink
        if nvlink is None:
            continue
        if gpu.model.form_factor == "pcie" and not nvlink.bridge:
            yield report(gpu, ("nvlink",), "gpu-form-factor",
                         "a PCIe card reaches NVLink only through a bridge: set `bridge: true` and `bridge_gpus`, "
                         "or `nvlink: null` if this card has no NVLink connector")
        if gpu.model.form_factor == "sxm" and nvlink.bridge:
            yield report(gpu, ("nvlink", "bridge"), "gpu-form-factor",
                         "an SXM module connects NVLink through the baseboard, not a bridge")
