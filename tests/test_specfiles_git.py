"""A spec tree read from a git revision is the tree a checkout of it reads: same files, same
refusals (unknown folders, stray files, links leaving the tree, oversized files)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gitrepo import commit_all, spec_repo

from generator.edge.specfiles import SpecSourceError, read_spec_tree, read_spec_tree_at
from generator.load.parse import MAX_FILE_BYTES


def _odd_tree(repo: Path) -> None:
    specs = repo / "specs"
    some_gpu = sorted((specs / "gpus").glob("*.yaml"))[0].name
    (specs / "extra").mkdir()
    (specs / "extra" / "x.yaml").write_text("id: x\n")
    (specs / "README.md").write_text("not a spec\n")
    (specs / ".hidden").mkdir()
    (specs / ".hidden" / "x.yaml").write_text("id: x\n")
    (specs / "gpus" / "notes.txt").write_text("notes\n")
    (specs / "gpus" / ".draft.yaml").write_text("id: draft\n")
    (specs / "gpus" / "folder.yaml").mkdir()
    (specs / "gpus" / "folder.yaml" / "x.yaml").write_text("id: x\n")
    (specs / "gpus" / "huge.yaml").write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    (repo / "outside.yaml").write_text("id: outside\n")
    (specs / "gpus" / "inside-link.yaml").symlink_to(some_gpu)
    (specs / "gpus" / "around-link.yaml").symlink_to(f"../../specs/gpus/{some_gpu}")
    (specs / "gpus" / "chain-link.yaml").symlink_to("inside-link.yaml")
    (specs / "gpus" / "outside-link.yaml").symlink_to("../../outside.yaml")
    (specs / "gpus" / "dangling-link.yaml").symlink_to("nowhere.yaml")
    (specs / "gpus" / "folder-link.yaml").symlink_to("../networks")
    (specs / "gpus" / "loop-a.yaml").symlink_to("loop-b.yaml")
    (specs / "gpus" / "loop-b.yaml").symlink_to("loop-a.yaml")
    for folder in ("pitfalls", "topologies"):
        shutil.rmtree(specs / folder, ignore_errors=True)
    (specs / "pitfalls").symlink_to("pitfalls")  # a spec folder that loops
    (specs / "topologies").symlink_to("nowhere")  # and one that leads nowhere


def test_revision_reads_like_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Odd entries of every sort give the same files and diagnostics from git as from disk."""
    repo = spec_repo(tmp_path)
    _odd_tree(repo)
    commit_all(repo, "odd entries")
    monkeypatch.chdir(repo)
    from_disk = read_spec_tree(Path("specs"))
    from_git = read_spec_tree_at("HEAD", Path("specs"))
    assert from_git == from_disk
    refused = {d.path for d in from_disk[1]}
    assert {"specs/extra", "specs/README.md", "specs/gpus/notes.txt", "specs/gpus/huge.yaml",
            "specs/gpus/outside-link.yaml", "specs/gpus/dangling-link.yaml", "specs/gpus/folder.yaml",
            "specs/gpus/folder-link.yaml", "specs/gpus/loop-a.yaml", "specs/gpus/loop-b.yaml", "specs/pitfalls",
            "specs/topologies"} == refused
    assert {"specs/gpus/inside-link.yaml", "specs/gpus/around-link.yaml",
            "specs/gpus/chain-link.yaml"} <= {f.path for f in from_disk[0]}


def test_older_revision_and_absolute_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HEAD~1 is read as it was committed, whatever the working tree holds now."""
    repo = spec_repo(tmp_path)
    before = read_spec_tree(repo / "specs")
    victim = sorted((repo / "specs" / "networks").glob("*.yaml"))[0]
    victim.write_text(victim.read_text() + "# edited\n")
    commit_all(repo, "edit")
    victim.unlink()
    monkeypatch.chdir(repo)
    assert read_spec_tree_at("HEAD~1", repo / "specs") == before
    assert any(f.raw.endswith(b"# edited\n") for f in read_spec_tree_at("HEAD", Path("specs"))[0])


@pytest.mark.parametrize(("revision", "folder", "message"), [
    ("no-such-branch", "specs", "'no-such-branch' is neither a folder nor a git revision"),
    ("--output=x", "specs", "'--output=x' is neither a folder nor a git revision"),
    ("HEAD", "nothing", "HEAD has no spec folder nothing/"),
])
def test_unreadable_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, revision: str, folder: str,
                             message: str) -> None:
    """An unknown revision, an option in disguise or a missing folder is one line, no traceback."""
    monkeypatch.chdir(spec_repo(tmp_path))
    with pytest.raises(SpecSourceError) as caught:
        read_spec_tree_at(revision, Path(folder))
    assert str(caught.value) == message


def test_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside any git repository, the message says so."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    with pytest.raises(SpecSourceError, match="not a git repository"):
        read_spec_tree_at("HEAD", Path("specs"))
