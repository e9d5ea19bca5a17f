"""The comparison page as a reader uses it: a shared address opens the same comparison, ticking a
box changes the columns and the address, a reload keeps them, an unknown id in the address is left
out with a note, and a figure reads as on the GPU page."""

from __future__ import annotations

from navigation import settle
from playwright.sync_api import Page

from generator.knowledge import KnowledgeBase
from generator.model.entities import Gpu


def _shown(page: Page, kind: str) -> list[str]:
    return page.evaluate("""kind => [...document.querySelectorAll(`.compare[data-kind=${kind}] thead th[data-col]`)]
        .filter(th => getComputedStyle(th).display !== 'none').map(th => th.dataset.col)""", kind)


def test_the_choice_lives_in_the_address(page: Page, base_url: str, kb: KnowledgeBase) -> None:
    gpus = sorted(e.id for e in kb.of_type(Gpu))
    a, b, c = gpus[0], gpus[1], gpus[2]
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page, f"{base_url}/compare/?gpus={a},{b},no-such-gpu")
    assert sorted(_shown(page, "gpus")) == sorted([a, b])
    assert "已略去" in page.locator(".compare[data-kind=gpus] .compare-note").inner_text()
    # the memory of the first chosen GPU reads as on the GPU page
    here = page.locator(f".compare[data-kind=gpus] tbody tr >> nth=0 >> td[data-col='{a}']").inner_text()
    settle(page, f"{base_url}/gpus/")
    there = page.locator(f"tr[id='{a}'] td >> nth=1").inner_text()
    assert " ".join(here.split()) == " ".join(there.split())
    settle(page, f"{base_url}/compare/?gpus={a},{b}")
    page.locator(f".compare[data-kind=gpus] input[value='{c}']").check()
    assert sorted(_shown(page, "gpus")) == sorted([a, b, c])
    assert f"gpus={a},{b},{c}" in page.url
    page.reload()
    page.wait_for_selector(".compare.compare-ready")
    assert sorted(_shown(page, "gpus")) == sorted([a, b, c])
    page.locator(f".compare[data-kind=gpus] input[value='{a}']").uncheck()
    assert sorted(_shown(page, "gpus")) == sorted([b, c]) and f"gpus={b},{c}" in page.url


def test_at_most_four_and_the_page_does_not_scroll_sideways_on_a_phone(page: Page, base_url: str,
                                                                      kb: KnowledgeBase) -> None:
    gpus = sorted(e.id for e in kb.of_type(Gpu))
    page.set_viewport_size({"width": 390, "height": 844})
    settle(page, f"{base_url}/compare/?gpus={','.join(gpus[:4])}")
    assert len(_shown(page, "gpus")) == 4
    assert page.locator(f".compare[data-kind=gpus] input[value='{gpus[4]}']").is_disabled()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    settle(page, f"{base_url}/compare/")
    assert len(_shown(page, "gpus")) == 2 and len(_shown(page, "nodes")) >= 1


def test_the_notes_follow_the_page_language(page: Page, base_url: str, kb: KnowledgeBase) -> None:
    """The script's sentences come from its table for the language of <html lang> (English pages
    are "en"), read when the note is written."""
    gpus = sorted(e.id for e in kb.of_type(Gpu))
    settle(page, f"{base_url}/compare/?gpus={gpus[0]},{gpus[1]}")
    note = page.locator(".compare[data-kind=gpus] .compare-note")
    page.locator(f".compare[data-kind=gpus] input[value='{gpus[0]}']").uncheck()
    assert note.inner_text() == "至少选两项才能对比。"
    page.evaluate("() => { document.documentElement.lang = 'en'; }")
    page.locator(f".compare[data-kind=gpus] input[value='{gpus[2]}']").check()
    page.locator(f".compare[data-kind=gpus] input[value='{gpus[2]}']").uncheck()
    assert note.inner_text() == "Pick at least two items to compare."


def test_only_the_preselected_columns_are_laid_out_before_the_script_and_all_without_it(
        page: Page, base_url: str, kb: KnowledgeBase) -> None:
    """Where scripts run, the preselected columns are the only ones laid out from the first paint
    (hiding forty columns after it cost a quarter second of layout on a phone); if compare.js does
    not set the comparison up, every column shows once the page has loaded, as without scripts."""
    page.set_viewport_size({"width": 1280, "height": 900})
    # In compare.js's place, a script that only notes which columns show when it would run.
    page.route("**/compare.js", lambda route: route.fulfill(content_type="text/javascript", body=(
        "window.shownBefore = [...document.querySelectorAll('.compare[data-kind=gpus] thead th[data-col]')]"
        ".filter(th => getComputedStyle(th).display !== 'none').map(th => th.dataset.col);")))
    page.goto(f"{base_url}/compare/")
    preselected = page.locator(".compare[data-kind=gpus]").get_attribute("data-preselected")
    assert preselected
    assert sorted(page.evaluate("() => window.shownBefore")) == sorted(preselected.split(","))
    page.wait_for_selector("html.compare-failed", state="attached")
    gpus = len(list(kb.of_type(Gpu)))
    assert len(_shown(page, "gpus")) == gpus
    page.unroute("**/compare.js")
    bare = page.context.browser.new_context(java_script_enabled=False)  # type: ignore[union-attr]
    plain = bare.new_page()
    plain.goto(f"{base_url}/compare/")
    assert len(_shown(plain, "gpus")) == gpus
    bare.close()
