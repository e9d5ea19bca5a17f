"""What every page renderer needs: the knowledge base, its figures, and small helpers to turn
a figure or a reference into a table cell or a link."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from markupsafe import Markup, escape

from ..derive import FigureIndex
from ..figures import Figure
from ..knowledge import KnowledgeBase
from .table import Cell
from .text import ENTITY_PAGE, expand_text, figure_html, inert, sort_key


@dataclass(frozen=True)
class Site:
    kb: KnowledgeBase
    figures: FigureIndex

    @cached_property
    def sources(self) -> dict[str, Any]:
        return {e.id: e.model for e in self.kb.of_kind("sources")}

    def fig(self, ref: str) -> Figure | None:
        return self.figures.get(ref)

    # Pages show the same entities and figures again and again (a GPU in its table, in claims,
    # in the flowchart...): links and figure cells are made once per site, keyed by id.
    @cached_property
    def _links(self) -> dict[tuple[str, str | None], Markup]:
        return {}

    @cached_property
    def _cells(self) -> dict[tuple[str, str | None, str | None, bool | None], Cell]:
        return {}

    def cell(self, ref: str, *, unit: str | None = None, direction: str | None = None,
             show_direction: bool | None = None) -> Cell:
        key = (ref, unit, direction, show_direction)
        known = self._cells.get(key)
        if known is None:
            figure = self.fig(ref)
            known = self._cells[key] = Cell(
                figure_html(figure, self.sources, unit=unit, direction=direction, show_direction=show_direction),
                sort_key(figure, unit, direction), numeric=True)
        return known

    def _shown(self, ref: str, unit: str | None) -> Markup | None:
        """A figure referenced from prose, or None when there is no such figure."""
        return self.cell(ref, unit=unit).html if self.fig(ref) is not None else None

    def md(self, text: object) -> Markup:
        return expand_text(text, self._shown, markdown=True)

    def html(self, text: object) -> Markup:
        return expand_text(text, self._shown, markdown=False)

    def link(self, entity_id: str | None, label: str | None = None) -> Markup:
        """An HTML link to where an entity is shown (pages live one level below the root)."""
        if entity_id is None:
            return Markup("—")
        known = self._links.get((entity_id, label))
        if known is None:
            known = self._links[(entity_id, label)] = self._link(entity_id, label)
        return known

    def _link(self, entity_id: str, label: str | None) -> Markup:
        entity = self.kb.get(entity_id)
        if entity is None:
            return escape(entity_id)
        text = label or _name(entity.model)
        page = ENTITY_PAGE.get(entity.kind, "")
        if entity.kind == "cases":
            page = "scaling" if entity.model.type == "scaling_study" else "field-reports"
        anchor = f"src-{entity.id}" if entity.kind == "sources" else entity.id
        return Markup(f'<a href="../{page}/#{escape(anchor)}">{inert(text)}</a>')

    def name(self, entity_id: str) -> str:
        entity = self.kb.get(entity_id)
        return _name(entity.model) if entity is not None else entity_id


def _name(model: Any) -> str:
    name = getattr(model, "name", None) or getattr(model, "title", None) or model.id
    return str(getattr(name, "zh", name))
