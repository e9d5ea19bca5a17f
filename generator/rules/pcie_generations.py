"""arithmetic: each PCIe generation doubles its predecessor's transfer rate per lane (3.0 to
6.0). A rate mistyped in one generation file derives a wrong bandwidth that still adds up within
its own file; only its neighbours show it is wrong, and the one that disagrees with all its
neighbours is the one reported."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from ..diagnostics import Diagnostic, Rule
from ..figures import Figure
from ..knowledge import Loaded
from ..model.entities import Pcie
from ..units import fmt_number, from_base
from .base import Check, Context

GENERATION = Rule("arithmetic-pcie-generation", "arithmetic",
                  "每一代 PCIe 的每通道传输率是上一代的两倍（3.0 到 6.0）；与前后两代都对不上的那一代被认为写错。")


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
        yield GENERATION.report(entity, ("transfer_rate", "value"),
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


RULES = (GENERATION,)
CHECKS: tuple[Check, ...] = (check_pcie_generations,)
