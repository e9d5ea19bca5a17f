"""Share independent work with one forked helper process when there is a lot of it.

Parsing thousands of spec files and rendering pages are maps of a pure function over items, and
the machines this runs on have two cores or more. A helper forked when the work starts inherits
everything already loaded (no start-up, no arguments to send), computes items while the parent
does the rest, and sends back only its results. The caller always gets exactly `fn(x)` for every
item: when forking is not possible or not safe, or the helper fails in any way, the parent
computes them itself, so the outcome never depends on whether a helper ran.

The two take items from one queue, one at a time, rather than fixed shares: how long an item
takes, and how fast each core runs at the moment, vary too much on shared machines for a split
decided in advance (both were measured to leave one process waiting for the other).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

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


# Helpers that said they were done but were still exiting when their results were collected:
# tearing down a process that shares a few hundred MB with its parent takes the kernel tens of
# milliseconds, which the parent need not wait for. They are reaped before the next helper
# starts, and at exit, so at most one is ever left a zombie, and only briefly.
_EXITING: list[int] = []


def reap_exited() -> None:
    """Wait for the helpers still exiting (see _EXITING)."""
    while _EXITING:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(_EXITING.pop(), 0)


atexit.register(reap_exited)
_DONE = bytes(8)  # a size of zero: the helper has sent everything it will send


class Shared(Generic[T, R]):
    """`fn(x)` for every item, computed by a forked helper, from now on, and by this process
    whenever it asks for results, both taking the next item from one queue. Put costly items
    first: each side then ends on small ones and they finish close together. Without a helper
    (not `parallel`, forking not possible, or more than MAX_ITEMS items) this process computes
    everything when asked.

    Results travel through an anonymous in-memory file, and only their sizes through a pipe: a
    pipe holds 64 KiB, so a helper writing results into it would stall as soon as this process
    is busy with its own items, which is exactly when the helper should run."""

    MAX_ITEMS = 1024  # the queue is filled before the fork and must fit in one pipe page

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], *, parallel: bool) -> None:
        self._fn, self._items = fn, items
        self._pid: int | None = None
        self._queue = self._sizes = self._store = -1
        self._offset = 0  # how far into the store this process has read
        self._given: set[int] = set()  # indices already handed to the caller
        if parallel and 0 < len(items) <= self.MAX_ITEMS and can_fork():
            reap_exited()
            self._start()

    def _start(self) -> None:
        # The queue is a pipe holding every item's index, 4 bytes each, with its write end
        # closed: each read of 4 bytes takes one index, atomically for both processes, and
        # returns nothing once all are taken.
        opened: list[int] = []
        try:
            queue, filler = os.pipe()
            opened += (queue, filler)
            os.write(filler, b"".join(i.to_bytes(4, "little") for i in range(len(self._items))))
            os.close(filler)
            opened.remove(filler)
            sizes, sizes_in = os.pipe()
            opened += (sizes, sizes_in)
            store = os.memfd_create("generator-helper", os.MFD_CLOEXEC)
            opened.append(store)
            pid = os.fork()
        except OSError:  # no descriptor or process to spare, or memfd refused by a sandbox:
            for fd in opened:  # no helper then, this process computes everything
                os.close(fd)
            return
        if pid == 0:  # the helper: compute, send, and leave without running any exit handler
            try:
                os.close(sizes)
                while (index := self._next(queue)) is not None:
                    payload = pickle.dumps((index, self._fn(self._items[index])), protocol=pickle.HIGHEST_PROTOCOL)
                    view = memoryview(payload)
                    while view:
                        view = view[os.write(store, view):]
                    # The size goes out only once the whole message is in the store.
                    os.write(sizes_in, len(payload).to_bytes(8, "little"))
            except BaseException:  # noqa: BLE001, S110 - any failure: the parent computes the rest
                pass
            finally:
                with contextlib.suppress(BaseException):
                    os.write(sizes_in, _DONE)
                os._exit(0)
        os.close(sizes_in)
        self._pid, self._queue, self._sizes, self._store = pid, queue, sizes, store

    @staticmethod
    def _next(queue: int) -> int | None:
        if queue < 0:
            return None
        token = os.read(queue, 4)
        return int.from_bytes(token, "little") if len(token) == 4 else None

    def as_completed(self) -> Iterator[tuple[int, R]]:
        """Every (index, result), in no set order: whatever the helper has sent, as soon as it is
        there, and otherwise the next queued item, computed here; once the queue is empty, the
        helper's last results, then anything it took but never sent (it failed or died)."""
        try:
            while True:
                yield from self._received(wait=False)
                index = self._next(self._queue)
                if index is None:
                    break
                self._given.add(index)
                yield index, self._fn(self._items[index])
            yield from self._received(wait=True)
        except BaseException:
            self.cancel()
            raise
        self._reap()
        for index, item in enumerate(self._items):
            if index not in self._given:
                self._given.add(index)
                yield index, self._fn(item)

    def results(self) -> list[R]:
        """Every result, in the order of the items."""
        out: dict[int, R] = dict(self.as_completed())
        return [out[index] for index in range(len(self._items))]

    def _received(self, *, wait: bool) -> Iterator[tuple[int, R]]:
        """The helper's results that have arrived (with `wait`, all it will send)."""
        while self._sizes >= 0 and (wait or select.select([self._sizes], [], [], 0)[0]):
            # Sizes are written 8 bytes at a time, at most a pipe's atomic write: a read gets a
            # whole one, or nothing once the helper has exited.
            size = os.read(self._sizes, 8)
            if len(size) < 8 or size == _DONE:  # exited, or about to
                self._close_sizes()
                return
            # The helper's writes move the store's shared offset: read by position only.
            payload = os.pread(self._store, int.from_bytes(size, "little"), self._offset)
            self._offset += len(payload)
            try:
                index, result = pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a damaged message: compute the rest here
                self._close_sizes()
                return
            self._given.add(index)
            yield index, result

    def _close_sizes(self) -> None:
        if self._sizes >= 0:
            os.close(self._sizes)
            self._sizes = -1

    def _reap(self, *, wait: bool = False) -> None:
        self._close_sizes()
        for fd in (self._queue, self._store):
            if fd >= 0:
                os.close(fd)
        self._queue = self._store = -1
        if self._pid is not None:
            if wait or os.waitpid(self._pid, os.WNOHANG) == (0, 0):
                _EXITING.append(self._pid)  # still exiting: reaped later (see _EXITING)
            self._pid = None
        if wait:
            reap_exited()

    def cancel(self) -> None:
        """Stop the helper, if one runs, and forget its work."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        self._reap(wait=True)
