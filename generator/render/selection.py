"""The flowchart page and the questionnaire's data. The chart draws the decision tree (SVG) with
each leaf's example answer from the planner in every market view; the page lists each leaf's
path, reasons, answers with the model's numbers, and pitfalls. data/tree.json holds the tree, the
published workloads and the market views, from which the questionnaire asks the reader's own
model, GPU count and market and runs the planner's port in the browser: the answer `recommend`
gives for the same flags."""

from __future__ import annotations

from markupsafe import Markup

from .. import strict_json
from ..estimates.records import leaf_threshold, sound, workloads
from ..figure_format import plain_text
from ..labels import GOAL, PARALLELISM, PICK
from ..language import say
from ..model.entities import Pcie, Pitfall
from ..model.selection import Selection
from ..planner.report import TOPOLOGY
from ..selection.answers import market_views
from ..selection.flowchart import Line, Shape, ShapeNode, draw, layout
from ..selection.tree import answer_label, leaf_paths, variables
from .context import Site
from .leafview import answers, example_label, leaf_view, short_answer
from .text import localized


def selection_shape(site: Site, sel: Selection) -> Shape:
    found = answers(site)
    known = variables(sel)
    nodes: dict[str, ShapeNode] = {}
    children: dict[str, tuple[tuple[str, str], ...]] = {}
    for question in sel.questions:
        nodes[question.id] = ShapeNode(question.id, "question", (Line(localized(question.ask), bold=True),))
        variable = known.get(question.variable)
        children[question.id] = tuple(
            (a.next, answer_label(variable, a) if variable else "") for a in question.answers)
    for leaf in sel.leaves:
        lines = [Line(localized(leaf.title), href=f"#leaf-{leaf.id}", bold=True)]
        answered = found.get(leaf.id)
        if answered is not None:
            lines.append(Line(example_label(answered)))
            for view, plan in answered.plans:
                text, href = short_answer(site, plan)
                lines.append(Line(say(f"{view.name}：{text}", f"{view.name}: {text}"), href=f"../{href}" if href else None))
        nodes[leaf.id] = ShapeNode(leaf.id, "leaf", tuple(lines))
    return Shape(sel.root, nodes, children)


def flowchart_svg(site: Site, sel: Selection) -> Markup:
    title = localized(sel.title)
    desc = (say("；", "; ").join(f"{localized(q.ask)}" for q in sel.questions)
            + say("。每个叶子给出规划器在一个例子上的答案：分支里最大的已发布模型、例子的 GPU 数，各个市场各一行。",
                  ". Each leaf gives the planner's answer on one example: the branch's largest published model at "
                  "the example's GPU count, one line per market."))
    return draw(layout(selection_shape(site, sel)), title, desc)


def flowchart(site: Site) -> dict[str, object]:
    trees = []
    found = answers(site)
    for entity in site.kb.of_type(Selection):
        sel = entity.model
        known = variables(sel)
        leaves = []
        for leaf in sel.leaves:
            answered = found.get(leaf.id)
            if answered is None:
                continue
            leaves.append({"id": leaf.id, "title": localized(leaf.title),
                           "path": [(localized(step.question.ask), answer_label(known[step.question.variable], step.answer))
                                    for step in answered.steps],
                           "reasons": [localized(r) for r in leaf.reasons], **leaf_view(site, answered)})
        trees.append({"id": entity.id, "title": localized(sel.title), "source": site.link(sel.source),
                      "svg": flowchart_svg(site, sel), "leaves": leaves,
                      "verified": sel.last_verified.isoformat(),
                      "views": [v.name for v in market_views(site.kb)]})
    return {"trees": trees}


def _href(site: Site, entity_id: str) -> str | None:
    """Where an entity is shown, relative to the flowchart page (as the chart's own links)."""
    href = site.href(entity_id)
    return f"../{href}" if href else None


def tree_data(site: Site, sel: Selection) -> dict[str, object]:
    """The questionnaire's data: the tree (each question with its answers, each leaf with its
    title, reasons with their figures written out, and pitfalls), the published workloads a reader
    can name, the market views, every pitfall with what it concerns (an answer's pitfalls include
    those concerning the parts it picks), and the threshold of a communication warning."""
    known = variables(sel)
    paths = leaf_paths(sel)
    nodes: dict[str, object] = {}
    for question in sel.questions:
        variable = known.get(question.variable)
        nodes[question.id] = {
            "kind": "question", "ask": localized(question.ask), "variable": question.variable,
            "answers": [{"label": answer_label(variable, a) if variable else str(a.value), "next": a.next,
                         "value": a.value, "min": a.range.min if a.range else None,
                         "max": a.range.max if a.range else None} for a in question.answers]}
    for leaf in sel.leaves:
        if leaf.id not in paths:
            continue
        nodes[leaf.id] = {"kind": "leaf", "href": f"#leaf-{leaf.id}", "title": localized(leaf.title),
                          "reasons": [plain_text(r.shown(), site.figures) for r in leaf.reasons],
                          "pitfalls": list(leaf.pitfalls)}
    pitfalls = [{"id": p.id, "severity": p.model.severity, "title": p.model.title.shown(), "href": _href(site, p.id),
                 "concerns": list(p.model.concerns)} for p in site.kb.of_type(Pitfall)]
    threshold = leaf_threshold(site.kb)
    return {
        "id": sel.id, "title": localized(sel.title), "root": sel.root, "nodes": nodes,
        "variables": {v.id: {"name": localized(v.name), "kind": v.kind, "min": v.min, "suffix": v.suffix,
                             "values": list(v.values), "labels": {k: localized(t) for k, t in v.labels.items()}}
                      for v in sel.variables},
        "workloads": [{"id": w.id, "name": w.model.name, "parameters": w.model.parameters}
                      for w in sorted(workloads(site.kb), key=lambda w: (w.model.parameters, w.id)) if sound(w.model)],
        "markets": [{"market": v.market, "licensed": v.licensed, "name": v.name} for v in market_views(site.kb)],
        "pitfalls": pitfalls, "pcie_links": [e.id for e in site.kb.of_type(Pcie)],
        "topology": None if site.kb.get(TOPOLOGY) is None else {"id": TOPOLOGY, "name": site.name(TOPOLOGY),
                                                                 "href": _href(site, TOPOLOGY)},
        "comm_share_threshold": None if threshold is None else threshold.model.value,
        "pick_labels": dict(PICK), "parallelism_labels": dict(PARALLELISM), "goal_labels": dict(GOAL),
    }


def data_files(site: Site) -> dict[str, str]:
    """data/tree.json: the decision tree for the questionnaire (one tree: rule tree-single)."""
    trees = site.kb.of_type(Selection)
    if not trees:
        return {}
    text = strict_json.dumps(tree_data(site, trees[0].model), "data/tree.json", ensure_ascii=False, sort_keys=True,
                             indent=1)
    return {"data/tree.json": text + "\n"}
