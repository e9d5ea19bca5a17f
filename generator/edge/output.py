"""How the command line writes to its standard output and error: every text through one escape,
and a reader that stops reading (`| head -1`, `| true`) ends the command quietly.

Commands print spec text (names, titles, sources, ids, file names), which is hostile input: a
control character from a spec must not reach a terminal, and a file name's undecodable bytes must
not stop a stream that encodes strictly. Rather than trust each print of each command to escape
its text, `streams` puts `Escaped` in front of standard output and error while a command runs, so
that everything printed, text, JSON, Markdown and argparse's messages alike, goes through
`render.escape.terminal`.

Python ignores SIGPIPE, so a write to a pipe whose reader has gone raises BrokenPipeError, and so
may the interpreter's own flush of the streams at exit, after `main` has returned (the output of a
short command sits in the stream's buffer until then). `streams` therefore flushes inside the
command, where `main` catches the error, and `discard` points both streams at the null device, so
that the flush at exit has nowhere left to fail (the "Note on SIGPIPE" of the signal module's
documentation).
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Iterator
from types import TracebackType
from typing import TextIO

from ..render.escape import terminal

# The status a shell reports for a command a closed pipe stopped (128 + SIGPIPE), as `yes | head`
# gives for `yes`: not 0, since the output was cut short.
CLOSED_PIPE = 141


class Escaped:
    """A standard stream seen through `terminal`: what is written reaches the stream escaped.
    Only writing and flushing are offered, so nothing can reach the stream around the escape."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal(text))
        return len(text)  # what print() and argparse count: the characters they gave

    def flush(self) -> None:
        self.stream.flush()


@contextlib.contextmanager
def streams() -> Iterator[None]:
    """Run a command with standard output and error escaped, then flush them before returning,
    whether the command returned or exited (argparse's `--help` and usage errors raise
    SystemExit): a closed pipe is then a BrokenPipeError raised here, not at the interpreter's
    exit."""
    out, err = sys.stdout, sys.stderr
    try:
        with contextlib.redirect_stdout(Escaped(out)), contextlib.redirect_stderr(Escaped(err)):
            yield
    finally:
        out.flush()
        err.flush()


def discard() -> None:
    """After a BrokenPipeError: everything still buffered for standard output or error, and
    anything written later, goes to the null device (a stream without a file descriptor, as a
    test's StringIO, is left as it is: no interpreter flushes it at exit)."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):  # no file descriptor
                os.dup2(null, stream.fileno())
    finally:
        os.close(null)


def show_crash(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    """`sys.excepthook` of `python -m generator`: a crash's traceback through the same escape (its
    message may quote a spec's text), written after `streams` has handed the streams back."""
    sys.stderr.write(terminal("".join(traceback.format_exception(kind, error, trace))))
