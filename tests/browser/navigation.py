"""Going to a page in the browser tests and waiting for it to be done loading."""

from __future__ import annotations

import time

from playwright.sync_api import Page, Request

SETTLE_LIMIT_S = 10.0
"""How long a page's own requests may stay open after its load event before `settle` gives up."""


def settle(page: Page, url: str) -> None:
    """Go to `url` and return when it has loaded and every request it made since (the search
    worker's index, the calculator's data) has ended. Playwright's "networkidle" says the same
    but only after 500 ms with nothing in flight, which on 27 pages walked twice was most of
    the browser tests' time. A request still open after `SETTLE_LIMIT_S` fails the test."""
    pending: set[Request] = set()

    def made(request: Request) -> None:
        pending.add(request)

    def ended(request: Request) -> None:
        pending.discard(request)

    page.on("request", made)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    try:
        page.goto(url, wait_until="load")
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while pending:
            assert time.monotonic() < deadline, f"{url}: still loading {sorted(r.url for r in pending)[:3]}"
            page.wait_for_timeout(10)
    finally:
        page.remove_listener("request", made)
        page.remove_listener("requestfinished", ended)
        page.remove_listener("requestfailed", ended)


def without_search_index(page: Page) -> None:
    """Refuse the page's requests for the search index, for a test of layout that loads many
    pages. On every page load Material's search worker fetches and indexes the whole site's
    index: 30 pages at phone width took 19-21 CPU-s without it against 29-30 with it. No layout
    depends on it; the walk (test_reader) loads it on every page, and the search tests use it."""
    page.route("**/search/search_index.json", lambda route: route.abort())


def search_hrefs(page: Page, url: str, term: str) -> list[str]:
    """Search `term` from the page at `url` as a reader types it, and return the addresses of
    every result, the folded sections of a page unfolded. Material searches on key events; text
    from an input method (Chinese) arrives as a commit, so it is filled and one key is sent."""
    settle(page, url)
    page.click("input.md-search__input")
    page.fill("input.md-search__input", term)
    page.keyboard.press("End")
    page.wait_for_selector(".md-search-result__item", timeout=15_000)
    more = page.locator(".md-search-result__more summary")
    for index in range(more.count()):
        more.nth(index).click()
    hrefs: list[str] = page.eval_on_selector_all(".md-search-result__item a, .md-search-result__link",
                                                 "els => els.map(e => e.href)")
    return hrefs


SHOW_EVERY_TABLE = ".md-typeset .data-table, .md-typeset .md-typeset__scrollwrap { content-visibility: visible !important }"


def show_every_table(page: Page) -> None:
    """Render every table and fold of the page, as a reader who scrolls down it and opens its
    folds sees them. Tables out of view are not rendered until a reader scrolls near them
    (content-visibility), and what a fold holds (`<details>`: a long table of runs, a flowchart
    branch's answers) not until the reader opens it; unrendered text is in no innerText and under
    no contrast check."""
    open_every_fold(page)
    page.add_style_tag(content=SHOW_EVERY_TABLE)


def open_every_fold(page: Page) -> None:
    """Open every fold (`<details>`) of the article, as a reader clicking each summary would."""
    page.evaluate("document.querySelectorAll('article details').forEach(fold => { fold.open = true; })")
