"""The flowchart and the recommender: layout properties on random trees, and on the real tree the
size budget, that every leaf is what exactly one `recommend` call reaches, and that each leaf
box shows the planner's answers at its example (the SVG itself is compared byte for byte by the
golden cases, tests/golden/<case>/expected/flowchart.svg). The command runs on the fixture
knowledge base."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import BASE, cli, real_result

from generator.language import LANGUAGES, speaking
from generator.model.selection import Selection
from generator.render.context import Site
from generator.render.leafview import answers as leaf_answers
from generator.render.selection import flowchart_svg
from generator.selection.flowchart import (
    COLUMN_W,
    INDENT,
    MIN_TEXT_W,
    PAD,
    Box,
    Layout,
    Line,
    Shape,
    ShapeNode,
    draw,
    layout,
)
from generator.selection.tree import Value, example_values, leaf_paths, recommend

WORDS = ["模型", "多大", "GPU", "NVLink", "InfiniBand NDR", "胖树", "预算", "A100 80GB SXM", "x", "很长的中文说明文字"]


@st.composite
def shapes(draw_: st.DrawFn) -> Shape:
    """Random trees: up to 4 levels, up to 5 answers per question, mixed-script texts from a word
    to several lines long."""
    nodes: dict[str, ShapeNode] = {}
    children: dict[str, tuple[tuple[str, str], ...]] = {}
    counter = [0]

    def text() -> str:
        return "".join(draw_(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12)))

    def label() -> str:
        """An answer: mostly short, some a paragraph long, some one word longer than the column."""
        return draw_(st.one_of(st.sampled_from(["1–7", "8–63", "256 及以上", "小于 13B", "预算有限"]),
                               st.lists(st.sampled_from(WORDS), min_size=1, max_size=40).map("".join),
                               st.integers(1, 400).map(lambda n: "InfiniBand" * n),
                               st.integers(1, 300).map(lambda n: "很长的回答" * n)))

    def grow(depth: int) -> str:
        counter[0] += 1
        node_id = f"n{counter[0]}"
        if depth < 3 and draw_(st.booleans()) or depth == 0:
            nodes[node_id] = ShapeNode(node_id, "question", (Line(text(), bold=True),))
            kids = [grow(depth + 1) for _ in range(draw_(st.integers(1, 5)))]
            children[node_id] = tuple((k, label()) for k in kids)
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
    for parent, answers in shape.children.items():  # a child sits right of its parent and below it
        for child, _label in answers:
            assert result.boxes[child].x > result.boxes[parent].x
            assert result.boxes[child].y > result.boxes[parent].y + result.boxes[parent].h


@settings(max_examples=60, deadline=None)
@given(shapes())
def test_layout_has_no_overlaps_on_random_trees(shape: Shape) -> None:
    """No boxes overlap, labels touch nothing, edges cross no box, every node is drawn once."""
    _check(layout(shape), shape)


@settings(max_examples=60, deadline=None)
@given(shapes())
def test_the_chart_stays_within_the_column_whatever_the_answers_say(shape: Shape) -> None:
    """Answer labels wrap like box texts: however long an answer (a paragraph, a word longer than
    the column), the drawing is no wider than the content column (these trees are at most four
    levels deep, where every box still has its comfortable width)."""
    result = layout(shape)
    assert result.width <= COLUMN_W + 2, result.width
    for edge in result.edges:
        # every character is drawn, in order (a break eats the space it falls on)
        assert edge.label_box[2] <= COLUMN_W + 2, edge.id
        assert "".join(edge.lines).replace(" ", "") == edge.label.replace(" ", ""), edge.id


@settings(max_examples=20, deadline=None)
@given(shapes())
def test_drawing_is_deterministic(shape: Shape) -> None:
    """The same tree gives byte-identical SVG."""
    assert draw(layout(shape), "t", "d") == draw(layout(shape), "t", "d")


def test_layout_of_a_tree_deeper_than_the_recursion_limit() -> None:
    """A chain of questions three times deeper than Python's recursion limit lays out, each box
    one indent right of its parent and below it."""
    depth = 3 * sys.getrecursionlimit()
    nodes = {f"q{i}": ShapeNode(f"q{i}", "question", (Line("再问一次？", bold=True),)) for i in range(depth)}
    nodes["leaf"] = ShapeNode("leaf", "leaf", (Line("推荐"),))
    children = {f"q{i}": ((f"q{i + 1}" if i + 1 < depth else "leaf", "全部"),) for i in range(depth)}
    result = layout(Shape("q0", nodes, children))
    boxes = [result.boxes[f"q{i}"] for i in range(depth)] + [result.boxes["leaf"]]
    assert all(b.x - a.x == INDENT and b.y > a.y + a.h for a, b in zip(boxes, boxes[1:], strict=False))
    assert len(result.edges) == depth


def _depth(shape: Shape) -> int:
    deepest, stack = 0, [(shape.root, 0)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child, _label in shape.children.get(node, ()))
    return deepest


@settings(max_examples=60, deadline=None)
@given(shapes())
def test_layout_fits_the_content_column(shape: Shape) -> None:
    """A tree whose deepest box still has room for a readable line fits COLUMN_W: boxes wrap
    their text to the room left at their indent instead of widening the chart."""
    assert 1 + _depth(shape) * INDENT + MIN_TEXT_W + 2 * PAD <= COLUMN_W  # true for these shapes
    assert layout(shape).width <= COLUMN_W


@pytest.fixture(scope="module")
def site() -> Site:
    result = real_result()
    assert result.ok and result.kb is not None and result.figures is not None
    return Site(result.kb, result.figures)


def _selection(site: Site):  # type: ignore[no-untyped-def]
    return site.kb.of_kind("selection")[0].model


def test_real_flowchart_layout(site: Site) -> None:
    """The committed tree lays out cleanly too, within the content column."""
    from generator.render.selection import selection_shape
    shape = selection_shape(site, _selection(site))
    result = layout(shape)
    _check(result, shape)
    assert result.width <= COLUMN_W  # the browser test checks the column really is this wide


def test_svg_budget_and_accessibility(site: Site) -> None:
    """Under 40 KB, real text with <title> and <desc>, each leaf linking to its section and each
    market view's answer to the node or GPU it picks."""
    sel = _selection(site)
    svg = str(flowchart_svg(site, sel))
    assert len(svg.encode("utf-8")) < 40_000
    assert "<title>" in svg and "<desc>" in svg and "<text" in svg and "<path" not in svg
    found = leaf_answers(site)
    for leaf in sel.leaves:
        assert f'href="#leaf-{leaf.id}"' in svg
        for view, planned in found[leaf.id].plans:
            assert f">{view.name}：" in svg, (leaf.id, view.key)
            if not isinstance(planned, str) and planned.options:
                best = planned.options[0].candidate
                assert f'href="../{site.href(best.node or best.gpu)}"' in svg, (leaf.id, view.key)


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


