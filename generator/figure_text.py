"""Figures inside text: the `[[entity#figure]]` / `[[entity#figure UNIT]]` reference syntax, and
the detector for figures typed by hand (a number followed by a unit), which prose may not hold:
a typed figure can drift from the knowledge base, a reference cannot."""

from __future__ import annotations

import re

from .units import DERIVED_UNITS, UNITS

FIGURE_REF = re.compile(r"\[\[\s*([a-z0-9-]+#[a-z0-9_.-]+)(?:\s+([^\]\s]+))?\s*\]\]")

# Units as people type them, including the spellings the unit table refuses ("Gbps").
_TYPED_UNITS = sorted({*UNITS, *DERIVED_UNITS, "Gbps", "GBps", "Tbps", "KiB", "MiB", "MB", "kB", "TFLOPs", "PF",
                       "倍", "微秒", "毫秒", "纳秒"} - {"x"}, key=len, reverse=True)
# A number that does not continue a word, version or id ("v2", "1.5", "#3"), then a unit.
TYPED_FIGURE = re.compile(r"(?<![\w.#-])\d[\d,]*(?:\.\d+)?\s?(?:" + "|".join(re.escape(u) for u in _TYPED_UNITS)
                          + r")(?![A-Za-z])")


def typed_figures(text: str) -> list[str]:
    """Hand-typed figures in `text`, ignoring what sits inside figure references."""
    return TYPED_FIGURE.findall(FIGURE_REF.sub(" ", text))
