"""The English edition as a reader meets it (issue 27): the language switch keeps the reader on
the same page, both ways; English search finds the page about a term; and at phone width the
English calculator and questionnaire answer the same address with the same figures as the
Chinese ones, in English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import pytest
from navigation import search_hrefs, settle
from playwright.sync_api import Browser, Page

from generator.language import stated_numbers

PHONE = {"width": 390, "height": 844}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="en-US")
    yield context.new_page()
    context.close()


def _switch(page: Page, lang: str) -> None:
    """Open Material's language menu (it opens on focus, as for a keyboard reader) and follow one
    language."""
    page.focus(".md-header__option .md-select button")
    link = page.locator(f"a.md-select__link[hreflang={lang}]")
    link.wait_for(state="visible")
    with page.expect_navigation():
        link.click()


@pytest.mark.parametrize("path", ["/", "/gpus/", "/calculator/", "/sources-vendor/"])
def test_the_language_switch_keeps_the_page(page: Page, base_url: str, path: str) -> None:
    settle(page, base_url + path)
    _switch(page, "en")
    # (the calculator then writes its inputs into the address: the path is what the switch set)
    assert page.url.split("?")[0] == base_url + "/en" + path
    assert page.locator("html").get_attribute("lang") == "en"
    assert not CJK.search(page.locator("article h1").inner_text())
    _switch(page, "zh")
    assert page.url.split("?")[0] == base_url + path
    assert page.locator("html").get_attribute("lang") == "zh"


@pytest.mark.parametrize(("term", "expected"), [("bandwidth", "/en/reading/"), ("topology", "/en/topologies/"),
                                                ("InfiniBand", "/en/networks/"), ("H800", "/en/gpus/"),
                                                ("claims", "/en/claims/"), ("flowchart", "/en/flowchart/")])
def test_english_search_finds_the_page(page: Page, base_url: str, term: str, expected: str) -> None:
    hrefs = search_hrefs(page, base_url + "/en/", term)
    assert any(expected in h for h in hrefs), (term, hrefs[:8])
    assert all("/en/" in h for h in hrefs), (term, [h for h in hrefs if "/en/" not in h][:5])
    # the reference pages are left out of the English index too
    assert not [h for h in hrefs if re.search(r"/(sources[^/]*|rules|contributing)/", h)], (term, hrefs[:8])


def _numbers(text: str) -> frozenset[Decimal]:
    """The numbers a result states, by value ("1,098" and "1098" are one number)."""
    return stated_numbers(text)


def test_the_english_calculator_at_phone_width_gives_the_chinese_figures(phone: Page, browser: Browser,
                                                                          base_url: str) -> None:
    address = "calculator/?gpus=16&gpus_per_node=8&tp=2&pp=1&zero=1&global_batch=256"
    settle(phone, f"{base_url}/en/{address}")
    phone.locator("#calc.calc-ready").wait_for(state="visible", timeout=30_000)
    english = phone.locator("#calc-result").inner_text()
    assert english.strip() and not CJK.search(english), english[:300]
    assert not CJK.search(phone.locator("#calc").inner_text())
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    chinese_page = phone.context.new_page()  # the same phone: the questionnaire shows at phone width
    settle(chinese_page, f"{base_url}/{address}")
    chinese_page.locator("#calc.calc-ready").wait_for(state="visible", timeout=30_000)
    shown = dict(chinese_page.eval_on_selector_all("#calc-result [data-key]",
                                                   "els => els.map(e => [e.dataset.key, e.dataset.value])"))
    chinese = chinese_page.locator("#calc-result").inner_text()
    chinese_page.close()
    assert dict(phone.eval_on_selector_all("#calc-result [data-key]",
                                           "els => els.map(e => [e.dataset.key, e.dataset.value])")) == shown
    assert _numbers(english) == _numbers(chinese)


def test_the_english_questionnaire_at_phone_width_answers_as_the_chinese_one(phone: Page, browser: Browser,
                                                                             base_url: str) -> None:
    settle(phone, f"{base_url}/en/flowchart/")
    quiz = phone.locator(".quiz")
    quiz.wait_for(state="visible")
    # Answer in English: the first goal, the first model, 64 GPUs, the first market.
    for _ in range(10):
        if phone.locator(".quiz .quiz-result").count():
            break
        assert not CJK.search(quiz.inner_text()), quiz.inner_text()[:300]
        if phone.locator(".quiz .quiz-gpus").count():
            phone.locator(".quiz .quiz-gpus input").fill("64")
            phone.locator(".quiz .quiz-gpus input").press("Enter")
        elif phone.locator(".quiz .quiz-workload").count():
            phone.locator(".quiz .quiz-workload").first.click()
        elif phone.locator(".quiz .quiz-market").count():
            phone.locator(".quiz .quiz-market").first.click()
        else:
            phone.locator(".quiz .quiz-answer").first.click()
    result = phone.locator(".quiz .quiz-result")
    assert result.is_visible()
    english = result.inner_text()
    assert not CJK.search(english), english[:300]
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The same answers, from the address, on the Chinese page: the same figures.
    query = phone.evaluate("() => location.search")
    assert query
    chinese_page = phone.context.new_page()  # the same phone: the questionnaire shows at phone width
    settle(chinese_page, f"{base_url}/flowchart/{query}")
    chinese_result = chinese_page.locator(".quiz .quiz-result")
    chinese_result.wait_for(state="visible")
    chinese = chinese_result.inner_text()
    chinese_page.close()
    assert _numbers(english) == _numbers(chinese)
