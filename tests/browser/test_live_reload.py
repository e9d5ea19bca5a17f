"""What a maintainer sees in the browser under `mkdocs serve`: a page showing the list of problems
reloads by itself once the spec is fixed (livereload, after the rebuild that fixes it)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect
from support import fetch, mkdocs_serve, small_project, wait_for


def test_problem_page_reloads_itself_when_the_spec_is_fixed(browser: Browser, tmp_path: Path) -> None:
    """Open a page while a spec is broken: it lists the problem; delete the broken file and the
    same tab, untouched, navigates to the normal page."""
    project, log = small_project(tmp_path), tmp_path / "serve.log"
    broken = project / "specs" / "gpus" / "test-broken.yaml"
    with mkdocs_serve(project, log) as url:
        broken.write_text("id: test-broken\n", encoding="utf-8")
        wait_for(lambda: "kb-problems" in fetch(url + "/gpus/")[1], "no problem list after breaking a spec", log)
        context = browser.new_context(locale="zh-CN")
        page = context.new_page()
        try:
            page.goto(url + "/gpus/")
            expect(page.locator(".kb-problems")).to_contain_text("specs/gpus/test-broken.yaml")
            broken.unlink()
            # No goto from here on: only the page reloading itself can change what it shows (the
            # wait is a deadline for a stuck server, and survives an extra rebuild's reload).
            expect(page.locator(".kb-problems")).to_have_count(0, timeout=120_000)
            expect(page.locator(".md-content table").first).to_be_visible()
        finally:
            context.close()
