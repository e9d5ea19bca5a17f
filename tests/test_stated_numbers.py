"""The numbers a text states (generator.language.stated_numbers, which the rule text-en-numbers and
the English edition's page tests compare): its short path for texts without a magnitude gives
what the full reader gives, on texts built from the pieces that matter (numerals with separators
and fractions, ranges, 万 and 亿, Chinese and English number words, magnitudes in any case)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.language import _with_magnitudes, stated_numbers

_PIECES = st.sampled_from([
    "0", "7", "12", "400", "1,000", "16,384", "2.15", ".5", "3.", ",", ".", " ", "-", "–", "~",
    " to ", "到", "至", "万", "亿", "一", "二", "两", "千", "百", "十", "四千", "a ", "two ", "hundred ",
    "thousand", "thousands", "million", "Billion", "TRILLION", "billions", "GPU", "GB/s", "层", "，", "\n",
])
_TEXT = st.lists(_PIECES, max_size=24).map("".join)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_the_short_path_reads_what_the_full_reader_reads(text: str) -> None:
    assert stated_numbers(text) == _with_magnitudes(text)


@pytest.mark.parametrize(("text", "numbers"), [
    ("8 × 400 Gb/s，共 3,200", {8, 400, 3200}),
    ("FFN 53248, 1.50 TB/s", {53248, Decimal("1.5")}),
    ("4000 亿，四千亿", {400_000_000_000}),
    ("400 billion, four hundred billion", {400_000_000_000}),
    ("20 to 100 billion", {20_000_000_000, 100_000_000_000}),
    ("no numbers here", set()),
])
def test_examples(text: str, numbers: set[int | Decimal]) -> None:
    assert stated_numbers(text) == frozenset(Decimal(n).normalize() for n in numbers)
