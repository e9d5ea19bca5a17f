"""The selection flowchart against hostile texts (generator/selection/flowchart.py): an answer, a
question or a leaf line of any length and any characters, CJK or Latin, with or without spaces,
a run of closing punctuation, wide letters below the CJK block, never makes the drawn SVG wider
than the content column, and every character of it is drawn, in order. The width is read from
the SVG that `draw` writes (its width attribute and its viewBox), not from the layout alone.

The trees here are as deep as the real one can be drawn in the column (`DEEPEST`); deeper trees
still widen the chart by one indent per level (the chart's container scrolls sideways)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import BASE, ROOT
from test_flowchart import _check

from generator.selection.flowchart import (
    COLUMN_W,
    FONT,
    INDENT,
    LABEL_FONT,
    MIN_TEXT_W,
    PAD,
    TRUNK,
    Line,
    Shape,
    ShapeNode,
    draw,
    layout,
    text_width,
    wrap,
)

# The deepest level whose box still has MIN_TEXT_W of text inside the column.
DEEPEST = int((COLUMN_W - 2 - MIN_TEXT_W - 2 * PAD - 2) // INDENT)

CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
LATIN = st.sampled_from("abcdefghijklmnopqrstuvwxyzWM0123456789")
PUNCTUATION = st.sampled_from("）)，。、；：！？」』（(-–/.+ ")
WIDE_BELOW_CJK = st.sampled_from("\u1100\u1112\u115e\u231a\u2614\u26bd")  # Hangul jamo, emoji: wide, below U+2E80
ANY = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs"))


def _texts() -> st.SearchStrategy[str]:
    """Short and long, with spaces and without: a paragraph of mixed words, one Latin or CJK word
    longer than the column, a run of closing punctuation, or any characters at all."""
    word = st.text(st.one_of(CJK, LATIN), min_size=1, max_size=60)
    return st.one_of(
        st.lists(st.one_of(word, PUNCTUATION), min_size=1, max_size=60).map(" ".join),
        st.tuples(st.one_of(LATIN, CJK), st.integers(100, 3000)).map(lambda t: t[0] * t[1]),
        st.tuples(st.text(st.one_of(CJK, LATIN), max_size=20), st.sampled_from("）。」，"), st.integers(1, 500))
        .map(lambda t: t[0] + t[1] * t[2]),
        st.text(st.one_of(CJK, LATIN, PUNCTUATION, WIDE_BELOW_CJK, ANY), min_size=1, max_size=400),
    )


# Made once: a strategy built anew for each text drawn cost four fifths of the chain test's time
# (Hypothesis resolving its character sets each time), against a fifth for the layout under test.
TEXTS = _texts()


@st.composite
def chains(draw_: st.DrawFn) -> Shape:
    """A chain of questions as deep as DEEPEST, each with a second answer to a leaf; every text,
    answers included, drawn from `_texts`."""
    depth = draw_(st.integers(1, DEEPEST))
    nodes: dict[str, ShapeNode] = {}
    children: dict[str, tuple[tuple[str, str], ...]] = {}
    for level in range(depth):
        nodes[f"q{level}"] = ShapeNode(f"q{level}", "question", (Line(draw_(TEXTS), bold=True),))
        nodes[f"l{level}"] = ShapeNode(f"l{level}", "leaf", tuple(
            Line(draw_(TEXTS), href="#x" if i else None, bold=not i) for i in range(draw_(st.integers(1, 3)))))
        following = f"q{level + 1}" if level + 1 < depth else f"l{depth}"
        children[f"q{level}"] = ((following, draw_(TEXTS)), (f"l{level}", draw_(TEXTS)))
    nodes[f"l{depth}"] = ShapeNode(f"l{depth}", "leaf", (Line(draw_(TEXTS), bold=True),))
    return Shape("q0", nodes, children)


def _svg_width(svg: str) -> float:
    width = re.search(r'<svg[^>]* width="([0-9.]+)px"', svg)
    view = re.search(r'<svg[^>]* viewBox="0,0,([0-9.]+),', svg)
    assert width is not None and view is not None, svg[:300]
    assert float(width.group(1)) == float(view.group(1))
    return float(width.group(1))


def _chain_ending_in(answer: str) -> Shape:
    """A chain as deep as DEEPEST whose every text is "0" but the deepest question's first answer."""
    nodes = {f"{kind}{level}": ShapeNode(f"{kind}{level}", "question" if kind == "q" else "leaf", (Line("0", bold=True),))
             for level in range(DEEPEST) for kind in "ql"}
    nodes[f"l{DEEPEST}"] = ShapeNode(f"l{DEEPEST}", "leaf", (Line("0", bold=True),))
    children = {f"q{level}": ((f"q{level + 1}" if level + 1 < DEEPEST else f"l{DEEPEST}",
                               answer if level == DEEPEST - 1 else "0"), (f"l{level}", "0")) for level in range(DEEPEST)}
    return Shape("q0", nodes, children)


