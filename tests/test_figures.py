"""Derived-only figures (the GPU comparison columns) come out in their display units."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.specfiles import read_spec_tree
from generator.validate import validate


@pytest.fixture(scope="module")
def figures():  # type: ignore[no-untyped-def]
    result = validate(read_spec_tree(Path("specs"))[0])
    assert result.ok and result.figures is not None
    return result.figures


@pytest.mark.parametrize(("ref", "unit", "expected"), [
    ("a100-sxm4-80gb#nvlink_to_pcie", "x", 600 / 64),
    ("rtx-4090#tflops_per_watt", "TFLOPS/W", 165.2 / 450),
    ("rtx-4090#usd_per_tflops", "USD/TFLOPS", 1599 / 165.2),
    ("a100-sxm4-80gb#bytes_per_flop", "B/FLOP", 2039e9 / 312e12),
    ("scaling-llama-70b-64gpu#rows.ib-ndr.efficiency", "%", 38 / 64 * 100),
    ("pcie-4-x16#total", None, None),
])
def test_derived_figure(figures, ref: str, unit: str | None, expected: float | None) -> None:  # type: ignore[no-untyped-def]
    """Each derived ratio has the right unit and value; unknown names give None."""
    figure = figures.get(ref)
    if unit is None:
        assert figure is None
        return
    assert figure is not None and figure.unit == unit
    assert float(figure.shown) == pytest.approx(expected, rel=1e-9)
