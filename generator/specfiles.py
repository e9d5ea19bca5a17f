"""Reading the spec tree from disk (an I/O edge): which files count, and which are refused
before they are even parsed (unknown folders, symlinks leaving specs/, oversized files)."""

from __future__ import annotations

import os
from pathlib import Path

from .diagnostics import Diagnostic
from .load import MAX_FILE_BYTES
from .model import KINDS
from .validate import SpecFile


def read_spec_tree(root: Path) -> tuple[list[SpecFile], list[Diagnostic]]:
    files: list[SpecFile] = []
    problems: list[Diagnostic] = []
    if not root.is_dir():
        return [], [Diagnostic(str(root), 1, 1, "schema-folder", "no such spec folder")]
    real_root = root.resolve()
    for entry in sorted(root.iterdir()):
        shown = _shown(root, entry)
        if entry.name.startswith("."):
            continue
        if not entry.is_dir() or entry.name not in KINDS:
            problems.append(Diagnostic(shown, 1, 1, "schema-folder",
                                       f"unexpected {'folder' if entry.is_dir() else 'file'}: spec files live in "
                                       f"one of {', '.join(k + '/' for k in KINDS)}"))
            continue
        for path in sorted(entry.iterdir()):
            spec, problem = _read_one(root, real_root, entry.name, path)
            if spec is not None:
                files.append(spec)
            if problem is not None:
                problems.append(problem)
    return files, problems


def _read_one(root: Path, real_root: Path, kind: str, path: Path) -> tuple[SpecFile | None, Diagnostic | None]:
    shown = _shown(root, path)
    if path.name.startswith("."):
        return None, None
    if path.suffix != ".yaml" or path.is_dir():
        return None, Diagnostic(shown, 1, 1, "schema-folder", "only .yaml files belong in a spec folder")
    real = path.resolve()
    if not real.is_relative_to(real_root):
        return None, Diagnostic(shown, 1, 1, "schema-folder", "symbolic link to a file outside the spec folder")
    if not real.is_file():
        return None, Diagnostic(shown, 1, 1, "schema-folder", "not a regular file")
    size = real.stat().st_size
    if size > MAX_FILE_BYTES:  # refuse before reading a huge file into memory
        return None, Diagnostic(shown, 1, 1, "yaml-too-large",
                                f"file is {size} bytes; a spec file may hold at most {MAX_FILE_BYTES} bytes")
    return SpecFile(shown, kind, path.stem, real.read_bytes()), None


def _shown(root: Path, path: Path) -> str:
    return os.path.normpath(str(root / path.relative_to(root)))
