"""Escaping and figure formatting shared by every renderer.

Spec text is untrusted; it is escaped only through generator/render/escape.py (`md` for
Markdown, `inert` for HTML text, `attr` for attribute values), re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction

from markupsafe import Markup, escape

from ..charsets import chinese
from ..figure_format import in_unit, with_unit
from ..figure_refs import Reference, find_references
from ..figures import Figure
from ..labels import DIRECTION
from ..language import current, say
from ..model.common import Text
from ..model.entities import Source
from ..units import convert_direction, fmt_number
from .escape import attr, inert, md
from .trust import source_link

# Pages that show each kind of entity, for links from anywhere on the site.
ENTITY_PAGE = {
    "gpus": "gpus", "interconnects": "interconnects", "networks": "networks", "topologies": "topologies",
    "layers": "layers", "claims": "claims", "pitfalls": "pitfalls", "tiers": "tiers",
    "recommendations": "tiers", "sources": "sources", "selection": "flowchart", "nodes": "nodes", "nics": "nodes",
    "vendors": "vocabularies", "architectures": "vocabularies", "form-factors": "vocabularies",
    "scale-up-families": "vocabularies", "network-families": "vocabularies", "precisions": "vocabularies",
    "workloads": "costmodel", "assumptions": "costmodel", "runs": "runs", "markets": "markets",
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


def localized(text: Text | str | None) -> str:
    """A Text field in the language being written (`Text.shown`), or the string itself; nothing
    for a missing text."""
    if text is None:
        return ""
    return text if isinstance(text, str) else text.shown()




def marked(html: Markup, text: object) -> Markup:
    """`html` (escaped `text`) inside `<span lang="zh">` when an English page shows Chinese text;
    as it is otherwise, and always on a Chinese page."""
    return Markup('<span lang="zh">{}</span>').format(html) if current() == "en" and chinese(text) else html


def number(value: Fraction | float) -> str:
    return fmt_number(value)


def not_entered() -> Markup:
    """A stated figure the knowledge base does not hold, in a table where "—" means something
    else (the GPU page: a precision the GPU lacks)."""
    return Markup('<span class="fig-none">{}</span>').format(say("未录入", "not entered"))


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
    if show_direction and shown_direction is not None and shown_direction in DIRECTION:
        parts.append(f'<span class="fig-dir">{escape(DIRECTION[shown_direction])}</span>')
    source = kb_sources.get(fig.source or "")
    if fig.formula:  # derived: marked as such, never linked as if a source printed it
        derived = say("推导", "derived")
        parts.append(f'<span class="fig-derived" title="{derived}{say("：", ": ")}{attr(fig.formula)}">{derived}</span>')
    elif source is not None:
        parts.append(source_link(source))
    return Markup(" ".join(parts))


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
