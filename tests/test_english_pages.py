"""The English generated pages of the real knowledge base, each beside its Chinese counterpart
(issue 27): written in English, with Chinese only where it is quoted and marked as Chinese, and
with the same numbers as the Chinese page, since both draw every figure from the same specs.

A page is checked once its English template exists (generator/templates/en/); the site build
renders every page in both languages and fails on a missing template.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from support import real_result

from generator.language import speaking, stated_numbers
from generator.render import PAGES, _template, environment
from generator.render.context import Site

TEMPLATES = Path(__file__).resolve().parent.parent / "generator" / "templates"
TRANSLATED = sorted(page for page in PAGES if (TEMPLATES / "en" / _template(page)).exists())

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
# An element marked as Chinese: a quoted claim, a Chinese source's title. Not nested in itself.
MARKED_ZH = re.compile(r'<(\w+)\b[^>]*\blang="zh(?:-[A-Za-z]+)?"[^>]*>.*?</\1>', re.DOTALL)
TAG = re.compile(r"<[^>]*>")
MARKDOWN_ESCAPE = re.compile(r"\\([^\w\s])")
CLAIM_LINK = re.compile(r'<a\b[^>]*\bhref="[^"]*claims/#[^"]*"[^>]*>.*?</a>', re.DOTALL)


def _numbers(page: str) -> frozenset[Decimal]:
    """The numbers a page shows, by value ("4000 亿" is "400 billion": generator.language.
    stated_numbers), in its text: not in tags, whose attributes a reader does not see (a
    drawing's coordinates follow the width of its words, which differ between the languages;
    tooltips repeat what the text says). A link to a claim is named by the start of
    what the article said, cut at a length that falls elsewhere in each language; the claims
    page, which shows each claim whole, is compared in full."""
    text = TAG.sub(" ", CLAIM_LINK.sub(" ", page))
    # Character references (&#39;, &#58; …) are one character, not numbers; a Markdown escape
    # ("2\.15", "16\,000") is the character it escapes.
    return stated_numbers(MARKDOWN_ESCAPE.sub(r"\1", html.unescape(text)))


@cache
def site() -> Site:
    result = real_result()
    assert result.kb is not None and result.figures is not None
    return Site(result.kb, result.figures, None)


@cache
def rendered(page: str, language: str) -> str:
    with speaking(language):
        return environment().get_template(_template(page)).render(site=site(), **PAGES[page](site()))


@pytest.mark.parametrize("page", TRANSLATED)
def test_an_english_page_has_chinese_only_where_it_is_marked_as_chinese(page: str) -> None:
    text = MARKED_ZH.sub("", rendered(page, "en"))
    lines = [line.strip()[:160] for line in text.splitlines() if CJK.search(line)]
    assert not lines, f"en/{page}: Chinese outside an element marked lang=\"zh\":\n" + "\n".join(lines[:20])


@pytest.mark.parametrize("page", TRANSLATED)
def test_an_english_page_shows_the_same_numbers_as_the_chinese_one(page: str) -> None:
    zh, en = (_numbers(rendered(page, language)) for language in ("zh", "en"))
    assert zh == en, f"{page}: only in Chinese {sorted(zh - en)[:30]}, only in English {sorted(en - zh)[:30]}"


def test_speaking_sets_the_language_for_its_block_only() -> None:
    # A context variable: the block's end, even by an exception, restores the language before it.
    from generator.language import current, say
    assert current() == "zh"
    with pytest.raises(RuntimeError), speaking("en"):
        assert say("单向", "per direction") == "per direction"
        raise RuntimeError
    assert say("单向", "per direction") == "单向"
    with pytest.raises(ValueError):
        speaking("fr").__enter__()
