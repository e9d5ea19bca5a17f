"""The English edition in the strict build of the real site (issue 27): every page has its
counterpart under en/, each pair shows the same numbers, pages say which language they are in,
the language switch leads to the same page in the other language, and the English edition has
its own English search index."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import yaml
from support import ROOT

from generator.language import stated_numbers

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


class Page(HTMLParser):
    """The <html lang>, the language switch's links and the article's text (without what is
    marked as Chinese when `skip_zh`)."""

    def __init__(self, skip_zh: bool = False, numbers_only: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self._numbers_only = numbers_only
        self.lang = ""
        self.switch: dict[str, str] = {}
        self.text: list[str] = []
        self._article = 0
        self._zh = 0
        self._skip_zh = skip_zh
        self._stack: list[tuple[bool, bool]] = []  # per open element: (opens the article, marked zh)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "a" and "md-select__link" in a.get("class", ""):
            self.switch[a.get("hreflang", "")] = a.get("href", "")
        if tag in {"br", "img", "input", "meta", "link", "hr", "wbr", "col", "source"}:
            return
        article = tag == "article" and self._article == 0
        # Marked Chinese, or a link to a claim: named by the start of what the article said, cut
        # at a length that falls elsewhere in each language (the claims page shows them whole).
        if self._numbers_only:  # what a number count leaves aside
            zh = tag == "a" and "claims/#" in a.get("href", "")
        else:  # what may be Chinese on an English page: what is marked so, and verbatim code
            zh = (a.get("lang", "").startswith("zh") and tag != "html") or tag in {"pre", "code"}
        self._article += article or bool(self._article)
        self._zh += zh
        self._stack.append((article or bool(self._article), zh))

    def handle_endtag(self, tag: str) -> None:
        if not self._stack or tag in {"br", "img", "input", "meta", "link", "hr", "wbr", "col", "source"}:
            return
        in_article, zh = self._stack.pop()
        self._article -= in_article
        self._zh -= zh

    def handle_data(self, data: str) -> None:
        if self._article and not ((self._skip_zh or self._numbers_only) and self._zh):
            self.text.append(data)


def pages(site: Path) -> set[str]:
    """Every page of one edition, by its path from the edition's root."""
    return {str(p.relative_to(site)) for p in site.rglob("index.html") if p.relative_to(site).parts[0] != "en"}


def parsed(path: Path, skip_zh: bool = False, numbers_only: bool = False) -> Page:
    page = Page(skip_zh, numbers_only)
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_every_page_has_its_english_counterpart(real_site: Path) -> None:
    chinese, english = pages(real_site), pages(real_site / "en")
    assert len(chinese) > 30
    assert chinese == english, f"only in Chinese {sorted(chinese - english)}, only in English {sorted(english - chinese)}"


def test_each_pair_of_pages_shows_the_same_numbers(real_site: Path) -> None:
    differ = []
    for page in sorted(pages(real_site)):
        zh = stated_numbers(" ".join(parsed(real_site / page, numbers_only=True).text))
        en = stated_numbers(" ".join(parsed(real_site / "en" / page, numbers_only=True).text))
        if zh != en:
            differ.append(f"{page}: only in Chinese {sorted(zh - en)[:12]}, only in English {sorted(en - zh)[:12]}")
    assert not differ, "\n".join(differ)


def test_english_pages_are_english_but_for_what_is_marked_chinese(real_site: Path) -> None:
    found = []
    for page in sorted(pages(real_site / "en")):
        text = " ".join(parsed(real_site / "en" / page, skip_zh=True).text)
        chinese = CJK.findall(text)
        if chinese:
            at = CJK.search(text)
            assert at is not None
            found.append(f"en/{page}: {len(chinese)} CJK characters, first at …{text[max(0, at.start() - 40):at.start() + 40]}…")
    assert not found, "\n".join(found)


def test_pages_declare_their_language_and_switch_to_their_counterpart(real_site: Path) -> None:
    for page in sorted(pages(real_site)):
        for edition, lang in ((real_site, "zh"), (real_site / "en", "en")):
            path = edition / page
            seen = parsed(path)
            assert seen.lang == lang, f"{path}: <html lang={seen.lang!r}>"
            assert set(seen.switch) == {"zh", "en"}, f"{path}: language switch {seen.switch}"
            for other, href in seen.switch.items():
                target = (path.parent / href / "index.html").resolve()
                expected = (real_site if other == "zh" else real_site / "en") / page
                assert target == expected.resolve(), f"{path}: the {other} link {href} leads to {target}"


def test_the_english_edition_has_an_english_search_index(real_site: Path) -> None:
    index = json.loads((real_site / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["en"]
    titles = [doc["title"] for doc in index["docs"] if doc["location"].count("#") == 0]
    assert titles and not [t for t in titles if CJK.search(t)], [t for t in titles if CJK.search(t)][:10]
    chinese = json.loads((real_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert chinese["config"]["lang"] == ["zh"]
    assert {d["location"] for d in index["docs"] if "#" not in d["location"]} == \
        {d["location"] for d in chinese["docs"] if "#" not in d["location"]}


def _extensions(config: dict[str, object]) -> list[object]:
    extensions = config["markdown_extensions"]
    assert isinstance(extensions, list)
    return extensions


def test_the_english_configuration_differs_only_where_it_must() -> None:
    # mkdocs.en.yml restates the Markdown extensions (INHERIT replaces lists whole): the same ones
    # as mkdocs.yml, the abbreviations file aside.
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: suffix)
    zh = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)  # noqa: S506
    en = yaml.load((ROOT / "mkdocs.en.yml").read_text(encoding="utf-8"), Loader=Loader)  # noqa: S506
    assert en["INHERIT"] == "mkdocs.yml"

    def snippets_aside(extensions: list[object]) -> tuple[list[object], object]:
        rest = [e for e in extensions if not (isinstance(e, dict) and "pymdownx.snippets" in e)]
        snippet = next(e["pymdownx.snippets"] for e in extensions if isinstance(e, dict) and "pymdownx.snippets" in e)
        return rest, snippet

    zh_rest, zh_snippets = snippets_aside(_extensions(zh))
    en_rest, en_snippets = snippets_aside(_extensions(en))
    assert zh_rest == en_rest
    assert zh_snippets["auto_append"] == ["abbreviations.md"] and en_snippets["auto_append"] == ["en/abbreviations.md"]
    assert {k: v for k, v in zh_snippets.items() if k != "auto_append"} == \
        {k: v for k, v in en_snippets.items() if k != "auto_append"}
    # The same pages in the same places of the navigation.
    def files(nav: object) -> list[str]:
        if isinstance(nav, str):
            return [nav]
        if isinstance(nav, list):
            return [f for item in nav for f in files(item)]
        if isinstance(nav, dict):
            return [f for value in nav.values() for f in files(value)]
        return []

    assert files(zh["nav"]) == files(en["nav"])
