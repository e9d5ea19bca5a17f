"""The selection flowchart: a left-to-right layered layout computed here, drawn with svgwrite.

Layout is pure arithmetic on a tree shape (boxes with text lines, labelled edges), so it can be
property-tested on random trees: leaves get rows in depth-first order, each question sits
level with its first child, columns are as wide as their widest box, and edges run
orthogonally through the gaps between columns (a trunk just right of the parent, then straight
into the child), so no edge crosses a box and every answer label has a row of its own.
Coordinates are rounded, and whatever a link or a test can point at (the chart, each node, each
edge) has an explicit id, nothing else an id: output is byte-identical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import svgwrite
from markupsafe import Markup

FONT = 13  # px
LINE = 18  # px between text baselines
PAD = 8  # inside a box
GAP = 104  # between columns: trunk, then the answer label, then the child
ROW_GAP = 14  # between stacked boxes
TRUNK = 14  # trunk offset right of the parent box
MAX_TEXT_W = {"question": 150, "leaf": 240}


def text_width(text: str, size: int = FONT) -> float:
    """Width estimate for layout: CJK and full-width characters are one em, others ~0.66 em
    (generous: Noto's Latin glyphs under a CJK font stack run wide)."""
    return sum(size if ord(ch) > 0x2E80 else size * 0.66 for ch in text)


_NO_LINE_START = set("）)，。、；：！？」』")


def wrap(text: str, width: float, size: int = FONT) -> list[str]:
    """Greedy wrap: Chinese may break anywhere, Latin words stay whole where they fit."""
    tokens = re.findall(r"[A-Za-z0-9.+/()\-]+ ?|.", text)
    lines, current = [], ""
    for token in tokens:
        if current and token in _NO_LINE_START:  # keep closing punctuation with its text
            current += token
            continue
        if current and text_width(current + token.rstrip(), size) > width:
            lines.append(current.rstrip())
            current = ""
        while text_width(token, size) > width:  # a word longer than the line: cut it
            cut = max(1, int(width / (size * 0.6)))
            lines.append(token[:cut])
            token = token[cut:]
        current += token
    return [*lines, current.rstrip()] if current.strip() else lines or [""]


@dataclass(frozen=True)
class Line:
    text: str
    href: str | None = None
    bold: bool = False


@dataclass(frozen=True)
class ShapeNode:
    id: str
    kind: str  # "question" or "leaf"
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Shape:
    """A rooted tree to draw: nodes, and children as (child id, edge label) per node."""

    root: str
    nodes: dict[str, ShapeNode]
    children: dict[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Box:
    id: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    lines: tuple[Line, ...]  # already wrapped


@dataclass(frozen=True)
class Edge:
    id: str
    points: tuple[tuple[float, float], ...]
    label: str
    label_x: float
    label_y: float  # baseline

    @property
    def label_box(self) -> tuple[float, float, float, float]:
        return (self.label_x, self.label_y - FONT, self.label_x + text_width(self.label, FONT - 1), self.label_y + 3)


@dataclass
class Layout:
    boxes: dict[str, Box] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    width: float = 0
    height: float = 0


def layout(shape: Shape) -> Layout:
    order, depth, kids = _spanning_tree(shape)
    wrapped = {n: _wrap_lines(shape.nodes[n]) for n in order}
    sizes = {n: (max(text_width(line.text, FONT) for line in wrapped[n]) + 2 * PAD,
                 len(wrapped[n]) * LINE + 2 * PAD - (LINE - FONT)) for n in order}
    columns = max(depth.values()) + 1
    col_w = [0.0] * columns
    for n in order:
        col_w[depth[n]] = max(col_w[depth[n]], sizes[n][0])
    col_x: list[float] = []
    left: float = 0  # 0, not 0.0: the first column stays at x="1", as before (byte-identical output)
    for column, width in enumerate(col_w):
        col_x.append(left + column * GAP + 1)
        left += width
    y_top = _rows(order, kids, {n: h for n, (_w, h) in sizes.items()})
    result = Layout()
    for n in order:
        w, h = sizes[n]
        result.boxes[n] = Box(n, shape.nodes[n].kind, round(col_x[depth[n]], 1), round(y_top[n], 1), round(w, 1),
                              round(h, 1), wrapped[n])
    for parent in order:
        for index, (child, label) in enumerate(shape.children.get(parent, ())):
            if child not in result.boxes:
                continue
            p, c = result.boxes[parent], result.boxes[child]
            x1, y1 = p.x + p.w, round(p.y + p.h / 2, 1)
            x2, y2 = c.x, round(c.y + c.h / 2, 1)
            trunk = round(x1 + TRUNK, 1)
            result.edges.append(Edge(f"edge-{parent}-{index}", ((x1, y1), (trunk, y1), (trunk, y2), (x2, y2)),
                                     label, round(trunk + 6, 1), round(y2 - 5, 1)))
    result.width = round(max(b.x + b.w for b in result.boxes.values()) + 2, 1)
    result.height = round(max(b.y + b.h for b in result.boxes.values()) + 2, 1)
    return result


def _spanning_tree(shape: Shape) -> tuple[list[str], dict[str, int], dict[str, list[str]]]:
    """Depth-first order from the root (children in the order given), each node's column, and
    the children each node is the first to reach. A loop, not recursion: no depth of tree can
    overflow the stack, and a node reached twice is placed once."""
    depth: dict[str, int] = {}
    order: list[str] = []
    kids: dict[str, list[str]] = {}
    stack: list[tuple[str, str | None]] = [(shape.root, None)]
    while stack:
        node_id, parent = stack.pop()
        if node_id in depth or node_id not in shape.nodes:
            continue
        depth[node_id] = 0 if parent is None else depth[parent] + 1
        order.append(node_id)
        kids[node_id] = []
        if parent is not None:
            kids[parent].append(node_id)
        for child, _label in reversed(shape.children.get(node_id, ())):
            stack.append((child, node_id))
    return order, depth, kids


def _rows(order: list[str], kids: dict[str, list[str]], heights: dict[str, float]) -> dict[str, float]:
    """Top of each box. Every leaf gets a slot at least as tall as the tallest box, in depth-first
    order, and is centred in it; a question is level with its first child, so it stays inside
    that child's slot and never meets a box of another branch in its column (and the root sits
    top left, where a reader starts)."""
    slot = max(heights.values())
    y_top: dict[str, float] = {}
    cursor = 1.0
    for n in order:
        if not kids[n]:
            y_top[n] = cursor + (slot - heights[n]) / 2
            cursor += slot + ROW_GAP
    for n in reversed(order):  # children come after their parent in `order`
        if kids[n]:
            first = kids[n][0]
            y_top[n] = y_top[first] + heights[first] / 2 - heights[n] / 2
    return y_top


def _wrap_lines(node: ShapeNode) -> tuple[Line, ...]:
    out: list[Line] = []
    for line in node.lines:
        for part in wrap(line.text, MAX_TEXT_W[node.kind]):
            out.append(Line(part, line.href, line.bold))
    return tuple(out)


def draw(result: Layout, title: str, desc: str) -> Markup:
    """The layout as an inline SVG that follows the page's light/dark palette."""
    dwg = svgwrite.Drawing(size=(f"{result.width}px", f"{result.height}px"), profile="full", debug=False,
                           id="flowchart")
    dwg.viewbox(0, 0, result.width, result.height)
    # Not role="img": the chart holds links, and an image may not contain interactive parts.
    dwg.attribs.update({"role": "figure", "aria-label": title, "class": "flowchart-svg"})
    dwg.set_desc(title=title, desc=desc)
    for edge in result.edges:
        dwg.add(dwg.polyline(edge.points, id=edge.id, class_="fc-edge"))
        dwg.add(dwg.text(edge.label, insert=(edge.label_x, edge.label_y), class_="fc-label"))
    for box in result.boxes.values():
        group = dwg.g(id=f"node-{box.id}", class_=f"fc-node fc-{box.kind}")
        group.add(dwg.rect(insert=(box.x, box.y), size=(box.w, box.h), rx=6, ry=6))
        for index, line in enumerate(box.lines):
            y = round(box.y + PAD + FONT + index * LINE - 2, 1)
            text = dwg.text(line.text, insert=(round(box.x + PAD, 1), y),
                            class_="fc-text fc-strong" if line.bold else "fc-text")
            if line.href:
                # Plain SVG 2 `href`, same tab: svgwrite's a() would write xlink:href and
                # target="_blank".
                link = dwg.a(line.href, class_="fc-link")
                link.attribs.pop("xlink:href", None)
                link.attribs.pop("target", None)
                link.attribs["href"] = line.href
                link.add(text)
                group.add(link)
            else:
                group.add(text)
        dwg.add(group)
    return Markup(dwg.tostring())
