"""Plain scalars are read as YAML 1.2 reads them; the forms YAML 1.1 reads otherwise are refused
with a message that names the form and the fix (generator.load.scalars holds the decision table)."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest

from generator.load.parse import parse_spec
from generator.load.scalars import ScalarFormError, read_plain, read_tagged
from generator.units import decimals_of

READ = [
    ("700", 700), ("-3", -3), ("+5", 5), ("0", 0), ("-0", 0),
    ("1.5", 1.5), (".5", 0.5), ("5.", 5.0), ("07.5", 7.5),
    ("7.5e2", 750.0), ("1e3", 1000.0), ("1E+3", 1000.0), ("2.5e-1", 0.25),
    (".inf", math.inf), ("-.Inf", -math.inf), ("+.INF", math.inf),
    ("true", True), ("False", False), ("TRUE", True),
    ("null", None), ("Null", None), ("NULL", None), ("~", None), ("", None),
    ("2026-01-31", dt.date(2026, 1, 31)),
    ("abc", "abc"), ("-", "-"), (".", "."), ("=", "="), ("-.nan", "-.nan"), ("0:30", "0:30"),
    ("2026-1-5", "2026-1-5"), ("1.2.3", "1.2.3"), ("v100", "v100"), ("0x", "0x"), ("中文", "中文"),
]

REFUSED = [
    ("0700", "yaml-number-form", "0700 is octal in YAML 1.1; write 700 (a YAML 1.1 reader sees 448)"),
    ("-012", "yaml-number-form", "-012 is octal in YAML 1.1; write -12"),
    ("00", "yaml-number-form", "00 is octal in YAML 1.1; write 0"),
    ("09", "yaml-number-form", "09 has a leading zero, which YAML 1.1 reads as text; write 9"),
    ("0o700", "yaml-number-form", "0o700 is octal (text in YAML 1.1); write 448 in decimal"),
    ("-0o7", "yaml-number-form", "-0o7 is not a decimal number"),
    ("0x2BC", "yaml-number-form", "0x2BC is hexadecimal; write 700 in decimal"),
    ("0x2_bc", "yaml-number-form", "0x2_bc is hexadecimal; write 700 in decimal"),
    ("0b1010", "yaml-number-form", "0b1010 is binary in YAML 1.1 (text in YAML 1.2); write 10"),
    ("1_000", "yaml-number-form", "1_000 has digit separators: YAML 1.1 reads 1000, YAML 1.2 reads text; write 1000"),
    ("1_000.5", "yaml-number-form", "write 1000.5"),
    ("1:30", "yaml-number-form", "1:30 is sexagesimal (base 60) in YAML 1.1, read as 90; write 90"),
    ("1:30.5", "yaml-number-form", "read as 90.5"),
    ("yes", "yaml-boolean-form", "yes is a boolean in YAML 1.1 but text in YAML 1.2; write true"),
    ("Off", "yaml-boolean-form", "write false"),
    ("y", "yaml-boolean-form", "write true"),
    ("N", "yaml-boolean-form", "write false"),
    ("<<", "yaml-tag", "merge keys"),
    ("2026-01-31 10:00:00", "schema-type", "write a date as YYYY-MM-DD"),
]


@pytest.mark.parametrize(("text", "value"), READ, ids=[t or "empty" for t, _v in READ])
def test_yaml_12_forms_are_read(text: str, value: Any) -> None:
    """Each YAML 1.2 core form gives its YAML 1.2 value, of the same type."""
    got = read_plain(text)
    assert got == value
    assert type(got) is type(value) or (isinstance(value, float) and isinstance(got, float))


@pytest.mark.parametrize(("text", "rule", "message"), REFUSED, ids=[t for t, _r, _m in REFUSED])
def test_ambiguous_forms_are_refused(text: str, rule: str, message: str) -> None:
    """Each refused form raises its rule, naming the form and the fix."""
    with pytest.raises(ScalarFormError) as caught:
        read_plain(text)
    assert caught.value.rule.id == rule and message in caught.value.message


def test_nan_is_read() -> None:
    """.nan is a float (the schema then refuses it, as it refuses .inf)."""
    assert math.isnan(read_plain(".nan"))


@pytest.mark.parametrize(("text", "decimals"), [("750", 0), ("750.0", 1), ("1.50", 2), ("7.5e2", -1),
                                                ("1e3", -3), ("5.", 0), ("2.5e-1", 2), ("0.001", 3)])
def test_floats_keep_the_precision_they_were_written_with(text: str, decimals: int) -> None:
    """The rounding of a figure comes from how it was written, not from its shortest repr."""
    assert decimals_of(read_plain(text)) == decimals


@pytest.mark.parametrize(("tag", "text", "value"), [("str", "0700", "0700"), ("int", "7", 7), ("float", "7", 7.0),
                                                    ("bool", "true", True), ("null", "~", None)])
def test_explicit_tags_read_yaml_12_forms(tag: str, text: str, value: Any) -> None:
    assert read_tagged(tag, text) == value


@pytest.mark.parametrize(("tag", "text"), [("int", "0700"), ("int", "x"), ("int", "1.5"), ("bool", "yes"),
                                           ("float", "true")])
def test_explicit_tags_cannot_bring_back_a_refused_form(tag: str, text: str) -> None:
    with pytest.raises(ValueError):
        read_tagged(tag, text)


@pytest.mark.parametrize(("text", "col", "rule"), [
    ("x: 0700", 4, "yaml-number-form"), ("x: [1, 0x10]", 8, "yaml-number-form"),
    ("x: {a: 1_000}", 8, "yaml-number-form"), ("0700: a", 1, "yaml-number-form"),
    ("x: !!int 0700", 4, "yaml-number-form"), ("on: 1", 1, "yaml-boolean-form"), ("x: !!int 1.5", 4, "yaml-syntax")])
def test_loader_reports_the_form_where_it_is_written(text: str, col: int, rule: str) -> None:
    """The loader turns a refused form into one diagnostic at the scalar, keys and tags included."""
    result = parse_spec("specs/networks/x.yaml", text.encode())
    assert isinstance(result, list)
    assert [(d.line, d.col, d.rule) for d in result] == [(1, col, rule)]


def test_exponent_is_a_number() -> None:
    """7.5e2 is 750, as YAML 1.2 reads it (PyYAML's YAML 1.1 rules read it as text)."""
    result = parse_spec("specs/networks/x.yaml", b"value: 7.5e2\n")
    assert not isinstance(result, list) and result.data == {"value": 750.0}