# Found by the test below: an answer that fits the column on one line but for the spaces after it.
# The wrap dropped them; the one-line label was then measured (and drawn) from the text as written.
_ROOM = COLUMN_W - (1 + (DEEPEST - 1) * INDENT + TRUNK + 6) - 2  # what the deepest answer's line has


@settings(max_examples=150, deadline=None)
@given(chains())
@example(_chain_ending_in("亊" * int(max(MIN_TEXT_W, _ROOM) // LABEL_FONT) + " " * 8))
def test_the_drawn_chart_fits_the_column_whatever_the_texts(shape: Shape) -> None:
    result = layout(shape)
    _check(result, shape)  # still no overlaps and no crossings
    assert _svg_width(str(draw(result, "t", "d"))) <= COLUMN_W + 2
    for box in result.boxes.values():
        assert box.x + box.w <= COLUMN_W + 2, box.id
    for edge in result.edges:
        assert edge.label_box[2] <= COLUMN_W + 2, edge.id
        # every character drawn, in order (a break eats the space it falls on)
        assert "".join(edge.lines).replace(" ", "") == edge.label.replace(" ", ""), edge.id


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(MIN_TEXT_W, COLUMN_W), st.sampled_from([FONT, LABEL_FONT]))
@example("\xa0", 150, 13)  # a no-break space is text, not a break: it was dropped
def test_no_wrapped_line_runs_past_its_width(text: str, width: int, size: int) -> None:
    lines = wrap(text, width, size)
    assert all(text_width(line, size) <= width for line in lines), [ln for ln in lines if text_width(ln, size) > width]
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_a_line_exactly_as_wide_as_its_room_stays_one_line() -> None:
    """Found comparing two versions of `wrap`: this line is 595 px at 14 px, exactly the room it
    is given. Added up one character at a time, the widths came to 595.0000000000001 and the last
    two marks moved to a line of their own. A width is now counted from the wide and narrow
    characters, the same number however the line was put together."""
    text = "0 0 0 0 0 一 一 一 一 一 一 一 0一一一 000一一一一一 一一一一一一一一一 ） ）"
    assert text_width(text, 14) == 595
    assert wrap(text, 595, 14) == [text]
    assert len(wrap(text, 594, 14)) == 2


def test_wide_characters_below_the_cjk_block_count_as_wide() -> None:
    """Hangul jamo and emoji are drawn a full em wide, like CJK: the estimate says so (East Asian
    Width W or F), so a line of them wraps before it overflows its box."""
    for ch in "\u1100\u231a\u26bd\u3042\uff21":
        assert unicodedata.east_asian_width(ch) in "WF"
        assert text_width(ch) == FONT, ch


def test_build_draws_hostile_answers_and_questions_within_the_column(tmp_path: Path) -> None:
    """Through `python -m generator build`: answers of 3,900 characters (one Latin word, and CJK
    without a break) and a question of 3,000 closing parentheses, each within the spec's text
    limit. The flowchart page's SVG is no wider than the column (the question alone made it
    39,019 px wide when every closing mark stayed on its line)."""
    shutil.copytree(BASE, tmp_path / "specs")
    spec = tmp_path / "specs" / "selection" / "test-cluster-selection.yaml"
    tree = yaml.safe_load(spec.read_text(encoding="utf-8"))
    budget = next(v for v in tree["variables"] if v["id"] == "budget")
    budget["labels"]["low"]["zh"], budget["labels"]["high"]["zh"] = "InfiniBand" * 390, "很长的回答" * 780
    tree["questions"][0]["ask"]["zh"] = "）" * 3000
    spec.write_text(yaml.safe_dump(tree, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--out", "out"], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    page = (tmp_path / "out" / "flowchart.md").read_text(encoding="utf-8")
    svg = re.search(r'<svg[^>]* id="flowchart".*?</svg>', page, re.DOTALL)
    assert svg is not None and _svg_width(svg.group(0)) <= COLUMN_W + 2
    labels = re.findall(r'<text class="fc-label"[^>]*>([^<]*)</text>', svg.group(0))
    drawn = "".join(labels)  # an answer's lines are drawn one after another
    assert "InfiniBand" * 390 in drawn and "很长的回答" * 780 in drawn and len(labels) > 40
