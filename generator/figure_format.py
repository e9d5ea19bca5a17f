"""A figure as plain text: its value in a chosen unit and direction convention, written with its
unit ('2039 GB/s', '41%'), and spec prose with its figure references filled in for a terminal.
The HTML renderers (generator/render/) and the advice as data (generator/selection/) share it."""

from __future__ import annotations

from .derive import FigureIndex
from .figure_refs import Reference, find_references
from .figures import Figure
from .labels import DIRECTION_ZH
from .language import say
from .units import DERIVED_UNITS, UNITS, convert_direction, fmt_number, from_base


def in_unit(fig: Figure, unit: str | None = None, direction: str | None = None) -> tuple[float, str, str | None]:
    """(value, unit, direction) of a figure, optionally re-expressed in another unit of its
    dimension and another direction convention."""
    value, direction_out = fig.value, fig.direction
    if direction and fig.direction and direction != fig.direction:
        converted = convert_direction(value, fig.direction, direction)
        if converted is not None:
            value, direction_out = converted, direction
    target = unit or fig.unit
    table = UNITS if target in UNITS else DERIVED_UNITS
    if target in table and table[target].dimension == fig.dimension:
        return float(from_base(value, target)), target, direction_out
    return float(fig.shown), fig.unit, direction_out


def with_unit(value: float, unit: str) -> str:
    """'2039 GB/s', '41%', '38×': a ratio unit sticks to its number."""
    if unit in ("%", "x"):
        return f"{fmt_number(value)}{'×' if unit == 'x' else '%'}"
    return f"{fmt_number(value)} {unit}".strip()


def signed_percent(share: float) -> str:
    """'+1.2%', '-3.4%' for a signed share (0.012, -0.034), and '0.0%' for one that rounds to
    zero: '-0.0%' would claim a direction the rounded figure does not show."""
    text = f"{share:+.1%}"
    return text[1:] if text in ("+0.0%", "-0.0%") else text


def percent(share: float | None, signed: bool = False) -> str:
    """A share as a percentage to one decimal ('7.4%'; `signed`: signed_percent), '—' for none."""
    if share is None:
        return "—"
    return signed_percent(share) if signed else f"{share:.1%}"


def direction_suffix(direction: str | None) -> str:
    """What follows a bandwidth written in prose: '（单向）', ' (per direction)'; nothing for
    a figure without a direction."""
    if direction is None or direction not in DIRECTION_ZH:
        return ""
    return say("（{}）", " ({})").format(DIRECTION_ZH[direction])


def plain_text(text: str, figures: FigureIndex) -> str:
    """Spec prose for a terminal: references become 'value unit（direction）' (in English,
    'value unit (direction)')."""
    raw = str(text)
    parts: list[str] = []
    last = 0
    for found in find_references(raw):
        figure = figures.get(found.ref) if isinstance(found, Reference) else None
        if figure is None or not isinstance(found, Reference):
            continue
        value, unit, direction = in_unit(figure, found.unit)
        suffix = direction_suffix(direction)
        parts += [raw[last:found.start], with_unit(value, unit) + suffix]
        last = found.end
    return "".join([*parts, raw[last:]])
