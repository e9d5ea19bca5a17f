"""The generator's compiled page templates, kept between processes.

Every `mkdocs build`, every rebuild under `mkdocs serve` (which imports the generator afresh) and
every `generator build` is a new start that would compile the 55 templates again: 0.3 to 0.5 s on
the 2-core machine, of a hook that may add at most a quarter to what Material alone takes to build
the same pages (DESIGN.md §8, `make bench`). Jinja's own FileSystemBytecodeCache keeps them in
`.cache/templates/` of the checkout, beside .mypy_cache and .ruff_cache (git ignores it, `make clean`
removes it), outside the folders `mkdocs serve` watches. Not in Jinja's default folder in the
system's temporary directory: Jinja chmods that path before it checks that it is no symlink, so
another user who plants `/tmp/_jinja2-cache-0` as a link would have a build run as root change the
mode of whatever it points to. Each entry is keyed by the template's name and checked against
its source's checksum, so an edited template is compiled afresh, never served stale, and the pages
are the same with the cache or without it. Jinja's key does not cover the environment's settings,
which the compiled code also depends on (autoescape, trim_blocks, the delimiters...), nor Jinja's
version: they name the entries here, so that a change to `render.environment()` or to the pinned
Jinja compiles afresh too.

A cache that cannot be made (a file in the folder's place, a read-only checkout) or written (a
full disk) is no cache: the build goes on and compiles, as it would without one."""

from __future__ import annotations

import hashlib
from contextlib import suppress
from pathlib import Path

import jinja2
from jinja2 import Environment
from jinja2.bccache import Bucket, FileSystemBytecodeCache


class _KeptTemplates(FileSystemBytecodeCache):
    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):  # not kept: compiled again next time
            super().dump_bytecode(bucket)


COMPILE_SETTINGS = ("block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
                    "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
                    "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "autoescape",
                    "optimized")


def _settings_digest(env: Environment) -> str:
    """Jinja's version and what of `env` its compiled code depends on, as a short digest."""
    settings = [jinja2.__version__, *(repr(getattr(env, name)) for name in COMPILE_SETTINGS), *sorted(env.extensions)]
    return hashlib.sha256("\n".join(settings).encode("utf-8")).hexdigest()[:16]


CACHE = Path(__file__).resolve().parents[2] / ".cache" / "templates"
"""Where the compiled templates are kept: in the checkout that holds this generator."""


def keep_compiled_templates(env: Environment) -> None:
    """Give `env` the bytecode cache in `CACHE`, unless it has one or the folder cannot be made."""
    if env.bytecode_cache is not None:
        return
    with suppress(OSError):
        CACHE.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = _KeptTemplates(str(CACHE), pattern=f"__guide_{_settings_digest(env)}_%s.cache")


__all__ = ["keep_compiled_templates"]
