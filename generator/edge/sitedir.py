"""The site folder replaced whole or not at all (file-system edge of the MkDocs hook): a build
writes into a fresh sibling folder (`.site.build-XXXX` beside `site/`), which takes the old
site's place only when the build succeeded; a failed build deletes it and the old site stays as
it was. Nothing is written anywhere but the site folder's own parent, under names of that form.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from pathlib import Path

_BUILDING, _OLD = ".build-", ".old-"


def start(site_dir: str, *, dirty: bool) -> Path | None:
    """A new, empty folder beside `site_dir` to build into (for a dirty build, a copy of the old
    site with its times, so MkDocs still rewrites only what changed); None when none can be made
    there (the parent is not writable, or `site_dir` is not a folder): the build then writes
    in place, as MkDocs would."""
    target = Path(os.path.realpath(site_dir))
    if target.exists() and not target.is_dir():
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        sibling = _new_folder(target)
    except OSError:
        return None
    if dirty and target.is_dir():
        try:
            shutil.copytree(target, sibling, symlinks=True, dirs_exist_ok=True)
        except (OSError, shutil.Error):
            discard(sibling)
            return None
    return sibling


def _new_folder(target: Path) -> Path:
    """An empty folder beside `target`, with the old site's permissions (or the usual ones for a
    new folder: tempfile's private 0700 would hide the site from a web server's user)."""
    while True:
        sibling = target.with_name(f".{target.name}{_BUILDING}{secrets.token_hex(4)}")
        try:
            sibling.mkdir()
        except FileExistsError:
            continue
        if target.is_dir():
            os.chmod(sibling, stat.S_IMODE(target.stat().st_mode))
        return sibling


def finish(sibling: Path, site_dir: str) -> None:
    """Put `sibling` in the place of `site_dir`: the old folder is renamed aside and the new one
    renamed in, both in the same parent folder (a reader finds the old site or the new one,
    never a mix), then the old one is deleted. Raises OSError with the old site back in place."""
    target = Path(os.path.realpath(site_dir))
    old = sibling.with_name(sibling.name.replace(_BUILDING, _OLD, 1))
    if target.exists():
        try:
            os.rename(target, old)
        except OSError:  # a mount point, say: it cannot move, but its content can
            _refill(target, sibling)
            return
    try:
        os.rename(sibling, target)
    except OSError:
        if old.exists():
            os.rename(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _refill(target: Path, sibling: Path) -> None:
    """Replace what `target` holds by what `sibling` holds, entry by entry (not atomic: only for a
    site folder that cannot be renamed), then delete `sibling`."""
    for entry in target.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    for entry in sibling.iterdir():
        shutil.move(str(entry), str(target / entry.name))
    discard(sibling)


def discard(sibling: Path) -> None:
    """Delete a folder that `start` made (and only such a folder)."""
    if _BUILDING in sibling.name and sibling.name.startswith("."):
        shutil.rmtree(sibling, ignore_errors=True)
