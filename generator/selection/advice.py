"""An answer as data: the path through the tree, the leaf's title, reasons and pitfalls, and the
planner's answer at the reader's own point (generator/planner/report.py's object: `picks`,
`estimate`, `options`, `excluded`, `fewest_gpus`, ...). What `recommend --format json` prints; the
questionnaire builds the same object in the browser from data/tree.json and the planner's port.

The pitfalls are the leaf's own (its subject) and every pitfall that concerns a part the answer
picks (the GPU, node, intra-node link, network or topology), so a PCIe card comes with the
PCIe pitfalls without anyone adding them by hand. A communication share above the stated
threshold (specs/assumptions/, `leaf_comm_share_threshold`) comes with a warning carrying the
model's number. Pure: a validated knowledge base in, plain data out.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ..derive import FigureIndex
from ..estimates.records import leaf_threshold
from ..figure_format import plain_text
from ..knowledge import KnowledgeBase
from ..model.entities import Pcie, Pitfall
from ..model.selection import Leaf, Selection
from ..planner.plan import Option, Plan
from ..planner.report import as_data, picks
from .tree import Recommendation, Step, answer_label, variables

SEVERITY_ORDER = ("danger", "warning", "tip", "info")

Parallelism = Literal["data", "tensor", "pipeline"]


def path_data(sel: Selection, steps: tuple[Step, ...]) -> list[dict[str, str]]:
    known = variables(sel)
    return [{"question": step.question.id, "ask": step.question.ask.shown(), "variable": step.question.variable,
             "answer": answer_label(known[step.question.variable], step.answer)} for step in steps]


def concerned_ids(kb: KnowledgeBase, option: Option | None) -> list[str]:
    """The picked parts whose pitfalls an answer carries: its GPU, node and network, and its
    intra-node link only where that is PCIe (a card without NVLink: the PCIe pitfalls are about
    it; NVLink and NVSwitch pitfalls compare links and concern every server that has them)."""
    found = picks(kb, option) or {}
    wanted = []
    for field, ref in found.items():
        if ref is None:
            continue
        link = kb.get(ref["id"]) if field == "intra_node" else None
        if field in ("gpu", "node", "network") or isinstance(None if link is None else link.model, Pcie):
            wanted.append(ref["id"])
    return wanted


def pitfalls_data(kb: KnowledgeBase, leaf: Leaf, option: Option | None) -> list[dict[str, Any]]:
    """The leaf's pitfalls (`about` null), then those concerning a picked part (`about`: its id),
    by severity; each pitfall once."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for pitfall_id in leaf.pitfalls:
        entity = kb.get(pitfall_id, Pitfall)
        if entity is not None and pitfall_id not in seen:
            seen.add(pitfall_id)
            out.append({"id": pitfall_id, "severity": entity.model.severity, "title": entity.model.title.shown(),
                        "about": None})
    chosen = concerned_ids(kb, option)
    concerning = []
    for entity in kb.of_type(Pitfall):
        about = next((part for part in chosen if part in entity.model.concerns), None)
        if about is not None and entity.id not in seen:
            seen.add(entity.id)
            concerning.append({"id": entity.id, "severity": entity.model.severity, "title": entity.model.title.shown(),
                               "about": about})
    concerning.sort(key=lambda p: (SEVERITY_ORDER.index(p["severity"]), p["id"]))
    return out + concerning


def comm_warning(kb: KnowledgeBase, option: Option | None) -> dict[str, float] | None:
    """`{share, threshold}` when the answer's communication share is above the stated threshold."""
    threshold = leaf_threshold(kb)
    if option is None or threshold is None:
        return None
    share = option.estimate.step.comm_share
    return {"share": share, "threshold": threshold.model.value} if share > threshold.model.value else None


def parallelism(option: Option | None) -> list[Parallelism]:
    """The kinds of parallelism the answer's layout uses."""
    if option is None:
        return []
    lay, gpus = option.layout, option.gpus
    kinds: list[Parallelism] = [] if gpus == lay.tensor_parallel * lay.pipeline_parallel else ["data"]
    if lay.tensor_parallel > 1:
        kinds.append("tensor")
    if lay.pipeline_parallel > 1:
        kinds.append("pipeline")
    return kinds


def answer_data(kb: KnowledgeBase, figures: FigureIndex, sel: Selection, found: Recommendation, planned: Plan,
                as_of: dt.date, accuracy: dict[str, object]) -> dict[str, Any]:
    """`recommend`'s JSON object: the tree's keys, then the planner's (see planner/report.py)."""
    leaf = found.leaf
    best = planned.options[0] if planned.options else None
    data: dict[str, Any] = {
        "tree": sel.id, "path": path_data(sel, found.steps), "leaf": leaf.id, "title": leaf.title.shown(),
        "reasons": [plain_text(r.shown(), figures) for r in leaf.reasons],
        "pitfalls": pitfalls_data(kb, leaf, best),
        "parallelism": parallelism(best),
        "comm_warning": comm_warning(kb, best),
    }
    data.update(as_data(kb, planned, as_of, accuracy))
    return data
