"""Plain YAML scalars, read as the YAML 1.2 core schema reads them (as editors and the YAML
language server do), except the forms that a YAML 1.1 reader (PyYAML, older tools) would read as
a different value, and the forms no reader should have to decode: those are errors that name the
form and the fix. Pure: the text of one plain scalar in, its value out or `ScalarFormError`.

| written                         | YAML 1.1 reads | YAML 1.2 reads | here                              |
|---------------------------------|----------------|----------------|-----------------------------------|
| `700`, `-3`, `+5`, `0`          | int            | int            | int                               |
| `0700`, `00`, `-012`            | octal int      | decimal int    | error: "0700 is octal in YAML 1.1; write 700" |
| `09`, `008`                     | text           | decimal int    | error: leading zero, write 9      |
| `0o700`                         | text           | octal int      | error: octal, write 448           |
| `0x2BC`                         | hex int        | hex int        | error: hexadecimal, write 700     |
| `0b1010`                        | binary int     | text           | error: binary, write 10           |
| `1_000`, `1_000.5`              | 1000, 1000.5   | text           | error: digit separators, write 1000 |
| `1:30`, `1:30.5`                | 90, 90.5 (base 60) | text       | error: sexagesimal, write 90 or quote the text |
| `1.5`, `.5`, `5.`, `07.5`       | float          | float          | float (one value in both)         |
| `7.5e2`, `1e3`, `1E+3`          | text (1.1 needs a dot and a signed exponent) | float | float: 750.0, 1000.0 |
| `.inf`, `-.inf`, `.nan`         | float          | float          | float (the schema then refuses it) |
| `true`, `False`, `TRUE`         | bool           | bool           | bool                              |
| `yes`, `No`, `on`, `OFF`, `y`, `n` | bool        | text           | error: write true/false, or quote the text |
| `null`, `Null`, `NULL`, `~`, empty | null        | null           | None                              |
| `2026-01-31`                    | date           | text           | date (a `date` field)             |
| `2026-01-31 10:00`              | timestamp      | text           | error: write a date as YYYY-MM-DD |
| `<<`                            | merge key      | text           | error: merge keys are not allowed |
| anything else                   | text           | text           | text                              |

Hexadecimal and `0o` octal are YAML 1.2 numbers, refused only because a reader of a spec should
not have to decode them. A float keeps the precision it was written with where its shortest
repr would not (`7.5e2` is good to tens, `1.50` to hundredths): see `Written`.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import yaml
from yaml.nodes import ScalarNode

from ..diagnostics import Rule
from .schema_rules import TYPE as SCHEMA_TYPE
from .yaml_rules import BOOLEAN_FORM, NUMBER_FORM, TAG

_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_SPECIAL_FLOATS = {f"{sign}.{word}": float(f"{sign}inf") for sign in ("", "+", "-") for word in ("inf", "Inf", "INF")}
_SPECIAL_FLOATS.update({f".{word}": float("nan") for word in ("nan", "NaN", "NAN")})
_OCTAL_12 = re.compile(r"[-+]?0o[0-7_]+")
_HEX = re.compile(r"[-+]?0x[0-9a-fA-F_]+")
_BINARY = re.compile(r"[-+]?0b[01_]+")
_SEPARATED = re.compile(r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][-+]?[0-9]+)?")
_SEXAGESIMAL_INT = re.compile(r"[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")
_SEXAGESIMAL_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TIMESTAMP_11 = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
                           r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?")
_WORDS: dict[str, Any] = {
    **{w: True for w in ("true", "True", "TRUE")},
    **{w: False for w in ("false", "False", "FALSE")},
    **{w: None for w in ("null", "Null", "NULL", "~", "")},
}
_BOOLS_11 = {**{w: "true" for w in ("yes", "Yes", "YES", "on", "On", "ON", "y", "Y")},
             **{w: "false" for w in ("no", "No", "NO", "off", "Off", "OFF", "n", "N")}}
_NUMBER_START = frozenset("-+.0123456789")


class ScalarFormError(ValueError):
    """A plain scalar in a form that is refused, and the rule it breaks."""

    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = rule, message


class Written(float):
    """A float that remembers how many decimals it was written with, where its repr would say
    otherwise (`1.50`: 2; `7.5e2`: -1, good to tens). Figures take their rounding from it."""

    __slots__ = ("decimals",)
    decimals: int


def read_plain(text: str) -> Any:
    """The value of the plain (unquoted, untagged) scalar `text`: see the module's table."""
    if text[:1] in _NUMBER_START:
        return _number(text)
    if text in _WORDS:
        return _WORDS[text]
    if text in _BOOLS_11:
        raise ScalarFormError(BOOLEAN_FORM, f"{text} is a boolean in YAML 1.1 but text in YAML 1.2; "
                                                   f"write {_BOOLS_11[text]}, or quote it if it is text")
    if text == "<<":
        raise ScalarFormError(TAG, "merge keys (<<) are not allowed")
    return text


