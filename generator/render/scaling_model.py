"""The scaling case study, modelled: beside the article's table, what the cost model predicts for
the same cluster under the layouts the study states (`modelled`), a chart of communication share
against network, and a generated paragraph on where article and model disagree.

Every number here comes from the model (`estimate` through `estimates.choice.resolve`, as the CLI runs
it) or from a figure of the study (shown through its reference, with its source); the text only
arranges them. Why they may differ is said with links to the assumptions that move the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from ..costmodel import estimate
from ..estimates.choice import Choice, resolve
from ..estimates.records import assumption_entities
from ..estimates.report import GB, chosen_outputs
from ..estimates.studies import study_choice
from ..knowledge import Loaded
from ..labels import RECOMPUTE
from ..language import say
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import ModelledLayout, ScalingRow, ScalingStudy
from ..units import fmt_number
from .chart import comm_share_chart
from .context import Site
from .table import Cell, Row, Table
from .text import inert, localized

SAME = 1e-9
"""Two estimates this close (relative) are the same number: the model cannot tell the networks apart."""
WHY_ASSUMPTIONS = ("network_collective_efficiency", "dp_overlap_fraction", "gemm_efficiency_max")
"""The assumptions that move the communication share most: named and linked in the paragraph."""


@dataclass(frozen=True)
class Outcome:
    """One layout on one network: the CLI's outputs, or why there are none."""

    layout: ModelledLayout
    row: ScalingRow
    out: dict[str, object] | None
    problem: str

    def number(self, key: str) -> float | None:
        value = None if self.out is None else self.out.get(key)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def outcomes(site: Site, study: ScalingStudy) -> list[Outcome]:
    m = study.modelled
    if m is None:
        return []
    found = []
    for layout in m.layouts:
        for row in study.rows:
            if row.network is None:
                continue
            choice = study_choice(study, layout, row.network)
            if choice is None:
                found.append(Outcome(layout, row, None, "no model"))
                continue
            found.append(Outcome(layout, row, *chosen_outputs(site.kb, choice)))
    return found


def pct(share: float | None) -> str:
    """A share as a percentage with three significant digits, or — (also the MoE page's)."""
    return "—" if share is None else f"{fmt_number(share * 100, 3)}%"


def _layout_text(layout: ModelledLayout) -> str:
    parts = [say(f"张量并行 {layout.tp}", f"tensor parallel {layout.tp}"),
             say(f"流水线并行 {layout.pp}", f"pipeline parallel {layout.pp}"), f"ZeRO-{layout.zero}",
             say(f"微批 {layout.micro_batch}", f"micro-batch {layout.micro_batch}"), RECOMPUTE[layout.recompute]]
    if layout.sequence_parallel:
        parts.append(say("序列并行", "sequence parallelism"))
    return say("，", ", ").join(parts)


