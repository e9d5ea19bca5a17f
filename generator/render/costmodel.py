"""The cost model page: the workloads and the assumptions the estimates use, one row per entity
(anchored by id, so the CLI's and a future calculator's inputs link to them)."""

from __future__ import annotations

from markupsafe import Markup

from ..estimates.records import assumption_entities, workloads
from ..language import say
from ..model.costs import PARAMETERS, Domain, Workload
from .context import Site
from .table import Cell, Row, Table
from .text import localized
from .trust import source_link


def _number(value: float, domain: Domain) -> Cell:
    return Cell(Cell.text(domain.shown(value)).html, f"{value!r}", numeric=True)


def _experts(w: Workload) -> str:
    """`256 选 8 + 1 共享，前 3 层稠密` (`8 of 256 + 1 shared; first 3 layers dense`): the routed experts and how many a token takes, the shared
    ones and the dense layers; `—` for a dense model."""
    m = w.moe
    if m is None:
        return "—"
    text = say(f"{m.experts} 选 {m.experts_per_token}", f"{m.experts_per_token} of {m.experts}")
    text += say(f" + {m.shared_experts} 共享", f" + {m.shared_experts} shared") if m.shared_experts else ""
    return text + (say(f"，前 {m.dense_layers} 层稠密", f"; first {m.dense_layers} layers dense") if m.dense_layers else "")


def _dropout(site: Site, w: Workload) -> Cell:
    """Whether the workload trains with dropout, with the small link to where that was read; where
    it does not say, the model's default (with dropout), marked as such."""
    if w.dropout is None:
        return Cell.text(say("用（默认）", "yes (default)"))
    said = say("用", "yes") if w.dropout.value else say("不用", "no")
    source = site.sources.get(w.dropout.source)
    return Cell(Markup.escape(said) + (Markup(" ") + source_link(source) if source is not None else Markup()))


def costmodel(site: Site) -> dict[str, object]:
    shapes = Table([(say("模型", "Model"), False), (say("参数量", "Parameters"), True),
                    (say("激活参数量", "Active parameters"), True), (say("层数", "Layers"), True),
                    (say("隐藏维度", "Hidden size"), True), (say("注意力头", "Attention heads"), True),
                    (say("键值头", "KV heads"), True), (say("FFN 宽度", "FFN width"), True),
                    (say("专家", "Experts"), False), (say("词表", "Vocabulary"), True), ("Dropout", False),
                    (say("来源", "Source"), False)])
    for e in workloads(site.kb):
        w = e.model
        active = Cell.text("—") if w.active_parameters is None else Cell(
            Cell.text(f"{w.active_parameters:,}").html, str(w.active_parameters), numeric=True)
        shapes.rows.append(Row([
            Cell.text(w.name), Cell(Cell.text(f"{w.parameters:,}").html, str(w.parameters), numeric=True), active,
            *(Cell(Cell.text(str(v)).html, str(v), numeric=True) for v in (
                w.layers, w.hidden_size, w.attention_heads, w.kv_heads, w.ffn_hidden_size)),
            Cell.text(_experts(w)), Cell(Cell.text(str(w.vocabulary_size)).html, str(w.vocabulary_size), numeric=True),
            _dropout(site, w),
            Cell(site.link(w.source) + (Markup() if w.shape_source is None else " · " + site.link(w.shape_source)))],
            anchor=e.id, spec=site.spec(e.id)))
    table = Table([(say("假设", "Assumption"), False), (say("取值", "Value"), True), (say("范围", "Range"), False),
                   (say("性质", "Kind"), False), (say("来源", "Source"), False)])
    notes = []
    for entry in assumption_entities(site.kb):
        a, domain = entry.model, PARAMETERS[entry.model.parameter]
        sources = Markup(" · ").join(site.link(s) for s in (a.source, *a.also))
        table.rows.append(Row([Cell.text(localized(a.name)), _number(a.value, domain),
                               Cell.text(f"{domain.shown(a.range.low)} – {domain.shown(a.range.high)}"),
                               Cell.text(say("估计值", "estimate") if a.estimate else say("来源给出", "from the source")), Cell(sources)],
                              anchor=entry.id, spec=site.spec(entry.id)))
        notes.append((localized(a.name), localized(a.why)))
    return {"shapes": shapes, "assumptions": table, "notes": notes}
