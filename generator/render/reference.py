"""Contexts of the reference pages: claims and corrections, sources, validation rules, data
downloads; and the downloadable data files themselves (JSON and CSV of every entity)."""

from __future__ import annotations

from urllib.parse import urlsplit

from markupsafe import Markup, escape

from .. import strict_json
from ..charsets import chinese
from ..knowledge import Loaded
from ..labels import DIAGNOSTIC_SEVERITY as SEVERITY
from ..labels import FAMILY, PUBLISHER_ROLE, SOURCE_KIND, SPEC_KIND_ZH
from ..language import Bilingual, current, say
from ..load.parse import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS
from ..model import KINDS
from ..model.common import MAX_TEXT
from ..model.entities import (
    AssessedCheck,
    BoundCheck,
    Claim,
    Expr,
    RangeCheck,
    RatioExpr,
    Source,
    ValueCheck,
    VocabularyValue,
    publisher_name,
)
from ..model.runs import Run
from ..provenance import access
from ..rules.catalog import FAMILIES, RULE_EN, RULES
from ..rules.claims import claim_outcome
from ..units import fmt_number
from . import spreadsheet
from .context import Site, run_page
from .escape import inert, link
from .table import Cell, Row, Table
from .text import localized
from .trust import BASIS, SOURCE_GROUPS, VERDICT, as_written, group_title, source_page, summary_html


def _expr(site: Site, expr: Expr) -> Markup:
    if isinstance(expr, RatioExpr):
        a, b = (site.fig(r) for r in expr.ratio)
        ratio = f" = {fmt_number(a.value / b.value)}×" if a is not None and b is not None and b.value else ""
        return _ref(site, expr.ratio[0]) + Markup(" ÷ ") + _ref(site, expr.ratio[1]) + escape(ratio)
    return _ref(site, expr)


def _ref(site: Site, ref: str) -> Markup:
    entity_id = ref.partition("#")[0]
    return as_written(site.link(entity_id)) + Markup(say("：", ": ")) + site.cell(ref, show_direction=True).html


def claims(site: Site) -> dict[str, object]:
    """Each claim as a card (what the article says, the verdict, the data it was checked with, why,
    then its source and dates), grouped by verdict, corrections first: what a reader most needs.
    A card, not a table row: the explanation is the point, and a seven-column table clipped it."""
    counts = dict.fromkeys(VERDICT, 0)
    bases = dict.fromkeys(BASIS, 0)
    order = ["corrected", *(v for v in VERDICT if v != "corrected")]
    groups: dict[str, list[dict[str, object]]] = {verdict: [] for verdict in order}
    for e in sorted(site.kb.of_type(Claim), key=lambda e: (e.model.source, e.id)):
        m = e.model
        counts[m.verdict] += 1
        bases[m.basis] += 1
        outcome = claim_outcome(site.kb, site.figures, e.id)
        deviation = say("（偏差 {}%）", " (off by {}%)").format(f"{outcome.deviation_pct:.1f}") if outcome and outcome.deviation_pct is not None else ""
        groups[m.verdict].append({
            "id": e.id, "said": inert(localized(m.said)),
            # The English page quotes the article in Chinese and gives the English as a translation.
            "original": inert(m.said.zh), "translation": inert(m.said.en) if m.said.en else None,
            "data": _claim_data(site, m), "why": site.html(localized(m.why)),
            "verdict": Markup(f'<span class="verdict verdict-{m.verdict} basis-{m.basis}">'
                              f"{escape(VERDICT[m.verdict])}</span>{escape(deviation)}"),
            "basis": Markup(f'<span class="basis basis-{m.basis}">{escape(BASIS[m.basis])}</span>'),
            "source": as_written(site.link(m.source)), "verified": m.last_verified.isoformat(), "spec": site.spec_note(e.id)})
    defaults = Claim.model_fields
    return {"groups": [(verdict, VERDICT[verdict], items) for verdict, items in groups.items() if items],
            "counts": [(VERDICT[k], v) for k, v in counts.items()],
            "bases": [(BASIS[k], v) for k, v in bases.items()],
            "total": sum(counts.values()), "confirmed_pct": f"{defaults['tolerance_pct'].default:g}%",
            "approximate_pct": f"{defaults['approximate_pct'].default:g}%"}


def _claim_data(site: Site, claim: Claim) -> Markup:
    """What the data says: the figure (or range) the claim is checked against, or the documents
    a judged claim is read against."""
    check = claim.check
    if isinstance(check, (ValueCheck, BoundCheck)):
        return _expr(site, check.actual)
    if isinstance(check, RangeCheck):
        return _expr(site, check.low) + Markup(say(" 至 ", " to ")) + _expr(site, check.high)
    if isinstance(check, AssessedCheck):
        return Markup(say("对照：", "Read against: ")) + Markup(say("、", ", ")).join(
            as_written(site.link(s)) for s in check.evidence)
    return Markup("—")


