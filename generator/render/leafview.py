"""The planner's answers as the flowchart and the tiers page show them: for each leaf of the tree,
the answer at its example point in every market view (generator/selection/answers.py), and for
each row of an article's tier table, what those answers pick for the same GPU counts.

Every number here is computed by the cost model from specs/, never typed: the page formats it."""

from __future__ import annotations

from markupsafe import Markup, escape

from ..estimates.records import leaf_threshold
from ..knowledge import Loaded
from ..labels import BOTTLENECK, GOAL, RECOMPUTE
from ..language import say
from ..model.entities import TierTable
from ..model.selection import Selection
from ..planner.plan import GENERIC_GPUS_PER_NODE, Option, Plan
from ..planner.report import picks
from ..selection.advice import comm_warning, pitfalls_data
from ..selection.answers import LeafAnswer, MarketView, leaf_answers
from .context import Site
from .table import Cell, Row, Table
from .text import inert, localized


def answers(site: Site) -> dict[str, LeafAnswer]:
    """Every leaf's answers (computed once per knowledge base)."""
    found: dict[str, LeafAnswer] = {}
    for entity in site.kb.of_type(Selection):
        if entity.model.root in {q.id for q in entity.model.questions}:
            found.update(leaf_answers(site.kb, entity.model))
    return found


def option_name(site: Site, option: Option) -> str:
    """How an answer reads: the node (or `N × GPU`), and its network when it has one."""
    c = option.candidate
    where = site.name(c.node) if c.node is not None else f"{option.gpus} × {site.name(c.gpu)}"
    return where + (f" + {site.name(c.network)}" if c.network is not None else "")


def option_href(site: Site, option: Option) -> str:
    c = option.candidate
    return site.href(c.node or c.gpu)


def example_label(found: LeafAnswer) -> str:
    model = (found.workload.model.name if found.workload is not None
             else say("（这一档没有已发布的模型）", "(no published model in this band)"))
    return say(f"例：{model}，{found.gpus} 块 GPU，{GOAL[found.goal]}",
               f"Example: {model}, {found.gpus} GPUs, {GOAL[found.goal]}")


def short_answer(site: Site, plan: Plan | str) -> tuple[str, str | None]:
    """One line for the chart: the answer's name and where it links, or why there is none."""
    if isinstance(plan, str):
        return say("无法估算", "cannot be estimated"), None
    if plan.options:
        best = plan.options[0]
        return option_name(site, best), option_href(site, best)
    if plan.fewest is not None:
        return say(f"放不下；至少要 {plan.fewest[0]} 块 GPU", f"does not fit; needs at least {plan.fewest[0]} GPUs"), None
    return say("放不下", "does not fit"), None


def _layout(option: Option) -> str:
    lay = option.layout
    n, e, f = lay.recompute_layers, lay.expert_parallel, lay.expert_tensor_parallel
    recompute = say(f"每块重计算 {n} 层", f"{n} layers a chunk recomputed") if n else RECOMPUTE[lay.recompute]
    # as the questionnaire says it (quiz.js WORDS.layout)
    experts = (say(f" × 专家并行 {e}", f" × expert parallel {e}") if e > 1 else "") + (
        say(f"（每个专家再切给 {f} 块 GPU）", f" (each expert split over {f} GPUs)") if f > 1 else "")
    return say(f"张量并行 {lay.tensor_parallel} × 流水线并行 {lay.pipeline_parallel}{experts}，ZeRO-{lay.zero_stage}，"
               f"{recompute}，全局批 {lay.global_batch_size} 条 × {lay.sequence_length} token",
               f"tensor parallel {lay.tensor_parallel} × pipeline parallel {lay.pipeline_parallel}{experts}, "
               f"ZeRO-{lay.zero_stage}, {recompute}, global batch {lay.global_batch_size} sequences × "
               f"{lay.sequence_length} tokens")


