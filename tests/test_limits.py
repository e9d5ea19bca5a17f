"""The contributing page's limits are the code's: rendered from the constants where the page
holds the marker, and typed nowhere on the page itself."""

from __future__ import annotations

from support import ROOT

from generator.language import speaking
from generator.load.parse import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS
from generator.model.common import MAX_TEXT
from generator.render.limits import MARKER, insert_limits, limits_markdown
from generator.rules.diagnostic_cap import MAX_PER_FILE

PAGE = ROOT / "docs" / "contributing.md"
FIGURES = {f"{MAX_FILE_BYTES // 1024} KiB", f"{MAX_FILE_BYTES:,} 字节", f"{MAX_SCALAR_CHARS:,} 个字符",
           f"{MAX_DEPTH} 层", f"{MAX_TEXT:,} 个字符", f"最多列出 {MAX_PER_FILE} 条"}


def test_list_shows_every_constant() -> None:
    text = limits_markdown()
    assert [figure for figure in sorted(FIGURES) if figure not in text] == []


def test_english_list_shows_every_constant_and_no_chinese() -> None:
    """The English contributing page gets the same list in English, with the same figures."""
    with speaking("en"):
        text = limits_markdown()
    figures = {f"{MAX_FILE_BYTES // 1024} KiB", f"{MAX_FILE_BYTES:,} bytes", f"{MAX_SCALAR_CHARS:,} characters",
               f"{MAX_DEPTH} levels", f"{MAX_TEXT:,} characters", f"at most {MAX_PER_FILE} are listed"}
    assert [figure for figure in sorted(figures) if figure not in text] == []
    assert not any("\u4e00" <= c <= "\u9fff" for c in text)
    assert text.count("\n") == limits_markdown().count("\n")


def test_page_holds_the_marker_and_no_typed_limit() -> None:
    source = PAGE.read_text(encoding="utf-8")
    assert [line.strip() for line in source.splitlines()].count(MARKER) == 1
    assert [figure for figure in sorted(FIGURES) if figure in source] == []
    shown = insert_limits(source)
    assert MARKER not in shown and limits_markdown() in shown
    assert shown.index("## 限制与安全") < shown.index(limits_markdown())


def test_marker_only_on_its_own_line() -> None:
    """Prose that mentions the marker, or a page without it, is left as it is."""
    assert insert_limits("a\nb\n") == "a\nb\n"
    assert insert_limits(f"写 `{MARKER}` 即可\n") == f"写 `{MARKER}` 即可\n"
