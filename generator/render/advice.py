"""Contexts of the advice pages: topologies, tier tables and recommendations, the scaling
case study, field reports and pitfalls."""

from __future__ import annotations

from markupsafe import Markup, escape

from ..knowledge import Loaded
from ..labels import LAYER, MODEL_SIZE, PITFALL_SEVERITY, TIER_SUBJECT
from ..language import say
from ..model.entities import Claim, FieldReport, Pitfall, Recommendation, ScalingStudy, TierTable, Topology
from . import scaling_model
from .chart import scaling_chart
from .context import Site
from .escape import inert
from .leafview import answers, side_by_side
from .table import Cell, Row, Table
from .text import localized, marked
from .trust import checked_on, summary_html, verdict_badge

SEVERITY_ORDER = ("danger", "warning", "tip", "info")


def topologies(site: Site) -> dict[str, object]:
    items = []
    for e in site.kb.of_type(Topology):
        m = e.model
        items.append({"id": e.id, "name": localized(m.name), "en": m.name.en or "", "summary": localized(m.summary),
                      "strengths": [localized(t) for t in m.strengths], "weaknesses": [localized(t) for t in m.weaknesses],
                      "sources": [site.link(s) for s in m.sources],
                      "verified": checked_on([site.sources[s] for s in m.sources if s in site.sources],
                                             m.last_verified.isoformat())})
    tables = [_tier_table(site, t) for t in site.kb.of_type(TierTable) if t.model.subject == "topology"]
    return {"items": items, "tiers": tables}


def _tier_table(site: Site, entity: Loaded[TierTable]) -> dict[str, object]:
    table = Table([(say("GPU 数", "GPUs"), True), (say("推荐", "Recommended"), False),
                   (say("原文写法", "As the article puts it"), False), (say("说明", "Note"), False)])
    for row in sorted(entity.model.rows, key=lambda r: r.gpus.min):
        picks = (Markup(say("、", ", ")).join(site.link(p) for p in row.picks) if row.picks
                 else Markup(say("（来源未给出建议）", "(the source gives no advice)")))
        table.rows.append(Row([Cell(escape(row.gpus.label()), str(row.gpus.min), numeric=True), Cell(picks),
                               Cell(marked(inert(row.said or "—"), row.said)), Cell(site.html(localized(row.note) or "—"))]))
    return {"id": entity.id, "title": localized(entity.model.title), "subject": TIER_SUBJECT[entity.model.subject],
            "source": site.link(entity.model.source), "note": localized(entity.model.note), "table": table,
            "verdict": verdict_badge(site.kb, entity.model.claim),
            "verified": entity.model.last_verified.isoformat()}


def tiers(site: Site) -> dict[str, object]:
    found = answers(site)
    tables = []
    for t in site.kb.of_type(TierTable):
        context = _tier_table(site, t)
        context["compare"] = side_by_side(site, t, found)
        tables.append(context)
    recommendations = []
    for e in site.kb.of_type(Recommendation):
        items = []
        for item in e.model.items:
            scope = [LAYER[item.layer]]
            if item.model:
                scope.append(MODEL_SIZE[item.model])
            if item.gpus:
                scope.append(f"{item.gpus.label()} GPU")
            conflict = None
            if item.conflict is not None:
                conflict = {"table": site.link(item.conflict.table), "note": localized(item.conflict.note)}
            items.append({"scope": " · ".join(scope), "said": localized(item.said), "verdict": verdict_badge(site.kb, item.claim),
                          "picks": Markup(say("、", ", ")).join(site.link(p) for p in item.picks), "conflict": conflict})
        recommendations.append({"id": e.id, "title": localized(e.model.title), "source": site.link(e.model.source),
                                "advice": items, "verified": e.model.last_verified.isoformat()})
    return {"tables": tables, "recommendations": recommendations}


