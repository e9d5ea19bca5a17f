"""The forked helper and the queue it shares with the parent: the same results in the same
order as a plain map, whatever happens to the helper, and nothing left running or open; and a
knowledge base validated and rendered with a helper gives byte-identical output."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

import pytest
from support import invalid_cases, real_files, with_file

from generator import fanout
from generator.pipeline import validate_and_render
from generator.render import render_site
from generator.validate import validate

PARENT = os.getpid()


@pytest.fixture
def helper_allowed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Let the helper fork even when other tests' session fixtures (the browser tests' web
    server thread) are still running: the helper here only computes and exits. Records the
    helpers' process ids."""
    assert sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) > 1, "CI machines have two cores"
    monkeypatch.setattr(fanout.threading, "active_count", lambda: 1)
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid
    monkeypatch.setattr(fanout.os, "fork", fork)
    return forked

def _double_with_pid(x: int) -> tuple[int, int]:
    return x * 2, os.getpid()


def _fails_in_helper(x: int) -> tuple[int, int]:
    if os.getpid() != PARENT:
        raise RuntimeError("helper trouble")
    return x + 1, os.getpid()


def _helper_dies(x: int) -> int:
    if os.getpid() != PARENT:
        os._exit(3)
    return -x


def _forever(x: int) -> int:
    while True:
        pass


def _big(x: int) -> bytes:
    return bytes([x]) * 300_000


def _dies_at_seven(x: int) -> tuple[int, int]:
    if os.getpid() != PARENT and x == 7:
        os._exit(3)
    return x * 2, os.getpid()


def _pipes_and_stores() -> list[str]:
    """What this process has open of the kinds a helper opens (pipes, memfd stores)."""
    targets = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor is gone by now
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(("pipe:", "/memfd:")):
                targets.append(target)
    return sorted(targets)


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()[0]


def _wait_until_done(pid: int) -> None:
    """Until the helper has exited (a zombie until reaped); a bound on a failure, not a timing."""
    deadline = time.monotonic() + 10
    while _state(pid) != "Z" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _state(pid) == "Z", "the helper did not finish on its own"


def _reaped(pid: int) -> bool:
    """Reaped already, or done and due to be reaped before the next helper starts (a helper's
    exit is not waited for; see fanout._EXITING)."""
    if pid in fanout._EXITING:
        fanout.reap_exited()
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_knowledge_base_with_helper_gives_identical_output(monkeypatch: pytest.MonkeyPatch,
                                                           helper_allowed: list[int]) -> None:
    files = list(real_files())
    alone = validate(files)
    pages = render_site(alone.kb, alone.figures)  # type: ignore[arg-type]
    monkeypatch.setattr(fanout, "MIN_ITEMS", 1)
    helped = validate(files)
    assert helped.ok and helped.diagnostics == alone.diagnostics
    assert render_site(helped.kb, helped.figures) == pages  # type: ignore[arg-type]
    assert len(helper_allowed) == 2  # one for parsing, one for rendering


def test_broken_specs_with_helper_give_identical_diagnostics(monkeypatch: pytest.MonkeyPatch,
                                                             helper_allowed: list[int]) -> None:
    cases = invalid_cases()[::7]
    alone = [validate(with_file(c.target, c.raw)).diagnostics for c in cases]  # type: ignore[arg-type]
    monkeypatch.setattr(fanout, "MIN_ITEMS", 1)
    assert [validate(with_file(c.target, c.raw)).diagnostics for c in cases] == alone  # type: ignore[arg-type]
    assert len(helper_allowed) == len(cases)


def test_every_page_is_a_render_task() -> None:
    from generator.render import _AFTER_RULES, _TASKS, PAGES
    assert sorted(_TASKS + _AFTER_RULES) == sorted([*PAGES, "data", "schema"])


def test_pipeline_renders_beside_the_rules_with_identical_output(monkeypatch: pytest.MonkeyPatch,
                                                                 helper_allowed: list[int]) -> None:
    files = list(real_files())
    alone = validate(files)
    pages = render_site(alone.kb, alone.figures)  # type: ignore[arg-type]
    result, plain = validate_and_render(files)
    assert result.ok and result.diagnostics == alone.diagnostics and plain == pages
    monkeypatch.setattr(fanout, "MIN_ITEMS", 1)
    result, helped = validate_and_render(files)
    assert result.diagnostics == alone.diagnostics and helped == pages
    assert len(helper_allowed) == 2  # one parsing, one rendering beside the rules