def modelled(site: Site, entity: Loaded[ScalingStudy]) -> dict[str, object] | None:
    """The template context of a study's modelled section, or None when the study states none."""
    study, m = entity.model, entity.model.modelled
    if m is None:
        return None
    found = outcomes(site, study)
    rows = [r for r in study.rows if r.network is not None]
    ref = f"{entity.id}#rows."
    share = Table([(say("网络", "Network"), False), (say("文章（由吞吐反推）", "Article (from throughput)"), True)]
                  + [(inert(localized(lay.label)), True) for lay in m.layouts])
    speed = Table([(say("网络", "Network"), False), (say("文章", "Article"), True)]
                  + [(inert(localized(lay.label)), True) for lay in m.layouts])
    for row in rows:
        mine = [o for o in found if o.row.key == row.key]
        share.rows.append(Row([Cell(site.link(row.network, localized(row.label))), site.cell(f"{ref}{row.key}.comm_share")]
                              + [_share_cell(o.number("comm_share")) for o in mine]))
        speed.rows.append(Row([Cell(site.link(row.network, localized(row.label))), site.cell(f"{ref}{row.key}.cluster")]
                              + [model_cell(o.number("tokens_per_s"), _tokens(o.number("tokens_per_s"))) for o in mine]))
    layouts = []
    for layout in m.layouts:
        first = next(o for o in found if o.layout.key == layout.key)
        memory = None if first.out is None else first.out["memory_per_gpu_gb"]
        shown = ""
        if isinstance(memory, dict) and first.out is not None:
            total, usable = fmt_number(memory['total_gb'], 4), fmt_number(memory['usable_gb'], 4)
            shown = say(f"每块 GPU 需要 {total} GB 显存，扣除预留后可用 "
                        f"{usable} GB，{'放得下' if first.out['fits'] else '放不下'}",
                        f"each GPU needs {total} GB of memory, {usable} GB usable after the reserve: "
                        f"{'it fits' if first.out['fits'] else 'it does not fit'}")
        layouts.append({"label": localized(layout.label), "text": _layout_text(layout), "memory": shown,
                        "problem": inert(first.problem)})
    groups = [(localized(row.label), [(localized(lay.label), o.number("comm_share"), False)
                               for lay in m.layouts for o in found if o.row.key == row.key and o.layout.key == lay.key]
               + [(say("文章", "Article"), float(_article_share(site, ref, row)), True)]) for row in rows]
    title = say(f"{localized(study.title)}：按模型估算的通信占比", f"{localized(study.title)}: communication share by the model")
    workload = site.kb.get(m.workload, WorkloadSpec)
    return {
        "workload": site.link(m.workload, workload.model.name if workload is not None else None), "why": localized(m.why), "nics": m.nics_per_node, "seq": m.seq,
        "global_batch": m.global_batch, "note": localized(m.note) if m.note else "", "layouts": layouts,
        "share": share, "speed": speed, "chart": comm_share_chart(f"{entity.id}-model", title, groups),
        "paragraphs": disagreement(site, entity, found),
    }


MODEL_MARK = Markup('<a class="fig-derived" href="../costmodel/#assumptions" '
                    'title="成本模型估算：公式见成本模型页，输入是本案例的集群、所列布局与假设">模型</a>')
MODEL_MARK_EN = Markup('<a class="fig-derived" href="../costmodel/#assumptions" '
                       'title="Estimated by the cost model: formulas on the cost model page; inputs are this '
                       'case\'s cluster, the layouts listed and the assumptions">model</a>')
"""After each estimated figure, as a source link follows a stated one: where the number comes from
(`model_mark()` in the language being written)."""


def model_mark() -> Markup:
    return Markup(say(MODEL_MARK, MODEL_MARK_EN))


def model_cell(value: float | None, shown: str) -> Cell:
    """A figure the model estimated, marked as such and sorted by `value` (— where there is none)."""
    if value is None:
        return Cell(Markup(say('<span class="fig-none" title="无法估算">—</span>',
                               '<span class="fig-none" title="cannot be estimated">—</span>')), "", numeric=True)
    return Cell(escape(shown) + Markup(" ") + model_mark(), repr(value), numeric=True)


def _share_cell(share: float | None) -> Cell:
    """A share sorted in percent, as the article's column beside it is."""
    return model_cell(None if share is None else share * 100, pct(share))


def _tokens(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f} tok/s"


def _article_share(site: Site, ref: str, row: ScalingRow) -> float:
    figure = site.fig(f"{ref}{row.key}.comm_share")
    return 0.0 if figure is None else float(figure.value)


