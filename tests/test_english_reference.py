"""The English reference pages (issue 27): the claims page quotes each article claim in Chinese,
marked as Chinese, with its English marked as a translation; a Chinese source title is marked as
Chinese on an English page only; the rules page and the serve-time problem list speak English;
spec text stays escaped in every case."""

from __future__ import annotations

import re

from support import base_result, validate_with

from generator.diagnostics import FAMILIES, Diagnostic, Severity
from generator.language import speaking
from generator.render import PAGES, _template, environment
from generator.render.context import Site
from generator.render.problems import problems_banner, problems_pages
from generator.render.text import inert
from generator.rules.catalog import RULE_EN, RULES

CLAIM = "specs/claims/test-claim-roce-bandwidth-100-400.yaml"
HOSTILE = "RoCE runs at 100-400 Gb/s <script>alert(1)</script> & *more*"
SAID = 'said: {zh: RoCE 带宽为 100-400 Gb/s。, en: "Fixture text in English (100, 400)."}'


PAGES_SHOWN = ("claims.md", "sources.md", "sources-other.md", "rules.md")


def _pages(raw: str | None = None) -> dict[str, str]:
    """The reference pages in Chinese (`claims.md`) and English (`en/claims.md`), as the site
    renders them (render_site renders every page, and other pages' English is not all written)."""
    result = base_result() if raw is None else validate_with(CLAIM, raw.encode())
    assert result.kb is not None and result.figures is not None, result.diagnostics
    site = Site(result.kb, result.figures)
    pages = {}
    for language, prefix in (("zh", ""), ("en", "en/")):
        with speaking(language):
            for page in PAGES_SHOWN:
                pages[prefix + page] = environment().get_template(_template(page)).render(site=site, **PAGES[page](site))
    return pages


def test_an_english_claim_quotes_the_chinese_and_gives_the_english_as_a_translation() -> None:
    with open(f"tests/fixtures/base/{CLAIM}", encoding="utf-8") as f:
        raw = f.read()
    assert SAID in raw
    raw = raw.replace(SAID, f'said: {{zh: RoCE 带宽为 100-400 Gb/s。, en: "{HOSTILE}"}}')
    pages = _pages(raw)
    card = re.search(r'<div class="claim-card" id="test-claim-roce-bandwidth-100-400">.*?</div>',
                     pages["en/claims.md"], re.DOTALL)
    assert card is not None
    assert f'<span lang="zh">{inert("RoCE 带宽为 100-400 Gb/s。")}</span>' in card.group(0)
    assert f'Translation: {inert(HOSTILE)}</span>' in card.group(0)
    assert "<script>" not in pages["en/claims.md"]
    # The Chinese page shows the claim as before: no translation.
    zh = re.search(r'id="test-claim-roce-bandwidth-100-400">.*?</div>', pages["claims.md"], re.DOTALL)
    assert zh is not None and "Translation" not in zh.group(0) and 'lang="zh"' not in zh.group(0)


def test_a_claim_without_english_is_quoted_without_a_translation() -> None:
    # (text-missing-en warns of it; a plain build still shows the page)
    with open(f"tests/fixtures/base/{CLAIM}", encoding="utf-8") as f:
        raw = f.read().replace(SAID, "said: {zh: RoCE 带宽为 100-400 Gb/s。}")
    card = re.search(r'id="test-claim-roce-bandwidth-100-400">.*?</div>', _pages(raw)["en/claims.md"], re.DOTALL)
    assert card is not None and "Translation" not in card.group(0)
    assert f'<span lang="zh">{inert("RoCE 带宽为 100-400 Gb/s。")}</span>' in card.group(0)


def test_a_chinese_source_title_is_marked_chinese_on_english_pages_only() -> None:
    pages = _pages()
    heading = re.compile(r"^## (.*) \{ #src-test-article-net \}$", re.MULTILINE)
    en, zh = (heading.search(pages[p]) for p in ("en/sources-other.md", "sources-other.md"))
    assert en is not None and zh is not None
    assert en.group(1).startswith('<span lang="zh">') and "lang=" not in zh.group(1)
    assert re.search(r'<a href="../sources-other/#src-test-article-net" lang="zh">', pages["en/sources.md"])


def test_the_english_rules_page_documents_every_rule_in_english() -> None:
    page = _pages()["en/rules.md"]
    assert f"The validator has {len(RULES)} rules" in page
    rows = dict(re.findall(r'<tr id="rule-([a-z0-9-]+)">(.*?)</tr>', page, re.DOTALL))
    assert list(rows) == [r.id for f in FAMILIES for r in RULES.values() if r.family == f]
    for rule_id, cells in rows.items():
        assert str(inert(RULE_EN[rule_id])) in cells, rule_id
        assert f"<td>{RULES[rule_id].severity.value}</td>" in cells, rule_id


def test_each_rule_says_in_english_what_it_says_in_chinese_with_the_same_numbers() -> None:
    number = re.compile(r"\d+(?:\.\d+)?")
    for rule in RULES.values():
        english = RULE_EN[rule.id]
        assert english.endswith("."), rule.id
        assert not re.search(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]", english), rule.id
        assert set(number.findall(english)) == set(number.findall(rule.zh)), rule.id


def test_the_problem_list_speaks_english_and_escapes_the_message() -> None:
    problems = [Diagnostic("specs/gpus/test-x.yaml", 3, 4, "refs-unknown", "no <b>x</b>", Severity.WARNING)]
    with speaking("en"):
        banner = problems_banner(problems)
        page = problems_pages([*problems, Diagnostic("specs/gpus/test-x.yaml", 5, 1, "refs-unknown", "y",
                                                     Severity.ERROR)])["gpus.md"]
    assert "Local preview: 1 warning;" in banner and "warning: no &lt;b&gt;x&lt;/b&gt;" in banner
    assert 'class="admonition warning kb-problems"' in banner
    assert "# The knowledge base does not validate" in page and "2 problems" in page
    assert 'class="admonition danger kb-problems"' in page
    assert not re.search(r"[\u3400-\u9fff]", banner + page)
    assert "警告" in problems_banner(problems)  # the Chinese list as before
