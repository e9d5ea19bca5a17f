"""The comparison page shows every GPU and every server or rack with exactly the figures of the GPU
and nodes pages (the same cells, unit, direction and source), one column per item, and starts with
typical items chosen from the data."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import real_result

from generator.model.entities import ComputeNode, Gpu
from generator.model.runs import Run
from generator.validate import Result


class Cells(HTMLParser):
    """Per table row: its id, and each cell's text and `data-col`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[str | None, list[tuple[str | None, str]]]] = []
        self._cell: list[str] | None = None
        self._col: str | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "tr":
            self.rows.append((a.get("id"), []))
        elif tag in ("td", "th") and self.rows:
            self._cell, self._col = [], a.get("data-col")
        elif tag == "a" and "spec-edit" in (a.get("class") or ""):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1][1].append((self._col, " ".join("".join(self._cell).split())))
            self._cell = None
        elif tag == "a" and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._skip:
            self._cell.append(data)


def _rows(page: Path) -> list[tuple[str | None, list[tuple[str | None, str]]]]:
    parser = Cells()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.rows


@pytest.fixture(scope="module")
def real() -> Result:
    result = real_result()
    assert result.kb is not None
    return result


@pytest.mark.parametrize(("page", "kind", "entity"), [("gpus", "gpus", Gpu), ("nodes", "nodes", ComputeNode)])
def test_each_column_holds_the_items_row_of_its_page(real_site: Path, real: Result, page: str, kind: str,
                                                     entity: type) -> None:
    """The first table of the item's page (the GPU specs, the servers and racks), read across its
    row, is the item's column on the comparison page, read down, cell for cell."""
    assert real.kb is not None
    ids = {e.id for e in real.kb.of_type(entity)}
    compare = _rows(real_site / "compare" / "index.html")
    source = {row_id: cells for row_id, cells in _rows(real_site / page / "index.html") if row_id in ids}
    assert set(source) == ids  # every item has its row there...
    for item in sorted(ids):
        column = [text for _id, cells in compare for col, text in cells if col == item]
        row = [text for _col, text in source[item]]
        assert column[0] == row[0]  # ...its short name heads its column
        assert column[1:len(row)] == row[1:], item  # and its figures follow in the table's order


def test_the_page_starts_with_the_most_published_gpus_and_their_servers(real_site: Path, real: Result) -> None:
    """Before the reader picks, the GPUs with the most published runs (specs/runs/) and a
    reference server of each: chosen from the data, not named in code."""
    assert real.kb is not None
    html = (real_site / "compare" / "index.html").read_text(encoding="utf-8")
    preselected = re.findall(r'data-kind="(\w+)" data-most="4" data-preselected="([^"]*)"', html)
    chosen = {kind: ids.split(",") for kind, ids in preselected}
    runs = Counter(r.model.gpu for r in real.kb.of_type(Run))
    assert len(chosen["gpus"]) == 2 and min(runs[g] for g in chosen["gpus"]) >= max(
        n for g, n in runs.items() if g not in chosen["gpus"])
    servers = {n.id: n.model for n in real.kb.of_type(ComputeNode)}
    assert [servers[n].gpu for n in chosen["nodes"]] == chosen["gpus"]
    assert all(servers[n].kind == "server" for n in chosen["nodes"])
