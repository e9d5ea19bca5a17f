"""Browser fixtures: the strictly built site served on 127.0.0.1, and Debian's Chromium driven
by Playwright (never a downloaded browser). Missing Chromium is a failure, not a skip: CI
installs it, and these tests are what a reader sees."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools.sitekit import CHROMIUM, CHROMIUM_ARGS, build_site, serve  # noqa: E402


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-site")
    done = build_site(out)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    with serve(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium (see .ci/run)"
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
