"""Signed shares (the cost model's bias, a diff's change) as the pages and the command line write
them: a sign where the rounded figure has one, none where it rounds to zero."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.figure_format import signed_percent


@pytest.mark.parametrize(("share", "text"), [
    (0.012, "+1.2%"), (-0.034, "-3.4%"), (0.0, "0.0%"), (-0.0, "0.0%"),
    (-0.0004, "0.0%"), (0.00049, "0.0%"), (-0.0006, "-0.1%"), (1.5, "+150.0%"),
])
def test_examples(share: float, text: str) -> None:
    assert signed_percent(share) == text


@given(st.floats(min_value=-10, max_value=10, allow_nan=False))
def test_the_number_is_the_rounded_share_and_the_sign_its_sign(share: float) -> None:
    text = signed_percent(share)
    number = float(text.removesuffix("%"))
    assert number == float(f"{share:.1%}".removesuffix("%"))
    if number == 0:
        assert text == "0.0%"
    else:
        assert text[0] == ("+" if share > 0 else "-")
