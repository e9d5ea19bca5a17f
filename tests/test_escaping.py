"""Spec text reaches pages through two escapers: `inert` (HTML fragments, which may land in
Markdown) and `md` (Markdown). Whatever the text, the reader sees exactly that text: no markup,
no entity shown literally, no character lost."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import markdown
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support import base_files

from generator.render import render_site
from generator.render.reference import _csv
from generator.render.text import inert, md
from generator.validate import SpecFile, validate

# ASCII punctuation and HTML's own characters are where escaping goes wrong; mix them with
# letters, CJK and whitespace.
_TEXT = st.text(alphabet=st.one_of(st.sampled_from(list("&<>\"'#;\\`*_{}[]()+-.!|~^=:$@%/,? 0aZ中文")),
                                   st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"))), max_size=60)
# What mkdocs.yml enables that reads inline text.
_EXTENSIONS = ["abbr", "attr_list", "def_list", "md_in_html", "tables", "pymdownx.escapeall"]
_CONFIG = {"pymdownx.escapeall": {"hardbreak": False, "nbsp": False}}


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_inert_shows_the_text_itself(text: str) -> None:
    out = str(inert(text))
    assert not re.search(r"[<>\"'\\`*_\[\]()]", out)
    assert html.unescape(out) == text


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_markdown_escape_renders_the_text_itself(text: str) -> None:
    rendered = markdown.markdown("x " + md(text) + " x", extensions=_EXTENSIONS, extension_configs=_CONFIG)
    assert rendered.startswith("<p>") and rendered.endswith("</p>")
    shown = html.unescape(rendered[3:-4])
    assert "<" not in rendered[3:-4]
    assert shown.split() == ("x " + text + " x").split()


def test_inert_fragment_inside_markdown_shows_the_text_itself() -> None:
    """The case that once showed `&#34;80&#34;` to readers: quotes inside an HTML table cell."""
    text = '"80" 不是 80；[a](b) *c* &amp; <d>'
    rendered = markdown.markdown(f"<table><tr><td>{inert(text)}</td></tr></table>", extensions=_EXTENSIONS,
                                 extension_configs=_CONFIG)
    cell = re.search(r"<td>(.*)</td>", rendered)
    assert cell is not None and html.unescape(cell.group(1)) == text


# Texts a spreadsheet would run as a formula (leading =, +, - or @), and a CSV's own separators,
# quotes and line breaks.
_CSV_TEXTS = ['=HYPERLINK("http://example.org")', "+1 测试", "-2, 逗号", "@SUM(A1:A2)", 'a "quoted"; b',
              "\t=1+1", "\n=2+2 后面", "行一\n行二"]
_SIGNS = ("=", "+", "-", "@", "\t", "\r", "\n")  # OWASP's, and the tab and line breaks a spreadsheet skips


def _shown_in_csv(text: str) -> str:
    return "'" + text if text[:1] in _SIGNS else text


def test_csv_download_keeps_text_and_defuses_formulas() -> None:
    """In the data/<kind>.csv downloads the renderer writes, each entity is one row, a text reads
    back as written except that a formula gets a leading quote, and a list is one '; '-joined
    cell; no cell of any download starts a formula, whatever the knowledge base says."""
    files, texts = [], {}
    networks = iter(range(len(_CSV_TEXTS)))
    for spec in base_files():
        data = yaml.safe_load(spec.raw)
        if spec.kind == "networks":
            i = next(networks)
            data["name"], data["summary"]["zh"] = _CSV_TEXTS[i], _CSV_TEXTS[-1 - i]
            texts[data["id"]] = data["name"], data["summary"]["zh"]
            spec = SpecFile(spec.path, spec.kind, spec.stem, yaml.safe_dump(data, allow_unicode=True).encode())
        files.append(spec)
    result = validate(files)
    assert result.ok and result.kb is not None and result.figures is not None, [d.as_text() for d in result.diagnostics]
    site = render_site(result.kb, result.figures)
    tables = {name: list(csv.DictReader(io.StringIO(text, newline=""))) for name, text in site.items()
              if name.endswith(".csv")}
    for name, rows in tables.items():
        assert [row["id"] for row in rows] == [r["id"] for r in json.loads(site[name.replace(".csv", ".json")])], name
        for row in rows:
            formulas = [c for c in row.values() if c[:1] in _SIGNS and not re.fullmatch(r"-[0-9.e+-]+", c)]
            assert formulas == [], (name, row["id"], formulas)
    networks_csv = {row["id"]: row for row in tables["data/networks.csv"]}
    assert len(texts) >= 3
    for entity, (title, summary) in texts.items():
        assert networks_csv[entity]["name"] == _shown_in_csv(title)
        assert networks_csv[entity]["summary.zh"] == _shown_in_csv(summary)
    layers = {row["id"]: row["technologies"] for row in tables["data/layers.csv"]}
    assert layers == {e.id: "; ".join(e.model.technologies) for e in result.kb.of_kind("layers")}


# URLs: safe ones from the allowed alphabet, and anything at all.
_URL_PATH = st.text(alphabet="abcXYZ019-._~:/?#@$&+,;=" + "%41", max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_attribute_value_cannot_close_the_attribute_or_cut_a_table(text: str) -> None:
    """An attribute value has no quote, `|` or backslash, and reads back as the text."""
    from generator.render.escape import attr
    out = str(attr(text))
    assert not re.search(r"[\"'<>|\\]", out)
    assert html.unescape(out) == text


@settings(max_examples=300, deadline=None)
@given(st.one_of(_URL_PATH.map(lambda p: "https://example.org/" + p), st.text(max_size=60)))
def test_link_href_is_exactly_a_safe_url_or_absent(url: str) -> None:
    """`link` gives an <a> whose parsed href is the URL itself when the rules accept it, and no
    element at all otherwise; either way the shown text is the URL."""
    from html.parser import HTMLParser

    from generator.render.escape import link
    from generator.rules.source_urls import url_is_safe

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.tags: list[tuple[str, dict[str, str | None]]] = []
            self.text = ""

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append((tag, dict(attrs)))

        def handle_data(self, data: str) -> None:
            self.text += data

    parsed = Tags()
    parsed.feed(str(link(url)))
    parsed.close()
    if url and url_is_safe(url):
        assert parsed.tags == [("a", {"href": url, "rel": "noopener noreferrer"})]
    else:
        assert parsed.tags == []
    dropped = {*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)}  # controls
    assert parsed.text == "".join(ch for ch in url if ord(ch) not in dropped)


def test_csv_quotes_a_bare_carriage_return_and_guards_it() -> None:
    """A cell with a bare CR (which text-control keeps out of specs, but the writer must not rely
    on that) is quoted, so the record does not split; a cell that starts with CR or a tab is
    guarded. Read back with Python's csv reader: one header and one record, the texts intact."""
    texts = ["a\rb", "\r=1+1", "\t@x", "-3", "plain"]
    written = _csv([{"id": "x", **{f"c{i}": t for i, t in enumerate(texts)}, "n": -3.5}])
    assert written.endswith("\r\n") and '"a\rb"' in written
    rows = list(csv.reader(io.StringIO(written, newline="")))
    assert len(rows) == 2 and len(rows[1]) == len(rows[0])
    record = dict(zip(rows[0], rows[1], strict=True))
    assert [record[f"c{i}"] for i in range(len(texts))] == ["a\rb", "'\r=1+1", "'\t@x", "'-3", "plain"]
    assert record["n"] == "-3.5"  # a number stays a number

