"""Pause Python's cycle collector around the pipeline's big allocations.

Loading builds hundreds of thousands of small dicts, lists, models and figures, none of them in
reference cycles; with the collector on, each burst of allocations triggers scans of everything
built so far: the 100x synthetic knowledge base (13,000 files) then takes 6.0 s instead of 4.4 s
to validate and render, over its 5 s budget (DESIGN.md section 8). Nothing here needs the
collector: what it would free is freed when the run is over.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def without_cycle_collection(function: Callable[P, R]) -> Callable[P, R]:
    @wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> R:
        with collector_paused():
            return function(*args, **kwargs)
    return paused
