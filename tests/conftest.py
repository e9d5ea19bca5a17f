"""Pytest wiring for tests/: run from the project root, the --update-goldens switch, and the two
sites every test that inspects a built site shares (the real one and the hostile one, each built
once per run). Helpers shared by test modules live in support.py (a module named conftest
cannot be shared: tests/browser has its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from payloads import build_hostile_site
from support import REPOSITORY, ROOT


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/<case>/expected/ from the current output (and delete orphans)")


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, `mkdocs build --strict` of the checkout for REPOSITORY. Read it, never
    change it: every test that inspects the real site gets this one folder."""
    out = tmp_path_factory.mktemp("real-site")
    done = subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-d", str(out)],
                          cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "GUIDE_REPO_URL": REPOSITORY},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the hostile fixture base (tests/payloads.py), built once; read it, never change it."""
    return build_hostile_site(tmp_path_factory.mktemp("hostile"))
