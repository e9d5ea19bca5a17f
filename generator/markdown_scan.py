"""Which parts of a hand-written page are text and which are code, read as the site's Markdown
reads them, and every figure reference candidate in the text (grammar: generator.figure_refs).

The site renders with Python-Markdown and the extensions in mkdocs.yml, so that is what is
followed where it differs from CommonMark (nested content is indented by 4 spaces):
- Fenced code (superfences): 3 or more backticks or tildes, indented up to 3 spaces relative to
  the block holding it; it may interrupt a paragraph. Unlike CommonMark, it ends only at the
  same fence (same character, same length) at the same indentation, and no line between may be
  indented less. A fence that does not end so is no fence to the site, which shows it as text,
  while CommonMark would read the rest of the page as code: a candidate after it is reported.
- Indented code: 4 or more spaces beyond the enclosing block's indentation, after a blank line
  or a heading (never continuing a paragraph); it runs until a line indented less.
- Blocks whose content is indented 4 spaces: list items, admonitions (`!!!`, `???`), content tabs
  (`===`) and definitions (`:`). A line indented less ends them, unless it lazily continues a
  paragraph. Blockquote markers (`>`) are read through.
- Inline code: a backtick string not escaped by a backslash, up to the next backtick string of
  the same length, across the lines of one paragraph; without one, the backticks are text.
- Link text (`[...](...)`, `[...][...]`): a reference there must not insert a link of its own.
Pure: text in, offsets out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .figure_refs import Found, Malformed, Reference, find_references

_FENCE_OPEN = re.compile(r"(`{3,})[^`]*$|(~{3,}).*$")
_OPENER = re.compile(r"(?:!!!|\?\?\?\+?|===[!+]?)(?:\s|$)")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:\s|$)")
_DEFINITION = re.compile(r":\s")
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_QUOTE = re.compile(r"(?: {0,3}> ?)+")
_BACKTICKS = re.compile(r"`+")


@dataclass(frozen=True)
class PageScan:
    found: tuple[Found, ...]  # every candidate outside code, in order
    code: tuple[tuple[int, int], ...]  # code blocks and spans, as offsets [start, end)
    link_text: tuple[tuple[int, int], ...]  # text of links and images

    def in_link_text(self, ref: Reference) -> bool:
        return any(start <= ref.start and ref.end <= end for start, end in self.link_text)


@dataclass
class _Blocks:
    """The state of the line-by-line block pass."""

    lines: list[tuple[int, str]]  # (offset, line without its end) of every line
    containers: list[int] = field(default_factory=lambda: [0])
    fence_end: int = -1  # index of the line that closes the current fence
    unclosed: tuple[int, int] | None = None  # (offset, line number) of the first fence that does not end
    code_base: int | None = None  # indented code: the indentation of its block
    paragraph: bool = False  # the last line was paragraph text (may continue lazily)
    run: int | None = None  # start of the current run of text lines
    runs: list[tuple[int, int]] = field(default_factory=list)
    code: list[tuple[int, int]] = field(default_factory=list)

    def text(self, start: int) -> None:
        if self.run is None:
            self.run = start

    def end_run(self, end: int) -> None:
        if self.run is not None:
            self.runs.append((self.run, end))
            self.run = None


def scan_markdown(text: str) -> PageScan:
    """Code and candidates of a page (its Markdown, without front matter)."""
    lines, offset = [], 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    blocks = _Blocks(lines)
    for index in range(len(lines)):
        _line(blocks, index)
    blocks.end_run(len(text))
    found: list[Found] = []
    links: list[tuple[int, int]] = []
    code = list(blocks.code)
    for start, end in blocks.runs:
        spans = _code_spans(text, start, end)
        code += spans
        cuts = [start, *(p for span in spans for p in span), end]
        for begin, stop in zip(cuts[::2], cuts[1::2], strict=True):
            found += find_references(text, begin, stop)
        links += _link_texts(text, start, end, spans, found)
    if blocks.unclosed is not None:  # text to the site, code to CommonMark: neither reading is safe
        start, number = blocks.unclosed
        problem = (f"after the code fence on line {number}, which does not end (end it with the same fence at "
                   "the same indentation)")
        found = [f if f.start < start else Malformed(f.start, f.end, text[f.start:f.end], problem) for f in found]
    return PageScan(tuple(sorted(found, key=lambda f: f.start)), tuple(sorted(code)), tuple(links))


def _indent(line: str) -> tuple[int, int]:
    """(columns of leading whitespace, tabs to multiples of 4; index of the first other character)."""
    columns = 0
    for index, char in enumerate(line):
        if char == " ":
            columns += 1
        elif char == "\t":
            columns += 4 - columns % 4
        else:
            return columns, index
    return columns, len(line)


def _starts_block(rest: str) -> bool:
    return bool(_FENCE_OPEN.match(rest) or _OPENER.match(rest) or _LIST_ITEM.match(rest) or _HEADING.match(rest)
                or rest.startswith(">"))


def _split(line: str) -> tuple[int, str]:
    """(indentation after any blockquote markers, the rest of the line)."""
    quote = _QUOTE.match(line)
    prefix = quote.end() if quote and ">" in quote.group(0) else 0
    columns, first = _indent(line[prefix:])
    return columns, line[prefix + first:]


def _line(blocks: _Blocks, index: int) -> None:
    offset, line = blocks.lines[index]
    if index <= blocks.fence_end:
        return
    columns, rest = _split(line)
    end = offset + len(line)
    if not rest:
        blocks.end_run(offset)
        blocks.paragraph = False
        return
    lazy = blocks.paragraph and not _starts_block(rest)
    while len(blocks.containers) > 1 and columns < blocks.containers[-1] and not lazy:
        blocks.containers.pop()
    base = blocks.containers[-1]
    relative = columns - base
    if blocks.code_base is not None and (blocks.code_base != base or relative < 4):
        blocks.code_base = None
    if blocks.code_base is not None or (relative >= 4 and not blocks.paragraph):
        blocks.end_run(offset)
        blocks.code_base = base
        blocks.code.append((offset, end))
        return
    if relative > 3:  # a lazy continuation line
        blocks.text(offset)
        return
    fence = _FENCE_OPEN.match(rest)
    if fence:
        closing = _fence_end(blocks.lines, index, columns, fence.group(1) or fence.group(2))
        if closing is not None:
            blocks.end_run(offset)
            blocks.fence_end, blocks.paragraph = closing, False
            blocks.code.append((offset, blocks.lines[closing][0] + len(blocks.lines[closing][1])))
            return
        blocks.unclosed = blocks.unclosed or (offset, index + 1)
    _block_start(blocks, offset, end, rest, base)


def _fence_end(lines: list[tuple[int, str]], index: int, columns: int, marks: str) -> int | None:
    """The line that ends the fence opened on line `index` (indented `columns`), as superfences
    reads it: the same fence at the same indentation, no line between indented less."""
    for later in range(index + 1, len(lines)):
        indent, rest = _split(lines[later][1])
        if rest and indent < columns:
            return None
        if indent == columns and rest.rstrip(" \t") == marks:
            return later
    return None


def _block_start(blocks: _Blocks, offset: int, end: int, rest: str, base: int) -> None:
    opener = _OPENER.match(rest) or _HEADING.match(rest)
    item = _LIST_ITEM.match(rest) or _DEFINITION.match(rest)
    if opener or item:
        blocks.end_run(offset)
        if not _HEADING.match(rest):
            blocks.containers.append(base + 4)
    blocks.text(offset)
    blocks.paragraph = not opener
    if opener:
        blocks.end_run(end)


def _code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position = start
    while (run := _BACKTICKS.search(text, position, end)) is not None:
        opening = run.start()
        if opening > 0 and text[opening - 1] == "\\" and _odd_backslashes(text, opening):
            position = opening + 1
            continue
        width = run.end() - run.start()
        closing = re.compile(rf"(?<!`)`{{{width}}}(?!`)").search(text, run.end(), end)
        if closing is None:
            position = run.end()
            continue
        spans.append((opening, closing.end()))
        position = closing.end()
    return spans


def _odd_backslashes(text: str, at: int) -> bool:
    count = 0
    while at - count > 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _link_texts(text: str, start: int, end: int, spans: list[tuple[int, int]], found: list[Found]) -> list[tuple[int, int]]:
    """Spans of link (and image) text in one run: brackets matched outside code and candidates."""
    masked = list(text[start:end])
    for a, b in [*spans, *((f.start, f.end) for f in found if start <= f.start < end)]:
        masked[a - start:b - start] = " " * (b - a)
    opened: list[int] = []
    links: list[tuple[int, int]] = []
    for index, char in enumerate(masked):
        if char in "[]" and _odd_backslashes(text, start + index):
            continue
        if char == "[":
            opened.append(index)
        elif char == "]" and opened:
            at = opened.pop()
            if index + 1 < len(masked) and masked[index + 1] in "([":
                links.append((start + at + 1, start + index))
    return links