def scaling(site: Site) -> dict[str, object]:
    studies = []
    for e in site.kb.of_type(ScalingStudy):
        m = e.model
        r = e.id + "#rows."
        table = Table([(say("网络", "Network"), False), (say("单卡吞吐", "Single-GPU throughput"), True),
                       (say("集群吞吐", "Cluster throughput"), True), (say("加速比", "Speed-up"), True),
                       (say("并行效率（推导）", "Parallel efficiency (derived)"), True),
                       (say("通信占比", "Communication share"), True)])
        for row in m.rows:
            label = site.link(row.network, localized(row.label)) if row.network else inert(localized(row.label))
            table.rows.append(Row([Cell(label), site.cell(f"{r}{row.key}.single_gpu"), site.cell(f"{r}{row.key}.cluster"),
                                   site.cell(f"{r}{row.key}.speedup"), site.cell(f"{r}{row.key}.efficiency"),
                                   site.cell(f"{r}{row.key}.comm_share")]))
        bars = [(localized(row.label), float(site.fig(f"{r}{row.key}.speedup").shown))  # type: ignore[union-attr]
                for row in m.rows]
        studies.append({"id": e.id, "title": localized(m.title), "workload": localized(m.workload), "gpu": site.link(m.gpu),
                        "nodes": m.nodes.value, "per_node": m.gpus_per_node.value, "gpus": m.gpus.value,
                        "source": site.link(m.source), "table": table, "caveats": [localized(c) for c in m.caveats],
                        "chart": scaling_chart(e.id, localized(m.title), bars, m.gpus.value),
                        "modelled": scaling_model.modelled(site, e),
                        "verified": m.last_verified.isoformat()})
    return {"studies": studies,
            "provenance": summary_html(site.kb, kinds=("cases",), title=say("本页数字的来源", "Where this page's figures come from"))}


def field_reports(site: Site) -> dict[str, object]:
    reports = []
    for e in site.kb.of_type(FieldReport):
        m = e.model
        setup = []
        if m.setup.gpu:
            setup.append(site.link(m.setup.gpu) + (escape(f" × {m.setup.gpus}") if m.setup.gpus else ""))
        for ref in (m.setup.interconnect, m.setup.network):
            if ref:
                setup.append(site.link(ref))
        claims = []
        for claim_id in m.claims:
            claim = site.kb.get(claim_id, Claim)
            verdict = claim.model.verdict if claim is not None else "unsupported"
            claims.append({"link": site.link(claim_id, localized(claim.model.said) if claim is not None else claim_id),
                           "verdict": verdict,
                           "badge": verdict_badge(site.kb, claim_id)})
        reports.append({"id": e.id, "title": localized(m.title), "setup": Markup(" · ").join(setup), "observation": localized(m.observation),
                        "lesson": localized(m.lesson), "claims": claims, "source": site.link(m.source),
                        "verified": m.last_verified.isoformat()})
    return {"reports": reports}


def _restated(site: Site, claim_id: str, stance: str) -> dict[str, object]:
    """A claim a pitfall restates, shown beside it with its verdict."""
    claim = site.kb.get(claim_id, Claim)
    said = localized(claim.model.said) if claim is not None else claim_id
    return {"said": said, "verdict": verdict_badge(site.kb, claim_id),
            "stance": (say("文中按事实陈述", "stated here as fact") if stance == "asserts"
                       else say("文中注明是文章的说法", "stated here as the article's claim"))}


def pitfalls(site: Site) -> dict[str, object]:
    groups = []
    for severity in SEVERITY_ORDER:
        items = [e for e in site.kb.of_type(Pitfall) if e.model.severity == severity]
        if not items:
            continue
        groups.append({"severity": severity, "label": PITFALL_SEVERITY[severity], "pitfalls": [
            {"id": e.id, "title": localized(e.model.title), "body": localized(e.model.body),
             "origin": say("来源文章", "Source article") if e.model.origin == "article" else say("编者补充", "Editor's note"),
             "source": site.link(e.model.source), "concerns": Markup(say("、", ", ")).join(site.link(c) for c in e.model.concerns),
             "commands": [(c.command, localized(c.purpose)) for c in e.model.commands],
             "restates": [_restated(site, r.claim, r.stance) for r in e.model.restates],
             "verified": e.model.last_verified.isoformat()} for e in items]})
    return {"groups": groups}
