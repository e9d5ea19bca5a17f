"""File-system oddities in specs/ (tests/hostile_tree.py) are diagnostics with their own rule,
at the path as shown, and never a traceback or a hang; a file name cannot forge a report line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_tree import CASES, RULES
from support import BASE, ROOT

from generator.edge.specfiles import read_spec_tree
from generator.validate import validate

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
_AS_ROOT = os.geteuid() == 0


def _tree(tmp_path: Path) -> Path:
    tree = tmp_path / "project" / "specs"
    shutil.copytree(BASE, tree)
    return tree


def _simulate_permissions(monkeypatch: pytest.MonkeyPatch, tree: Path) -> None:
    """Root reads mode-000 files anyway: refuse what has no read bit as the kernel would refuse
    anyone else, at the calls the reader makes."""
    def denied(path: Path) -> bool:
        try:
            return stat_mode(path) & 0o444 == 0 and path.resolve().is_relative_to(tree.resolve())
        except OSError:
            return False

    def stat_mode(path: Path) -> int:
        return os.stat(path).st_mode

    real_open, real_iterdir = Path.open, Path.iterdir

    def open_(self: Path, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if denied(self):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    def iterdir(self: Path):  # type: ignore[no-untyped-def]
        if denied(self):
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(Path, "open", open_)
    monkeypatch.setattr(Path, "iterdir", iterdir)


@pytest.mark.parametrize("name", sorted(CASES))
def test_file_system_oddity_is_a_diagnostic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Each case yields exactly its diagnostics from the reader (plus, for a file that cannot be
    read, what its absence causes), and the check fails."""
    tree = _tree(tmp_path)
    try:
        expected = CASES[name](tree)
    except PermissionError:
        pytest.skip("this file system does not allow making the node")
    if _AS_ROOT and name.startswith("unreadable"):
        _simulate_permissions(monkeypatch, tree)
    try:
        files, early = read_spec_tree(tree)
        got = {(os.path.relpath(d.path, tree), d.line, d.col, d.rule) for d in early}
        assert got == expected, [d.as_text() for d in early]
        assert not validate(files, early).ok
    finally:  # let pytest remove the folder again
        tree.chmod(0o755)
        (tree / "networks").chmod(0o755)


def test_every_case_rule_is_declared() -> None:
    from generator.rules.catalog import RULES as CATALOG
    assert set(CATALOG) >= RULES


def test_oddities_through_the_command_line(tmp_path: Path) -> None:
    """`check` on a tree with every oddity at once: exit 1, one line per problem, no traceback,
    and it returns (a named pipe is never opened)."""
    tree = _tree(tmp_path)
    for name in ("symlink_loop", "symlink_outside", "symlink_broken", "named_pipe"):
        CASES[name](tree)
    done = subprocess.run([sys.executable, "-m", "generator", "check", str(tree)], cwd=tmp_path / "project",
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    for rule in ("schema-symlink-loop", "schema-symlink-outside", "schema-symlink-broken", "schema-special-file"):
        assert f"[{rule}]" in done.stderr


def test_newline_in_a_file_name_cannot_forge_a_line(tmp_path: Path) -> None:
    """A file whose name holds a line break and a fake report is shown escaped on one line:
    every line of the report is a real diagnostic or the summary."""
    tree = _tree(tmp_path)
    forged = "test-x\nspecs:9:9: error: all good [yaml-syntax]\x1b[2K\u202e.yaml"
    (tree / "gpus" / forged).write_bytes((tree / "gpus" / "test-rtx-4090.yaml").read_bytes())
    done = subprocess.run([sys.executable, "-m", "generator", "check", "specs"], cwd=tmp_path / "project",
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert not any(line.startswith("specs:9:9") for line in lines)
    assert all(line.startswith("specs/") or line.endswith("error(s)") for line in lines), lines
    assert "test-x\\nspecs:9:9: error: all good [yaml-syntax]\\x1b[2K\\u202e.yaml:" in done.stderr
    assert "\x1b" not in done.stderr and "\u202e" not in done.stderr
