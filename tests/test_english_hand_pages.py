"""The hand-written pages of the English edition (docs/en/), each beside its Chinese counterpart
in docs/ (issue 27): written fresh in English, but the same page underneath. Same figure
references (byte for byte), so no figure is typed in either language; the same numbers, as
tests/test_english_pages.py asks of the generated pages; the same generated-block markers,
anchors, links, headings, admonitions and tabs; the same code, commands and YAML (only comments
and placeholders are English). And the Chinese build never takes docs/en/ for Chinese pages.

Typed figures and unresolved references on docs/en/ are caught by tests/test_narrative.py, which
reads every page under docs/; the walkthrough YAML of the English contributing page is run by
tests/test_contributing_walkthrough.py."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from mkdocs.config.config_options import PathSpec
from mkdocs.utils.meta import get_data
from support import ROOT

from generator.markdown_scan import scan_markdown

DOCS = ROOT / "docs"
ENGLISH = DOCS / "en"
PAGES = sorted(p.name for p in ENGLISH.glob("*.md"))

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
MARKED_ZH = re.compile(r'<(\w+)\b[^>]*\blang="zh(?:-[A-Za-z]+)?"[^>]*>.*?</\1>', re.DOTALL)
NUMBER = re.compile(r"\d+(?:\.\d+)?")
REFERENCE = re.compile(r"\[\[[^\]\n]*\]\]")
MARKER = re.compile(r"^ *<!--.*?-->$", re.M)  # generated blocks, limits, walkthrough files
ANCHOR = re.compile(r"\{ *#([\w-]+) *\}|\bid=\"([^\"]+)\"")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^( *)(`{3,})(\w*)\n(.*?)^\1\2$", re.M | re.S)
# A comment after code on a line (shell, YAML): English on the English page.
COMMENT = re.compile(r"[ \t]+# .*$", re.M)
# Placeholders inside code, which the reader replaces: written in the page's language.
PLACEHOLDERS = {"<新的 id>": "<new id>", "新 GPU 的 id": "<new GPU id>"}


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _pair(page: str) -> tuple[str, str]:
    return _read(DOCS / page), _read(ENGLISH / page)


def _blank_code(text: str) -> str:
    chars = list(text)
    for start, end in scan_markdown(text).code:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _skeleton(text: str) -> list[str]:
    """The page's structure outside code: heading levels, admonitions with their kind, content
    tabs, table rows and list items with their nesting, in order."""
    shape = []
    for line in FENCE.sub("", text).splitlines():
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if match := re.match(r"(#{1,6}) ", stripped):
            shape.append(match.group(1))
        elif match := re.match(r"(!!!|\?\?\?\+?) *(\w+)", stripped):
            shape.append(f"{indent}{match.group(1)} {match.group(2)}")
        elif stripped.startswith("=== "):
            shape.append(f"{indent}===")
        elif stripped.startswith("|"):
            shape.append(f"{indent}|{stripped.count('|')}" if not re.fullmatch(r"[|\s:-]+", stripped) else f"{indent}|-")
        elif match := re.match(r"([-*+]|\d+\.) ", stripped):
            shape.append(f"{indent}{'1.' if match.group(1)[0].isdigit() else '-'}")
    return shape


def test_every_hand_page_has_its_english_counterpart() -> None:
    assert sorted(p.name for p in DOCS.glob("*.md")) == PAGES


@pytest.mark.parametrize("page", PAGES)
def test_the_same_front_matter(page: str) -> None:
    """The front matter is read as MkDocs reads it (an English colon inside an unquoted value
    would make it no front matter at all, shown as text atop the page): the same keys, the same
    settings (search exclusion), and a title and description in English."""
    zh, en = (get_data(text)[1] for text in _pair(page))
    assert sorted(en) == sorted(zh) and {"title", "description"} <= set(en)
    assert {k: v for k, v in en.items() if not isinstance(v, str)} == {k: v for k, v in zh.items() if not isinstance(v, str)}
    assert not any(CJK.search(v) for v in en.values() if isinstance(v, str))


@pytest.mark.parametrize("page", PAGES)
def test_the_same_numbers(page: str) -> None:
    """Like the generated pages: the set of numbers of the Markdown source is the Chinese one's,
    so no figure is typed, dropped or spelt as a word in one language only."""
    zh, en = (set(NUMBER.findall(text)) for text in _pair(page))
    assert zh == en, f"{page}: only in Chinese {sorted(zh - en)}, only in English {sorted(en - zh)}"


@pytest.mark.parametrize("page", PAGES)
def test_the_same_figure_references(page: str) -> None:
    zh, en = (Counter(REFERENCE.findall(text)) for text in _pair(page))
    assert zh == en, (zh - en, en - zh)


@pytest.mark.parametrize("page", PAGES)
def test_the_same_markers_anchors_and_links(page: str) -> None:
    """Generated blocks and walkthrough files, explicit anchors (links into the page work in both
    languages) and the pages linked to (the English site mirrors the Chinese file names)."""
    zh, en = _pair(page)
    assert MARKER.findall(en) == MARKER.findall(zh)
    assert ANCHOR.findall(en) == ANCHOR.findall(zh)
    assert set(LINK.findall(en)) == set(LINK.findall(zh))


@pytest.mark.parametrize("page", PAGES)
def test_the_same_structure(page: str) -> None:
    """Headings, admonitions, tabs, table rows and list items, in the same order and nesting."""
    zh, en = (_skeleton(text) for text in _pair(page))
    assert en == zh


def _code_differences(zh: str, en: str) -> list[str]:
    """Where the code blocks of `en` are not those of `zh`: each must be the Chinese block, but
    for its comments and placeholders (and those in English)."""
    chinese, english = FENCE.findall(zh), FENCE.findall(en)
    if [block[:3] for block in english] != [block[:3] for block in chinese]:
        return ["the code blocks differ in number, fences or languages"]
    problems = []
    for (_indent, _fence, language, original), (_i, _f, _l, written) in zip(chinese, english, strict=True):
        for placeholder, rendering in PLACEHOLDERS.items():
            original = original.replace(placeholder, rendering)
        if COMMENT.sub("", written) != COMMENT.sub("", original):
            problems.append(f"{language} block differs: {written[:80]!r}")
        if CJK.search("".join(COMMENT.findall(written))) or any(p in written for p in PLACEHOLDERS):
            problems.append(f"{language} block keeps a Chinese comment or placeholder: {written[:80]!r}")
    return problems


@pytest.mark.parametrize("page", PAGES)
def test_the_same_code(page: str) -> None:
    """Commands, paths, rule ids, YAML and output stay exactly as on the Chinese page: each code
    block is the Chinese one, but for its comments and placeholders."""
    assert _code_differences(*_pair(page)) == []


@pytest.mark.parametrize("page", PAGES)
def test_english_outside_code_and_quotes(page: str) -> None:
    """No Chinese character outside code and elements marked lang="zh" (a quoted Chinese word
    stands in such an element, with its English beside it)."""
    text = MARKED_ZH.sub("", _blank_code(_read(ENGLISH / page)))
    lines = [line.strip()[:120] for line in text.splitlines() if CJK.search(line)]
    assert not lines, f"en/{page}:\n" + "\n".join(lines)


TERM = re.compile(r"^\*\[([^\]]+)\]: (.*)$", re.M)


def test_the_glossary_tooltips_in_english() -> None:
    """includes/en/abbreviations.md, for the English build's snippets (auto_append, as
    includes/abbreviations.md is for the Chinese one): the same terms in the same order, the same
    numbers, each explained in English."""
    zh, en = (_read(ROOT / "includes" / folder / "abbreviations.md") for folder in ("", "en"))
    assert [term for term, _ in TERM.findall(en)] == [term for term, _ in TERM.findall(zh)]
    assert len(TERM.findall(en)) == len(en.splitlines())
    assert set(NUMBER.findall(en)) == set(NUMBER.findall(zh))
    assert not [text for _, text in TERM.findall(en) if CJK.search(text)]


def test_the_chinese_build_leaves_the_english_pages_out() -> None:
    """mkdocs.yml excludes docs/en/ (read as MkDocs reads `exclude_docs`): without it the
    Chinese build would publish the English pages under en/ as Chinese pages, and strict mode
    would not object."""
    raw = _read(ROOT / "mkdocs.yml").replace("!!python/object/apply:pymdownx.slugs.slugify", "")
    excluded = PathSpec().validate(yaml.safe_load(raw)["exclude_docs"])
    assert PAGES and all(excluded.match_file(f"en/{page}") for page in PAGES)
    assert not any(excluded.match_file(page) for page in PAGES)


def test_the_checks_can_fail() -> None:
    """The comparisons see a typed number, a changed reference, a lost marker or heading, a
    changed command and an unmarked Chinese word."""
    zh, en = _pair("reading.md")
    assert set(NUMBER.findall(en + " 3 tiers")) != set(NUMBER.findall(zh))
    assert Counter(REFERENCE.findall(en.replace("[[ib-ndr#port_rate]]", "[[ib-ndr#port_rate Gb/s]]", 1))) \
        != Counter(REFERENCE.findall(zh))
    assert _skeleton(en.replace("\n### ", "\n## ", 1)) != _skeleton(zh)
    assert not CJK.search(MARKED_ZH.sub("", '<span lang="zh">标称</span> "stated"'))
    assert CJK.search(MARKED_ZH.sub("", "标称 (stated)"))
    zh, en = _pair("contributing.md")
    assert MARKER.findall(en.replace("<!-- limits -->\n", "")) != MARKER.findall(zh)
    assert _code_differences(zh, en.replace("--strict specs", "--strict spec", 1))
    assert _code_differences(zh, en.replace("# the same as make check and CI", "# 与 make check、CI 相同"))
    assert _code_differences(zh, en.replace("<new id>", "<新的 id>"))
