"""Figures typed by hand inside text (a number followed by a unit), which prose may not hold: a
typed figure can drift from the knowledge base, a reference (generator.figure_refs) cannot."""

from __future__ import annotations

import re

from .charsets import INVISIBLE
from .figure_refs import find_references
from .units import DERIVED_UNITS, UNITS

# Units as people type them, including the spellings the unit table refuses ("Gbps").
_TYPED_UNITS = sorted({*UNITS, *DERIVED_UNITS, "Gbps", "GBps", "Tbps", "Mbps", "KiB", "MiB", "MB", "kB", "TFLOPs", "PF",
                       "Gbit/s", "Tbit/s", "Mbit/s", "Gbit", "Gb/sec", "GB/sec", "GiB/s", "MiB/s", "TiB/s", "TiB",
                       "GByte/s", "Gbyte/s", "倍", "微秒", "毫秒", "纳秒"} - {"x"}, key=len, reverse=True)
# A number that does not continue a word, version or id ("v2", "1.5", "#3"), then a unit.
TYPED_FIGURE = re.compile(r"(?<![\w.#-])\d[\d,]*(?:\.\d+)?\s?(?:" + "|".join(re.escape(u) for u in _TYPED_UNITS)
                          + r")(?![A-Za-z])")


def typed_figures(text: str) -> list[str]:
    """Hand-typed figures in `text`, ignoring what sits inside figure references (well formed or not)."""
    return typed_in_prose(blank_references(text))


def typed_in_prose(text: str) -> list[str]:
    """Hand-typed figures in `text` read through invisible characters: a zero-width space inside
    `4\u200b00 Gb/s` hides nothing."""
    return TYPED_FIGURE.findall(INVISIBLE.sub("", text))


def blank_references(text: str) -> str:
    """`text` with every reference candidate replaced by one space."""
    parts, last = [], 0
    for found in find_references(text):
        parts += [text[last:found.start], " "]
        last = found.end
    return "".join([*parts, text[last:]])
