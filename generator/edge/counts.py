"""A count as written on a model card or a command line (70B, 7e9, 405b, 1.3T, 13000M): what
`--params`, `--tokens` and `recommend --tokens` take."""

from __future__ import annotations

import math

SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


def count(text: str) -> float:
    """The count, or ValueError for anything that is not a finite positive number."""
    scale = SCALE.get(text[-1:].lower(), 1.0)
    number = float(text[:-1] if scale != 1.0 else text)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(text)
    return number * scale
