"""`python -m generator recommend`: answer the selection tree's questions from flags and print
the path and the recommendation, as text or JSON. Flags come from the tree's variables, so a new
question in specs/selection/ is a new flag without code changes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..derive import FigureIndex
from ..knowledge import KnowledgeBase
from ..labels import PICK_ZH
from ..model.selection import Selection
from ..render.escape import json_terminal, terminal
from ..selection.advice import as_data
from ..selection.tree import NoAnswer, Value, parse_value, recommend


def parse_answers(sel: Selection, argv: list[str]) -> dict[str, Value]:
    parser = argparse.ArgumentParser(prog="python -m generator recommend", add_help=False)
    for variable in sel.variables:
        parser.add_argument(f"--{variable.id}", dest=variable.id, metavar=variable.suffix and "N" + variable.suffix or "VALUE")
    known, unknown = parser.parse_known_args(argv)
    if unknown:
        flags = " ".join(f"--{v.id}" for v in sel.variables)
        raise NoAnswer(f"unknown argument {unknown[0]!r}; this tree asks: {flags}")
    return {v.id: parse_value(v, getattr(known, v.id)) for v in sel.variables if getattr(known, v.id) is not None}


def as_text(data: dict[str, Any]) -> str:
    lines = ["路径："]
    lines += [f"  {step['ask']} → {step['answer']}" for step in data["path"]]
    lines.append(f"推荐：{data['title']}（{data['leaf']}）")
    if data["picks"] is None:
        lines.append("  按模型估算，这一分支的规模都放不下：没有可推荐的配置。")
    for field, label in PICK_ZH.items():
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
