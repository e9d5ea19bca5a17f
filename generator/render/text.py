"""Escaping and figure formatting shared by every renderer.

Spec text is untrusted; it is escaped only through generator/render/escape.py (`md` for
Markdown, `inert` for HTML text, `attr` for attribute values), re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction

from markupsafe import Markup, escape

from ..derive import FigureIndex
from ..figure_refs import Reference, find_references
from ..figures import Figure
from ..model.common import Text
from ..model.entities import Source
from ..units import DERIVED_UNITS, UNITS, convert_direction, fmt_number, from_base
from .escape import attr, inert, md
from .trust import source_link

DIRECTION_ZH = {"per_direction": "单向", "bidirectional": "双向合计", "aggregate": "总带宽"}
SCOPE_ZH = {
    "per_lane": "每通道", "per_link": "每链路", "per_port": "每端口", "per_gpu": "每 GPU",
    "per_node": "每节点", "per_switch": "每交换芯片", "per_pin": "每针脚", "per_system": "每系统",
}
# Pages that show each kind of entity, for links from anywhere on the site.
ENTITY_PAGE = {
    "gpus": "gpus", "interconnects": "interconnects", "networks": "networks", "topologies": "topologies",
    "layers": "layers", "claims": "claims", "pitfalls": "pitfalls", "tiers": "tiers",
    "recommendations": "tiers", "sources": "sources", "selection": "flowchart", "nodes": "nodes", "nics": "nodes",
    "vendors": "vocabularies", "architectures": "vocabularies", "form-factors": "vocabularies",
    "scale-up-families": "vocabularies", "network-families": "vocabularies", "precisions": "vocabularies",
    "workloads": "costmodel", "assumptions": "costmodel",
}

def expand_text(text: object, shown: Callable[[str, str | None], Markup | None], *, markdown: bool) -> Markup:
    """Spec prose with its `[[entity#figure]]` references shown as figures (value, unit,
    direction, source link: `shown(ref, unit)`, None for an unknown figure); everything else
    escaped for a Markdown or an HTML context."""
    literal = md if markdown else inert
    raw = str(text)
    parts: list[str] = []
    last = 0
    for found in find_references(raw):
        parts.append(literal(raw[last:found.start]))
        figure = shown(found.ref, found.unit) if isinstance(found, Reference) else None
        parts.append(figure if figure is not None else literal(raw[found.start:found.end]))
        last = found.end
    parts.append(literal(raw[last:]))
    return Markup("").join(parts)


def zh(text: Text | str | None) -> str:
    """The Chinese of a Text field (or the string itself; nothing for a missing text)."""
    if text is None:
        return ""
    return text if isinstance(text, str) else text.zh


def number(value: Fraction | float) -> str:
    return fmt_number(value)


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


# A stated figure the knowledge base does not hold, in a table where "—" means something else
# (the GPU page: a precision the GPU lacks).
NOT_ENTERED = Markup('<span class="fig-none">未录入</span>')


def figure_html(fig: Figure | None, kb_sources: Mapping[str, Source], *, unit: str | None = None,
                direction: str | None = None, show_direction: bool | None = None,
                missing: Markup | None = None) -> Markup:
    """A figure as HTML: value, unit, direction label (always, for a bandwidth) and a link to
    its source. A missing one is "—", or `missing` where the table gives "—" another meaning."""
    if fig is None:
        return missing if missing is not None else Markup('<span class="fig-none">—</span>')
    value, shown_unit, shown_direction = in_unit(fig, unit, direction)
    parts: list[str] = [escape(with_unit(value, shown_unit))]
    if show_direction is None:
        show_direction = fig.dimension == "data_rate"
    if show_direction and shown_direction in DIRECTION_ZH:
        parts.append(f'<span class="fig-dir">{escape(DIRECTION_ZH[shown_direction])}</span>')
    source = kb_sources.get(fig.source or "")
    if fig.formula:  # derived: marked as such, never linked as if a source printed it
        parts.append(f'<span class="fig-derived" title="推导：{attr(fig.formula)}">推导</span>')
    elif source is not None:
        parts.append(source_link(source))
    return Markup(" ".join(parts))


def with_unit(value: float, unit: str) -> str:
    """'2039 GB/s', '41%', '38×': a ratio unit sticks to its number."""
    if unit in ("%", "x"):
        return f"{fmt_number(value)}{'×' if unit == 'x' else '%'}"
    return f"{fmt_number(value)} {unit}".strip()


def sort_key(fig: Figure | None, unit: str | None = None, direction: str | None = None) -> str:
    """The number a sortable column sorts by (data-sort attribute): the value in its dimension's
    base unit, so 5.3 TB/s sorts above 3350 GB/s whatever unit each is shown in, and a bandwidth
    per direction (the column's own direction, if it converts to one), so a bidirectional total
    never outranks a larger per-direction rate. Written positionally (no exponent), which the
    page's sort parser reads."""
    if fig is None:
        return ""
    value = fig.value
    target = direction or ("per_direction" if fig.dimension == "data_rate" else None)
    if target and fig.direction and fig.direction != target:
        converted = convert_direction(value, fig.direction, target)
        value = converted if converted is not None else value
    return format(Decimal(f"{float(value):.6g}"), "f")


def plain_text(text: str, figures: FigureIndex) -> str:
    """Spec prose for a terminal: references become 'value unit（direction）'."""
    raw = str(text)
    parts: list[str] = []
    last = 0
    for found in find_references(raw):
        figure = figures.get(found.ref) if isinstance(found, Reference) else None
        if figure is None or not isinstance(found, Reference):
            continue
        value, unit, direction = in_unit(figure, found.unit)
        suffix = f"（{DIRECTION_ZH[direction]}）" if direction in DIRECTION_ZH else ""
        parts += [raw[last:found.start], with_unit(value, unit) + suffix]
        last = found.end
    return "".join([*parts, raw[last:]])
