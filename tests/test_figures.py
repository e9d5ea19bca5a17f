"""Derived-only figures (the GPU comparison columns) come out in their display units, on the
fixture knowledge base (tests/fixtures/base/specs/)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from support import base_result

from generator.units import to_base


@pytest.fixture(scope="module")
def figures():  # type: ignore[no-untyped-def]
    result = base_result()
    assert result.ok and result.figures is not None
    return result.figures


@pytest.mark.parametrize(("ref", "unit", "expected"), [
    ("test-a100-sxm4#scale_up_to_pcie", "x", 600 / 64),
    ("test-rtx-4090#tflops_per_watt", "TFLOPS/W", 165.2 / 450),
    ("test-rtx-4090#usd_per_tflops", "USD/TFLOPS", 1599 / 165.2),
    ("test-a100-sxm4#bytes_per_flop", "B/FLOP", 2039e9 / 312e12),
    ("test-scaling-64gpu#rows.ndr.efficiency", "%", 38 / 64 * 100),
    ("test-pcie-4#total", None, None),
])
def test_derived_figure(figures, ref: str, unit: str | None, expected: float | None) -> None:  # type: ignore[no-untyped-def]
    """Each derived ratio has the right unit and value; unknown names give None."""
    figure = figures.get(ref)
    if unit is None:
        assert figure is None
        return
    assert figure is not None and figure.unit == unit
    assert float(figure.shown) == pytest.approx(expected, rel=1e-9)


def test_a_float_converts_as_written() -> None:
    """46.88 GB/s is exactly 4688/100 GB/s (its shortest repr), not the binary float's value."""
    assert to_base(46.88, "GB/s") == Fraction(4688, 100) * 8 * 10**9