def view_row(site: Site, view: MarketView, plan: Plan | str) -> dict[str, object]:
    """One market view of a leaf: the answer and the model's numbers, or why there are none."""
    row: dict[str, object] = {"market": view.name, "key": view.key, "pick": None, "numbers": [], "warning": None,
                              "none": None}
    if isinstance(plan, str):
        row["none"] = say(f"无法估算：{plan}", f"Cannot be estimated: {plan}")
        return row
    if not plan.options:
        closest = plan.closest
        text = say("这个市场能买到的配置都放不下", "Nothing this market can buy fits")
        if closest is not None:
            m = closest.estimate.memory
            text += say(f"（最接近的 {option_name(site, closest)} 每卡要 {m.total_bytes / 1e9:.1f} GB，"
                        f"可用 {m.usable_bytes / 1e9:.1f} GB）",
                        f" (the closest, {option_name(site, closest)}, needs {m.total_bytes / 1e9:.1f} GB per GPU "
                        f"of {m.usable_bytes / 1e9:.1f} GB usable)")
        if plan.fewest is not None:
            text += say(f"；至少要 {plan.fewest[0]} 块 GPU：{option_name(site, plan.fewest[1])}",
                        f"; it takes at least {plan.fewest[0]} GPUs: {option_name(site, plan.fewest[1])}")
        row["none"] = text + say("。", ".")
        return row
    best = plan.options[0]
    e = best.estimate
    row["pick"] = Markup('<a href="../{}">{}</a>').format(option_href(site, best), inert(option_name(site, best)))
    numbers = [(say("布局", "Layout"), _layout(best)),
               (say("每卡显存", "Memory per GPU"), say(f"{e.memory.total_bytes / 1e9:.1f} GB，可用 {e.memory.usable_bytes / 1e9:.1f} GB",
                                                  f"{e.memory.total_bytes / 1e9:.1f} GB of {e.memory.usable_bytes / 1e9:.1f} GB usable")),
               (say("每步时间", "Step time"), say(f"{e.step.step_s:.3g} s，{e.step.tokens_per_s:.4g} token/s",
                                                  f"{e.step.step_s:.3g} s, {e.step.tokens_per_s:.4g} tokens/s")),
               (say("通信占比", "Communication share"), f"{e.step.comm_share:.1%}"),
               (say("瓶颈", "Bottleneck"), BOTTLENECK.get(e.bottleneck, e.bottleneck))]
    others = [option_name(site, o) for o in plan.options[1:4]]
    if others:
        numbers.append((say("其他系列里最好的", "Best of the other families"), say("、", ", ").join(others)))
    row["numbers"] = numbers
    warning = comm_warning(site.kb, best)
    if warning is not None:
        row["warning"] = (f"{warning['share']:.1%}", f"{warning['threshold']:.0%}")
    return row


def leaf_view(site: Site, found: LeafAnswer) -> dict[str, object]:
    """A leaf's section: its example, each market view's answer, and the pitfalls of its subject
    and of the parts the answers pick (each once)."""
    pitfalls: dict[str, dict[str, object]] = {}
    for _view, plan in found.plans:
        best = plan.options[0] if not isinstance(plan, str) and plan.options else None
        for p in pitfalls_data(site.kb, found.leaf, best):
            pitfalls.setdefault(str(p["id"]), p)
    threshold = leaf_threshold(site.kb)
    return {"example": example_label(found),
            "rows": [view_row(site, view, plan) for view, plan in found.plans],
            "threshold": None if threshold is None else f"{threshold.model.value:.0%}",
            "pitfalls": [(site.link(str(p["id"])), site.name(str(p["about"])) if p["about"] else None)
                         for p in pitfalls.values()]}


def side_by_side(site: Site, table: Loaded[TierTable], found: dict[str, LeafAnswer]) -> Table | None:
    """For each row of an article's tier table: the article's picks, and what the planner picks for
    the subject at every leaf example within the row's GPU counts, market view by market view."""
    subject = table.model.subject
    if not found:
        return None
    out = Table([(say("GPU 数", "GPUs"), True), (say("文章建议", "Article's advice"), False),
                 (say("规划器在这个区间里的例子", "Planner's examples in this range"), False)])
    for row in sorted(table.model.rows, key=lambda r: r.gpus.min):
        article = (Markup(say("、", ", ")).join(site.link(p) for p in row.picks) if row.picks
                   else Markup(say("（未给出建议）", "(no advice given)")))
        first = Cell(escape(row.gpus.label()), str(row.gpus.min), numeric=True)
        if subject in ("network", "topology") and row.gpus.max is not None and row.gpus.max - 1 <= GENERIC_GPUS_PER_NODE:
            # Counts that fit in one server use no network: no answer's network says anything about them.
            out.rows.append(Row([first, Cell(article), Cell(Markup(say("这些 GPU 装在一台服务器里，用不到节点间网络",
                                                                       "These GPUs fit in one server: no inter-node network is used")))]))
            continue
        ours = [_example(site, answer, subject) for answer in found.values()
                if row.gpus.min <= answer.gpus and (row.gpus.max is None or answer.gpus < row.gpus.max)]
        out.rows.append(Row([first, Cell(article), Cell(Markup("<br>").join(ours) if ours else Markup("—"))]))
    return out


def _example(site: Site, found: LeafAnswer, subject: str) -> Markup:
    """`leaf title（例：…）：全球 X；中国大陆 Y`, with each answer's communication share."""
    parts = []
    for view, plan in found.plans:
        best = plan.options[0] if not isinstance(plan, str) and plan.options else None
        if best is None:
            parts.append(Markup(say("{} 放不下", "{}: does not fit")).format(view.name))
            continue
        ref = (picks(site.kb, best) or {}).get(subject)
        pick = site.link(ref["id"]) if ref else Markup(say("（不需要）", "(none needed)"))
        parts.append(Markup(say("{} {}（通信占比 {}）", "{}: {} (communication share {})")).format(
            view.name, pick, f"{best.estimate.step.comm_share:.1%}"))
    return Markup(say('<a href="../flowchart/#leaf-{}">{}</a>（{}）：{}', '<a href="../flowchart/#leaf-{}">{}</a> ({}): {}')).format(
        found.leaf.id, inert(localized(found.leaf.title)), inert(example_label(found)), Markup(say("；", "; ")).join(parts))
