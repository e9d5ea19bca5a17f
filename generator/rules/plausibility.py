"""units: a figure lies in its field's plausible range (`Plausible` in the model), compared in
the dimension's base unit. Outside it the figure is probably a slip (a 75 kW GPU: a rack's power
typed per GPU, or kW for W), but not certainly, so this is a warning: builds go on, and `--strict`
(CI) fails until the pull request explains the outlier and widens the range beside the field."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule, Severity
from ..figures import figure_names
from ..model.common import Plausible, Quantity
from ..units import UNITS, fmt_number, to_base
from .base import Check, Context

PLAUSIBILITY = Rule("plausibility-range", "units",
                    "数值应落在模型为该字段声明的合理范围内；超出时给出警告（严格模式下视为错误），多半是把整机或整柜的数字写进了单卡字段，或者单位写错。",
                    Severity.WARNING)


def check_plausibility(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            if not isinstance(value, Quantity):
                continue
            plausible = next((m for m in marks if isinstance(m, Plausible)), None)
            unit = UNITS.get(value.unit)
            # A unit of another dimension is units-dimension's error; no range to compare with.
            if plausible is None or unit is None or unit.dimension != UNITS[plausible.unit].dimension:
                continue
            if plausible.admits(value.value, value.unit):
                continue
            field = ".".join(figure_names(entity.nodes)[path])  # only once something is wrong
            side = "below" if to_base(value.value, value.unit) < plausible.low_base else "above"
            yield PLAUSIBILITY.report(entity, path + ("value",),
                                      f"{field} = {_shown(value.value)} {value.unit} is {side} the plausible "
                                      f"range {plausible.label()}: check the unit and the scope; if the figure is "
                                      "right, say so in the pull request and widen the field's Plausible range in generator/model/")


def _shown(value: float) -> str:
    """The value compactly, but never a tiny non-zero one as 0."""
    compact = fmt_number(value)
    return compact if compact != "0" or value == 0 else f"{value:g}"


RULES = (PLAUSIBILITY,)
CHECKS: tuple[Check, ...] = (check_plausibility,)