def test_pipeline_drops_the_speculative_render_when_a_rule_fails(monkeypatch: pytest.MonkeyPatch,
                                                                 helper_allowed: list[int]) -> None:
    """Broken knowledge bases that load (so rendering starts) but fail a rule: no pages, the same
    diagnostics as `validate`, and every helper stopped and reaped."""
    cases = [c for c in invalid_cases() if c.name.startswith(("tree-", "article-", "arithmetic-"))]
    assert len(cases) > 10
    monkeypatch.setattr(fanout, "MIN_ITEMS", 1)
    for case in cases:
        files = with_file(case.target, case.raw)
        result, pages = validate_and_render(files)  # type: ignore[arg-type]
        assert pages is None and not result.ok
        assert result.diagnostics == validate(files).diagnostics  # type: ignore[arg-type]
    assert len(helper_allowed) > len(cases)  # parse helpers, and render helpers that were stopped
    for pid in helper_allowed:
        assert _reaped(pid)


def test_error_in_the_parent_share_stops_the_helper(monkeypatch: pytest.MonkeyPatch,
                                                    helper_allowed: list[int]) -> None:
    """The parent fails on its first file while the helper parses others (slowly, so that the
    queue still holds files for the parent): the error comes through and the helper is stopped
    and reaped."""
    from generator import validate as validate_module
    real = validate_module._parsed

    def parsed(spec: object) -> object:
        if os.getpid() == PARENT:
            raise MemoryError("parent trouble")
        time.sleep(0.05)
        return real(spec)  # type: ignore[arg-type]
    monkeypatch.setattr(validate_module, "_parsed", parsed)
    monkeypatch.setattr(fanout, "MIN_ITEMS", 1)
    with pytest.raises(MemoryError, match="parent trouble"):
        validate(list(real_files()))
    [pid] = helper_allowed
    assert _reaped(pid)


# Shared: the helper and the parent take items from one queue.

def test_shared_helper_takes_everything_while_the_parent_is_busy(helper_allowed: list[int]) -> None:
    shared = fanout.Shared(_double_with_pid, list(range(30)), parallel=True)
    [pid] = helper_allowed
    deadline = time.monotonic() + 10  # a bound on a failure, not a timing
    while _state(pid) != "Z" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _state(pid) == "Z"  # it did not wait for the parent
    assert shared.results() == [(x * 2, pid) for x in range(30)]
    assert _reaped(pid)


def test_shared_parent_and_helper_split_the_queue(helper_allowed: list[int]) -> None:
    """The parent's first item waits until the helper has taken one: both then take from the
    same queue, no item twice, and the results keep the order of the items."""
    took, told = os.pipe()

    def first_helper_then_parent(x: int) -> tuple[int, int]:
        if os.getpid() != PARENT:
            os.write(told, b"x")
            time.sleep(0.01)
        else:
            assert _readable(took), "the helper never took an item"
        return x * 2, os.getpid()
    try:
        out = fanout.Shared(first_helper_then_parent, list(range(40)), parallel=True).results()
    finally:
        os.close(took)
        os.close(told)
    [pid] = helper_allowed
    assert [v for v, _p in out] == [x * 2 for x in range(40)]
    assert {p for _v, p in out} == {PARENT, pid}


def _readable(fd: int) -> bool:
    import select
    return bool(select.select([fd], [], [], 10)[0])


def test_shared_without_parallel_is_computed_here() -> None:
    assert fanout.Shared(_double_with_pid, [1, 2, 3], parallel=False).results() == \
        [(2, PARENT), (4, PARENT), (6, PARENT)]


def test_shared_with_too_many_items_is_computed_here(helper_allowed: list[int]) -> None:
    items = list(range(fanout.Shared.MAX_ITEMS + 1))
    assert fanout.Shared(_double_with_pid, items, parallel=True).results() == [(x * 2, PARENT) for x in items]
    assert helper_allowed == []


@pytest.mark.parametrize("fn", [_helper_dies, _fails_in_helper])
def test_shared_items_the_helper_took_but_never_sent_are_computed_here(helper_allowed: list[int], fn: object) -> None:
    """The helper takes the first item and dies on it (or fails and leaves): the parent takes
    the rest from the queue and computes the lost one at the end."""
    shared = fanout.Shared(fn, list(range(12)), parallel=True)  # type: ignore[arg-type]
    [pid] = helper_allowed
    deadline = time.monotonic() + 10
    while _state(pid) != "Z" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert shared.results() == [fn(x) for x in range(12)]  # type: ignore[operator]
    assert _reaped(pid)


