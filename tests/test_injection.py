"""No spec text or URL becomes markup: the rules refuse hostile source URLs with a positioned
diagnostic, and a knowledge base whose every text and URL field carries Markdown, attr_list, HTML
and Jinja payloads (tests/payloads.py) passes `check`, builds with the real `mkdocs build
--strict`, and leaves no element, attribute, handler, class, id or link of its own in any page:
every payload is shown as the text it is. Chromium's view of the same site is
tests/browser/test_hostile_pages.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kbgen import assemble, base_tree, reurled
from payloads import HOSTILE_URLS, SUFFIX_PAYLOAD, URL_PAYLOADS
from support import base_files, parse_pages, validate_with

from generator.render import render_page
from generator.render.context import Site
from generator.render.trust import SOURCE_GROUPS
from generator.rules.source_urls import url_is_safe
from generator.validate import validate

TARGET = "specs/sources/test-ib-roadmap.yaml"
# A text node that is exactly a payload's marker word means Markdown turned the payload into an
# element (`*xss-em*` into <em>xss-em</em>); shown as text, the marker keeps its punctuation.
_MARKER = re.compile(r"^xss(?:-[a-z0-9-]+)?$")
_SVG_LINES = {"text", "tspan", "title"}


def _refusal(rule: str) -> bool:
    """A rule that refuses a URL: the URL rules, or text-invisible (tests/invalid/text-invisible-*)."""
    return rule.startswith("sources-url-") or rule == "text-invisible"


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_hostile_url_is_refused_where_it_is_written(url: str) -> None:
    """Each hostile address fails `check` with a sources-url-* rule at the `url` value (or with
    text-invisible there, which reports a zero-width or bidi character in any spec text first)."""
    spec = next(f for f in base_files() if f.path == TARGET)
    data = yaml.safe_load(spec.raw)
    data["url"] = url
    raw = yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")
    line = next(i for i, text in enumerate(raw.decode("utf-8").splitlines(), 1) if text.startswith("url:"))
    result = validate_with(TARGET, raw)
    found = {(d.line, d.col, d.rule) for d in result.diagnostics if d.path == TARGET}
    assert not result.ok and found, [d.as_text() for d in result.diagnostics]
    assert all(_refusal(r) and ln == line and col == 6 for ln, col, r in found), found
    assert not url_is_safe(url)


@pytest.mark.parametrize("url", URL_PAYLOADS)
def test_url_payloads_are_valid_addresses(url: str) -> None:
    """The build test's URLs are ones the rules accept (or it would test nothing)."""
    assert url_is_safe(url)


class Scan(HTMLParser):
    """What a page would run or show as structure: tags, attributes, links and text nodes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.links: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self._script = False
        self._last = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if "xss" in tag:
            self.found.append(f"element <{tag}>")
        for name, value in attrs:
            value = value or ""
            if "xss" in name or name.startswith("on"):
                self.found.append(f"attribute {name}= on <{tag}>")
            if name in ("class", "id") and "xss" in value.lower():
                self.found.append(f'{name}="{value}" on <{tag}>')
            if name in ("href", "src", "action", "formaction", "xlink:href", "data"):
                if value.strip().lower().startswith(("javascript:", "data:", "vbscript:")):
                    self.found.append(f'{name}="{value[:60]}" on <{tag}>')
                if "xss" in value.lower():
                    self.links.append((value, dict(attrs).get("rel")))
        self._script = tag == "script"
        self._last = tag

    def handle_endtag(self, tag: str) -> None:
        self._script = False
        self._last = ""

    def handle_data(self, data: str) -> None:
        if self._script and "xss" in data:
            self.found.append(f"script {data.strip()[:60]!r}")
        # (the flowchart's SVG wraps text into one <text> per line, so a line may be a lone word)
        if _MARKER.match(data.strip()) and self._last not in _SVG_LINES:
            self.found.append(f"text node {data.strip()!r} (a payload parsed as markup)")
        self.text.append(data)


def test_no_payload_becomes_markup(hostile_site: Path) -> None:
    """No page has an element, attribute, handler, class, id, script or javascript: link from a
    payload, and every link to the payload host is exactly a source URL, opened without referrer."""
    pages = parse_pages(hostile_site, Scan)
    assert len(pages) > 10
    for name, scan in pages.items():
        assert not scan.found, (name, scan.found[:5])
        for href, rel in scan.links:
            assert href in URL_PAYLOADS and rel == "noopener noreferrer", (name, href, rel)


def test_payloads_are_shown_as_text(hostile_site: Path) -> None:
    """The payloads reached the pages, as the text they are (so the test above tested something):
    markup, template syntax, snippet includes and each source URL appear literally."""
    pages = parse_pages(hostile_site, Scan)
    shown = " ".join(" ".join(scan.text) for scan in pages.values())
    for literal in ("<script>window.__xss=1</script>", "*xss-em*", "{{ xss_jinja }}", "{: onclick=",
                    '--8<-- "abbreviations.md"', "[xss-link](javascript:", "trailing backslash \\", SUFFIX_PAYLOAD):
        assert literal in shown, literal
    listed = {href for page, *_ in SOURCE_GROUPS for href, _rel in pages[f"{page}/index.html"].links}
    assert listed == set(URL_PAYLOADS)


# What mkdocs.yml enables that reads a generated page's text (snippets and superfences aside).
_EXTENSIONS = ["abbr", "admonition", "attr_list", "def_list", "md_in_html", "tables", "pymdownx.escapeall",
               "pymdownx.details", "pymdownx.tabbed"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([*"aZ09-._~:/?#@$&+,;=%", "%20", "%3C", "%7B", *"<>\"'`*_[]()!{}|\\^ ",
                                 "\u200b", "{: onclick=x }", "[x](javascript:x)", "/__xss-strong__/", "/_xss-em_/", "*xss-em*", "中"]),
                max_size=12))
def test_any_accepted_url_is_exactly_one_link(tail: list[str]) -> None:
    """Whatever a source URL ends with: either `check` refuses it, or the sources pages, read by
    Python-Markdown with the site's extensions, links to exactly that URL and nothing else new,
    with no handler, class or id."""
    spec = reurled("xss", tail)
    url = yaml.safe_load(spec.raw)["url"]
    result = validate(assemble(base_tree(), [spec]))
    if not result.ok:
        assert any(_refusal(d.rule) for d in result.diagnostics)
        return
    assert result.kb is not None and result.figures is not None
    site = Site(result.kb, result.figures)  # only the pages read below: rendering the whole site was most of the time
    links = []
    for page in ["sources", *(group for group, *_ in SOURCE_GROUPS)]:
        html_page = markdown.markdown(render_page(site, f"{page}.md"), extensions=_EXTENSIONS,
                                      extension_configs={"pymdownx.escapeall": {"hardbreak": False, "nbsp": False}})
        scan = Scan()
        scan.feed(html_page)
        assert not scan.found, (page, scan.found[:3])
        links += [href for href, _rel in scan.links]
    assert links == [url]