def disagreement(site: Site, entity: Loaded[ScalingStudy], found: list[Outcome]) -> list[Markup]:
    """Where the article and the model disagree, by how much, and why that may be: paragraphs of
    generated text whose numbers come from the model and the study's figures."""
    study, ref = entity.model, f"{entity.id}#rows."
    estimated = [o for o in found if o.number("comm_share") is not None]
    if not estimated:
        return [Markup(say("模型无法为这些布局给出估算：", "The model cannot estimate these layouts: "))
                + inert(say("；", "; ").join(sorted({o.problem for o in found})))]
    m = study.modelled
    assert m is not None
    sentences = []
    for layout in m.layouts:
        mine = [o for o in estimated if o.layout.key == layout.key]
        if not mine:
            continue
        shares = [o.number("comm_share") or 0.0 for o in mine]
        gaps = [(share - _article_share(site, ref, o.row)) * 100 for share, o in zip(shares, mine, strict=True)]
        spread = (say(f"在 {pct(min(shares))}–{pct(max(shares))} 之间", f"between {pct(min(shares))} and {pct(max(shares))}")
                  if pct(min(shares)) != pct(max(shares))
                  else say(f"在各网络上都是 {pct(min(shares))}", f"{pct(min(shares))} on every network"))
        sentences.append(Markup(say("按“{lay}”，模型的通信占比{spread}，{gap}",
                                    "With “{lay}”, the model's communication share is {spread}, {gap}")).format(
            lay=inert(localized(layout.label)), spread=spread, gap=_gap(gaps)))
    widest = max(estimated, key=lambda o: (abs((o.number("comm_share") or 0.0) - _article_share(site, ref, o.row)),
                                           o.row.key, o.layout.key))
    paragraphs = [Markup(say("；", "; ")).join(sentences) + Markup(say(
        "。差得最多的是 {net} 上的“{lay}”：文章为 {a}，模型为 {m}。",
        ". The widest gap is “{lay}” on {net}: {a} in the article, {m} in the model.")).format(
        net=site.link(widest.row.network, localized(widest.row.label)), lay=inert(localized(widest.layout.label)),
        a=site.cell(f"{ref}{widest.row.key}.comm_share").html, m=pct(widest.number("comm_share")))]
    ratios = []
    for o in estimated:
        tokens, figure = o.number("tokens_per_s"), site.fig(f"{ref}{o.row.key}.cluster")
        if tokens is not None and figure is not None and figure.value > 0:
            ratios.append(tokens / float(figure.value))
    if ratios:
        paragraphs.append(Markup(say("模型估算的集群吞吐是文章数字的 {low}–{high} 倍。",
                                     "The model's cluster throughput is {low}–{high} times the article's figure. ")).format(
            low=fmt_number(min(ratios), 3), high=fmt_number(max(ratios), 3)) + _baseline(site, entity))
    paragraphs.append(_why(site, entity, estimated))
    return paragraphs


def _gap(points: list[float]) -> str:
    """Model minus article, in percentage points, over the networks of one layout."""
    low, high = min(points), max(points)
    if high < 0:
        return say(f"比文章低 {fmt_number(-high, 3)}–{fmt_number(-low, 3)} 个百分点",
                   f"{fmt_number(-high, 3)}–{fmt_number(-low, 3)} percentage points below the article")
    if low > 0:
        return say(f"比文章高 {fmt_number(low, 3)}–{fmt_number(high, 3)} 个百分点",
                   f"{fmt_number(low, 3)}–{fmt_number(high, 3)} percentage points above the article")
    return say(f"与文章相差 −{fmt_number(-low, 3)} 到 +{fmt_number(high, 3)} 个百分点",
               f"−{fmt_number(-low, 3)} to +{fmt_number(high, 3)} percentage points from the article")


def _baseline(site: Site, entity: Loaded[ScalingStudy]) -> Markup:
    """Whether the article's one-GPU baseline can exist: the model's memory for the workload on a
    single GPU (no parallelism), when the study has an ideal row with a single-GPU figure."""
    study, m = entity.model, entity.model.modelled
    ideal = next((r for r in study.rows if r.network is None), None)
    network = next((r.network for r in study.rows if r.network is not None), None)
    if m is None or ideal is None or network is None:
        return Markup("")
    resolved = resolve(site.kb, Choice(study.gpu, 1, network, workload=m.workload, gpus_per_node=1, nics_per_node=1,
                                       zero_stage=0, sequence_length=m.seq, global_batch_size=m.global_batch))
    if isinstance(resolved, str):
        return Markup("")
    result = estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
    if result.estimate is None or result.estimate.memory.fits:
        return Markup("")
    memory = result.estimate.memory
    states = (memory.weights_bytes + memory.gradients_bytes + memory.optimizer_bytes) / GB
    return Markup(say("文章以单卡 {single} 为基线，但按模型，一块 GPU 单独训练这个负载时仅权重、梯度和优化器状态就要 {states} GB，"
                      "超过扣除预留后可用的 {usable} GB：这个基线不可能是实测的。",
                      "The article takes {single} on one GPU as its baseline, but by the model one GPU training this "
                      "workload alone needs {states} GB for the weights, gradients and optimizer states alone, more "
                      "than the {usable} GB usable after the reserve: that baseline cannot have been measured.")).format(
        single=site.cell(f"{entity.id}#rows.{ideal.key}.single_gpu").html, states=fmt_number(states, 4),
        usable=fmt_number(memory.usable_bytes / GB, 4))


