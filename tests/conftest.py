"""Pytest wiring for tests/: run from the project root, and the --update-goldens switch.
Helpers shared by test modules live in support.py (a module named conftest cannot be shared:
tests/browser has its own)."""

from __future__ import annotations

import pytest
from support import ROOT


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/<case>/expected/ from the current output (and delete orphans)")
