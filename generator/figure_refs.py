"""The one grammar of figure references in text: `[[entity#figure]]` or `[[entity#figure UNIT]]`.

Every `[[` (not escaped by a backslash) opens a candidate that ends at the next `]]` on its line.
A candidate is either a `Reference` (a lowercase entity id, `#`, a lowercase figure name, and
optionally one space and a unit of the unit table) or a `Malformed` one that says what is wrong:
an invisible character (zero-width, bidi control), spaces, uppercase, a missing `#`, an unknown
unit, no closing `]]`. Whether a reference resolves is for the caller, who knows the figures.
Pure: text in, candidates with offsets out; `markdown_scan` decides which parts of a page are text.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from .charsets import INVISIBLE
from .units import DERIVED_UNITS, UNITS

_ENTITY = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_FIGURE = r"[a-z0-9_]+(?:[.][a-z0-9_-]+)*"
_WELL_FORMED = re.compile(rf"(?P<ref>{_ENTITY}#{_FIGURE})(?: (?P<unit>[^\s\]]+))?")
_OPEN = re.compile(r"\[\[")
_SHAPE = re.compile(r"\S+(?: \S+)?")  # one ASCII space at most, between reference and unit
# Characters that change what a reference means without showing: zero-width and bidi controls
# (in a spec, text-invisible reports them first; on a hand-written page, this does).
_INVISIBLE = INVISIBLE
KNOWN_UNITS = (*UNITS, *DERIVED_UNITS)


@dataclass(frozen=True)
class Reference:
    start: int  # offset of `[[` in the scanned text
    end: int  # offset just after `]]`
    ref: str  # entity#figure
    unit: str | None


@dataclass(frozen=True)
class Malformed:
    start: int
    end: int
    text: str  # the candidate as written
    problem: str  # what is wrong and how to write it

    @property
    def message(self) -> str:
        return f"malformed figure reference {self.text!r}: {self.problem}"


Found = Reference | Malformed


def find_references(text: str, start: int = 0, end: int | None = None) -> Iterator[Found]:
    """Every candidate in `text[start:end]` (all of it is text, none is code), in order."""
    stop = len(text) if end is None else end
    position = start
    while True:
        opened = _OPEN.search(text, position, stop)
        if opened is None:
            return
        at = opened.start()
        if _escaped(text, at):
            position = at + 1
            continue
        line_end = text.find("\n", at, stop)
        line_end = stop if line_end < 0 else line_end
        close = text.find("]]", at + 2, line_end)
        if close < 0:
            yield Malformed(at, at + 2, text[at:line_end], "no closing ]] on its line")
            position = at + 2
            continue
        yield read_candidate(text[at:close + 2], at)
        position = close + 2


def read_candidate(candidate: str, at: int = 0) -> Found:
    """One `[[...]]` read as a reference, or what is wrong with it."""
    inside = candidate[2:-2]
    match = _WELL_FORMED.fullmatch(inside)
    end = at + len(candidate)
    if match and (match["unit"] is None or match["unit"] in KNOWN_UNITS):
        return Reference(at, end, match["ref"], match["unit"])
    return Malformed(at, end, candidate, _problem(inside, match))


def _problem(inside: str, match: re.Match[str] | None) -> str:
    invisible = _INVISIBLE.search(inside)
    if invisible is not None or any(unicodedata.category(ch) == "Cf" for ch in inside):
        char = invisible.group(0) if invisible else next(ch for ch in inside if unicodedata.category(ch) == "Cf")
        return f"invisible character U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')}): delete it"
    if not inside.strip():
        return "empty: write [[entity#figure]]"
    if "#" not in inside:
        return "no '#': write [[entity#figure]], e.g. [[ib-ndr#port_rate]]"
    if match is not None:  # well formed but for its unit
        hint = difflib.get_close_matches(str(match["unit"]), KNOWN_UNITS, n=1)
        return f"unknown unit {match['unit']!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
    ref = inside.split(" ", 1)[0]
    if any(ch.isspace() for ch in inside) and not (_SHAPE.fullmatch(inside) and "#" in ref):
        return f"spaces inside: write [[{_suggest(inside)}]] (one space, only before a unit)"
    if ref != ref.lower():
        return f"uppercase letters: ids and figure names are lowercase, write [[{_suggest(inside)}]]"
    return "not entity#figure: an id of lowercase letters, digits and hyphens, '#', then a figure name"


def _suggest(inside: str) -> str:
    """`inside` with the spaces around `#` and the ends dropped and the reference lowercased."""
    words = re.sub(r"\s*#\s*", "#", " ".join(inside.split())).split(" ", 1)
    return " ".join([words[0].lower(), *words[1:]])


def _escaped(text: str, at: int) -> bool:
    """True when an odd number of backslashes precede `at` (Markdown reads `\\[` as a bracket)."""
    slashes = 0
    while at - slashes > 0 and text[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def line_col(text: str, offset: int, first_line: int = 1) -> tuple[int, int]:
    """1-based line and column (in characters) of `offset`; `first_line` is the line `text` starts on."""
    line = text.count("\n", 0, offset) + first_line
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
