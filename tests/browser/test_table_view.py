"""Data tables a reader can use, in headless Chromium: on a phone the header row of the long GPU
table stays in view while the reader scrolls down it; a link to a GPU's row lands on that row, not
under the header that hides it, and a link to a row of a folded table opens the fold."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from navigation import open_every_fold, settle
from playwright.sync_api import Browser, Page

from generator.knowledge import KnowledgeBase
from generator.model.entities import ComputeNode, Gpu
from generator.model.runs import Run
from generator.render.context import run_page
from generator.render.runs import FOLD_ROWS


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def _header_state(page: Page) -> dict[str, float]:
    """Where the GPU table's header row and its 21st row are, and whether the header is on top."""
    return page.evaluate("""() => {
      const table = document.querySelector('article .data-table table');
      const th = table.querySelector('thead th:nth-child(2)');
      const r = th.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const rows = table.querySelectorAll('tbody tr');
      return {top: r.top, bottom: r.bottom, shown: th.contains(hit) ? 1 : 0, rows: rows.length,
              row21: rows.length > 20 ? rows[20].getBoundingClientRect().top : NaN};
    }""")


def test_header_row_stays_in_view_on_a_phone(phone: Page, base_url: str) -> None:
    """390 px wide: scrolled 20 rows down the GPU table, its header row is still on screen, on top."""
    settle(phone, base_url + "/gpus/")
    phone.evaluate("document.querySelector('#specs').scrollIntoView({block: 'start'})")
    state = _header_state(phone)
    assert state["rows"] > 20 and state["row21"] > 844, state  # the 21st row starts off screen
    phone.mouse.move(200, state["bottom"] + 100)  # over the table's rows
    for _ in range(60):
        phone.mouse.wheel(0, 120)
        phone.wait_for_timeout(20)
        state = _header_state(phone)
        if state["row21"] < 844 / 2:
            break
    assert state["row21"] < 844 / 2, state  # the reader is 20 rows down the table
    header_bar = phone.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom")
    assert header_bar - 1 <= state["top"] and state["bottom"] <= 844, state  # below the site's bar, on screen
    assert state["shown"], state  # and not covered by the rows scrolling under it


