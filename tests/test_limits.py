"""The contributing page's limits are the code's: rendered from the constants where the page
holds the marker, in the page's language, and typed nowhere on the page itself (either edition's)."""

from __future__ import annotations

import pytest
from support import ROOT

from generator.language import speaking
from generator.load.parse import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS
from generator.model.common import MAX_TEXT
from generator.render.limits import MARKER, insert_limits, limits_markdown
from generator.rules.diagnostic_cap import MAX_PER_FILE

# Each edition's contributing page, the heading the list stands under, and the list's figures as
# that language writes them.
EDITIONS = {
    "zh": (ROOT / "docs" / "contributing.md", "## 限制与安全",
           {f"{MAX_FILE_BYTES // 1024} KiB", f"{MAX_FILE_BYTES:,} 字节", f"{MAX_SCALAR_CHARS:,} 个字符",
            f"{MAX_DEPTH} 层", f"{MAX_TEXT:,} 个字符", f"最多列出 {MAX_PER_FILE} 条"}),
    "en": (ROOT / "docs" / "en" / "contributing.md", "## Limits and safety",
           {f"{MAX_FILE_BYTES // 1024} KiB", f"{MAX_FILE_BYTES:,} bytes", f"{MAX_SCALAR_CHARS:,} characters",
            f"{MAX_DEPTH} levels", f"{MAX_TEXT:,} characters", f"at most {MAX_PER_FILE} are listed"}),
}


@pytest.mark.parametrize("language", EDITIONS)
def test_list_shows_every_constant(language: str) -> None:
    with speaking(language):
        text = limits_markdown()
    assert [figure for figure in sorted(EDITIONS[language][2]) if figure not in text] == []


@pytest.mark.parametrize("language", EDITIONS)
def test_page_holds_the_marker_and_no_typed_limit(language: str) -> None:
    page, heading, figures = EDITIONS[language]
    source = page.read_text(encoding="utf-8")
    assert [line.strip() for line in source.splitlines()].count(MARKER) == 1
    assert [figure for figure in sorted(figures) if figure in source] == []
    with speaking(language):
        shown, listed = insert_limits(source), limits_markdown()
    assert MARKER not in shown and listed in shown
    assert shown.index(heading) < shown.index(listed)


def test_each_language_its_own_list() -> None:
    """The English list is written in English (no Chinese character), the Chinese one in Chinese."""
    with speaking("en"):
        english = limits_markdown()
    chinese = limits_markdown()
    assert english != chinese and not any("\u4e00" <= c <= "\u9fff" for c in english)
    assert "字节" in chinese


def test_marker_only_on_its_own_line() -> None:
    """Prose that mentions the marker, or a page without it, is left as it is."""
    assert insert_limits("a\nb\n") == "a\nb\n"
    assert insert_limits(f"写 `{MARKER}` 即可\n") == f"写 `{MARKER}` 即可\n"
