"""Hand-written pages hold no typed figure: every number with a unit comes from specs/ through
a `[[entity#figure]]` reference, and every reference resolves."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data
from support import ROOT, real_result

from generator.figure_text import typed_in_prose
from generator.markdown_scan import scan_markdown
from generator.render.expand import body_first_line, expand_figures
from generator.render.trust import source_targets

# Both editions' pages: docs/ and docs/en/ (issue 27), named by their path so that the two
# index.md are told apart.
PAGES = sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "includes").rglob("*.md"))


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _prose(text: str) -> str:
    """The page with its code and its reference candidates blanked out (the scanner's reading)."""
    scan = scan_markdown(text)
    chars = list(text)
    for start, end in [*scan.code, *((f.start, f.end) for f in scan.found)]:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_no_typed_figures(page: Path) -> None:
    """Outside code and figure references, no number is followed by a unit."""
    found = typed_in_prose(_prose(page.read_text(encoding="utf-8")))
    assert not found, f"{_name(page)}: typed figures {found}: use [[entity#figure]]"


def test_detector_catches_typed_figures() -> None:
    """The detector itself fires on the classic forms and spares references and code."""
    assert typed_in_prose("带宽 400 Gb/s，算力 19.5 TFLOPS，功耗 450W，延迟 5 μs，快 10 倍")
    assert not typed_in_prose(_prose("见 [[ib-ndr#port_rate]] 与 `400 GB/s` 和 8 卡、64 GPU"))


@pytest.mark.parametrize("typed", ["400 Gbit/s", "400Gbit/s", "400 Gbps", "12 GiB/s", "1.5 TiB/s", "4\u200b00 Gb/s",
                                   "400\u200bGb/s", "1\u2060008 GB/s", "400\u00a0Gb/s", "25 Gb/sec", "100 Mbit/s"])
def test_detector_reads_through_spellings_and_invisible_characters(typed: str) -> None:
    """Unit spellings the unit table refuses, and zero-width characters inside a number, still
    make a typed figure, whole (not a tail of it)."""
    found = typed_in_prose(f"带宽约 {typed}，足够")
    assert found, typed
    assert found[0].replace("\u00a0", " ").split()[0][:1] == typed[:1]


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_references_resolve(page: Path) -> None:
    """Every [[entity#figure]] on a hand-written page is well formed and names a real figure;
    the page is read as the MkDocs hook gets it (front matter taken off), positions as in the file."""
    result = real_result()
    assert result.figures is not None and result.kb is not None
    titles = source_targets(result.kb)
    source = page.read_text(encoding="utf-8")
    body, _meta = get_data(source)
    _text, problems = expand_figures(body, result.figures, titles, _name(page), first_line=body_first_line(source, body))
    assert not problems, [p.as_text() for p in problems]