@pytest.mark.parametrize("width", [1280, 390])
def test_row_links_land_on_the_row(browser: Browser, base_url: str, kb: KnowledgeBase, longest_runs_page: str,
                                   width: int) -> None:
    """`gpus/#<id>` and `nodes/#<id>` show that row, below the table's header row, not under it;
    so does a link to a run on the longest page of runs, whose tables are folded: it opens the fold."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="zh-CN")
    page = context.new_page()
    try:
        gpus, nodes = kb.of_type(Gpu), kb.of_type(ComputeNode)
        runs = [run for run in kb.of_type(Run) if f"/{run_page(run.model.source)}/" == longest_runs_page]
        targets = [("/gpus/", gpus[len(gpus) // 2].id), ("/nodes/", nodes[len(nodes) // 2].id),
                   (longest_runs_page, runs[len(runs) // 2].id)]
        for path, entity_id in targets:
            settle(page, f"{base_url}{path}#{entity_id}")
            page.wait_for_timeout(200)
            seen = page.evaluate("""id => {
              const row = document.getElementById(id);
              const r = row.querySelector('td:nth-child(2)').getBoundingClientRect();
              const th = row.closest('table').querySelector('thead th:nth-child(2)').getBoundingClientRect();
              const bar = document.querySelector('.md-header').getBoundingClientRect().bottom;
              const at = (x, y) => document.elementFromPoint(x, y);
              return {row: row.tagName, visible: r.top >= 0 && r.bottom <= innerHeight,
                      uncovered: row.contains(at(r.left + 4, r.top + 4)),
                      header: th.top >= bar - 1 && th.bottom <= r.top + 1};
            }""", entity_id)
            # the row on screen, not under the header row, which is itself not under the site's bar
            assert seen == {"row": "TR", "visible": True, "uncovered": True, "header": True}, (path, entity_id, seen)
    finally:
        context.close()


def test_a_table_out_of_view_is_laid_out_when_the_reader_reaches_it(page: Page, base_url: str,
                                                                      longest_runs_page: str) -> None:
    """The long pages skip the layout of tables far below the screen (content-visibility: their
    first paint no longer waits for hundreds of rows), and a table is there once scrolled to: the
    longest page of measured runs with both its folds opened, whose second table then starts
    hundreds of rows down."""
    settle(page, base_url + longest_runs_page)
    open_every_fold(page)
    last = page.locator("article .data-table").last
    first_cell = last.locator("tbody td").first
    assert first_cell.text_content()  # in the document all along
    page.wait_for_timeout(200)
    assert page.evaluate("e => e.checkVisibility({contentVisibilityAuto: true})", first_cell.element_handle()) is False
    last.scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    assert page.evaluate("e => e.checkVisibility({contentVisibilityAuto: true})", first_cell.element_handle()) is True
    assert first_cell.inner_text() == first_cell.text_content()


def test_a_long_table_is_folded_until_the_reader_opens_it(page: Page, base_url: str, longest_runs_page: str) -> None:
    """The longest page of runs opens with its summary; its two run-by-run tables are folded, their
    rows in the document but not rendered. The reader opens a fold by its summary, which names how
    many rows it holds; printing opens every fold."""
    settle(page, base_url + longest_runs_page)
    folds = page.locator("article details.long-table")
    runs = page.locator("article tbody tr[id]").count()  # the first table's rows carry the runs' ids
    assert folds.count() == (2 if runs > FOLD_ROWS else 0)
    if runs <= FOLD_ROWS:  # no source has that many runs: nothing is folded
        return
    rows = [folds.nth(i).locator("tbody tr") for i in range(2)]
    assert rows[0].count() == rows[1].count() == runs
    assert all(not row.first.is_visible() for row in rows)
    assert str(rows[0].count()) in folds.first.locator("summary").inner_text()
    folds.first.locator("summary").click()
    rows[0].first.wait_for(state="visible")
    rows[0].first.scroll_into_view_if_needed()
    page.wait_for_function("row => row.checkVisibility({contentVisibilityAuto: true})", arg=rows[0].first.element_handle())
    shown, held = (re.sub(r"\s", "", text or "") for text in (rows[0].first.inner_text(), rows[0].first.text_content()))
    assert shown == held != ""  # rendered: its text is what a reader sees
    assert not rows[1].first.is_visible()  # the other fold stays as it was
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert folds.evaluate_all("folds => folds.map(fold => fold.open)") == [True, True]


def test_a_malformed_address_fragment_raises_no_error(page: Page, base_url: str, longest_runs_page: str) -> None:
    """A fragment that is not valid percent-encoding (a truncated link) leaves the page as it is:
    no script error, and the folds stay closed."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    settle(page, base_url + longest_runs_page + "#%E0%A4%A")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.evaluate("location.hash = '#%E0%A4%B'")  # and on hashchange
    page.wait_for_timeout(100)
    assert errors == []
    assert page.locator("article details.long-table[open]").count() == 0


# Three frames after the load event: tables.js acts two frames after it (`afterJump`).
AFTER_THE_JUMP = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))))"


@pytest.mark.parametrize("width", [1280, 390])
def test_a_link_to_a_heading_below_long_tables_lands_on_it(browser: Browser, base_url: str, site_dir: Path,
                                                           width: int) -> None:
    """The tables above a heading are laid out only near the screen (content-visibility), at a
    placeholder height until then: a link to the heading lands on it all the same, just below the
    site's bar (or as near as the page's end allows), on every page whose tables come before a
    heading."""
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN")
    page = context.new_page()
    off = []
    try:
        for path in ("/gpus/", "/nodes/", "/runs/", "/accuracy/"):
            html = (site_dir / path.strip("/") / "index.html").read_text(encoding="utf-8")
            for heading in re.findall(r'<h[23] id="([^"]+)"', html[html.index("<table"):]):
                page.goto("about:blank")
                settle(page, f"{base_url}{path}#{heading}")
                page.evaluate(AFTER_THE_JUMP)
                seen = page.evaluate("""id => {
                  const top = document.getElementById(id).getBoundingClientRect().top;
                  const bar = document.querySelector('.md-header').getBoundingClientRect().bottom;
                  const end = scrollY + innerHeight >= document.documentElement.scrollHeight - 1;
                  return {top: Math.round(top), bar: Math.round(bar), end};
                }""", heading)
                if not (seen["bar"] - 1 <= seen["top"] <= seen["bar"] + 60 or (seen["end"] and seen["top"] >= 0)):
                    off.append((path, heading, seen))
    finally:
        context.close()
    assert not off, off
