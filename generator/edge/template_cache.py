"""The generator's compiled page templates, kept between processes.

Every `mkdocs build`, every rebuild under `mkdocs serve` (which imports the generator afresh) and
every `generator build` is a new start that would compile the 55 templates again: 0.3 to 0.5 s on
the 2-core machine, of a hook that may add at most a quarter to what Material alone takes to build
the same pages (DESIGN.md §8, `make bench`). Jinja's own FileSystemBytecodeCache keeps them, in its
default folder: one per user in the system's temporary directory, created private (0700) and
refused when another user owns it. Each entry is keyed by the template's name and checked against
its source's checksum, so an edited template is compiled afresh, never served stale, and the pages
are the same with the cache or without it.

A cache that cannot be made (an unsafe or unusable temporary folder) or written (a full or
read-only disk) is no cache: the build goes on and compiles, as it would without one."""

from __future__ import annotations

from contextlib import suppress

from jinja2 import Environment
from jinja2.bccache import Bucket, FileSystemBytecodeCache


class _KeptTemplates(FileSystemBytecodeCache):
    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):  # not kept: compiled again next time
            super().dump_bytecode(bucket)


def keep_compiled_templates(env: Environment) -> None:
    """Give `env` the per-user bytecode cache, unless it has one or none can be made."""
    if env.bytecode_cache is not None:
        return
    with suppress(OSError, RuntimeError):  # RuntimeError: Jinja found the folder unsafe
        env.bytecode_cache = _KeptTemplates()


__all__ = ["keep_compiled_templates"]
