"""`mkdocs build` replaces the site folder whole or not at all: a spec error, a bad figure
reference or a missing snippet in a hand-written page, or a warning in strict mode leaves the
previous site byte for byte; a good build replaces it entirely (a dirty one too), `gh-deploy`
publishes it; and no folder is left beside it. Each works on a project whose specs are the
fixture base (support.small_project)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from gitrepo import commit_all, git
from support import add_bit_byte_slip, small_project

MKDOCS = str(Path(sys.executable).with_name("mkdocs"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def _build(project: Path, site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MKDOCS, "build", *(flags or ["--strict"]), "-d", str(site)], cwd=project, env=ENV,
                          capture_output=True, text=True, timeout=300)


def _snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _append(page: str, text: str) -> Callable[[Path], object]:
    def edit(project: Path) -> None:
        with (project / "docs" / page).open("a", encoding="utf-8") as f:
            f.write(f"\n{text}\n")
    return edit


BREAKS = {
    "spec-error": lambda project: add_bit_byte_slip(project / "specs"),
    "bad-figure-reference": _append("reading.md", "这里引用了不存在的数字：[[test-no-such-entity#port_rate]]。"),
    "missing-snippet": _append("reading.md", '--8<-- "test-no-such-snippet.md"'),
    "strict-warning": _append("reading.md", "[不存在的页面](test-no-such-page.md)"),
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project copy and its site (out/nested/site), built once into a folder that did not exist
    (nor its parent). Never changed: each test works on its own copy (`built`)."""
    root = tmp_path_factory.mktemp("atomic")
    small_project(root)
    done = _build(root / "project", root / "out" / "nested" / "site")
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture()
def built(base: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the base project and its site (modification times kept, as `--dirty` reads them)."""
    for name in ("project", "out"):
        shutil.copytree(base / name, tmp_path / name, symlinks=True)
    return tmp_path / "project", tmp_path / "out" / "nested" / "site"


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_failed_build_keeps_previous_site(built: tuple[Path, Path], name: str) -> None:
    """A build that fails, wherever it fails, leaves the previous site byte-identical."""
    project, site = built
    before = _snapshot(site)
    BREAKS[name](project)
    failed = _build(project, site)
    assert failed.returncode == 1, failed.stderr
    assert _snapshot(site) == before
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_good_build_replaces_the_whole_site(built: tuple[Path, Path]) -> None:
    """A good build brings the edit, drops a file whose source is gone, and leaves no sibling."""
    project, site = built
    stale = project / "docs" / "assets" / "test-stale.txt"
    stale.write_text("旧文件\n", encoding="utf-8")
    assert _build(project, site).returncode == 0
    assert (site / "assets" / "test-stale.txt").is_file()
    stale.unlink()
    _append("reading.md", "测试新增的一段。")(project)
    done = _build(project, site)
    assert done.returncode == 0, done.stderr
    assert "测试新增的一段" in (site / "reading" / "index.html").read_text(encoding="utf-8")
    assert not (site / "assets" / "test-stale.txt").exists()
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_dirty_build_keeps_the_pages_it_does_not_rebuild(built: tuple[Path, Path]) -> None:
    """`--dirty` rebuilds only what changed, so its folder starts as a copy of the old site. (MkDocs
    warns about every dirty build, so strict mode refuses one, and the old site stays.)"""
    project, site = built
    before = _snapshot(site)
    _append("reading.md", "测试新增的一段。")(project)
    assert _build(project, site, "--strict", "--dirty").returncode == 1
    assert _snapshot(site) == before
    done = _build(project, site, "--no-strict", "--dirty")
    assert done.returncode == 0, done.stderr
    after = _snapshot(site)
    assert set(after) == set(before)
    assert "测试新增的一段" in after["reading/index.html"].decode("utf-8")
    assert sorted(os.listdir(site.parent)) == ["site"]


def test_gh_deploy_publishes_the_new_site(tmp_path: Path) -> None:
    """`gh-deploy` builds beside the site, swaps, and pushes the swapped-in folder."""
    project = small_project(tmp_path)
    remote = tmp_path / "remote.git"
    remote.mkdir()
    git(remote, "init", "-q", "--bare")
    git(project, "init", "-q")
    commit_all(project, "project")
    git(project, "remote", "add", "origin", str(remote))
    env = {**ENV, "HOME": str(project), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    done = subprocess.run([MKDOCS, "gh-deploy", "--force"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    published = git(remote, "ls-tree", "-r", "--name-only", "gh-pages").split()
    assert "index.html" in published and "reading/index.html" in published
    assert [p.name for p in project.iterdir() if p.name.startswith(".site")] == []
