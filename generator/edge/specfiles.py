"""Reading the spec tree (an I/O edge): which files count, and which are refused before they are
even parsed (unknown folders, symbolic links that leave specs/, loop or lead nowhere, files and
folders that cannot be read, named pipes and devices, oversized files; rules/spec_tree.py). From
a folder on disk, or from a git revision's objects (no checkout), with the same files and the same
refusals."""

from __future__ import annotations

import errno
import os
import posixpath
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, Rule
from ..load.parse import MAX_FILE_BYTES
from ..load.schema_rules import FOLDER
from ..load.yaml_rules import TOO_LARGE
from ..model import KINDS
from ..rules.spec_tree import SPECIAL_FILE, SYMLINK_BROKEN, SYMLINK_LOOP, SYMLINK_OUTSIDE, UNREADABLE
from ..validate import SpecFile

_NOT_YAML = "only .yaml files belong in a spec folder"
# Why a symbolic link is refused, with its rule: the same from disk and from git.
_OUTSIDE = (SYMLINK_OUTSIDE, "symbolic link to a file outside the spec folder")
_LOOP = (SYMLINK_LOOP, "symbolic links that loop: this path never reaches a file")
_BROKEN = (SYMLINK_BROKEN, "symbolic link to a file that does not exist")
_KINDS_OF_FILE = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"))


class SpecSourceError(Exception):
    """A spec tree that cannot be read at all (unknown revision, no such folder in it, no git):
    one line for the user, not a diagnostic, since there is no file to point at."""


def read_spec_tree(root: Path) -> tuple[list[SpecFile], list[Diagnostic]]:
    files: list[SpecFile] = []
    problems: list[Diagnostic] = []
    if not root.is_dir():
        return [], [FOLDER.at(str(root), 1, 1, "no such spec folder")]
    real_root = root.resolve()
    top, problem = _listing(root, root)
    problems += problem
    for entry in top:
        shown = _shown(root, entry)
        if entry.name.startswith("."):
            continue
        link = _link_problem(entry, real_root)
        if link is not None:
            problems.append(_refused_by(shown, link))
            continue
        if not entry.is_dir() or entry.name not in KINDS:
            problems.append(_unexpected(shown, entry.is_dir()))
            continue
        inside, problem = _listing(root, entry)
        problems += problem
        for path in inside:
            spec, refused = _read_one(root, real_root, entry.name, path)
            if spec is not None:
                files.append(spec)
            if refused is not None:
                problems.append(refused)
    return files, problems


def _link_problem(entry: Path, real_root: Path) -> tuple[Rule, str] | None:
    """Why a symbolic link in place of a spec folder cannot be followed (it loops or leads
    nowhere), or None; files inside one that leads out of specs/ are refused one by one."""
    if not entry.is_symlink():
        return None
    try:
        entry.resolve(strict=True)
    except RuntimeError:  # a loop (Python before 3.13)
        return _LOOP
    except OSError as err:
        return _LOOP if err.errno == errno.ELOOP else _OUTSIDE if not entry.resolve().is_relative_to(real_root) else _BROKEN
    return None


