"""The mixture-of-experts page: for each expert study (specs/cases/, type `expert_study`), the cost
model run for each of its layouts on each of its hardware rows, as the CLI runs it
(`estimates.choice.resolve` and `estimate`), in one table per layout, with generated sentences
that compare the rows. Every number is the model's; the study only names the workload, the
hardware and the layouts, and the assumptions page holds the overlap and imbalance it reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..estimates.records import EP_OVERLAP, EXPERT_IMBALANCE, assumption_value
from ..estimates.report import chosen_outputs
from ..estimates.studies import expert_choice
from ..knowledge import Loaded
from ..labels import RECOMPUTE
from ..language import Bilingual, say
from ..model.costs import Assumption
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import ExpertLayout, ExpertRow, ExpertStudy
from ..units import fmt_number
from .context import Site
from .scaling_model import model_cell, pct
from .table import Cell, Row, Table
from .text import inert, localized
from .trust import summary_html

BOTTLENECK = Bilingual(zh={"memory": "显存（放不下）", "compute": "计算", "intra_node": "机内互连", "network": "节点间网络"},
                       en={"memory": "memory (does not fit)", "compute": "compute", "intra_node": "intra-node interconnect",
                           "network": "inter-node network"})


@dataclass(frozen=True)
class Outcome:
    """One layout on one row: the CLI's outputs, or why there are none."""

    layout: ExpertLayout
    row: ExpertRow
    out: dict[str, object] | None
    problem: str

    def number(self, *path: str) -> float | None:
        value: object = self.out
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def outcomes(site: Site, study: ExpertStudy) -> list[Outcome]:
    overlap, imbalance = assumption_value(site.kb, EP_OVERLAP), assumption_value(site.kb, EXPERT_IMBALANCE)
    found = []
    for layout in study.layouts:
        for row in study.rows:
            out, why = chosen_outputs(site.kb, expert_choice(study, layout, row, overlap or 0.0, imbalance or 1.0))
            found.append(Outcome(layout, row, out, why))
    return found


def _layout_text(layout: ExpertLayout) -> str:
    parts = [say(f"张量并行 {layout.tp}", f"tensor parallel {layout.tp}"),
             say(f"流水线并行 {layout.pp}", f"pipeline parallel {layout.pp}"),
             say(f"专家并行 {layout.ep}", f"expert parallel {layout.ep}"), f"ZeRO-{layout.zero}",
             say(f"微批 {layout.micro_batch}", f"micro-batch {layout.micro_batch}"),
             RECOMPUTE[layout.recompute],
             say("全互联与计算重叠", "all-to-all overlapped with compute") if layout.overlap
             else say("全互联不与计算重叠", "all-to-all not overlapped with compute")]
    return say("，", ", ").join(parts)


def table(site: Site, study: ExpertStudy, layout: ExpertLayout, found: list[Outcome]) -> Table:
    t = Table([(say("节点与网络", "Node and network"), False), (say("专家组", "Expert group"), False),
               (say("每步时间", "Step time"), True), (say("每卡吞吐", "Throughput per GPU"), True),
               (say("全互联占每步", "All-to-all share of step"), True), (say("通信占每步", "Communication share of step"), True),
               (say("瓶颈", "Bottleneck"), False)])
    for o in (o for o in found if o.layout.key == layout.key):
        a2a = o.out.get("all_to_all") if o.out is not None else None
        where = "—" if not isinstance(a2a, dict) else (say("跨节点", "across nodes") if a2a.get("on_network")
                                                       else say("节点内", "within a node"))
        tokens = o.number("tokens_per_s")
        per_gpu = None if tokens is None else tokens / study.gpus
        step = o.number("step_time_s")
        bottleneck = o.out.get("bottleneck") if o.out is not None else None
        t.rows.append(Row([
            Cell(site.link(o.row.node or o.row.gpu, localized(o.row.label)) + Markup("<br>") + site.link(o.row.network)),
            Cell.text(where),
            model_cell(step, "—" if step is None else f"{fmt_number(step, 3)} s"),
            model_cell(per_gpu, "—" if per_gpu is None else f"{per_gpu:,.0f} tok/s"),
            model_cell(o.number("all_to_all", "share"), pct(o.number("all_to_all", "share"))),
            model_cell(o.number("comm_share"), pct(o.number("comm_share"))),
            Cell.text(BOTTLENECK.get(str(bottleneck), "—") if o.out is not None else o.problem)]))
    return t


def comparison(site: Site, layout: ExpertLayout, found: list[Outcome]) -> Markup:
    """One generated sentence per layout: the rows with the smallest and the largest all-to-all
    share, and their step times."""
    mine = [o for o in found if o.layout.key == layout.key and o.number("all_to_all", "share") is not None]
    if len(mine) < 2:
        problems = sorted({o.problem for o in found if o.layout.key == layout.key and o.problem})
        return (inert(say("模型无法为这一布局给出比较：", "The model cannot compare the rows of this layout: ")
                      + say("；", "; ").join(problems)) if problems else Markup(""))
    low = min(mine, key=lambda o: (o.number("all_to_all", "share") or 0.0, o.row.key))
    high = max(mine, key=lambda o: (o.number("all_to_all", "share") or 0.0, o.row.key))
    return Markup(say("全互联占每步的比例在 {low} 上最小（{a}，每步 {ta} s），在 {high} 上最大（{b}，每步 {tb} s）。",
                      "The all-to-all takes the smallest share of the step on {low} ({a}, {ta} s per step) and the "
                      "largest on {high} ({b}, {tb} s per step).")).format(
        low=site.link(low.row.node or low.row.gpu, localized(low.row.label)), a=pct(low.number("all_to_all", "share")),
        ta=fmt_number(low.number("step_time_s") or 0.0, 3),
        high=site.link(high.row.node or high.row.gpu, localized(high.row.label)), b=pct(high.number("all_to_all", "share")),
        tb=fmt_number(high.number("step_time_s") or 0.0, 3))


def page(site: Site) -> dict[str, object]:
    """The mixture-of-experts page's context: the studies, and links to the two assumptions."""
    def named(parameter: str, fallback: str) -> Markup:
        entity = next((a for a in site.kb.of_type(Assumption) if a.model.parameter == parameter), None)
        return inert(fallback) if entity is None else site.link(entity.id, localized(entity.model.name))

    return {"studies": [study(site, e) for e in site.kb.of_type(ExpertStudy)],
            "overlap": named(EP_OVERLAP, say("全互联与计算的重叠比例", "all-to-all overlap with compute")),
            "imbalance": named(EXPERT_IMBALANCE, say("专家负载不均系数", "expert load imbalance factor")),
            "provenance": summary_html(site.kb, kinds=("cases",), title=say("本页数字的来源", "Where this page's figures come from"))}


def study(site: Site, entity: Loaded[ExpertStudy]) -> dict[str, object]:
    s = entity.model
    found = outcomes(site, s)
    workload = site.kb.get(s.workload, WorkloadSpec)
    return {
        "id": entity.id, "title": localized(s.title), "why": localized(s.why),
        "workload": site.link(s.workload, workload.model.name if workload is not None else None),
        "gpus": s.gpus, "seq": s.seq, "global_batch": s.global_batch, "precision": s.precision.upper(),
        "layouts": [{"key": lay.key, "label": localized(lay.label), "text": _layout_text(lay), "table": table(site, s, lay, found),
                     "comparison": comparison(site, lay, found)} for lay in s.layouts],
        "verified": s.last_verified.isoformat(),
    }
