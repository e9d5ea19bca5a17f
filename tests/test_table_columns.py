"""Data tables as a reader reads them: one unit per figure column on the hardware pages, the
figures a planner compares first, and short row names whose full name is one hover or one link
away (generator/render/names.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import real_result

from generator.render.names import short_name, short_names

# A figure cell's text starts with its number and unit: "4800 GB/s 总带宽 源", "0.78 TFLOPS/W", "9×";
# a count has none ("8 源": a Chinese word after the number is no unit).
_FIGURE = re.compile(r"^[\d.,]+(?: (?P<spaced>[^\s\d\u3400-\u9fff][^\s]*)|(?P<stuck>[×%]))")


class _Tables(HTMLParser):
    """The data tables of a page, as rows of (is a figure column, cell text)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[bool, str]]]] = []
        self._cell: list[str] | None = None
        self._numeric = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell, self._numeric = [], "num" in (dict(attrs).get("class") or "").split()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((self._numeric, " ".join("".join(self._cell).split())))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _tables(site: Path, page: str) -> list[list[list[tuple[bool, str]]]]:
    parser = _Tables()
    parser.feed((site / page / "index.html").read_text(encoding="utf-8"))
    return parser.tables


@pytest.mark.parametrize("page", ["gpus", "interconnects", "networks", "nodes"])
def test_one_unit_per_column(real_site: Path, page: str) -> None:
    """Every figure in a column of a hardware table is shown in the same unit (141 GB beside
    206.2 GB, never beside 192 GiB)."""
    mixed = []
    for t, table in enumerate(_tables(real_site, page)):
        header, *rows = table
        for c, (_numeric, label) in enumerate(header):
            units = {found["spaced"] or found["stuck"] for row in rows if c < len(row) and row[c][0]
                     if (found := _FIGURE.match(row[c][1]))}
            if len(units) > 1:
                mixed.append((page, t + 1, label, sorted(units)))
    assert mixed == []


def test_tables_lead_with_the_figures(real_site: Path) -> None:
    """After the name come the figures a planner compares first (GPU memory and bandwidths, a
    network's port rate, a node's GPU and bandwidth ratio), in view without scrolling sideways."""
    def header(page: str, table: int = 0) -> list[str]:
        return [label for _numeric, label in _tables(real_site, page)[table][0]]
    assert header("gpus")[:4] == ["型号", "显存", "显存带宽", "Scale-up 带宽（每 GPU）"]
    assert header("networks")[:3] == ["名称", "端口速率（Gb/s，单向）", "换算为 GB/s（单向）"]
    assert header("nodes")[:4] == ["名称", "GPU", "每节点 GPU", "Scale-up ÷ scale-out"]


@pytest.mark.parametrize(("name", "short"), [
    ("NVIDIA A800 80GB SXM (export-control variant of A100)", "A800 80GB SXM"),
    ("Intel Gaudi 3 (OAM, 128 GB)", "Gaudi 3"),
    ("AMD Instinct MI300X platform (Azure ND MI300X v5)", "Instinct MI300X platform"),
    ("NVSwitch（第一代，DGX-2）", "NVSwitch"),
    ("NVIDIA H100 SXM5 80GB", "H100 SXM5 80GB"),
    ("NVIDIA", "NVIDIA"),  # nothing left after the vendor: the name stays whole
    ("(only a note)", "(only a note)"),
    ("NVIDIAX 1", "NVIDIAX 1"),  # a vendor's name as a word, not as a prefix of one
])
def test_short_name(name: str, short: str) -> None:
    """A short name drops a closing parenthetical and a leading vendor name, and nothing else."""
    assert short_name(name, ["NVIDIA", "AMD", "Intel", "英伟达（NVIDIA）"]) == short


def test_short_names_stay_distinct() -> None:
    """Two names that would shorten alike keep their full names; the others are shortened."""
    result = real_result()
    assert result.kb is not None
    names = ["NVSwitch（第一代，DGX-2）", "NVSwitch（第二代，HGX A100）", "NVLink 3.0", "NVIDIA H100 SXM5 80GB"]
    assert short_names(result.kb, names) == {
        "NVSwitch（第一代，DGX-2）": "NVSwitch（第一代，DGX-2）",
        "NVSwitch（第二代，HGX A100）": "NVSwitch（第二代，HGX A100）",
        "NVLink 3.0": "NVLink 3.0", "NVIDIA H100 SXM5 80GB": "H100 SXM5 80GB"}
