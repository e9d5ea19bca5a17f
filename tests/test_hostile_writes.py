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
from support import BASE, ROOT, add_bit_byte_slip

from generator.edge import files
from generator.edge.cli import PROJECT_SPECS, _output_refusal
from generator.edge.mkdocs_adapter import _rewrite_search_index

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
    assert done.stderr.count("\n") == 1, done.stderr  # one line
    assert _snapshot(project / "specs") == before


def test_the_output_folder_is_refused_before_the_knowledge_base_is_read(project: Path) -> None:
    """A knowledge base that does not pass is not even read: the one line says where not to
    write, not the base's diagnostics (the refusal does not depend on them)."""
    add_bit_byte_slip(project / "specs")
    before = _snapshot(project / "specs")
    done = _run(project, "build", "--out", "specs/new")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("nothing written: --out specs/new is inside the knowledge base specs;")
    assert _snapshot(project / "specs") == before


def test_the_projects_own_knowledge_base_is_refused_whatever_specs_says(tmp_path: Path) -> None:
    """`schema` reads no specs and a build may read another folder: the project's own specs/ is
    refused all the same, by its real path (called directly: a failure here must not write into
    the checkout's specs/)."""
    refusal = _output_refusal(str(PROJECT_SPECS / "gpus" / ".." / "gpus"), str(tmp_path / "other"), "elsewhere")
    assert refusal is not None and f"inside the knowledge base {PROJECT_SPECS};" in refusal
    assert _output_refusal(str(tmp_path / "out"), str(tmp_path / "other"), "elsewhere") is None


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


def test_a_temporary_name_already_taken_is_drawn_again_never_followed(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The random part of a temporary name could be guessed or repeat: a link planted at the name
    drawn first makes the exclusive open fail, and the next name is drawn (never the link's
    target written)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("victim\n", encoding="utf-8")
    (tmp_path / ".page.md.aaaaaaaa.tmp").symlink_to(victim)
    drawn = iter(["aaaaaaaa", "bbbbbbbb"])
    monkeypatch.setattr(files.secrets, "token_hex", lambda _n: next(drawn))
    files.replace_file(tmp_path / "page.md", b"page\n")
    assert victim.read_text(encoding="utf-8") == "victim\n"
    assert (tmp_path / "page.md").read_bytes() == b"page\n" and not (tmp_path / "page.md").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".page.md.aaaaaaaa.tmp", "page.md", "victim.txt"]


def test_the_search_index_rewrite_writes_only_the_sites_own_file(tmp_path: Path) -> None:
    """The hook rewrites search/search_index.json as UTF-8 after the search plugin: through a
    fresh file renamed over it. A link at the index, or a linked search/ folder that leads out of
    the site, is left alone, and what it points to is neither read nor written."""
    outside = tmp_path / "outside"
    outside.mkdir()
    escaped = '{"docs": [{"text": "\\u4e2d"}]}'
    (outside / "search_index.json").write_text(escaped, encoding="utf-8")
    linked_file, linked_folder, plain = (tmp_path / name for name in ("linked-file", "linked-folder", "plain"))
    for site in (linked_file, linked_folder, plain):
        site.mkdir()
    (linked_file / "search").mkdir()
    (linked_file / "search" / "search_index.json").symlink_to(outside / "search_index.json")
    (linked_folder / "search").symlink_to(outside, target_is_directory=True)
    (plain / "search").mkdir()
    (plain / "search" / "search_index.json").write_text(escaped, encoding="utf-8")
    for site in (linked_file, linked_folder, plain):
        _rewrite_search_index(site)
    assert (outside / "search_index.json").read_text(encoding="utf-8") == escaped
    assert (linked_file / "search" / "search_index.json").is_symlink()
    assert (plain / "search" / "search_index.json").read_text(encoding="utf-8") == '{"docs":[{"text":"中"}]}'
    assert [p.name for p in (plain / "search").iterdir()] == ["search_index.json"]  # no temporary left
