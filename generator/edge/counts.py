"""Numbers as the command line reads them: a count as written on a model card (70B, 7e9, 405b,
1.3T, 13000M), what `--params`, `--tokens` and `recommend --tokens` take, and a whole number,
what every integer flag takes. Both stop at 2^53 − 1, the largest count the cost model takes
(costmodel/feasibility.py MAX_COUNT): past it a count is no longer exact in a double, and far past
it (10^320, or 1e308 × 10^12 for 1e308T) it is not even finite, and what the model, the planner
and the writers compute from it comes out infinite or raises."""

from __future__ import annotations

import argparse
import re

from ..diagnostics import quoted

SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}
_WHOLE = re.compile(r"[+-]?[0-9]+")


def _max_count() -> int:
    # imported here: `check` loads this module and need not load the cost model
    from ..costmodel.feasibility import MAX_COUNT
    return MAX_COUNT


def count(text: str) -> float:
    """The count, or ValueError, whose message says why, for anything that is not a positive
    number of at most 2^53 − 1 once scaled (so never NaN or infinite)."""
    scale = SCALE.get(text[-1:].lower(), 1.0)
    try:
        number = float(text[:-1] if scale != 1.0 else text)
    except ValueError:
        raise ValueError("is not a number") from None
    if not number > 0:  # also NaN
        raise ValueError("is not a number above 0")
    if number * scale > _max_count():  # infinite too (400 digits, 1e308T): compared, never used
        raise ValueError(f"is beyond 2^53 − 1 ({_max_count():,}), the largest count the model takes")
    return number * scale


def whole(text: str) -> int:
    """An integer flag's value (argparse `type=`): plain ASCII digits with an optional sign, of at
    most 2^53 − 1 in size; argparse prints the refusal as `argument --seq: ...` in one line. The
    length is checked before any conversion, so a 5,000-digit value costs nothing and never
    meets int()'s own digit limit; digits of other scripts and '_' separators, which int() reads,
    are not a count as written on a command line."""
    # ASCII white space only: str.strip() also removes the separators U+001C..U+001F, which
    # int() refuses, so "0\x1f" would pass the pattern here and then fail at int()
    written = text.strip(" \t\n\r\v\f")
    if not _WHOLE.fullmatch(written):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number")
    digits = written.lstrip("+-").lstrip("0")
    limit = _max_count()
    if len(digits) > len(str(limit)) or int(digits or "0") > limit:
        what = written if len(written) <= 24 else f"a number of {len(digits)} digits"
        raise argparse.ArgumentTypeError(
            f"{what} is below −(2^53 − 1): a whole number here is at most 2^53 − 1 in size" if written.startswith("-")
            else f"{what} is beyond 2^53 − 1 ({limit:,}), the largest count the model takes")
    return int(written)
