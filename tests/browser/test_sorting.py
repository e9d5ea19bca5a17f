"""Tables sort by the normalised value, not the number as written: in headless Chromium, a GPU
whose memory bandwidth is written in TB/s is shown in the column's one unit (GB/s) and sorts among
the others by its value in the base unit (2.039 TB/s above 1008 GB/s), both ways. Built from the fixture base with that one figure rewritten, so
the mixed units are there whatever the real specs hold."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from navigation import settle
from playwright.sync_api import Page
from support import BASE, fixture_project, read_tree

from generator.units import to_base
from generator.validate import SpecFile, validate
from tools.sitekit import build_site, serve

TARGET = "specs/gpus/test-a100-sxm4.yaml"
_FIGURE = re.compile(r"^(\d+(?:\.\d+)?) ([KMGT]?B/s)")


def _files() -> list[SpecFile]:
    files = []
    for f in read_tree(BASE):
        if f.path == TARGET:
            raw = f.raw.replace(b"bandwidth: {value: 2039, unit: GB/s,", b"bandwidth: {value: 2.039, unit: TB/s,")
            assert raw != f.raw
            f = SpecFile(f.path, f.kind, f.stem, raw)
        files.append(f)
    return files


@pytest.fixture(scope="module")
def mixed_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    files = _files()
    assert validate(files).ok
    project = fixture_project(tmp_path_factory.mktemp("mixed"), files)
    out = project / "site-out"
    done = build_site(out, project)
    assert done.returncode == 0, done.stderr[-3000:]
    with serve(out) as url:
        yield url


def _column(page: Page, header: str) -> list[tuple[str, float]]:
    table = page.locator("article .data-table table").first
    index = table.locator("th").all_inner_texts().index(header)
    texts = table.locator(f"tbody tr td:nth-child({index + 1})").all_inner_texts()
    shown = []
    for text in texts:
        found = _FIGURE.match(text.strip())
        assert found is not None, text
        shown.append((found[0], float(to_base(float(found[1]), found[2]))))
    return shown


def test_memory_bandwidth_sorts_across_units(page: Page, mixed_url: str) -> None:
    settle(page, mixed_url + "/gpus/")
    header = page.locator("article .data-table table").first.locator("th", has_text="显存带宽")
    orders = []
    for _ in range(2):
        header.click()
        column = _column(page, "显存带宽")
        values = [v for _, v in column]
        assert values in (sorted(values), sorted(values, reverse=True)), column
        orders.append([t for t, _ in column])
    assert orders[0] == list(reversed(orders[1]))
    descending = orders[0] if _column_value(orders[0][0]) >= _column_value(orders[0][-1]) else orders[1]
    # The largest value, shown in the column's one unit though its spec writes the smallest number
    # (2.039 TB/s), and sorted by the value in the base unit, as its cell's data-sort holds it.
    assert descending[0] == "2039 GB/s", descending
    top = page.locator("article .data-table table").first.locator("tbody td", has_text="2039 GB/s").first
    assert top.get_attribute("data-sort") == str(to_base(2039, "GB/s"))


def _column_value(text: str) -> float:
    found = _FIGURE.match(text)
    assert found is not None
    return float(to_base(float(found[1]), found[2]))