def _host(url: str) -> str:
    """What a source's link shows: the host the link goes to. The whole address (every
    punctuation mark written as a character reference, see escape.py) took a fifth of the page;
    it stays in the href and in the downloads (sources.json, sources.csv)."""
    return urlsplit(url).hostname or url


def _source_item(site: Site, e: Loaded[Source], cited: dict[str, set[str]]) -> dict[str, object]:
    m = e.model
    via = None
    if m.via is not None:
        copier = publisher_name(m.via.publisher)
        via = {"publisher": copier, "publisher_zh": chinese(copier), "link": link(m.via.url, _host(m.via.url)),
               "retrieved": m.via.retrieved.isoformat()}
    publisher = publisher_name(m.publisher)
    return {"id": e.id, "title": m.title, "publisher": publisher, "kind": SOURCE_KIND[m.kind],
            # Whether the title or the publisher is (partly) Chinese: marked so on the English pages.
            "title_zh": chinese(m.title), "publisher_zh": chinese(publisher),
            "role": PUBLISHER_ROLE[m.publisher_role], "access": "article" if m.kind == "article" else access(m), "via": via,
            "link": link(m.url, _host(m.url)) if m.url else None, "page": source_page(m),
            "retrieved": m.retrieved.isoformat() if m.retrieved else None,
            "published": m.published.isoformat() if m.published else None, "note": localized(m.note),
            "cited_by": _cited_by(site, e.id, cited.get(e.id, set()))}


def _cited_by(site: Site, source_id: str, citing: set[str]) -> Markup:
    """Links to what cites a source; its measured runs (a benchmark table gives hundreds) as one
    link to where the runs page lists them."""
    runs = [entity.model for c in citing if (entity := site.kb.get(c)) is not None and isinstance(entity.model, Run)]
    links = [as_written(site.link(c)) for c in sorted(citing - {r.id for r in runs})]
    # A source's runs are on its own page; a source that only gives a run's configuration
    # (`config_source`) links to the pages of the sources that measured them.
    sections: dict[str, int] = {}
    for run in runs:
        sections[run.source] = sections.get(run.source, 0) + 1
    for section in sorted(sections, key=lambda s: (s != source_id, s)):
        links.append(Markup(say('<a href="../{}/">{} 条实测训练记录</a>', '<a href="../{}/">{} measured training runs</a>')
                            ).format(run_page(section), sections[section]))
    return Markup(say("、", ", ")).join(links)


def _source_items(site: Site) -> list[dict[str, object]]:
    def items() -> list[dict[str, object]]:
        cited = site.kb.citations()
        return [_source_item(site, e, cited) for e in site.kb.of_type(Source)]
    return site.once(f"source-items:{current()}", items)  # words: one list per language


def sources(site: Site) -> dict[str, object]:
    """The index: the provenance summary, how a source can have been read, and every source with
    the page of its kind of publisher (SOURCE_GROUPS), where its details are."""
    items = _source_items(site)
    counts = {k: sum(1 for i in items if i["access"] == k) for k in ("read", "copy", "unread")}
    groups = [{"page": page, "title": group_title(page), "count": sum(1 for i in items if i["page"] == page)}
              for page, *_ in SOURCE_GROUPS]
    return {"items": items, "access_counts": counts, "groups": groups,
            "provenance": summary_html(site.kb, title=say("全站数字的来源", "Where the site's figures come from"))}


def source_list(site: Site, page: str) -> dict[str, object]:
    """One page of SOURCE_GROUPS: each of its sources in full."""
    return {"title": group_title(page), "items": [i for i in _source_items(site) if i["page"] == page]}


