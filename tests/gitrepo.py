"""Throwaway git repositories for the tests that read spec trees from revisions."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from support import SPECS


def git(repo: Path, *args: str) -> str:
    """Run git in a throwaway repository, with no user or system configuration."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True).stdout


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def spec_repo(tmp_path: Path, specs: Path = SPECS) -> Path:
    """A git repository holding a copy of `specs` (the real specs/ unless told), committed once."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    shutil.copytree(specs, repo / "specs")
    commit_all(repo, "specs")
    return repo
