"""Contexts of the reference pages: claims and corrections, sources, validation rules, data
downloads; and the downloadable data files themselves (JSON and CSV of every entity)."""

from __future__ import annotations

import csv
import io
import json

from markupsafe import Markup, escape

from ..load import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS
from ..model import KINDS
from ..model.common import MAX_TEXT
from ..model.entities import BoundCheck, Claim, Expr, RangeCheck, RatioExpr, Source, ValueCheck
from ..rules.catalog import FAMILIES, RULES
from ..rules.claims import claim_outcome
from ..units import fmt_number
from .advice import VERDICT_ZH
from .context import Site
from .escape import link
from .table import Cell, Row, Table
from .text import zh

KIND_ZH = {"datasheet": "数据手册", "standard": "标准", "documentation": "厂商文档", "paper": "论文",
           "measurement": "实测", "article": "文章", "estimate": "估算"}
FAMILY_ZH = {"yaml": "YAML 语法与安全", "schema": "结构", "refs": "引用", "units": "单位", "arithmetic": "算术",
             "claims": "论断", "tables": "表格与分档", "tree": "选型决策树",
             "model": "成本模型", "sources": "来源"}


def _expr(site: Site, expr: Expr) -> Markup:
    if isinstance(expr, RatioExpr):
        a, b = (site.fig(r) for r in expr.ratio)
        ratio = f" = {fmt_number(a.value / b.value)}×" if a is not None and b is not None and b.value else ""
        return _ref(site, expr.ratio[0]) + Markup(" ÷ ") + _ref(site, expr.ratio[1]) + escape(ratio)
    return _ref(site, expr)


def _ref(site: Site, ref: str) -> Markup:
    entity_id = ref.partition("#")[0]
    return site.link(entity_id) + Markup("：") + site.cell(ref, show_direction=True).html


def claims(site: Site) -> dict[str, object]:
    counts = dict.fromkeys(VERDICT_ZH, 0)
    table = Table([("文章的说法", False), ("出处", False), ("数据", False), ("结论", False), ("说明", False),
                   ("核对日期", False)])
    order = list(VERDICT_ZH)
    # Corrections first (what a reader most needs), then by article and id.
    for e in sorted(site.kb.of_type(Claim), key=lambda e: (order.index(e.model.verdict) if e.model.verdict != "corrected"
                                                              else -1, e.model.source, e.id)):
        m = e.model
        counts[m.verdict] += 1
        check = m.check
        if isinstance(check, (ValueCheck, BoundCheck)):
            data = _expr(site, check.actual)
        elif isinstance(check, RangeCheck):
            data = _expr(site, check.low) + Markup(" 至 ") + _expr(site, check.high)
        else:
            data = Markup("—")
        outcome = claim_outcome(site.kb, site.figures, e.id)
        deviation = f"（偏差 {outcome.deviation_pct:.1f}%）" if outcome and outcome.deviation_pct is not None else ""
        verdict = Markup(f'<span class="verdict verdict-{m.verdict}">{escape(VERDICT_ZH[m.verdict])}</span>'
                         f"{escape(deviation)}")
        table.rows.append(Row([Cell.text(zh(m.said)), Cell(site.link(m.source)), Cell(data), Cell(verdict),
                               Cell(site.html(zh(m.why))), Cell.text(m.last_verified.isoformat())], anchor=e.id, spec=site.spec(e.id)))
    defaults = Claim.model_fields
    return {"claims_table": table, "counts": [(VERDICT_ZH[k], v) for k, v in counts.items()],
            "total": sum(counts.values()), "confirmed_pct": f"{defaults['tolerance_pct'].default:g}%",
            "approximate_pct": f"{defaults['approximate_pct'].default:g}%"}


