"""The hostile site of tests/test_injection.py (every text and URL field of the fixture base
carrying Markdown, attr_list, HTML and Jinja payloads) as Chromium runs it: on every page, after
load and after every element has been hovered and focused, no payload script has run (they all
set `window.__xss`), no dialog opened, and the live DOM holds no element, handler, class, id or
link from a payload."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from navigation import settle
from payloads import URL_PAYLOADS
from playwright.sync_api import Browser, Dialog, Page

from generator.render.trust import SOURCE_GROUPS
from tools.sitekit import serve

# Runs in the page: wakes every handler a payload could have attached (mouse, focus, load
# events fire on their own), then lists whatever in the DOM came from a payload.
_PROBE = """(urls) => {
  for (const el of document.querySelectorAll('body *')) {
    for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart']) {
      el.dispatchEvent(new Event(type, {bubbles: true}));
    }
  }
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (tag.includes('xss')) found.push('element ' + tag);
    for (const a of el.attributes) {
      const value = a.value.trim().toLowerCase();
      if (a.name.includes('xss') || a.name.startsWith('on')) found.push(tag + ' attribute ' + a.name);
      if ((a.name === 'class' || a.name === 'id') && value.includes('xss')) found.push(tag + ' ' + a.name + '=' + a.value);
      if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name)) {
        if (/^(javascript|data|vbscript):/.test(value)) found.push(tag + ' ' + a.name + '=' + a.value);
        if (value.includes('xss') && !urls.includes(a.value)) found.push(tag + ' ' + a.name + '=' + a.value);
      }
    }
    if (tag === 'script' && el.textContent.includes('xss')) found.push('script ' + el.textContent.slice(0, 60));
  }
  return {ran: window.__xss !== undefined, found};
}"""


@pytest.fixture(scope="module")
def hostile_url(hostile_site: Path) -> Iterator[tuple[str, Path]]:
    with serve(hostile_site) as url:
        yield url, hostile_site


def test_no_payload_runs_or_appears_in_chromium(page: Page, hostile_url: tuple[str, Path]) -> None:
    base_url, site = hostile_url
    dialogs: list[str] = []
    errors: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: errors.append(str(e)))
    paths = sorted("/" + str(p.relative_to(site)).removesuffix("index.html") for p in site.rglob("index.html"))
    assert "/sources/" in paths and len(paths) > 10
    for path in paths:
        settle(page, base_url + path)
        result = page.evaluate(_PROBE, URL_PAYLOADS)
        assert not result["ran"], f"a payload script ran on {path}"
        assert not result["found"], (path, result["found"][:5])
    assert not dialogs, dialogs[:5]
    assert not errors, errors[:5]
    # The payloads are on the pages, as text (a probe that sees nothing would pass anyway).
    links, text = 0, ""
    for group, *_ in SOURCE_GROUPS:  # the pages that list the sources in full
        settle(page, f"{base_url}/{group}/")
        links += page.locator("a[rel='noopener noreferrer'][href^='https://xss.example/']").count()
        text += page.inner_text("body")
    assert links >= 2 and "<script>window.__xss=1</script>" in text


def test_no_payload_runs_in_the_questionnaire(browser: Browser, hostile_url: tuple[str, Path]) -> None:
    """At phone width the questionnaire builds its questions and results from data/tree.json and
    data/costmodel.json, whose text is the payloads: through every answer of the tree's own
    questions to every leaf (the first and last published model, one and 64 GPUs, every market),
    nothing runs and the live DOM holds nothing from a payload; the payloads show as text."""
    base_url, _site = hostile_url
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("dialog", lambda d: (errors.append(f"dialog {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    pending: list[list[int]] = [[]]
    leaves = 0
    shown = ""
    while pending:  # every path of answers, each walked from the first question
        path = pending.pop()
        if page.locator(".quiz .quiz-restart").is_enabled():
            page.locator(".quiz .quiz-restart").click()
        for index in path:
            page.locator(".quiz .quiz-answer").nth(index).click()
        if page.locator(".quiz .quiz-result").count():
            leaves += 1
            shown += page.locator(".quiz").inner_text()
            result = page.evaluate(_PROBE, URL_PAYLOADS)
            assert not result["ran"] and not result["found"], (path, result["found"][:5])
        else:
            count = page.locator(".quiz .quiz-answer").count()
            if page.locator(".quiz .quiz-workload").count():
                choices = sorted({0, count - 1})  # the smallest and the largest published model
            elif page.locator(".quiz .quiz-count").count():
                choices = [0, min(6, count - 1)]  # one GPU, and 64: a cluster with a network
            else:
                choices = list(range(count))
            pending += [[*path, i] for i in choices]
    assert leaves >= 2 and "xss" in shown
    assert not errors, errors[:5]
    context.close()
