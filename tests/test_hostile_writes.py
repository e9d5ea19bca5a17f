"""Output only where it belongs: `build --out` and `schema --out` refuse a folder inside the
knowledge base (links and `..` resolved), and write through fresh temporary files created with
O_EXCL | O_NOFOLLOW and renamed into place, so that a link planted in the output folder (at a
temporary name or at a page's own name) is never followed, and a linked folder that leads out of
it is refused with nothing written. Each case runs the real command line on the fixture base."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import BASE, ROOT

ENV = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_MKDOCS_2_WARNING": "1"}


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=300, check=False)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(BASE, tmp_path / "specs")
    return tmp_path


@pytest.mark.parametrize("args", [
    ("build", "--out", "specs"), ("build", "--out", "specs/gpus"), ("build", "--out", "./specs/../specs/new"),
    ("schema", "--out", "specs"), ("schema", "--out", "specs/gpus"), ("schema", "--out", "specs/../specs/gpus/x"),
])
def test_an_output_folder_inside_the_knowledge_base_is_refused(project: Path, args: tuple[str, ...]) -> None:
    before = _snapshot(project / "specs")
    done = _run(project, *args)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "inside the knowledge base" in done.stderr and done.stdout == ""
    assert _snapshot(project / "specs") == before


def test_a_linked_output_folder_into_the_knowledge_base_is_refused(project: Path) -> None:
    (project / "out").symlink_to(project / "specs" / "gpus", target_is_directory=True)
    before = _snapshot(project / "specs")
    for command in ("build", "schema"):
        done = _run(project, command, "--out", "out")
        assert done.returncode == 1 and "inside the knowledge base" in done.stderr, done.stderr
    assert _snapshot(project / "specs") == before


def test_planted_links_in_the_output_folder_are_never_followed(project: Path) -> None:
    """A link at the old fixed temporary name and one at a page's own name, both to a file
    outside: the build writes the page as a file of its own and leaves the target as it was."""
    victim = project / "victim.txt"
    victim.write_text("victim\n", encoding="utf-8")
    out = project / "out"
    out.mkdir()
    (out / ".gpus.md.tmp").symlink_to(victim)
    (out / "gpus.md").symlink_to(victim)
    done = _run(project, "build", "--out", "out")
    assert done.returncode == 0, done.stderr
    assert victim.read_text(encoding="utf-8") == "victim\n"
    assert not (out / "gpus.md").is_symlink() and (out / "gpus.md").read_text(encoding="utf-8").startswith("---")
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp") and p.name != ".gpus.md.tmp"]


def test_a_linked_folder_that_leads_out_is_refused_with_nothing_written(project: Path) -> None:
    elsewhere, out = project / "elsewhere", project / "out"
    elsewhere.mkdir()
    out.mkdir()
    (out / "data").symlink_to(elsewhere, target_is_directory=True)
    done = _run(project, "build", "--out", "out")
    assert done.returncode == 1 and "would be written outside" in done.stderr, done.stderr
    assert list(elsewhere.iterdir()) == [] and [p.name for p in out.iterdir()] == ["data"]