def rules(_site: Site) -> dict[str, object]:
    families = []
    for family in FAMILIES:
        table = Table([(say("规则 id", "Rule id"), False), (say("级别", "Level"), False),
                       (say("检查什么", "What it checks"), False)])
        for info in RULES.values():
            if info.family == family:
                table.rows.append(Row([Cell(Markup(f"<code>{escape(info.id)}</code>")),
                                       Cell.text(SEVERITY[info.severity.value]), Cell.text(say(info.zh, RULE_EN[info.id]))],
                                      anchor=f"rule-{info.id}"))
        families.append({"id": family, "name": FAMILY[family], "table": table})
    limits = {"file_kib": MAX_FILE_BYTES // 1024, "depth": MAX_DEPTH, "scalar": MAX_SCALAR_CHARS, "text": MAX_TEXT}
    warnings = sum(1 for info in RULES.values() if info.severity.value == "warning")
    return {"families": families, "limits": limits, "count": len(RULES), "warnings": warnings}


# What each spec folder holds, for the downloads table (one entry per folder of KINDS).


VOCABULARIES = ("vendors", "architectures", "form-factors", "scale-up-families", "network-families", "precisions")
_VOCABULARY_NAME = Bilingual(zh={kind: SPEC_KIND_ZH[kind].removeprefix("词表：") for kind in VOCABULARIES},
                             en={"vendors": "Vendors", "architectures": "Architectures", "form-factors": "Form factors",
                                 "scale-up-families": "Scale-up links", "network-families": "Network types",
                                 "precisions": "Numeric precisions"})
# What a vocabulary's extra field means on the page, by field name.
_VOCAB_FIELDS = Bilingual(
    zh={"vendor": "厂商", "released": "发布年份", "flash_attention_2": "FlashAttention-2 利用率",
        "cudnn_attention_speedup": "cuDNN 注意力加速倍数", "mounting": "安装方式", "bits": "位宽", "reference": "比较基准"},
    en={"vendor": "Vendor", "released": "Year released", "flash_attention_2": "FlashAttention-2 utilisation",
        "cudnn_attention_speedup": "cuDNN attention speed-up", "mounting": "Mounting", "bits": "Bits",
        "reference": "Reference for comparisons"})
_VOCAB_FIGURES = frozenset({"flash_attention_2", "cudnn_attention_speedup"})  # shown with unit and source


def _vocab_value(value: str | bool) -> str:
    """How a vocabulary's property value reads on the page: a form factor's mounting, a flag."""
    if value is True:
        return say("是", "yes")
    if value is False:
        return ""
    return {"module": say("基板上的模块", "module on a baseboard"), "card": say("插卡", "card")}.get(value, value)


def vocabularies(site: Site) -> dict[str, object]:
    """Every vocabulary value with its id, label (in the language being written), properties and source."""
    sections = []
    for kind in VOCABULARIES:
        values = [v.model for v in site.kb.of_kind(kind) if isinstance(v.model, VocabularyValue)]
        extra = [f for f in _VOCAB_FIELDS if values and f in type(values[0]).model_fields]
        table = Table([(say("取值（id）", "Value (id)"), False), (say("名称", "Name"), False),
                       *[(_VOCAB_FIELDS[f], False) for f in extra],
                       (say("说明", "Note"), False), (say("来源", "Source"), False), (say("核对日期", "Checked"), False)])
        for m in values:
            cells = []
            for f in extra:
                value = getattr(m, f)
                if f == "vendor":
                    cells.append(Cell(site.link(value, site.kb.label_of(value))) if value else Cell.text("—"))
                elif f in _VOCAB_FIGURES:
                    cells.append(site.cell(f"{m.id}#{f}") if value is not None else Cell.text("—"))
                else:
                    cells.append(Cell.text(_vocab_value(value) if isinstance(value, (str, bool)) else value))
            table.rows.append(Row([Cell(Markup("<code>{}</code>").format(m.id)), Cell.text(localized(m.label)), *cells,
                                   Cell(site.html(localized(m.note))) if m.note else Cell.text(""),
                                   Cell(as_written(site.link(m.source))),
                                   Cell.text(m.last_verified.isoformat())], anchor=m.id, spec=site.spec(m.id)))
        sections.append({"kind": kind, "name": _VOCABULARY_NAME[kind], "table": table})
    return {"vocabularies": sections}


def downloads(site: Site) -> dict[str, object]:
    kinds = [(kind, SPEC_KIND_ZH[kind], len(site.kb.of_kind(kind))) for kind in KINDS]
    return {"kinds": kinds, "tree": bool(site.kb.of_kind("selection"))}


def data_files(site: Site) -> dict[str, str]:
    """data/<kind>.json and data/<kind>.csv: every entity as the validator read it."""
    files: dict[str, str] = {}
    for kind in KINDS:
        records = [e.model.model_dump(mode="json", exclude_none=True) for e in site.kb.of_kind(kind)]
        files[f"data/{kind}.json"] = _json_lines(records, f"data/{kind}.json")
        files[f"data/{kind}.csv"] = _csv(records)
    return files


def _json_lines(records: list[dict[str, object]], what: str) -> str:
    """A JSON array with one entity per line: still one JSON document, and easy to diff entity
    by entity."""
    if not records:
        return "[]\n"
    return "[\n" + ",\n".join(strict_json.dumps(r, what, ensure_ascii=False, sort_keys=True)
                                 for r in records) + "\n]\n"


def _csv(records: list[dict[str, object]]) -> str:
    rows = [_flatten(record) for record in records]
    columns = sorted({key for row in rows for key in row}, key=lambda k: (k != "id", k))
    return spreadsheet.table(columns, rows)


def _item_name(item: object, index: int) -> object:
    key = item.get("key") if isinstance(item, dict) else None
    return key if isinstance(key, str) else index


def _flatten(value: object, prefix: str = "") -> dict[str, object]:
    """A nested record as dotted columns; a list of plain values becomes one '; '-joined cell.
    Values are left as they are: render/spreadsheet.py makes each cell safe to open."""
    if isinstance(value, dict):
        return {column: cell for key, child in value.items()
                for column, cell in _flatten(child, f"{prefix}{key}.").items()}
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        # A keyed list (tensor precisions, NIC groups) by key, so that a column means one thing.
        return {column: cell for index, child in enumerate(value)
                for column, cell in _flatten(child, f"{prefix}{_item_name(child, index)}.").items()}
    if isinstance(value, list):
        value = "; ".join(str(item) for item in value)
    return {prefix[:-1]: value}