def sources(site: Site) -> dict[str, object]:
    cited = site.kb.citations()
    items = []
    for e in site.kb.of_type(Source):
        m = e.model
        items.append({"id": e.id, "title": m.title, "publisher": m.publisher, "kind": KIND_ZH[m.kind],
                      "link": link(m.url) if m.url else None,
                      "retrieved": m.retrieved.isoformat() if m.retrieved else None,
                      "published": m.published.isoformat() if m.published else None, "note": zh(m.note),
                      "cited_by": Markup("、").join(site.link(c) for c in sorted(cited.get(e.id, ())))})
    return {"items": items}


# How a diagnostic's severity is named on the rules page and in the serve-time problem lists.
SEVERITY_ZH = {"error": "错误", "warning": "警告"}


def rules(_site: Site) -> dict[str, object]:
    families = []
    for family in FAMILIES:
        table = Table([("规则 id", False), ("级别", False), ("检查什么", False)])
        for info in RULES.values():
            if info.family == family:
                table.rows.append(Row([Cell(Markup(f"<code>{escape(info.id)}</code>")),
                                       Cell.text(SEVERITY_ZH[info.severity.value]), Cell.text(info.zh)],
                                      anchor=f"rule-{info.id}"))
        families.append({"id": family, "name": FAMILY_ZH[family], "table": table})
    limits = {"file_kib": MAX_FILE_BYTES // 1024, "depth": MAX_DEPTH, "scalar": MAX_SCALAR_CHARS, "text": MAX_TEXT}
    warnings = sum(1 for info in RULES.values() if info.severity.value == "warning")
    return {"families": families, "limits": limits, "count": len(RULES), "warnings": warnings}


# What each spec folder holds, for the downloads table (one entry per folder of KINDS).
KIND_NAME_ZH = {"sources": "来源", "gpus": "GPU", "interconnects": "机内互连", "networks": "节点间网络",
                "layers": "通信层次", "topologies": "网络拓扑", "tiers": "分档表", "recommendations": "选型推荐",
                "cases": "案例（扩展性与实战）", "pitfalls": "避坑条目", "claims": "文章论断", "selection": "选型决策树",
                "workloads": "训练负载（模型形状）", "assumptions": "成本模型假设"}


def downloads(site: Site) -> dict[str, object]:
    kinds = [(kind, KIND_NAME_ZH[kind], len(site.kb.of_kind(kind))) for kind in KINDS]
    return {"kinds": kinds}


def data_files(site: Site) -> dict[str, str]:
    """data/<kind>.json and data/<kind>.csv: every entity as the validator read it."""
    files: dict[str, str] = {}
    for kind in KINDS:
        records = [e.model.model_dump(mode="json", exclude_none=True) for e in site.kb.of_kind(kind)]
        files[f"data/{kind}.json"] = _json_lines(records)
        files[f"data/{kind}.csv"] = _csv(records)
    return files


def _json_lines(records: list[dict[str, object]]) -> str:
    """A JSON array with one entity per line: still one JSON document, and easy to diff entity
    by entity."""
    if not records:
        return "[]\n"
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in records) + "\n]\n"


def _csv(records: list[dict[str, object]]) -> str:
    rows = [_flatten(record) for record in records]
    columns = sorted({key for row in rows for key in row}, key=lambda k: (k != "id", k))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row.get(column) for column in columns])  # a missing column is None: an empty cell
    return out.getvalue()


def _flatten(value: object, prefix: str = "") -> dict[str, object]:
    """A nested record as dotted columns; a list of plain values becomes one '; '-joined cell.
    A text starting with =, +, - or @ would run as a formula in a spreadsheet: it gets a quote."""
    if isinstance(value, dict):
        return {column: cell for key, child in value.items()
                for column, cell in _flatten(child, f"{prefix}{key}.").items()}
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        return {column: cell for index, child in enumerate(value)
                for column, cell in _flatten(child, f"{prefix}{index}.").items()}
    if isinstance(value, list):
        value = "; ".join(str(item) for item in value)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        value = "'" + value
    return {prefix[:-1]: value}
