"""Share independent work with one forked helper process when there is a lot of it.

Parsing thousands of spec files and rendering pages are maps of a pure function over items, and
the machines this runs on have two cores or more. A helper forked when the work starts inherits
everything already loaded (no start-up, no arguments to send), computes its share while the
parent does the rest, and sends back only its results. The caller always gets exactly
`[fn(x) for x in items]`, in order: when forking is not possible or not safe, or the helper fails
in any way, the parent computes them itself, so the outcome never depends on whether a helper ran.

Two ways to share: `Helper` gives the helper a fixed share that the parent can use as it
arrives (parsing: the parent types each file the helper parsed); `Shared` lets both take the
next item from one queue (rendering: a few dozen pages of very different cost, and a parent
that first has other work to do), so they finish together however the costs fall.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, Generic, TypeVar

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


class _Forked:
    """A forked helper that runs `work(send)` and sends each message it is given to the parent.

    Messages travel through an anonymous in-memory file, and only their sizes through a pipe: a
    pipe holds 64 KiB, so a helper writing results into it would stall as soon as the parent is
    busy with its own share, which is exactly when the helper should run."""

    def __init__(self) -> None:
        self._pid: int | None = None
        self._pipe: BinaryIO | None = None
        self._store = -1

    @property
    def running(self) -> bool:
        return self._pid is not None

    def _fork(self, work: Callable[[Callable[[object], None]], None]) -> bool:
        """Start the helper; False (and nothing left open) when the system refuses a descriptor,
        the in-memory file (a sandbox) or the process."""
        opened: list[int] = []
        try:
            read_end, write_end = os.pipe()
            opened += (read_end, write_end)
            store = os.memfd_create("generator-helper", os.MFD_CLOEXEC)
            opened.append(store)
            pid = os.fork()
        except OSError:
            for fd in opened:
                os.close(fd)
            return False
        if pid == 0:  # the helper: compute, send, and leave without running any exit handler
            os.close(read_end)

            def send(message: object) -> None:
                payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
                view = memoryview(payload)
                while view:
                    view = view[os.write(store, view):]
                # The size goes out only once the whole message is in the store.
                os.write(write_end, len(payload).to_bytes(8, "little"))
            try:
                work(send)
            except BaseException:  # noqa: BLE001, S110 - any failure: the parent computes the rest
                pass
            finally:
                os._exit(0)
        os.close(write_end)
        self._pid, self._pipe, self._store = pid, os.fdopen(read_end, "rb"), store
        return True

    def _messages(self) -> Iterator[Any]:
        """The helper's messages in the order sent, until it exits (or one arrives damaged)."""
        if self._pipe is None:
            return
        offset = 0
        while True:
            size = self._pipe.read(8)
            if len(size) < 8:
                return
            # The helper's writes move the store's shared offset: read by position only.
            payload = os.pread(self._store, int.from_bytes(size, "little"), offset)
            offset += len(payload)
            try:
                message = pickle.loads(payload)
            except Exception:  # noqa: BLE001 - a damaged message: compute the rest here
                return
            yield message

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


class Helper(_Forked, Generic[T, R]):
    """`[fn(x) for x in items]`, started now in a forked helper and collected by `results()` or,
    as they arrive, by `stream()`. Without a helper (not `parallel`, or forking not possible)
    the work is done when the results are asked for."""

    CHUNK = 256  # results per message: the parent can use the first ones while later ones are made

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], *, parallel: bool) -> None:
        super().__init__()
        self._fn, self._items = fn, items
        if parallel and items and can_fork():
            self._fork(self._work)

    def _work(self, send: Callable[[object], None]) -> None:
        for start in range(0, len(self._items), self.CHUNK):
            send([self._fn(x) for x in self._items[start:start + self.CHUNK]])

    def results(self) -> list[R]:
        return list(self.stream())

    def stream(self) -> Iterator[R]:
        """The results in order, each as soon as the helper has sent it; whatever the helper did
        not send (it failed or died) is computed here."""
        done = 0
        if self.running:
            try:
                for chunk in self._messages():
                    yield from chunk
                    done += len(chunk)
            except BaseException:
                self.cancel()
                raise
            self._reap()
        for item in self._items[done:]:
            yield self._fn(item)


class Shared(_Forked, Generic[T, R]):
    """`[fn(x) for x in items]` for a short list of items (a few dozen tasks) of uneven cost:
    a forked helper and the parent both take the next item from one queue, the helper from now
    on, the parent whenever it calls `take()` (after its other work) and at `results()`. Put the
    costly items first: each side then ends with small ones and they finish close together.
    Without a helper the parent computes everything itself."""

    MAX_ITEMS = 1024  # the queue is filled before the fork and must fit in one pipe page

    def __init__(self, fn: Callable[[T], R], items: Sequence[T], *, parallel: bool) -> None:
        super().__init__()
        self._fn, self._items = fn, items
        self._done: dict[int, R] = {}
        self._queue = -1
        if parallel and 0 < len(items) <= self.MAX_ITEMS and can_fork():
            self._start()

    def _start(self) -> None:
        # The queue is a pipe holding every item's index, 4 bytes each, with its write end
        # closed: each read of 4 bytes takes one index, atomically for both processes, and
        # returns nothing once all are taken.
        try:
            queue, filler = os.pipe()
        except OSError:
            return
        try:
            os.write(filler, b"".join(i.to_bytes(4, "little") for i in range(len(self._items))))
        except OSError:
            os.close(queue)
            return
        finally:
            os.close(filler)
        self._queue = queue
        if not self._fork(self._work):
            os.close(queue)
            self._queue = -1

    def _next(self) -> int | None:
        if self._queue < 0:
            return None
        token = os.read(self._queue, 4)
        return int.from_bytes(token, "little") if len(token) == 4 else None

    def _work(self, send: Callable[[object], None]) -> None:
        while (index := self._next()) is not None:
            send((index, self._fn(self._items[index])))

    def take(self) -> None:
        """Compute items here until the queue is empty (all taken by one side or the other)."""
        try:
            while (index := self._next()) is not None:
                self._done[index] = self._fn(self._items[index])
        except BaseException:
            self.cancel()
            raise

    def results(self) -> list[R]:
        """Every result in order: the parent takes what is left, collects what the helper sent,
        and computes whatever the helper took but did not send (it failed or died)."""
        self.take()
        if self.running:
            try:
                for index, result in self._messages():
                    self._done[index] = result
            except BaseException:
                self.cancel()
                raise
            self._reap()
        return [self._done[i] if i in self._done else self._fn(item) for i, item in enumerate(self._items)]

    def _reap(self) -> None:
        super()._reap()
        if self._queue >= 0:
            os.close(self._queue)
            self._queue = -1