def _boundaries(sel: Selection) -> dict[str, list[Value]]:
    """For each variable, the values worth trying: every category, and for a count each bound of
    each answer's range, the values either side of it, and one far beyond the last."""
    values: dict[str, list[Value]] = {}
    for variable in sel.variables:
        if variable.kind == "category":
            values[variable.id] = list(variable.values)
            continue
        low = variable.min or 0
        points = {low}
        for question in sel.questions:
            for answer in question.answers:
                if question.variable == variable.id and answer.range is not None:
                    edges = [answer.range.min] + ([answer.range.max] if answer.range.max is not None else [])
                    points.update(p + d for p in edges for d in (-1, 0))
        values[variable.id] = sorted(p for p in points | {max(points) * 10 + 1} if p >= low)
    return values


def test_recommend_covers_the_whole_domain(site: Site) -> None:
    """Every combination of answers, each range's boundaries included, reaches a leaf."""
    sel = _selection(site)
    values = _boundaries(sel)
    for combination in product(*values.values()):
        assert recommend(sel, dict(zip(values, combination, strict=True))).leaf


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`recommend` on the fixture base through `main` in this process (test_answers and
    test_hostile_cli run it as a new process)."""
    return cli("recommend", "--specs", str(BASE), *args)


def test_recommend_command_text_and_json() -> None:
    """The command prints the path and the planner's answer; JSON has the same leaf; bad input
    exits 2 (on the fixture knowledge base, whose tree asks --gpus, --model-size and --budget)."""
    market = ("--market", "test-restricted")
    text = _cli("--gpus", "4", "--model-size", "70B", *market)
    assert text.returncode == 0, text.stderr
    assert "test-large-node" in text.stdout and "单机：模型有多大？ → 13B 及以上" in text.stdout
    assert "至少要 48 块 GPU" in text.stdout  # the 70B scaled to 70e9 on 100G RoCE SXM2 V100s
    data = json.loads(_cli("--gpus", "128", "--model-size", "70B", *market, "--format", "json").stdout)
    # tp 4 with 16 layers of each chunk recomputed beats tp 8 without recomputation, by enough
    # for HDR to come within the planner's slack of NDR
    assert data["leaf"] == "test-large-fat-tree" and data["picks"]["network"]["id"] == "test-ib-hdr"
    missing = _cli("--gpus", "16", "--model-size", "70B", *market)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    # the missing answer is named as its flag, with the values it takes
    assert "asks for --budget low|high, which was not given" in missing.stderr, missing.stderr
    assert "asks for --model-size NB, which was not given" in _cli("--gpus", "4", "--workload", "", *market).stderr \
        or _cli("--gpus", "4", *market).returncode == 2
    assert _cli("--gpus", "many", *market).returncode == 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_tree_json_holds_what_the_questionnaire_asks(site: Site, language: str) -> None:
    """data/tree.json, which the phone questionnaire walks: every answer leads to a node in the
    file, a leaf's data is its title, its reasons as `recommend` prints them and its pitfalls;
    the workloads are the published ones a reader can name, and the markets are the views the
    planner answers in. (The questionnaire's answers equal the command's: tests/browser/.) Each
    edition has its own copy, written in its language: the English one holds no Chinese."""
    from generator.edge.recommend import parse_answers
    from generator.figure_format import plain_text
    from generator.render.selection import data_files
    from generator.selection.answers import market_views
    sel = _selection(site)
    with speaking(language):
        text = data_files(site)["data/tree.json"]
        titles = {lf.id: lf.title.shown() for lf in sel.leaves}
        reasons = {lf.id: [plain_text(r.shown(), site.figures) for r in lf.reasons] for lf in sel.leaves}
        labels = {(m.market, m.licensed): m.name for m in market_views(site.kb)}
    if language == "en":
        assert not re.search("[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]", text), "Chinese in en/data/tree.json"
    tree = json.loads(text)
    nodes = tree["nodes"]
    assert nodes[tree["root"]]["kind"] == "question"
    assert all(a["next"] in nodes for n in nodes.values() if n["kind"] == "question" for a in n["answers"])
    for leaf_id, path in leaf_paths(sel).items():
        node = tree["root"]
        for step in path:  # follow the file by the answers' positions, as the script does
            node = nodes[node]["answers"][list(step.question.answers).index(step.answer)]["next"]
        assert node == leaf_id
        leaf = next(lf for lf in sel.leaves if lf.id == leaf_id)
        assert nodes[leaf_id]["title"] == titles[leaf_id] and nodes[leaf_id]["pitfalls"] == list(leaf.pitfalls)
        assert nodes[leaf_id]["reasons"] == reasons[leaf_id]
        assert nodes[leaf_id]["href"] == f"#leaf-{leaf_id}"
    assert [(m["market"], m["licensed"]) for m in tree["markets"]] == [
        (v.market, v.licensed) for v in market_views(site.kb)]
    assert {(m["market"], m["licensed"]): m["name"] for m in tree["markets"]} == labels
    for workload in tree["workloads"]:  # each is a --workload the command takes
        flags = ["--workload", workload["id"], "--gpus", "8", "--market", tree["markets"][0]["market"]]
        flags += [arg for v in sel.variables if v.kind == "category" for arg in (f"--{v.id}", v.values[0])]
        assert parse_answers(site.kb, sel, flags).workload == workload["id"]
