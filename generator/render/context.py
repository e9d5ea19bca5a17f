"""What every page renderer needs: the knowledge base, its figures, and small helpers to turn
a figure or a reference into a table cell or a link."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar, cast

from markupsafe import Markup, escape

from ..derive import FigureIndex
from ..estimates.calibration import Calibration, calibrate
from ..figures import Figure
from ..knowledge import KnowledgeBase, Loaded
from ..language import say
from ..model.common import Identified
from ..model.entities import ExpertStudy, FieldReport, ScalingStudy, Source
from ..model.runs import Run
from ..repository import Repository
from ..units import DERIVED_UNITS, UNITS
from .table import Cell, SpecLink
from .text import ENTITY_PAGE, expand_text, figure_html, inert, marked, sort_key
from .trust import source_page

T = TypeVar("T")


RUN_PAGE_PREFIX = "runs-"  # mkdocs.yml's not_in_nav names the same pages


def run_page(source_id: str) -> str:
    """The page that lists the runs a source measured and the model's predictions for them,
    relative to the site's root: one page a source (render/runs.py)."""
    return RUN_PAGE_PREFIX + source_id


def run_page_link(source_id: str, title: str) -> Markup:
    """A link, named by the source's title (spec text, inert), to the page of its runs."""
    return Markup('<a href="../{}/">{}</a>').format(run_page(source_id), marked(inert(title), title))


@dataclass(frozen=True)
class Site:
    kb: KnowledgeBase
    figures: FigureIndex
    repository: Repository | None = None  # where spec files are edited; None: no such links
    # What several pages of one render share (the sources index and the four pages that list
    # the sources read the same items): computed once per Site, that is once per render.
    shared: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def once(self, key: str, compute: Callable[[], T]) -> T:
        """`compute()`, computed once per render under `key` (a result in words has the language
        in its key: `language.current()`)."""
        if key not in self.shared:
            self.shared[key] = compute()
        return cast(T, self.shared[key])

    @cached_property
    def calibration(self) -> Calibration:
        """The model against the published runs: the accuracy page and the calculator's line."""
        return calibrate(self.kb)

    @cached_property
    def sources(self) -> dict[str, Source]:
        return {e.id: e.model for e in self.kb.of_type(Source)}

    def fig(self, ref: str) -> Figure | None:
        return self.figures.get(ref)

    def cell(self, ref: str, *, unit: str | None = None, direction: str | None = None,
             show_direction: bool | None = None, missing: Markup | None = None) -> Cell:
        figure = self.fig(ref)
        return Cell(figure_html(figure, self.sources, unit=unit, direction=direction, show_direction=show_direction,
                                missing=missing), sort_key(figure, unit, direction), numeric=True)

    def _shown(self, ref: str, unit: str | None) -> Markup | None:
        """A figure referenced from prose, or None when there is no such figure."""
        return self.cell(ref, unit=unit).html if self.fig(ref) is not None else None

    def common_unit(self, refs: Iterable[str]) -> str | None:
        """The one unit a column shows its figures in: the unit most of them are written in (the
        first of those, on a tie), so that '4.8 TB/s' and '4800 GB/s' never share a column. Only
        the display changes: values and sort keys are the same in any unit."""
        units = [f.unit for f in map(self.fig, refs)
                 if f is not None and f.usable and (f.unit in UNITS or f.unit in DERIVED_UNITS)]
        counts = Counter(units)
        return max(units, key=counts.__getitem__) if units else None

    def column_units(self, entities: Sequence[Loaded[Identified]], *names: str) -> dict[str, str | None]:
        """The one unit of each named figure's column, over the rows of `entities`."""
        return {name: self.common_unit(f"{e.id}#{name}" for e in entities) for name in names}

    def md(self, text: object) -> Markup:
        return expand_text(text, self._shown, markdown=True)

    def html(self, text: object) -> Markup:
        return expand_text(text, self._shown, markdown=False)

    def link(self, entity_id: str | None, label: str | None = None) -> Markup:
        """An HTML link to where an entity is shown (pages live one level below the root)."""
        if entity_id is None:
            return Markup("—")
        entity = self.kb.get(entity_id)
        if entity is None:
            return inert(entity_id)
        text = label or entity.label
        return Markup(f'<a href="../{escape(self.href(entity_id))}">{marked(inert(text), text)}</a>')

    def href(self, entity_id: str) -> str:
        """Where an entity is shown, relative to the site's root (`gpus/#h100-sxm5-80gb`)."""
        entity = self.kb.get(entity_id)
        if entity is None:
            return ""
        page = ENTITY_PAGE.get(entity.kind, "")
        if isinstance(entity.model, (ScalingStudy, FieldReport, ExpertStudy)):
            page = ("scaling" if isinstance(entity.model, ScalingStudy)
                    else "moe" if isinstance(entity.model, ExpertStudy) else "field-reports")
        if isinstance(entity.model, Source):
            return f"{source_page(entity.model)}/#src-{entity.id}"
        if isinstance(entity.model, Run):
            return f"{run_page(entity.model.source)}/#{entity.id}"
        return f"{page}/#{entity.id}"

    def spec(self, entity_id: str) -> SpecLink | None:
        """The link to an entity's spec file in the repository's web editor, if one is known."""
        entity = self.kb.get(entity_id)
        if entity is None or self.repository is None:
            return None
        path = spec_path(entity)
        return SpecLink(self.repository.edit(path), path)

    def spec_note(self, entity_id: str) -> Markup:
        """` · 数据文件 specs/<kind>/<id>.yaml` (` · data file …` in English), linked to its editor, for the line of facts under
        an entity shown as a section; empty when no repository is known."""
        link = self.spec(entity_id)
        if link is None:
            return Markup("")
        return Markup(' · <a class="spec-file" href="{}" title="{}">{} <code>{}</code></a>').format(
            link.href, say("在仓库里编辑这个文件", "Edit this file in the repository"), say("数据文件", "data file"), link.path)

    def name(self, entity_id: str) -> str:
        entity = self.kb.get(entity_id)
        return entity.label if entity is not None else entity_id


def spec_path(entity: Loaded[Identified]) -> str:
    """Where an entity's file lives in the repository (its name is its id: rule schema-id-filename)."""
    return f"specs/{entity.kind}/{entity.id}.yaml"