def _listing(root: Path, folder: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The entries of `folder`, sorted, or why it cannot be listed."""
    try:
        return sorted(folder.iterdir()), []
    except OSError as err:
        return [], [UNREADABLE.at(_shown(root, folder), 1, 1, f"cannot list this folder: {_reason(err)}")]


def _read_one(root: Path, real_root: Path, kind: str, path: Path) -> tuple[SpecFile | None, Diagnostic | None]:
    shown = _shown(root, path)
    if path.name.startswith("."):
        return None, None
    if path.suffix != ".yaml" or path.is_dir():
        return None, _refused(shown, _NOT_YAML)
    try:
        real = path.resolve(strict=True)
    except RuntimeError:  # a loop of symbolic links (Python before 3.13)
        return None, _refused_by(shown, _LOOP)
    except OSError as err:
        if err.errno == errno.ELOOP:
            return None, _refused_by(shown, _LOOP)
        if isinstance(err, FileNotFoundError):  # listed, so a link to nothing: outside first, as git does
            return None, _refused_by(shown, _OUTSIDE if not path.resolve().is_relative_to(real_root) else _BROKEN)
        return None, UNREADABLE.at(shown, 1, 1, f"cannot read this file: {_reason(err)}")
    if not real.is_relative_to(real_root):
        return None, _refused_by(shown, _OUTSIDE)
    try:
        status = real.stat()
        if stat.S_ISREG(status.st_mode) and status.st_size > MAX_FILE_BYTES:
            return None, _too_large(shown, status.st_size)  # refuse before reading a huge file into memory
        if not stat.S_ISREG(status.st_mode):  # never opened: a named pipe would block, a device never end
            what = next((name for test, name in _KINDS_OF_FILE if test(status.st_mode)), "not a regular file")
            return None, SPECIAL_FILE.at(shown, 1, 1, f"{what}, not a regular file: a spec is a plain .yaml file")
        with real.open("rb") as stream:  # at most one byte past the limit, whatever the file grew to
            raw = stream.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            return None, _too_large(shown, real.stat().st_size)
        return SpecFile(shown, kind, path.stem, raw), None
    except OSError as err:
        return None, UNREADABLE.at(shown, 1, 1, f"cannot read this file: {_reason(err)}")


def _reason(err: OSError) -> str:
    return (err.strerror or type(err).__name__).lower() + (" (check its permissions)" if isinstance(err, PermissionError) else "")


def _shown(root: Path, path: Path) -> str:
    return os.path.normpath(str(root / path.relative_to(root)))


def _unexpected(shown: str, is_dir: bool) -> Diagnostic:
    return _refused(shown, f"unexpected {'folder' if is_dir else 'file'}: spec files live in "
                           f"one of {', '.join(k + '/' for k in KINDS)}")


def _refused(shown: str, message: str) -> Diagnostic:
    return FOLDER.at(shown, 1, 1, message)


def _refused_by(shown: str, why: tuple[Rule, str]) -> Diagnostic:
    rule, message = why
    return rule.at(shown, 1, 1, message)


def _too_large(shown: str, size: int) -> Diagnostic:
    return TOO_LARGE.at(shown, 1, 1, f"file is {size} bytes; a spec file may hold at most {MAX_FILE_BYTES} bytes")


@dataclass(frozen=True)
class _Entry:
    """One line of `git ls-tree -l`: a blob (file or symlink), a tree, or a commit (submodule)."""

    mode: str
    type: str
    oid: str
    size: int


def read_spec_tree_at(revision: str, root: Path) -> tuple[list[SpecFile], list[Diagnostic]]:
    """The spec folder `root` (relative to the current directory, as for a folder) as committed
    in `revision`, read straight from git objects: what `read_spec_tree` gives on a checkout of
    it, without touching the working tree (a pull request's diff reads two revisions at once)."""
    unknown = f"{revision!r} is neither a folder nor a git revision"
    if revision.startswith("-"):  # would be read as an option
        raise SpecSourceError(unknown)
    folder = os.path.normpath(os.path.relpath(root) if root.is_absolute() else root)
    _git("rev-parse", "--verify", "--quiet", f"{revision}^{{tree}}", failure=unknown)
    tree = _git("rev-parse", "--verify", "--quiet", f"{revision}:./{folder}",
                failure=f"{revision} has no spec folder {folder}/").decode().strip()
    listing = _git("ls-tree", "-r", "-t", "-l", "-z", tree, failure=f"{revision}:{folder} is not a folder")
    entries = _parse_listing(listing)
    links = _cat_blobs([e.oid for e in entries.values() if e.mode == "120000"])
    targets = {rel: os.fsdecode(links[e.oid]) for rel, e in entries.items() if e.mode == "120000"}
    chosen, problems = _choose(root, entries, lambda rel: _resolve(rel, entries, targets, folder))
    contents = _cat_blobs([entries[target].oid for _shown_path, _kind, _stem, target in chosen])
    files = [SpecFile(shown, kind, stem, contents[entries[target].oid]) for shown, kind, stem, target in chosen]
    return files, problems


def _choose(root: Path, entries: dict[str, _Entry],
            resolve: Callable[[str], str | tuple[Rule, str]]) -> tuple[list[tuple[str, str, str, str]], list[Diagnostic]]:
    """The files to read as (shown path, kind, stem, entry holding the bytes), and the refusals,
    by the rules of `read_spec_tree`. A symbolic link is followed inside the tree only."""
    chosen: list[tuple[str, str, str, str]] = []
    problems: list[Diagnostic] = []
    for rel in sorted(entries, key=lambda path: path.split("/")):
        parts, entry = rel.split("/"), entries[rel]
        shown = os.path.normpath(str(root / rel))
        if parts[0].startswith(".") or len(parts) > 2 or (len(parts) == 2 and parts[1].startswith(".")):
            continue
        if len(parts) == 1:
            link = resolve(rel) if entry.mode == "120000" else None
            if isinstance(link, tuple) and link is not _OUTSIDE:  # as on disk: a loop, or a link to nothing
                problems.append(_refused_by(shown, link))
            elif entry.type != "tree" or rel not in KINDS:
                problems.append(_unexpected(shown, entry.type == "tree"))
            continue
        if parts[0] not in KINDS or entries[parts[0]].type != "tree":
            continue
        if not parts[1].endswith(".yaml") or entry.type != "blob":
            problems.append(_refused(shown, _NOT_YAML))
            continue
        target = resolve(rel)
        if isinstance(target, tuple):
            problems.append(_refused_by(shown, target))
        elif entries[target].type != "blob":  # a link to a folder: `Path.is_dir` follows it
            problems.append(_refused(shown, _NOT_YAML))
        elif entries[target].size > MAX_FILE_BYTES:
            problems.append(_too_large(shown, entries[target].size))
        else:
            chosen.append((shown, parts[0], Path(parts[1]).stem, target))
    return chosen, problems


def _resolve(rel: str, entries: dict[str, _Entry], targets: dict[str, str], folder: str) -> str | tuple[Rule, str]:
    """The entry a path ends at after its symbolic links (`targets`), or the refusal's message.
    Links are followed as the file system would, from the repository's view of `folder`, so
    that `../../specs/gpus/x.yaml` is inside the tree and `../../README.md` is not."""
    for _hop in range(40):  # the kernel's own limit on a chain of links
        entry = entries.get(rel)
        if entry is None:
            return _BROKEN
        if entry.mode != "120000":
            return rel
        target, prefix = targets[rel], "" if folder == "." else folder + "/"
        full = posixpath.normpath(posixpath.join(prefix, posixpath.dirname(rel), target))
        inside = full.startswith(prefix) if prefix else full != ".." and not full.startswith("../")
        if target.startswith("/") or not inside:
            return _OUTSIDE
        rel = full[len(prefix):]
    return _LOOP


def _parse_listing(listing: bytes) -> dict[str, _Entry]:
    entries: dict[str, _Entry] = {}
    for record in listing.split(b"\0"):
        if record:
            meta, _tab, path = record.partition(b"\t")
            mode, kind, oid, size = meta.decode().split()
            entries[os.fsdecode(path)] = _Entry(mode, kind, oid, int(size) if size.isdigit() else 0)
    return entries


def _cat_blobs(oids: list[str]) -> dict[str, bytes]:
    """The contents of these objects, in one `git cat-file --batch`."""
    unique = sorted(set(oids))
    if not unique:
        return {}
    out = _git("cat-file", "--batch", stdin="".join(oid + "\n" for oid in unique).encode(),
               failure="cannot read the spec files from git")
    blobs: dict[str, bytes] = {}
    at = 0
    for oid in unique:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) != 3:
            raise SpecSourceError(f"cannot read git object {oid}")
        size = int(header[2])
        blobs[oid] = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1
    return blobs


def _git(*args: str, failure: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *args], input=stdin, capture_output=True, check=False)
    except OSError as err:
        raise SpecSourceError(f"cannot run git: {err.strerror}") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise SpecSourceError(f"{failure} ({detail[0]})" if detail else failure)
    return done.stdout
