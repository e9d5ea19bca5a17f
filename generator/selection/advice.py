"""The recommendation for a set of answers as data: the path through the tree, the leaf's picks,
reasons and pitfalls, and the cost model's estimate for the leaf (see leafcheck). What
`recommend --format json` prints, what the questionnaire's data file holds and what the
flowchart page shows are this one object; generator/edge/recommend.py formats it for a terminal.
Pure: a validated knowledge base in, plain data out."""

from __future__ import annotations

from typing import Any

from ..costmodel.result import Result
from ..derive import FigureIndex
from ..estimates.report import summary
from ..figure_format import plain_text
from ..knowledge import KnowledgeBase
from ..labels import PICK_ZH, RECOMPUTE_ZH
from ..model.entities import Pitfall
from ..model.selection import Selection
from .leafcheck import LeafCheck, Point, check_tree
from .tree import Recommendation, answer_label, variables


def as_data(kb: KnowledgeBase, figures: FigureIndex, sel: Selection, found: Recommendation) -> dict[str, Any]:
    known = variables(sel)
    leaf = found.leaf
    picks = {}
    for field in PICK_ZH:
        pick = leaf.picks.by_field()[field]
        if pick is not None:
            entity = kb.get(pick)
            picks[field] = {"id": pick, "name": entity.label if entity is not None else pick}
    pitfalls = []
    for pitfall_id in leaf.pitfalls:
        entity = kb.get(pitfall_id, Pitfall)
        if entity is not None:
            pitfalls.append({"id": pitfall_id, "severity": entity.model.severity, "title": entity.model.title.zh})
    checked = check_tree(kb, sel).get(leaf.id)
    estimate = None if checked is None else leaf_estimate(checked, figures)
    fits = checked is None or checked.unchecked != "" or checked.any_fits
    return {
        "tree": sel.id,
        "path": [{"question": step.question.id, "ask": step.question.ask.zh, "variable": step.question.variable,
                  "answer": answer_label(known[step.question.variable], step.answer)} for step in found.steps],
        "leaf": leaf.id, "title": leaf.title.zh,
        # Nothing is recommended where the model finds no checked point of the branch that fits:
        # the estimate then says why, and the leaf's declared need says what would.
        "picks": picks if fits else None, "parallelism": list(leaf.parallelism),
        "reasons": [plain_text(r.zh, figures) for r in leaf.reasons], "pitfalls": pitfalls,
        "conflicts": [{"table": c.table, "note": plain_text(c.note.zh, figures)} for c in leaf.conflicts],
        "estimate": estimate,
    }


def point_data(point: Point) -> dict[str, Any]:
    """One checked point: where, which layout the search kept, and the `estimate` command's JSON
    object for it (the same keys and numbers)."""
    data: dict[str, Any] = {"workload": point.workload_id, "workload_name": point.workload_name,
                            "gpus": point.gpus, "gpus_per_node": point.gpus_per_node, "fits": point.fits,
                            "why": point.why}
    if point.resolved is not None and point.estimate is not None:
        data.update(summary(point.resolved, Result((), point.estimate)))
        data["fits"] = point.fits
    return data


def leaf_estimate(checked: LeafCheck, figures: FigureIndex) -> dict[str, Any]:
    """The estimate for the leaf's configuration at its branch's hardest point (see leafcheck),
    with every point checked, the threshold and what the leaf declares."""
    leaf = checked.leaf
    hardest = checked.hardest()
    data: dict[str, Any] = {} if hardest is None else point_data(hardest)
    data.update({
        "unchecked": checked.unchecked or None,
        "comm_share_threshold": checked.threshold,
        "needs": None if leaf.needs is None else {"what": leaf.needs.what, "note": plain_text(leaf.needs.note.zh, figures)},
        "comm_warning": None if leaf.comm_warning is None else plain_text(leaf.comm_warning.note.zh, figures),
        "points": [{"workload": p.workload_id, "gpus": p.gpus, "fits": p.fits, "comm_share": p.comm_share}
                   for p in checked.points],
    })
    data["note"] = estimate_note(data)
    return data


def estimate_note(est: dict[str, Any]) -> str:
    """One sentence for a page: where the estimate is taken and with which layout (the numbers
    themselves are the object's keys)."""
    if est["unchecked"]:
        return f"按模型估算：无法估算（{est['unchecked']}）。"
    where = f"按模型估算，分支最难的一点：{est['workload_name']}，{est['gpus']} 块 GPU"
    if "inputs" not in est:
        return f"{where}：{est['why']}。"
    i = est["inputs"]
    layout = (f"张量并行 {i['tp']}、流水线并行 {i['pp']}、ZeRO-{i['zero']}、{RECOMPUTE_ZH[i['recompute']]}，"
              f"全局批 {i['global_batch']} 条 × {i['seq']} token")
    return f"{where}；布局：{layout}。" + ("" if est["fits"] else "没有一种布局放得下。")
