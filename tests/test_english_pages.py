"""The English generated pages of the real knowledge base, each beside its Chinese counterpart
(issue 27): written in English, with Chinese only where it is quoted and marked as Chinese, and
with the same numbers as the Chinese page, since both draw every figure from the same specs.

A page is checked once its English template exists (generator/templates/en/); the site build
renders every page in both languages and fails on a missing template.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest
from support import real_files

from generator.language import speaking
from generator.render import PAGES, _template, environment
from generator.render.context import Site
from generator.rules.text_en_numbers import numbers
from generator.validate import validate

TEMPLATES = Path(__file__).resolve().parent.parent / "generator" / "templates"
TRANSLATED = sorted(page for page in PAGES if (TEMPLATES / "en" / _template(page)).exists())

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
# An element marked as Chinese: a quoted claim, a Chinese source's title. Not nested in itself.
MARKED_ZH = re.compile(r'<(\w+)\b[^>]*\blang="zh(?:-[A-Za-z]+)?"[^>]*>.*?</\1>', re.DOTALL)


@cache
def site() -> Site:
    result = validate(list(real_files()))
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
    # Character references (&#39;, &#58; …) are one character, not numbers. A number is read as
    # the rule text-en-numbers reads a spec text: "2025 年 8 月" in English is "2025-08".
    zh, en = (set(numbers(html.unescape(rendered(page, language)))) for language in ("zh", "en"))
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
