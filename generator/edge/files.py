"""Writing generated files without following links (file-system edge of `build`, `schema` and the
MkDocs hook).

An output folder may hold links that someone else planted: at a page's own name, at the name of a
temporary file, or as a folder that leads elsewhere. A plain `open(path, "w")` follows each of them
and writes wherever it points, outside the output folder or over a spec file. So every file is
written here the same way: into a new file beside its target, created with O_CREAT | O_EXCL |
O_NOFOLLOW under a random name (an existing name, a link included, makes the open fail instead of
being followed), then renamed over the target. A rename replaces a link at the target with the new
file and never writes to what the link points to. A target whose folder resolves outside the
output folder is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

# O_NOFOLLOW is POSIX; where it is missing, O_CREAT | O_EXCL alone still refuses an existing link.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def fresh_file(target: Path, data: bytes) -> Path:
    """`data` in a new file beside `target` (`.NAME.XXXXXXXX.tmp`, 32 random bits), under a name
    that nobody can have planted a link at: O_EXCL refuses any existing entry, link or not, and a
    taken name is simply drawn again. Permissions as for any new file (0666 less the umask)."""
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temporary, _NEW_FILE, 0o666)
        except FileExistsError:
            continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return temporary
    raise FileExistsError(f"no free temporary name beside {target}")


def replace_file(target: Path, data: bytes) -> None:
    """Put `data` at `target` through a fresh file and a rename: a link at `target` is replaced,
    never followed."""
    temporary = fresh_file(target, data)
    try:
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def inside(path: Path, folders: Iterable[Path]) -> Path | None:
    """The first of `folders` that `path` is, or lies inside, with links and `..` resolved on both
    sides (a path that does not exist yet resolves through the part that does); None if none."""
    real = path.resolve()
    return next((folder for folder in folders if real.is_relative_to(folder.resolve())), None)


def write_all(out: Path, files: dict[str, str]) -> str | None:
    """Write the files that differ from what `out` holds (an unchanged file keeps its mtime, for
    tools that watch), all or none: each is first written beside its target by `fresh_file`, and
    only when every one is written are they renamed into place. A target whose folder's real path
    leaves `out` (a linked folder inside it) is refused, and so is a target that is a folder or
    any other non-file. Returns why nothing was written, or None."""
    staged: list[tuple[Path, Path]] = []
    made: list[Path] = []  # folders this run created, removed again if it fails
    root = out.resolve()
    try:
        for relative, text in sorted(files.items()):
            target, data = out / relative, text.encode("utf-8")
            if not target.parent.resolve().is_relative_to(root):
                raise PermissionError(f"{target} would be written outside {out}")
            if target.is_symlink():
                pass  # replaced by the rename below, never followed (nor read)
            elif target.exists() and not target.is_file():
                raise IsADirectoryError(f"{target} is in the way: it is not a file")
            elif target.is_file() and target.read_bytes() == data:
                continue
            missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
            target.parent.mkdir(parents=True, exist_ok=True)
            made += reversed(missing)
            staged.append((fresh_file(target, data), target))
        for temporary, target in staged:
            os.replace(temporary, target)
    except OSError as err:
        for temporary, _target in staged:
            temporary.unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return str(err)
    return None