def _why(site: Site, entity: Loaded[ScalingStudy], estimated: list[Outcome]) -> Markup:
    """Why article and model may differ: the article's share is derived, the model's is exposed
    communication; the assumptions that move it, linked; and networks the model cannot tell apart."""
    m = entity.model.modelled
    assert m is not None
    links = {e.model.parameter: site.link(e.id, localized(e.model.name)) for e in assumption_entities(site.kb)}
    named = Markup(say("、", ", ")).join(links[p] for p in WHY_ASSUMPTIONS if p in links)
    text = Markup(say(
        "可能的原因：文章的通信占比等于 1 − 加速比 ÷ GPU 数（校验器逐行核对），把基线的误差和一切非通信的损失都算成了通信；"
        "模型只计没有被计算掩盖的通信时间。模型的结果取决于{named}等假设，以及文章没有给出、这里自行设定的条件："
        "每节点 {nics} 块网卡，序列长度 {seq}，全局批大小 {batch}。",
        "Why they may differ: the article's communication share is 1 − speed-up ÷ GPU count (the validator checks "
        "each row), which counts the baseline's error and every loss that is not communication as communication; the "
        "model counts only communication time that compute does not hide. The model's result depends on assumptions "
        "such as {named}, and on conditions the article does not give and this page sets: {nics} NICs per node, "
        "sequence length {seq}, global batch size {batch}.")).format(
        named=named, nics=m.nics_per_node, seq=m.seq, batch=m.global_batch)
    same = _indistinguishable(site, entity, estimated)
    if same:
        text += Markup(say("模型对{pairs}给出相同的估算：它们的端口速率相同，而模型对所有网络使用同一个集合通信效率{eff}，"
                           "文章中它们的差别只能来自模型之外的因素（如拥塞控制与网络配置）。",
                           " The model gives {pairs} the same estimate: their port speeds are equal and the model uses "
                           "one collective efficiency{eff} for every network, so the difference the article shows can "
                           "only come from factors outside the model (such as congestion control and network "
                           "configuration).")).format(
            pairs=Markup(say("、", "; ")).join(Markup(say("{}与{}", "{} and {}")).format(a, b) for a, b in same),
            eff=Markup(say("（{}）", " ({})")).format(links["network_collective_efficiency"])
            if "network_collective_efficiency" in links else "")
    return text


def _indistinguishable(site: Site, entity: Loaded[ScalingStudy], estimated: list[Outcome]) -> list[tuple[Markup, Markup]]:
    """Pairs of networks whose article shares differ but whose model shares are equal in every layout."""
    rows = [r for r in entity.model.rows if r.network is not None]
    ref = f"{entity.id}#rows."
    pairs = []
    for i, first in enumerate(rows):
        for second in rows[i + 1:]:
            shares = [(a.number("comm_share"), b.number("comm_share")) for a in estimated for b in estimated
                      if a.row.key == first.key and b.row.key == second.key and a.layout.key == b.layout.key]
            equal = shares and all(x is not None and y is not None and abs(x - y) <= SAME * max(abs(x), abs(y), 1e-300)
                                   for x, y in shares)
            if equal and _article_share(site, ref, first) != _article_share(site, ref, second):
                pairs.append((site.link(first.network, localized(first.label)), site.link(second.network, localized(second.label))))
    return pairs
