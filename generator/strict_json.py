"""The one JSON writer: `dumps` is `json.dumps` with NaN and infinity refused, and the refusal is
a `NotFinite` error that names what was being written and where in it the value sits.

`json.dumps` writes NaN and infinity as `NaN` and `Infinity`, which are not JSON (RFC 8259 §6)
and which a browser's JSON.parse refuses; with `allow_nan=False` it raises a ValueError that
names neither the output nor the value. The cost model refuses an estimate whose outputs are not
finite (costmodel/result.py) and the command line bounds what it reads, so a value that is not
finite reaching a writer is a bug or an input beyond those bounds: the command line prints this
error's one line (edge/cli.py), never a traceback and never a file that no reader can parse.
"""

from __future__ import annotations

import json
import math
from typing import Any


class NotFinite(ValueError):
    """A value that is not finite in data about to be written as JSON."""

    def __init__(self, what: str, where: str, value: float) -> None:
        super().__init__(f"{what}: {where or 'a value'} comes out {value}, not a finite number, so nothing is "
                         "written (NaN and infinity are not JSON)")
        self.what, self.where, self.value = what, where, value


def first_not_finite(data: object, where: str = "", _above: frozenset[int] = frozenset()) -> tuple[str, float] | None:
    """Where in `data` (dicts, lists and tuples of plain values) the first float that is not
    finite sits, as `options[0].energy_kwh`, and the value; None when every number is finite.
    A dict's float keys count too: json writes them with the same float formatter."""
    if isinstance(data, float):
        return None if math.isfinite(data) else (where, data)
    if id(data) in _above:  # a container inside itself: json's own circular-reference error stands
        return None
    if isinstance(data, dict):
        items: list[tuple[str, object]] = []
        for key, value in data.items():
            path = f"{where}.{key}" if where else str(key)
            items += [(path, key), (path, value)]
    elif isinstance(data, list | tuple):
        items = [(f"{where}[{i}]", value) for i, value in enumerate(data)]
    else:
        return None
    above = _above | {id(data)}
    for path, value in items:
        found = first_not_finite(value, path, above)
        if found is not None:
            return found
    return None


def require_finite(data: object, what: str) -> None:
    """Raise `NotFinite` if `data` holds a number that is not finite: for a text writer that
    formats the same data a JSON writer would (an `inf 天` is no more an answer than `Infinity`)."""
    found = first_not_finite(data)
    if found is not None:
        raise NotFinite(what, *found)


def dumps(data: Any, what: str, **options: Any) -> str:
    """`json.dumps(data, allow_nan=False, **options)`; `NotFinite` naming `what` (the output being
    written, e.g. data/tree.json) and the value's place, instead of json's bare ValueError."""
    try:
        return json.dumps(data, allow_nan=False, **options)
    except ValueError:
        # Only then walk the data: json has refused a value, and the walk says which and where.
        require_finite(data, what)
        raise  # a ValueError of another kind (a circular reference): a bug, with its traceback
