"""The selection flowchart: an indented (outline) layout computed here, drawn with svgwrite.

The tree reads top to bottom, like a table of contents: each node's box sits one indent right of
its parent and below it, in depth-first order, and the answer that leads to a child is written on
a row of its own just above the child's box. A parent's trunk runs down just inside its own left
edge, and an elbow enters each child's box from the left. So the drawing's width is the indent of
the deepest level plus one box, not the sum of every level's boxes: boxes wrap their text to what
is left of COLUMN_W (the content column at 1280 px, checked in the browser), and the whole chart
fits the page without sideways scrolling or hidden boxes.

Layout is pure arithmetic on a tree shape (boxes with text lines, labelled edges), so it can be
property-tested on random trees: no edge crosses a box (a trunk runs left of every box between its
parent and its last child), and every answer label has a row of its own. Coordinates are rounded,
and whatever a link or a test can point at (the chart, each node, each edge) has an explicit id,
nothing else an id: output is byte-identical.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import svgwrite
from markupsafe import Markup

FONT = 13  # px
LINE = 18  # px between text baselines
PAD = 8  # inside a box
COLUMN_W = 680  # px: Material's content column at 1280 px is 688 px wide (61rem grid minus both sidebars)
INDENT = 30  # px per level: room for the trunk and the elbow into the child
TRUNK = 14  # the trunk's offset right of its parent box's left edge
LABEL_ROW = 20  # the answer's row above a child's box (one line; each further line adds LINE)
LABEL_FONT = FONT - 1  # answers are set a size smaller than the boxes' text
ROW_GAP = 10  # between a box and the next answer row
MAX_TEXT_W = {"question": 420, "leaf": 420}  # a comfortable line length, even where the column is wider
MIN_TEXT_W = 150  # below this a box would be a column of single characters: a deep tree grows wider instead


def text_width(text: str, size: int = FONT) -> float:
    """Width estimate for layout: CJK, full-width and other wide characters are one em, others
    ~0.66 em (generous: Noto's Latin glyphs under a CJK font stack run wide)."""
    return _width(_wide_count(text), len(text), size)


def _wide_count(text: str) -> int:
    return sum(1 for ch in text if _wide(ch))


def _width(wide: int, count: int, size: int) -> float:
    """The width of `count` characters of which `wide` are wide: from the two counts, so that a
    line's width is the same number however it was put together (`wrap` adds it up token by
    token)."""
    return size * wide + size * 0.66 * (count - wide)


def _wide(ch: str) -> bool:
    """Drawn a full em wide: everything from the CJK radicals up, and below them what Unicode
    calls wide or full-width (Hangul jamo, emoji such as U+231A), which a hostile text may use
    to run past an estimate that counted it as a Latin letter."""
    return ord(ch) > 0x2E80 or unicodedata.east_asian_width(ch) in ("W", "F")


_NO_LINE_START = set("）)，。、；：！？」』")


def _fits(token: str, width: float, size: int) -> int:
    """How many leading characters of `token` fit in `width` (at least one)."""
    wide = 0
    for index, ch in enumerate(token):
        wide += _wide(ch)
        if _width(wide, index + 1, size) > width:
            return max(1, index)
    return len(token)


_WORD = r"[A-Za-z0-9.+/()\-]+"
_LAST_WORD = re.compile(_WORD + r"$|.$")


def wrap(text: str, width: float, size: int = FONT) -> list[str]:
    """Greedy wrap: Chinese may break anywhere, Latin words stay whole where they fit, and no
    line runs past `width`. Only the plain space is a break that is dropped: a no-break space
    (U+00A0) is text, drawn where it stands. The line's width is kept as it grows (its wide
    characters and its length), so each character is measured once or twice, not once per
    character added after it: a 3,000-character answer wraps in linear time."""
    tokens = re.findall(_WORD + r" ?|.", text)
    lines, current, wide = [], "", 0  # the line so far, and how many of its characters are wide
    for token in tokens:
        token_wide = _wide_count(token)
        if current and token in _NO_LINE_START:  # closing punctuation stays with its text
            kept = _keep_with_text(current, wide, token, width, size)
            if kept is not None:
                lines += kept[:-1]
                current = kept[-1]
                wide = wide + token_wide if len(kept) == 1 else _wide_count(current)
                continue
        # a token ends in at most one space, which is narrow and dropped at a break
        bare = len(token.rstrip(" "))
        if current and _width(wide + token_wide, len(current) + bare, size) > width:
            lines.append(current.rstrip(" "))
            current, wide = "", 0
        while _width(token_wide, len(token), size) > width:  # a word longer than the line: cut it where it fills the line
            cut = _fits(token, width, size)
            lines.append(token[:cut])
            token_wide -= _wide_count(token[:cut])
            token = token[cut:]
        current += token
        wide += token_wide
    return [*lines, current.rstrip(" ")] if current.strip(" ") else lines or [""]


def _keep_with_text(current: str, wide: int, mark: str, width: float, size: int) -> list[str] | None:
    """The line `current` (`wide` of its characters wide) with a closing mark added, as the lines
    it becomes: one line if the mark fits; else the line without its last character or word, and
    a new line that starts with them and the mark. So a mark does not open a line after text, and
    no line runs past `width`, however long a run of marks (the old rule kept every mark on its
    line, past any width). None when neither can be done: the mark then starts a line."""
    if _width(wide + _wide_count(mark), len(current) + len(mark), size) <= width:
        return [current + mark]
    stem = current.rstrip(" ")
    last = _LAST_WORD.search(stem)
    if last is None:  # only spaces so far
        return None
    head, moved = stem[: last.start()].rstrip(" "), stem[last.start():] + mark
    return [head, moved] if head and text_width(moved, size) <= width else None


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
    label_y: float  # the first line's baseline
    # The label as drawn: wrapped to what is left of the column, without the spaces a break or its
    # end drops (`layout` always sets it; () draws the label as written).
    label_lines: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[str, ...]:
        return self.label_lines or (self.label,)

    @property
    def label_box(self) -> tuple[float, float, float, float]:
        width = max(text_width(line, LABEL_FONT) for line in self.lines)
        return (self.label_x, self.label_y - FONT, self.label_x + width, self.label_y + (len(self.lines) - 1) * LINE + 3)


@dataclass
class Layout:
    boxes: dict[str, Box] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    width: float = 0
    height: float = 0


def layout(shape: Shape) -> Layout:
    order, depth, kids = _spanning_tree(shape)
    labels = _labels(shape, kids)
    result = Layout()
    y = 1.0
    for n in order:  # depth first: a node's whole subtree comes before its next sibling
        label_y = y + FONT
        label_lines: list[str] = []
        if n in labels:
            # the answer wraps like a question does, to what is left of the column right of its trunk
            label_x = result.boxes[labels[n][2]].x + TRUNK + 6
            label_lines = wrap(labels[n][0], max(MIN_TEXT_W, COLUMN_W - label_x - 2), LABEL_FONT)
            y += LABEL_ROW + (len(label_lines) - 1) * LINE
        x = 1 + depth[n] * INDENT
        lines = _wrap_lines(shape.nodes[n], _text_width_at(shape.nodes[n].kind, x))
        w = max(text_width(line.text, FONT) for line in lines) + 2 * PAD
        h = len(lines) * LINE + 2 * PAD - (LINE - FONT)
        box = Box(n, shape.nodes[n].kind, round(x, 1), round(y, 1), round(w, 1), round(h, 1), lines)
        result.boxes[n] = box
        if n in labels:
            label, index, parent = labels[n]
            p = result.boxes[parent]
            trunk = round(p.x + TRUNK, 1)
            mid = round(box.y + box.h / 2, 1)
            result.edges.append(Edge(f"edge-{parent}-{index}",
                                     ((trunk, round(p.y + p.h, 1)), (trunk, mid), (box.x, mid)),
                                     label, round(trunk + 6, 1), round(label_y, 1),
                                     tuple(label_lines)))
        y += h + ROW_GAP
    result.width = round(max([b.x + b.w for b in result.boxes.values()] +
                             [e.label_box[2] for e in result.edges]) + 2, 1)
    result.height = round(max(b.y + b.h for b in result.boxes.values()) + 2, 1)
    return result


def _text_width_at(kind: str, x: float) -> float:
    """How wide a box's text may run when the box starts at `x`: what is left of the column,
    within a comfortable line length, and never so narrow that words break apart."""
    return max(MIN_TEXT_W, min(MAX_TEXT_W[kind], COLUMN_W - x - 2 * PAD - 2))


def _labels(shape: Shape, kids: dict[str, list[str]]) -> dict[str, tuple[str, int, str]]:
    """For each node placed under a parent: the answer text (answers that lead to the same child
    share one row, joined), the first such answer's index (the edge's id) and the parent."""
    found: dict[str, tuple[str, int, str]] = {}
    for parent, placed in kids.items():
        mine = set(placed)
        for index, (child, label) in enumerate(shape.children.get(parent, ())):
            if child not in mine:
                continue
            if child in found:
                text, first, _ = found[child]
                found[child] = (f"{text} / {label}", first, parent)
            else:
                found[child] = (label, index, parent)
    return found


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


def _wrap_lines(node: ShapeNode, width: float) -> tuple[Line, ...]:
    out: list[Line] = []
    for line in node.lines:
        for part in wrap(line.text, width):
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
        for row, answer in enumerate(edge.lines):
            dwg.add(dwg.text(answer, insert=(edge.label_x, round(edge.label_y + row * LINE, 1)), class_="fc-label"))
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
