"""The flowchart page: the decision tree drawn as SVG, a reading guide, and every leaf's full
recommendation (found with the same `recommend` the command line uses)."""

from __future__ import annotations

import json

from markupsafe import Markup

from ..derive import reference_precision
from ..labels import PARALLELISM_ZH, PICK_ZH
from ..model.entities import TierTable
from ..model.selection import Leaf, Selection
from ..selection.advice import as_data
from ..selection.flowchart import Line, Shape, ShapeNode, draw, layout
from ..selection.tree import (
    NoAnswer,
    Recommendation,
    Step,
    answer_label,
    example_values,
    leaf_paths,
    recommend,
    variables,
)
from .context import Site
from .leafview import estimate_view, leaf_checks
from .text import ENTITY_PAGE, inert, zh
from .trust import verdict_badge

PICK_COLUMNS = (("gpu", "GPU", "gpus"), ("intra_node", "机内", "interconnects"), ("network", "网络", "networks"),
           ("topology", "拓扑", "topologies"))


def selection_shape(site: Site, sel: Selection) -> Shape:
    known = variables(sel)
    nodes: dict[str, ShapeNode] = {}
    children: dict[str, tuple[tuple[str, str], ...]] = {}
    for question in sel.questions:
        nodes[question.id] = ShapeNode(question.id, "question", (Line(zh(question.ask), bold=True),))
        variable = known.get(question.variable)
        children[question.id] = tuple(
            (a.next, answer_label(variable, a) if variable else "") for a in question.answers)
    for leaf in sel.leaves:
        lines = [Line(zh(leaf.title), href=f"#leaf-{leaf.id}", bold=True)]
        for field, label, kind in PICK_COLUMNS:
            pick = leaf.picks.by_field()[field]
            if pick is not None:
                lines.append(Line(f"{label}：{site.name(pick)}", href=f"../{ENTITY_PAGE[kind]}/#{pick}"))
        nodes[leaf.id] = ShapeNode(leaf.id, "leaf", tuple(lines))
    return Shape(sel.root, nodes, children)


def flowchart_svg(site: Site, sel: Selection) -> Markup:
    title = zh(sel.title)
    desc = "；".join(f"{zh(q.ask)}" for q in sel.questions) + "。叶子给出推荐的 GPU、机内互连、网络与拓扑。"
    return draw(layout(selection_shape(site, sel)), title, desc)


def flowchart(site: Site) -> dict[str, object]:
    trees = []
    for entity in site.kb.of_type(Selection):
        sel = entity.model
        known = variables(sel)
        leaves = []
        paths = leaf_paths(sel)
        checks = leaf_checks(site)
        for leaf in sel.leaves:
            path = paths.get(leaf.id)
            if path is None:
                continue
            context = _leaf_context(site, leaf, [
                (zh(step.question.ask), answer_label(known[step.question.variable], step.answer))
                for step in _steps_to(sel, leaf, path)])
            context["estimate"] = estimate_view(checks.get(leaf.id), site.figures)
            leaves.append(context)
        trees.append({"id": entity.id, "title": zh(sel.title), "source": site.link(sel.source),
                      "svg": flowchart_svg(site, sel), "leaves": leaves, "verified": sel.last_verified.isoformat(),
                      "variables": [(zh(v.name), v.id) for v in sel.variables]})
    return {"trees": trees}


def _steps_to(sel: Selection, leaf: Leaf, path: tuple[Step, ...]) -> tuple[Step, ...]:
    """The steps the command's own `recommend` takes to `leaf` with answers that follow `path`;
    `path` itself when no answers reach the leaf (its questions contradict each other), so the
    leaf the chart draws keeps its section."""
    try:
        found = recommend(sel, example_values(sel, path))
    except NoAnswer:
        return path
    return found.steps if found.leaf.id == leaf.id else path


def _leaf_context(site: Site, leaf: Leaf, path: list[tuple[str, str]]) -> dict[str, object]:
    picks = []
    for field, label, _kind in PICK_COLUMNS:
        pick = leaf.picks.by_field()[field]
        if pick is not None:
            picks.append((label, site.link(pick)))
    precision = reference_precision(site.kb)
    figures = [site.cell(f"{leaf.picks.gpu}#memory.bandwidth", show_direction=True).html,
               site.cell(f"{leaf.picks.gpu}#compute.tensor.{precision}.dense").html]
    return {"id": leaf.id, "title": zh(leaf.title), "path": path, "picks": picks,
            "parallelism": "、".join(PARALLELISM_ZH[p] for p in leaf.parallelism),
            "reasons": [zh(r) for r in leaf.reasons],
            "pitfalls": [site.link(p) for p in leaf.pitfalls],
            "conflicts": [(site.link(c.table), zh(c.note), _table_verdict(site, c.table)) for c in leaf.conflicts],
            "memory_bw": figures[0], "tensor": figures[1],
            "precision": inert(site.kb.label_of(precision)) if precision else ""}


def _href(site: Site, entity_id: str) -> str | None:
    """Where an entity is shown, relative to the flowchart page (as the chart's own links)."""
    entity = site.kb.get(entity_id)
    return f"../{ENTITY_PAGE[entity.kind]}/#{entity_id}" if entity is not None and entity.kind in ENTITY_PAGE else None


def tree_data(site: Site, sel: Selection) -> dict[str, object]:
    """The tree as the phone questionnaire reads it: each question with its answers (the label
    the chart shows and the node it leads to) and each leaf with exactly what `recommend
    --format json` answers for it, less the path (the reader's own clicks are the path). So
    whatever the command adds to its answer, an `estimate` for instance, reaches the page too."""
    known = variables(sel)
    paths = leaf_paths(sel)
    nodes: dict[str, object] = {}
    for question in sel.questions:
        variable = known.get(question.variable)
        nodes[question.id] = {
            "kind": "question", "ask": zh(question.ask), "variable": question.variable,
            "answers": [{"label": answer_label(variable, a) if variable else str(a.value), "next": a.next}
                        for a in question.answers]}
    for leaf in sel.leaves:
        path = paths.get(leaf.id)
        if path is None:
            continue
        data = as_data(site.kb, site.figures, sel, Recommendation(_steps_to(sel, leaf, path), leaf))
        del data["path"]
        for pick in (data.get("picks") or {}).values():
            pick["href"] = _href(site, pick["id"])
        for pitfall in data["pitfalls"]:
            pitfall["href"] = _href(site, pitfall["id"])
        nodes[leaf.id] = {"kind": "leaf", "href": f"#leaf-{leaf.id}", "recommendation": data}
    return {"id": sel.id, "title": zh(sel.title), "root": sel.root,
            "pick_labels": PICK_ZH, "parallelism_labels": PARALLELISM_ZH, "nodes": nodes}


def data_files(site: Site) -> dict[str, str]:
    """data/tree.json: the decision tree for the questionnaire (one tree: rule tree-single)."""
    trees = site.kb.of_type(Selection)
    if not trees:
        return {}
    text = json.dumps(tree_data(site, trees[0].model), ensure_ascii=False, sort_keys=True, indent=1)
    return {"data/tree.json": text + "\n"}


def _table_verdict(site: Site, table_id: str) -> Markup:
    """The verdict on the article's tier table (its claim), shown beside the site's own pick."""
    table = site.kb.get(table_id, TierTable)
    return verdict_badge(site.kb, table.model.claim) if table is not None else Markup("")
