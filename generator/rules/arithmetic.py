"""arithmetic (and the case-table rules, which work the same way): every derived value that is
also stated must agree with it within the stated rounding. When they disagree, say what the
value should be and, where the slip is recognisable, which slip it is: bits for bytes, one
direction for both, or a figure borrowed from a sibling variant."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..derive import Derivation
from ..diagnostics import Diagnostic
from ..figures import Figure
from ..knowledge import Loaded
from ..load import DataPath
from ..model.entities import Gpu, Pcie, ScalingStudy
from ..units import UNITS, convert_direction, fmt_number, from_base, other_bit_byte_unit
from .base import Context, report


@dataclass(frozen=True)
class _Mismatch:
    stated: Figure
    derivation: Derivation
    expected: Fraction  # the derived value, in the stated figure's direction


def check_derived_values(ctx: Context) -> Iterator[Diagnostic]:
    for entity_id, derivations in sorted(ctx.figures.derivations.items()):
        entity = ctx.kb.entities[entity_id]
        mismatches = list(_mismatches(ctx, entity_id, derivations))
        blamed = _blame_case_inputs(ctx, entity_id, mismatches)
        for _key, path, rule, message in blamed:
            yield report(entity, path, rule, message)
        handled = {f"rows.{key}." for key, _p, _r, _m in blamed}
        for mismatch in mismatches:
            if any(mismatch.stated.name.startswith(prefix) for prefix in handled):
                continue
            alone = sum(m.derivation.rule == mismatch.derivation.rule for m in mismatches) == 1
            rule, message = _classify(ctx, mismatch, direction_slip_possible=alone)
            suffix = ("value",) if mismatch.stated.dimension != "count" else ()
            yield report(entity, (mismatch.stated.path or ()) + suffix, rule, message)


def _mismatches(ctx: Context, entity_id: str, derivations: list[Derivation]) -> Iterator[_Mismatch]:
    for derivation in derivations:
        stated = ctx.figures.stated[entity_id].get(derivation.figure.name)
        if derivation.rule is None or stated is None or stated.path is None:
            continue
        if stated.unit not in UNITS and stated.dimension != "count":
            continue  # units-unknown already reported
        derived = derivation.figure
        if stated.dimension != derived.dimension:
            continue  # units-dimension already reported
        expected = derived.value
        if stated.direction and derived.direction and stated.direction != derived.direction:
            expected = convert_direction(expected, derived.direction, stated.direction) or expected
        if abs(stated.value - expected) > stated.tolerance:
            yield _Mismatch(stated, derivation, expected)


def _blame_case_inputs(ctx: Context, entity_id: str, mismatches: list[_Mismatch]) -> list[tuple[str, DataPath, str, str]]:
    """In a scaling table, speed-up and share both follow from the throughputs. When both are
    off and still agree with each other, the throughput was edited: report it there, saying
    which throughput would make the row add up."""
    entity = ctx.kb.get(entity_id, ScalingStudy)
    if entity is None:
        return []
    by_row: dict[str, set[str]] = {}
    for m in mismatches:
        parts = m.stated.name.split(".")
        if parts[0] == "rows" and len(parts) == 3:
            by_row.setdefault(parts[1], set()).add(parts[2])
    blamed: list[tuple[str, DataPath, str, str]] = []
    stated = ctx.figures.stated[entity_id]
    gpus = entity.model.nodes.value * entity.model.gpus_per_node.value
    for index, row in enumerate(entity.model.rows):
        if by_row.get(row.key) != {"speedup", "comm_share"}:
            continue
        speedup, share = stated[f"rows.{row.key}.speedup"], stated[f"rows.{row.key}.comm_share"]
        if abs((1 - speedup.value / gpus) - share.value) > share.tolerance + speedup.tolerance / gpus:
            continue  # the stated columns disagree with each other too: report each
        single, cluster = stated[f"rows.{row.key}.single_gpu"], stated[f"rows.{row.key}.cluster"]
        want = single.value * speedup.value
        blamed.append((row.key, ("rows", index, "cluster", "value"), "tables-case-speedup",
                       f"rows.{row.key}.cluster is {fmt_number(cluster.shown)} tok/s, but the row states speed-up "
                       f"{fmt_number(speedup.shown)}x and share {fmt_number(share.shown)}%, which "
                       f"need {fmt_number(from_base(want, cluster.unit))} tok/s "
                       f"({fmt_number(single.shown)} tok/s × {fmt_number(speedup.shown)})"))
    return blamed


def _classify(ctx: Context, m: _Mismatch, *, direction_slip_possible: bool) -> tuple[str, str]:
    stated, derived, expected = m.stated, m.derivation.figure, m.expected
    unit = stated.unit or derived.unit
    want = f"{fmt_number(from_base(expected, unit) if unit in UNITS else expected)} {unit}".strip()
    told = f"{fmt_number(stated.shown)} {unit}".strip()
    base = (f"{stated.name} is {told} but {derived.formula} = {want}"
            f"{' (' + stated.direction + ')' if stated.direction else ''}")
    slip = _bit_byte(stated, expected)
    if slip:
        return "units-bit-byte", f"{base}: did you mean {fmt_number(stated.shown)} {slip}? (bits vs bytes: a factor of 8)"
    # A factor of two is a direction slip only if it is this figure alone that is off: when
    # the per-direction and bidirectional figures are both off by two, an input changed.
    if direction_slip_possible and stated.dimension == "data_rate" and (
            _close(stated, expected * 2) or _close(stated, expected / 2)):
        other = "bidirectional total" if _close(stated, expected * 2) else "per-direction rate"
        return "units-direction-slip", f"{base}: {told} is the {other}; expected {want} {stated.direction}"
    sibling = _sibling_with(ctx, stated)
    if sibling is not None:
        return "gpu-variant-mix", (f"{base}: {told} is the figure of {sibling} (same family, other variant); "
                                   "one file describes one variant")
    return m.derivation.rule or "", f"{base}; expected {want} (tolerance ±{_tolerance(stated)})"


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


def check_form_factor(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
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


def check_pcie_generations(ctx: Context) -> Iterator[Diagnostic]:
    """Each PCIe generation doubles its predecessor's transfer rate (3.0 → 6.0). A generation
    that disagrees with every neighbour is the one that was mistyped."""
    links = sorted(ctx.kb.of_type(Pcie), key=lambda e: e.model.generation)
    rates = [ctx.figures.stated[e.id]["transfer_rate"] for e in links]
    if not all(rate.usable for rate in rates):
        return
    for i, (entity, rate) in enumerate(zip(links, rates, strict=True)):
        checks = _neighbour_checks(links, rates, i)
        if not checks or any(abs(rate.value - want) <= rate.tolerance for want, _n, _r in checks):
            continue
        # At either end there is one neighbour: blame this end only if that neighbour agrees
        # with its own other neighbour (otherwise the neighbour is the mistyped one).
        if len(checks) == 1:
            j = i + 1 if i == 0 else i - 1
            if not any(abs(rates[j].value - want) <= rates[j].tolerance
                       for want, _n, _r in _neighbour_checks(links, rates, j) if _r is not rate):
                continue
        want = checks[0][0]
        said = " and ".join(f"{name} is {fmt_number(r.shown)} {r.unit}" for _w, name, r in checks)
        yield report(entity, ("transfer_rate", "value"), "arithmetic-pcie-generation",
                     f"transfer_rate is {fmt_number(rate.shown)} {rate.unit}, but each PCIe generation doubles "
                     f"the previous one ({said}): expected {fmt_number(from_base(want, rate.unit))} {rate.unit}")


def _neighbour_checks(links: list[Loaded[Pcie]], rates: list[Figure], i: int) -> list[tuple[Fraction, str, Figure]]:
    """(expected rate, neighbour name, neighbour figure) from the generations next to `i`."""
    checks = []
    if i > 0 and _next_generation(links[i - 1], links[i]):
        checks.append((rates[i - 1].value * 2, links[i - 1].model.name, rates[i - 1]))
    if i + 1 < len(links) and _next_generation(links[i], links[i + 1]):
        checks.append((rates[i + 1].value / 2, links[i + 1].model.name, rates[i + 1]))
    return checks


def _next_generation(older: Loaded[Pcie], newer: Loaded[Pcie]) -> bool:
    return float(newer.model.generation) - float(older.model.generation) == 1.0
