"""The closed list of units a spec may use, each with its dimension and an exact factor to the
dimension's base unit (bit/s, FLOP/s, W, s, ...).

A hand-kept table rather than a general units library on purpose: a spec field must accept only a
few units of one dimension, conversions must be exact (Fractions), and the domain's classic slip
(Gb/s vs GB/s) needs a dedicated check that no general library offers. Pint, for one, reads "GT/s"
as gigatesla per second.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction


@dataclass(frozen=True)
class Unit:
    symbol: str
    dimension: str
    factor: Fraction  # multiply a value in this unit by `factor` to get the base unit


def _table() -> dict[str, Unit]:
    units: list[Unit] = []
    prefixes = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    for prefix, scale in prefixes.items():
        units.append(Unit(f"{prefix}b/s", "data_rate", Fraction(scale)))
        units.append(Unit(f"{prefix}B/s", "data_rate", Fraction(8 * scale)))
    units += [
        Unit("GT/s", "transfer_rate", Fraction(10**9)),
        Unit("MT/s", "transfer_rate", Fraction(10**6)),
        Unit("bit", "data_size", Fraction(1)),
        Unit("GB", "data_size", Fraction(8 * 10**9)),
        Unit("TB", "data_size", Fraction(8 * 10**12)),
        Unit("GiB", "data_size", Fraction(8 * 2**30)),
        Unit("GFLOPS", "compute", Fraction(10**9)),
        Unit("TFLOPS", "compute", Fraction(10**12)),
        Unit("PFLOPS", "compute", Fraction(10**15)),
        Unit("W", "power", Fraction(1)),
        Unit("kW", "power", Fraction(1000)),
        Unit("ns", "time", Fraction(1, 10**9)),
        Unit("us", "time", Fraction(1, 10**6)),
        Unit("μs", "time", Fraction(1, 10**6)),
        Unit("ms", "time", Fraction(1, 10**3)),
        Unit("s", "time", Fraction(1)),
        Unit("MHz", "frequency", Fraction(10**6)),
        Unit("GHz", "frequency", Fraction(10**9)),
        Unit("tok/s", "token_rate", Fraction(1)),
        Unit("USD", "currency", Fraction(1)),
        Unit("x", "ratio", Fraction(1)),
        Unit("%", "ratio", Fraction(1, 100)),
    ]
    return {unit.symbol: unit for unit in units}


UNITS: dict[str, Unit] = _table()

# Units of derived-only ratios: shown on pages, never accepted in a spec file.
DERIVED_UNITS: dict[str, Unit] = {
    u.symbol: u
    for u in (
        Unit("TFLOPS/W", "compute_per_power", Fraction(10**12)),
        Unit("B/FLOP", "bits_per_flop", Fraction(8)),
        Unit("USD/TFLOPS", "currency_per_compute", Fraction(1, 10**12)),
    )
}


def units_of(dimension: str) -> list[str]:
    return [u.symbol for u in UNITS.values() if u.dimension == dimension]


def to_base(value: float | int | Fraction, unit: str) -> Fraction:
    # A float goes through its shortest repr, so 46.88 is exactly 4688/100, as it was written.
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    return exact * UNITS[unit].factor


def from_base(value: Fraction, unit: str) -> Fraction:
    return value / (UNITS.get(unit) or DERIVED_UNITS[unit]).factor


def other_bit_byte_unit(unit: str) -> str | None:
    """The same prefix in the other of bits/bytes: 'GB/s' <-> 'Gb/s'."""
    if UNITS.get(unit) is None or UNITS[unit].dimension != "data_rate":
        return None
    return unit[:-3] + ("b/s" if unit.endswith("B/s") else "B/s")


def fmt_number(value: Fraction | float, digits: int = 4) -> str:
    """Compact human figure: up to `digits` significant digits, no trailing zeros, no exponent
    (but for a figure beyond a float, e.g. a ratio over a 1e-308 baseline, which only an
    exponent can show)."""
    try:
        number = float(value)
    except OverflowError:
        exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
        return f"{exact:.{max(0, digits - 1)}E}"
    if number == 0:
        return "0"
    text = f"{number:.{digits}g}"
    if "e" in text:
        text = f"{number:.{max(0, digits)}f}".rstrip("0").rstrip(".")
    return text


def decimals_of(value: float | int) -> int:
    """Number of decimals a literal was written with: as the loader recorded it (`1.50`: 2,
    `7.5e2`: -1, see generator.load.scalars.Written), else as Python's repr keeps it."""
    written = getattr(value, "decimals", None)
    if written is not None:
        return int(written)
    text = repr(value)
    if isinstance(value, int) or "." not in text or "e" in text:
        return 0
    return len(text.split(".")[1])


def convert_direction(value: Fraction, source: str | None, target: str | None) -> Fraction | None:
    """Re-express a link bandwidth in another direction convention (full-duplex links: the
    bidirectional total is twice the per-direction rate). None when it cannot be converted."""
    if source == target:
        return value
    if source == "per_direction" and target == "bidirectional":
        return value * 2
    if source == "bidirectional" and target == "per_direction":
        return value / 2
    return None