def test_shared_cancel_stops_a_busy_helper_and_closes_the_queue(helper_allowed: list[int]) -> None:
    before = _pipes_and_stores()
    shared = fanout.Shared(_forever, [1, 2], parallel=True)
    shared.cancel()
    [pid] = helper_allowed
    assert _reaped(pid)
    assert _pipes_and_stores() == before


@pytest.mark.parametrize("refused", ["pipe", "memfd_create", "fork"])
def test_shared_that_cannot_start_leaves_the_work_to_the_parent(monkeypatch: pytest.MonkeyPatch,
                                                                helper_allowed: list[int], refused: str) -> None:
    def refuse(*_args: object) -> int:
        raise PermissionError(f"{refused} refused")
    monkeypatch.setattr(fanout.os, refused, refuse)
    before = _pipes_and_stores()
    assert fanout.Shared(_double_with_pid, list(range(20)), parallel=True).results() == \
        [(x * 2, PARENT) for x in range(20)]
    assert helper_allowed == []
    assert _pipes_and_stores() == before


def _parent_fails(x: int) -> int:
    if os.getpid() == PARENT:
        raise MemoryError("parent trouble")
    time.sleep(0.05)
    return x


def test_shared_error_in_the_parent_stops_the_helper(helper_allowed: list[int]) -> None:
    before = _pipes_and_stores()
    shared = fanout.Shared(_parent_fails, list(range(50)), parallel=True)
    with pytest.raises(MemoryError, match="parent trouble"):
        shared.results()
    [pid] = helper_allowed
    assert _reaped(pid)
    assert _pipes_and_stores() == before


def test_helper_sends_big_results_without_waiting_for_the_parent(helper_allowed: list[int]) -> None:
    """Results of ~300 KB each, far more than a pipe holds, all made and sent before the parent
    asks for any."""
    shared = fanout.Shared(_big, list(range(12)), parallel=True)
    [pid] = helper_allowed
    _wait_until_done(pid)
    assert shared.results() == [_big(x) for x in range(12)]
    assert _reaped(pid)


def test_results_the_helper_sent_before_it_died_are_kept(helper_allowed: list[int]) -> None:
    """The helper sends 0-6 and dies on 7: 7 is computed here, and so are 8 and 9, which are
    still in the queue."""
    shared = fanout.Shared(_dies_at_seven, list(range(10)), parallel=True)
    [pid] = helper_allowed
    _wait_until_done(pid)
    out = shared.results()
    assert [v for v, _p in out] == [x * 2 for x in range(10)]
    assert [p for _v, p in out] == [pid] * 7 + [PARENT] * 3
    assert _reaped(pid)


def test_abandoned_results_stop_the_helper(helper_allowed: list[int]) -> None:
    before = _pipes_and_stores()
    stream = fanout.Shared(_double_with_pid, list(range(1000)), parallel=True).as_completed()
    next(stream)
    stream.close()  # the consumer gave up (an exception, say): the helper must not be left behind
    [pid] = helper_allowed
    assert _reaped(pid)
    assert _pipes_and_stores() == before


def test_no_fork_while_other_threads_run() -> None:
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not fanout.can_fork()
        out = fanout.Shared(_double_with_pid, list(range(4)), parallel=True).results()
        assert {pid for _v, pid in out} == {PARENT}
    finally:
        stop.set()
        worker.join()


def test_a_finished_helper_is_reaped_by_the_next_one_at_the_latest(helper_allowed: list[int]) -> None:
    """The parent does not wait for a done helper's exit; the next helper's start reaps it, so at
    most one is ever left unreaped."""
    assert fanout.Shared(_double_with_pid, list(range(10)), parallel=True).results()
    [first] = helper_allowed
    assert fanout._EXITING in ([], [first])
    assert fanout.Shared(_double_with_pid, list(range(10)), parallel=True).results()
    assert first not in fanout._EXITING
    with pytest.raises(ChildProcessError):
        os.waitpid(first, os.WNOHANG)
    fanout.reap_exited()
    assert fanout._EXITING == []
