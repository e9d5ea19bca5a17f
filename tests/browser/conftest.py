"""Browser fixtures: the strictly built site served on 127.0.0.1, the knowledge base it was built
from (a test that needs a value reads it there, never types it), and Debian's Chromium headless shell driven by
Playwright (never a downloaded browser). Missing Chromium is a failure, not a skip: CI installs
it, and these tests are what a reader sees."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from support import real_result

from generator.derive import FigureIndex
from generator.knowledge import KnowledgeBase
from generator.model.runs import Run
from generator.render.context import run_page

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.sitekit import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402


@pytest.fixture(scope="session")
def site_dir(real_site: Path) -> Path:
    """The real site (tests/conftest.py), the one the HTML tests read."""
    return real_site


@cache
def _real() -> tuple[KnowledgeBase, FigureIndex]:
    result = real_result()
    assert result.kb is not None and result.figures is not None
    return result.kb, result.figures


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    """The real knowledge base, as the site was built from it."""
    return _real()[0]


@pytest.fixture(scope="session")
def longest_runs_page(kb: KnowledgeBase) -> str:
    """The page of the source that measured the most runs (`/runs-<source>/`): the site's longest
    tables, two of them, wherever the knowledge base puts them."""
    counts = Counter(run.model.source for run in kb.of_type(Run))
    return f"/{run_page(max(sorted(counts), key=counts.__getitem__))}/"


@pytest.fixture(scope="session")
def figures() -> FigureIndex:
    """Its figures, derived ones included."""
    return _real()[1]


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    with serve(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium-headless-shell (tools/browser-deps.sh)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    yield page
    context.close()
