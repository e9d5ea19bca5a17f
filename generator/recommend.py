"""`python -m generator recommend`: answer the selection tree's questions from flags and print
the path and the recommendation, as text or JSON. Flags come from the tree's variables, so a new
question in specs/selection/ is a new flag without code changes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .costmodel.model import Result
from .costmodel.report import summary
from .derive import FigureIndex
from .knowledge import KnowledgeBase
from .leafcheck import LeafCheck, Point, check_tree
from .model.entities import Pitfall
from .model.selection import Selection
from .render.escape import json_terminal, terminal
from .render.text import plain_text
from .tree import NoAnswer, Recommendation, Value, answer_label, parse_value, recommend, variables

RECOMPUTE_ZH = {"none": "不重计算", "selective": "选择性重计算", "full": "完全重计算"}
PICKS = (("gpu", "GPU"), ("intra_node", "机内互连"), ("network", "节点间网络"), ("topology", "拓扑"))


def parse_answers(sel: Selection, argv: list[str]) -> dict[str, Value]:
    parser = argparse.ArgumentParser(prog="python -m generator recommend", add_help=False)
    for variable in sel.variables:
        parser.add_argument(f"--{variable.id}", dest=variable.id, metavar=variable.suffix and "N" + variable.suffix or "VALUE")
    known, unknown = parser.parse_known_args(argv)
    if unknown:
        flags = " ".join(f"--{v.id}" for v in sel.variables)
        raise NoAnswer(f"unknown argument {unknown[0]!r}; this tree asks: {flags}")
    return {v.id: parse_value(v, getattr(known, v.id)) for v in sel.variables if getattr(known, v.id) is not None}


def as_data(kb: KnowledgeBase, figures: FigureIndex, sel: Selection, found: Recommendation) -> dict[str, Any]:
    known = variables(sel)
    leaf = found.leaf
    picks = {}
    for field, _label in PICKS:
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


def as_text(data: dict[str, Any]) -> str:
    lines = ["路径："]
    lines += [f"  {step['ask']} → {step['answer']}" for step in data["path"]]
    lines.append(f"推荐：{data['title']}（{data['leaf']}）")
    if data["picks"] is None:
        lines.append("  按模型估算，这一分支的规模都放不下：没有可推荐的配置。")
    for field, label in PICKS:
        if data["picks"] is not None and field in data["picks"]:
            pick = data["picks"][field]
            lines.append(f"  {label}：{pick['name']}（{pick['id']}）")
    lines.append("理由：")
    lines += [f"  - {reason}" for reason in data["reasons"]]
    if data["pitfalls"]:
        lines.append("注意：")
        lines += [f"  - [{p['severity']}] {p['title']}（{p['id']}）" for p in data["pitfalls"]]
    for conflict in data["conflicts"]:
        lines.append(f"与分档表 {conflict['table']} 不一致：{conflict['note']}")
    if data["estimate"] is not None:
        lines += estimate_lines(data["estimate"])
    return "\n".join(lines)


def estimate_lines(est: dict[str, Any]) -> list[str]:
    """The estimate summary: where the branch is hardest, whether it fits, and the step."""
    if est["unchecked"]:
        return [f"按模型估算：无法估算（{est['unchecked']}）"]
    lines = [f"按模型估算（分支最难的一点：{est['workload_name']}，{est['gpus']} 块 GPU）："]
    if "inputs" in est:
        i, m = est["inputs"], est["memory_per_gpu_gb"]
        lines.append(f"  布局：张量并行 {i['tp']}，流水线并行 {i['pp']}，ZeRO-{i['zero']}，重计算 {i['recompute']}，"
                     f"全局批 {i['global_batch']} × {i['seq']} token")
        lines.append(f"  显存：每卡 {m['total_gb']:.1f} GB / 可用 {m['usable_gb']:.1f} GB"
                     f"（{'放得下' if est['fits'] else '放不下'}）")
        if est["fits"]:
            lines.append(f"  每步 {est['step_time_s']:.3g} s，通信占比 {est['comm_share']:.1%}"
                         f"（警戒线 {est['comm_share_threshold']:.0%}），瓶颈：{est['bottleneck']}")
    else:
        lines.append(f"  {est['why']}")
    if est["needs"] is not None:
        lines.append(f"  需要（{est['needs']['what']}）：{est['needs']['note']}")
    if est["comm_warning"] is not None:
        lines.append(f"  通信警告：{est['comm_warning']}")
    lines += [f"  - {p['workload']}，{p['gpus']} 块 GPU：{'放得下' if p['fits'] else '放不下'}"
              + (f"，通信占比 {p['comm_share']:.1%}" if p["fits"] and p["comm_share"] is not None else "")
              for p in est["points"]]
    return lines


def run(kb: KnowledgeBase, figures: FigureIndex, argv: list[str], fmt: str) -> str:
    """The recommendation for `argv` (flags of the tree's variables), formatted."""
    trees = kb.of_type(Selection)
    if not trees:
        raise NoAnswer("no selection tree in specs/selection/")
    sel = trees[0].model
    data = as_data(kb, figures, sel, recommend(sel, parse_answers(sel, argv)))
    # Spec text goes to a terminal: no escape sequence from a spec may reach it.
    if fmt == "json":
        return json_terminal(json.dumps(data, ensure_ascii=False, indent=2))
    return terminal(as_text(data))
