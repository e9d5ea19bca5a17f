"""Share independent work with one forked helper process when there is a lot of it.

Parsing thousands of spec files and rendering pages are maps of a pure function over items, and
the machines this runs on have two cores or more. A helper forked at the point of the map
inherits everything already loaded (no start-up, no arguments to send), computes its share, and
sends back only its results. The caller gets exactly `[fn(x) for x in items]`, in order; when
forking is not possible or not safe, or the helper fails in any way, the parent computes
everything itself, so the outcome never depends on whether a helper ran.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this many items a map runs in-process: a fork costs a few milliseconds and the real
# knowledge base is done faster than that. Tests lower it to exercise the helper.
MIN_ITEMS = 1000


def can_fork() -> bool:
    """Forking is only safe with a single thread (a helper could inherit a lock held by another
    thread: `mkdocs serve` runs its watcher in threads) and only useful with a second core. Only
    on Linux: macOS system libraries are not safe to use in a forked child."""
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    return len(os.sched_getaffinity(0)) > 1


def worth_forking(size: int) -> bool:
    """Whether a knowledge base of `size` files is big enough for a helper to pay off."""
    return size >= MIN_ITEMS


def split_map(fn: Callable[[T], R], items: Sequence[T], *, parallel: bool,
              helper_takes: Callable[[int], bool] | None = None) -> list[R]:
    """`[fn(x) for x in items]`; with `parallel`, a forked helper computes the items whose
    index `helper_takes` (default: the second half). `fn` must be pure and its results
    picklable."""
    if not parallel or len(items) < 2 or not can_fork():
        return [fn(x) for x in items]
    takes = helper_takes or (lambda i: i >= len(items) // 2)
    theirs = [i for i in range(len(items)) if takes(i)]
    mine = [i for i in range(len(items)) if not takes(i)]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: compute, send, and leave without running any exit handler
        os.close(read_end)
        try:
            payload = pickle.dumps([fn(items[i]) for i in theirs], protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # noqa: BLE001 - any failure: the parent recomputes this share
            payload = b""
        try:
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    results: dict[int, R] = {}
    with os.fdopen(read_end, "rb") as pipe:
        try:
            for i in mine:
                results[i] = fn(items[i])
            payload = pipe.read()
        except BaseException:
            _stop(pid)
            raise
    os.waitpid(pid, 0)
    try:
        helped: list[R] = pickle.loads(payload) if payload else []
    except Exception:  # noqa: BLE001 - a truncated message: recompute
        helped = []
    if len(helped) != len(theirs):
        helped = [fn(items[i]) for i in theirs]
    results.update(zip(theirs, helped, strict=True))
    return [results[i] for i in range(len(items))]


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
