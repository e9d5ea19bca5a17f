"""`python -m generator recommend`: answer the selection tree's questions from flags and print
the path and the recommendation, as text or JSON. Flags come from the tree's variables, so a new
question in specs/selection/ is a new flag without code changes."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .derive import FigureIndex
from .knowledge import KnowledgeBase
from .model.entities import Pitfall
from .model.selection import Selection
from .render.escape import json_terminal, terminal
from .render.text import plain_text
from .tree import NoAnswer, Recommendation, Value, answer_label, parse_value, recommend, variables

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
    return {
        "tree": sel.id,
        "path": [{"question": step.question.id, "ask": step.question.ask.zh, "variable": step.question.variable,
                  "answer": answer_label(known[step.question.variable], step.answer)} for step in found.steps],
        "leaf": leaf.id, "title": leaf.title.zh, "picks": picks, "parallelism": list(leaf.parallelism),
        "reasons": [plain_text(r.zh, figures) for r in leaf.reasons], "pitfalls": pitfalls,
        "conflicts": [{"table": c.table, "note": plain_text(c.note.zh, figures)} for c in leaf.conflicts],
    }


def as_text(data: dict[str, Any]) -> str:
    lines = ["路径："]
    lines += [f"  {step['ask']} → {step['answer']}" for step in data["path"]]
    lines.append(f"推荐：{data['title']}（{data['leaf']}）")
    for field, label in PICKS:
        if field in data["picks"]:
            pick = data["picks"][field]
            lines.append(f"  {label}：{pick['name']}（{pick['id']}）")
    lines.append("理由：")
    lines += [f"  - {reason}" for reason in data["reasons"]]
    if data["pitfalls"]:
        lines.append("注意：")
        lines += [f"  - [{p['severity']}] {p['title']}（{p['id']}）" for p in data["pitfalls"]]
    for conflict in data["conflicts"]:
        lines.append(f"与分档表 {conflict['table']} 不一致：{conflict['note']}")
    return "\n".join(lines)


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