def read_tagged(tag: str, text: str) -> Any:
    """The value of a scalar with an explicit standard tag (`!!int 7`): the text must be a plain
    form of that type, so a tag cannot bring back a refused form."""
    if tag == "str":
        return text
    value = read_plain(text)
    kinds: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "bool": (bool,),
                                          "null": (type(None),), "timestamp": (dt.date,)}
    wanted = kinds.get(tag)
    if wanted is None or not isinstance(value, wanted) or (tag in ("int", "float") and isinstance(value, bool)):
        raise ValueError(f"{text!r} is not a YAML 1.2 {tag}")
    return float(value) if tag == "float" and isinstance(value, int) else value


def _number(text: str) -> Any:
    if _INT.fullmatch(text):
        digits = text.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0":
            raise ScalarFormError(NUMBER_FORM, _leading_zero(text))
        return int(text)
    if _FLOAT.fullmatch(text):
        return _float(text)
    if text in _SPECIAL_FLOATS:
        return _SPECIAL_FLOATS[text]
    problem = _refused_number(text)
    if problem is not None:
        raise ScalarFormError(NUMBER_FORM, problem)
    if _DATE.fullmatch(text):
        return dt.date.fromisoformat(text)  # ValueError for 2026-13-45
    if _TIMESTAMP_11.fullmatch(text):
        raise ScalarFormError(SCHEMA_TYPE, "write a date as YYYY-MM-DD, without a time")
    return text


def _float(text: str) -> float:
    value = float(text)
    mantissa, _e, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2]) - int(exponent or 0)
    shown = repr(value)
    if decimals != (0 if "e" in shown else len(shown.partition(".")[2])):
        written = Written(value)
        written.decimals = decimals
        return written
    return value


def _leading_zero(text: str) -> str:
    plain = int(text)
    if set(text.lstrip("+-")) <= set("01234567"):
        return f"{text} is octal in YAML 1.1; write {plain} (a YAML 1.1 reader sees {_read_11('int', text)})"
    return f"{text} has a leading zero, which YAML 1.1 reads as text; write {plain}"


def _refused_number(text: str) -> str | None:
    """Why a number-like `text` is refused, or None when it is not a number form at all."""
    if _OCTAL_12.fullmatch(text) and "_" not in text and text[0] == "0":
        return f"{text} is octal (text in YAML 1.1); write {int(text, 8)} in decimal"
    if _HEX.fullmatch(text):
        return f"{text} is hexadecimal; write {_read_11('int', text)} in decimal"
    if _BINARY.fullmatch(text):
        return f"{text} is binary in YAML 1.1 (text in YAML 1.2); write {_read_11('int', text)}"
    if "_" in text and _SEPARATED.fullmatch(text):
        plain = text.replace("_", "")
        return f"{text} has digit separators: YAML 1.1 reads {plain}, YAML 1.2 reads text; write {plain}"
    tag = "int" if _SEXAGESIMAL_INT.fullmatch(text) else "float" if _SEXAGESIMAL_FLOAT.fullmatch(text) else ""
    if tag:
        return (f"{text} is sexagesimal (base 60) in YAML 1.1, read as {_read_11(tag, text)}; "
                f"write {_read_11(tag, text)}, or quote it if it is text")
    if _OCTAL_12.fullmatch(text):
        return f"{text} is not a decimal number; write it in decimal digits"
    return None


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _read_11(tag: str, text: str) -> Any:
    """What a YAML 1.1 reader (PyYAML) makes of `text` as an int or float: for messages only."""
    construct = _CONSTRUCTOR.construct_yaml_int if tag == "int" else _CONSTRUCTOR.construct_yaml_float
    return construct(ScalarNode(f"tag:yaml.org,2002:{tag}", text))
