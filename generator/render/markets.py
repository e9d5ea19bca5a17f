"""The markets page: for each market of specs/markets/, where every GPU and node of the knowledge
base stands (status, since when, by which ruling and source, and why), then the market's rulings
in date order. The planner leaves out every part a market's table does not show as buyable; this
page is where a reader sees which rule removed it."""

from __future__ import annotations

from markupsafe import Markup

from ..knowledge import Loaded
from ..labels import MARKET_STATUS
from ..language import say
from ..model.entities import ComputeNode, Gpu
from ..model.markets import Market
from ..planner.availability import Standing, standing
from .context import Site
from .table import Cell, Row, Table
from .text import chinese


def _status(found: Standing | None) -> Cell:
    if found is None:
        return Cell(Markup('<span class="market-status market-unknown">{}</span>').format(say("未写明", "not stated")))
    return Cell(Markup('<span class="market-status market-{}">{}</span>').format(found.status,
                                                                              MARKET_STATUS[found.status]))


def ruling_anchor(market_id: str, key: str) -> str:
    """Where a ruling is described on the markets page (`markets/#china-r-<key>`)."""
    return f"{market_id}-r-{key}"


def _why(site: Site, titles: dict[str, str], market_id: str, found: Standing | None) -> Cell:
    """The ruling (linked to its description below the table) or the market's default; for a node
    that takes its GPU's standing, that GPU first."""
    if found is None:
        return Cell(Markup())
    what = (Markup('<a href="#{}">{}</a>').format(ruling_anchor(market_id, found.ruling), titles[found.ruling])
            if found.ruling is not None else Markup('<a href="#{}-default">{}</a>').format(
                market_id, say("本市场的默认状态", "default status of this market")))
    via = (Markup(say("随所用 GPU {}：", "as its GPU, {}: ")).format(site.link(found.via)) if found.via is not None
           else Markup())
    return Cell(via + what)


def _parts_table(site: Site, loaded: Loaded[Market]) -> Table:
    titles = {r.key: r.title.shown() for r in loaded.model.rulings}
    table = Table([(say("部件", "Part"), False), (say("状态", "Status"), False), (say("起始日期", "Since"), False),
                   (say("依据", "Grounds"), False)])
    for part in [*site.kb.of_type(Gpu), *site.kb.of_type(ComputeNode)]:
        found = standing(site.kb, loaded, part.id)
        since = "" if found is None or found.since is None else found.since.isoformat()
        table.rows.append(Row([Cell(site.link(part.id)), _status(found), Cell.text(since), _why(site, titles, loaded.id, found)],
                              anchor=f"{loaded.id}-{part.id}"))
    return table


def markets(site: Site) -> dict[str, object]:
    sections = []
    for loaded in site.kb.of_type(Market):
        m = loaded.model
        rulings = sorted(m.rulings, key=lambda r: (r.since, r.key))
        sections.append({
            "id": loaded.id, "name": m.name.shown(), "summary": site.md(m.summary.shown()),
            "checked": m.last_verified.isoformat(),
            "default": None if m.default is None else {
                "status": MARKET_STATUS[m.default.status], "note": site.md(m.default.note.shown()),
                "source": site.link(m.default.source)},
            "table": _parts_table(site, loaded),
            "rulings": [{"anchor": ruling_anchor(loaded.id, r.key), "title": r.title.shown(), "since": r.since.isoformat(),
                         "status": MARKET_STATUS[r.status],
                         "parts": Markup(say("、", ", ")).join(site.link(i) for i in r.items), "source": site.link(r.source),
                         "where": r.where, "note": site.md(r.note.shown())} for r in rulings],
            "spec": site.spec_note(loaded.id),
        })
    return {"sections": sections, "chinese": chinese}
