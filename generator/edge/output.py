"""How the command line writes to its standard output and error: a reader that stops reading
(`| head -1`, `| true`) ends the command quietly.

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
from collections.abc import Iterator

# The status a shell reports for a command a closed pipe stopped (128 + SIGPIPE), as `yes | head`
# gives for `yes`: not 0, since the output was cut short.
CLOSED_PIPE = 141


@contextlib.contextmanager
def streams() -> Iterator[None]:
    """Run a command, then flush standard output and error before returning, whether the command
    returned or exited (argparse's `--help` and usage errors raise SystemExit): a closed pipe is
    then a BrokenPipeError raised here, not at the interpreter's exit."""
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


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
