"""Spec text reaches pages through two escapers: `inert` (HTML fragments, which may land in
Markdown) and `md` (Markdown). Whatever the text, the reader sees exactly that text: no markup,
no entity shown literally, no character lost."""

from __future__ import annotations

import html
import re

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.text import inert, md

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
