"""Share independent work with one forked helper process when there is a lot of it.

Parsing thousands of spec files and rendering pages are maps of a pure function over items, and
the machines this runs on have two cores or more. A helper forked when the work starts inherits
everything already loaded (no start-up, no arguments to send), computes its share while the
parent does the rest, and sends back only its results. The caller always gets exactly
`[fn(x) for x in items]`, in order: when forking is not possible or not safe, or the helper fails
in any way, the parent computes them itself, so the outcome never depends on whether a helper ran.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO, Generic, TypeVar

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


class Helper(Generic[T, R]):
    """`[fn(x) for x in items]`, started now in a forked helper and collected by `results()` or,
    as they arrive, by `stream()`. Without a helper (not `parallel`, or forking not possible)
    the work is done when the results are asked for."""

    CHUNK = 256  # results per message: the parent can use the first ones while later ones are made

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], *, parallel: bool) -> None:
        self._fn, self._items = fn, items
        self._pid: int | None = None
        self._pipe: BinaryIO | None = None
        self._store = -1
        if parallel and items and can_fork():
            self._start()

    def _start(self) -> None:
        # Results travel through an anonymous in-memory file, and only their sizes through the
        # pipe: a pipe holds 64 KiB, so a helper writing results into it would stall as soon as
        # the parent is busy with its own share, which is exactly when the helper should run.
        opened: list[int] = []
        try:
            read_end, write_end = os.pipe()
            opened += (read_end, write_end)
            store = os.memfd_create("generator-helper", os.MFD_CLOEXEC)
            opened.append(store)
            pid = os.fork()
        except OSError:  # no descriptor or process to spare, or memfd refused by a sandbox:
            for fd in opened:  # no helper then, the parent computes everything
                os.close(fd)
            return
        if pid == 0:  # the helper: compute, send, and leave without running any exit handler
            os.close(read_end)
            try:
                for start in range(0, len(self._items), self.CHUNK):
                    chunk = [self._fn(x) for x in self._items[start:start + self.CHUNK]]
                    payload = pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL)
                    view = memoryview(payload)
                    while view:
                        view = view[os.write(store, view):]
                    # The size goes out only once the whole message is in the store.
                    os.write(write_end, len(payload).to_bytes(8, "little"))
            except BaseException:  # noqa: BLE001, S110 - any failure: the parent computes the rest
                pass
            finally:
                os._exit(0)
        os.close(write_end)
        self._pid, self._pipe, self._store = pid, os.fdopen(read_end, "rb"), store

    def results(self) -> list[R]:
        return list(self.stream())

    def stream(self) -> Iterator[R]:
        """The results in order, each as soon as the helper has sent it; whatever the helper did
        not send (it failed or died) is computed here."""
        done = 0
        if self._pipe is not None:
            try:
                for chunk in self._messages(self._pipe, self._store):
                    yield from chunk
                    done += len(chunk)
            except BaseException:
                self.cancel()
                raise
            self._reap()
        for item in self._items[done:]:
            yield self._fn(item)

    def _messages(self, pipe: BinaryIO, store: int) -> Iterator[list[R]]:
        offset = 0
        while True:
            size = pipe.read(8)
            if len(size) < 8:
                return
            # The helper's writes move the store's shared offset: read by position only.
            payload = os.pread(store, int.from_bytes(size, "little"), offset)
            offset += len(payload)
            try:
                chunk = pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a damaged message: compute the rest here
                return
            yield chunk

    def _reap(self) -> None:
        if self._pipe is not None:
            self._pipe.close()
            os.close(self._store)
        if self._pid is not None:
            os.waitpid(self._pid, 0)
        self._pid = self._pipe = None
        self._store = -1

    def cancel(self) -> None:
        """Stop the helper, if one runs, and forget its work."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        self._reap()
