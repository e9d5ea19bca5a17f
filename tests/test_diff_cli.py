"""`python -m generator diff BASE HEAD` as the pull-request workflow runs it: two folders or two
git revisions, Markdown or JSON, exit 0/1 as HEAD validates, 2 with one line when a side
cannot be read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from gitrepo import commit_all, spec_repo
from support import ROOT, SPECS

from generator.edge.diff_format import md
from generator.edge.specfiles import read_spec_tree
from generator.validate import validate


def run_diff(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "generator", "diff", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=120)


def double_first_lane_rate(specs: Path) -> str:
    """Double the lane rate of the first network (whatever it is); return the network's id."""
    path = sorted((specs / "networks").glob("*.yaml"))[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["lane_rate"]["value"] *= 2
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(data["id"])


def expected_status(specs: Path) -> int:
    return 0 if validate(*read_spec_tree(specs)).ok else 1


def test_two_folders(tmp_path: Path) -> None:
    """A folder against an edited copy: the derived port rate is in the table."""
    head = tmp_path / "head"
    shutil.copytree(SPECS, head)
    network = double_first_lane_rate(head)
    done = run_diff(str(SPECS), str(head), cwd=tmp_path)
    assert done.returncode == expected_status(head), done.stderr
    assert f"| {md(network)}（networks） | lane\\_rate | 标称 |" in done.stdout
    assert "| port\\_rate | 推导 |" in done.stdout and "Traceback" not in done.stderr


def test_same_folder_twice(tmp_path: Path) -> None:
    """No change: exit 0, one line."""
    done = run_diff(str(SPECS), str(SPECS), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.count("\n") == 1 and "无变化" in done.stdout


def test_two_revisions(tmp_path: Path) -> None:
    """HEAD~1 against HEAD of a repository, read from git objects; JSON lists the moved figures."""
    repo = spec_repo(tmp_path)
    network = double_first_lane_rate(repo / "specs")
    commit_all(repo, "double a lane rate")
    shutil.rmtree(repo / "specs")  # the working tree plays no part
    done = run_diff("HEAD~1", "HEAD", "--format", "json", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    moved = {(row["entity"], row["figure"], row["origin"]) for row in data["figures"]}
    assert {(network, "lane_rate", "stated"), (network, "port_rate", "derived")} <= moved
    assert data["head"]["label"] == "HEAD" and data["compared"] is True


@pytest.mark.parametrize(("args", "message"), [
    (("no-such-branch", "HEAD"), "diff: 'no-such-branch' is neither a folder nor a git revision\n"),
    (("HEAD", "HEAD", "--specs-dir", "elsewhere"), "diff: HEAD has no spec folder elsewhere/\n"),
])
def test_unreadable_side_exits_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    """A bad revision or a missing folder: one line on stderr, exit 2, nothing on stdout."""
    done = run_diff(*args, cwd=spec_repo(tmp_path))
    assert (done.returncode, done.stderr, done.stdout) == (2, message, "")
