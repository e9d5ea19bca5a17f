"""The flowchart and the recommender: layout properties on random trees, a golden SVG, the size
budget, and that every leaf is what exactly one `recommend` call answers."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ROOT

from generator.flowchart import Box, Layout, Line, Shape, ShapeNode, draw, layout
from generator.render.context import Site
from generator.render.selection import flowchart_svg
from generator.specfiles import read_spec_tree
from generator.tree import example_values, leaf_paths, recommend
from generator.validate import validate

GOLDEN_SVG = ROOT / "tests" / "golden" / "flowchart.svg"
WORDS = ["模型", "多大", "GPU", "NVLink", "InfiniBand NDR", "胖树", "预算", "A100 80GB SXM", "x", "很长的中文说明文字"]


@st.composite
def shapes(draw_: st.DrawFn) -> Shape:
    """Random trees: up to 4 levels, up to 5 answers per question, short mixed-script texts."""
    nodes: dict[str, ShapeNode] = {}
    children: dict[str, tuple[tuple[str, str], ...]] = {}
    counter = [0]

    def text() -> str:
        return "".join(draw_(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)))

    def grow(depth: int) -> str:
        counter[0] += 1
        node_id = f"n{counter[0]}"
        if depth < 3 and draw_(st.booleans()) or depth == 0:
            nodes[node_id] = ShapeNode(node_id, "question", (Line(text(), bold=True),))
            kids = [grow(depth + 1) for _ in range(draw_(st.integers(1, 5)))]
            children[node_id] = tuple((k, draw_(st.sampled_from(["1–7", "8–63", "256 及以上", "小于 13B", "预算有限"])))
                                      for k in kids)
        else:
            lines = tuple(Line(text(), href="#x" if i else None, bold=not i) for i in range(draw_(st.integers(1, 5))))
            nodes[node_id] = ShapeNode(node_id, "leaf", lines)
        return node_id

    root = grow(0)
    return Shape(root, nodes, children)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _rect(box: Box) -> tuple[float, float, float, float]:
    return (box.x, box.y, box.x + box.w, box.y + box.h)


def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float, float, float]) -> bool:
    """Does an axis-parallel segment pass through the inside of a rectangle?"""
    (x1, y1), (x2, y2) = p, q
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return lo_x < r[2] and r[0] < hi_x and lo_y < r[3] and r[1] < hi_y if lo_x != hi_x or lo_y != hi_y else False


def _check(result: Layout, shape: Shape) -> None:
    boxes = list(result.boxes.values())
    assert set(result.boxes) == set(shape.nodes)  # every node drawn, once
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _overlap(_rect(a), _rect(b)), (a.id, b.id)
    labels = [e.label_box for e in result.edges]
    for i, label in enumerate(labels):
        for box in boxes:
            assert not _overlap(label, _rect(box)), (result.edges[i].id, box.id)
        for other in labels[i + 1:]:
            assert not _overlap(label, other), result.edges[i].id
    for edge in result.edges:
        for p, q in zip(edge.points, edge.points[1:], strict=False):
            for box in boxes:
                assert not _crosses(p, q, _rect(box)), (edge.id, box.id)


@settings(max_examples=60, deadline=None)
@given(shapes())
def test_layout_has_no_overlaps_on_random_trees(shape: Shape) -> None:
    """No boxes overlap, labels touch nothing, edges cross no box, every node is drawn once."""
    _check(layout(shape), shape)


@settings(max_examples=20, deadline=None)
@given(shapes())
def test_drawing_is_deterministic(shape: Shape) -> None:
    """The same tree gives byte-identical SVG."""
    assert draw(layout(shape), "t", "d") == draw(layout(shape), "t", "d")


@pytest.fixture(scope="module")
def site() -> Site:
    result = validate(read_spec_tree(Path("specs"))[0])
    assert result.ok and result.kb is not None and result.figures is not None
    return Site(result.kb, result.figures)


def _selection(site: Site):  # type: ignore[no-untyped-def]
    return site.kb.of_kind("selection")[0].model


def test_real_flowchart_layout(site: Site) -> None:
    """The committed tree lays out cleanly too."""
    from generator.render.selection import selection_shape
    shape = selection_shape(site, _selection(site))
    _check(layout(shape), shape)


def test_golden_svg(site: Site, request: pytest.FixtureRequest) -> None:
    """The flowchart SVG equals its golden copy (refresh with --update-goldens)."""
    svg = str(flowchart_svg(site, _selection(site)))
    if request.config.getoption("--update-goldens"):
        GOLDEN_SVG.write_text(svg + "\n", encoding="utf-8")
    assert GOLDEN_SVG.read_text(encoding="utf-8") == svg + "\n"


def test_svg_budget_and_accessibility(site: Site) -> None:
    """Under 40 KB, real text with <title> and <desc>, leaves linking to their pages."""
    svg = str(flowchart_svg(site, _selection(site)))
    assert len(svg.encode("utf-8")) < 40_000
    assert "<title>" in svg and "<desc>" in svg and "<text" in svg and "<path" not in svg
    assert 'href="../gpus/#' in svg and 'href="../networks/#' in svg


def test_every_leaf_is_reached_by_exactly_one_call(site: Site) -> None:
    """Each leaf's own answers lead to it, and no leaf's answers lead anywhere else."""
    sel = _selection(site)
    paths = leaf_paths(sel)
    assert set(paths) == {leaf.id for leaf in sel.leaves}
    reached = {}
    for leaf_id, path in paths.items():
        values = example_values(sel, path)
        found = recommend(sel, values)
        assert found.leaf.id == leaf_id
        assert [s.question.id for s in found.steps] == [s.question.id for s in path]
        reached.setdefault(found.leaf.id, []).append(values)
    assert all(len(calls) == 1 for calls in reached.values())


def test_recommend_covers_the_whole_domain(site: Site) -> None:
    """Every combination of answers, boundaries included, reaches a leaf."""
    sel = _selection(site)
    for size, gpus, budget in product([0, 12, 13, 69, 70, 1000], [1, 7, 8, 63, 64, 255, 256, 10_000], ["low", "high"]):
        assert recommend(sel, {"model-size": size, "gpus": gpus, "budget": budget}).leaf


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "recommend", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_recommend_command_text_and_json() -> None:
    """The command prints the path and the pick; JSON has the same leaf; bad input exits 2."""
    text = _cli("--model-size", "70B", "--gpus", "64")
    assert text.returncode == 0 and "large-fat-tree" in text.stdout and "模型有多大？ → 70B 及以上" in text.stdout
    data = json.loads(_cli("--model-size", "70B", "--gpus", "16", "--budget", "low", "--format", "json").stdout)
    assert data["leaf"] == "large-roce" and data["picks"]["network"]["id"] == "roce-400g"
    missing = _cli("--model-size", "70B", "--gpus", "16")
    assert missing.returncode == 2 and "budget" in missing.stderr and "Traceback" not in missing.stderr
    assert _cli("--gpus", "many").returncode == 2
