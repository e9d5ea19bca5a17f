"""CSV downloads that a spreadsheet opens as data (generator/render/spreadsheet.py): whatever a
text holds, a record stays one record, every field stays in its column, no text cell runs as a
formula, and a number stays a number.

Read back two ways: with Python's csv reader, and with `calc_read`, a model of how LibreOffice
Calc's Text Import reads a file, written from its documented rules and its import code
(spreadsheet.py lists them as (a) to (e)):

  (a) a record ends at CR, LF or CRLF outside quotes; a field that starts with " runs to the
      matching ", separators and line breaks inside it are text, and "" inside it is one ";
  (b) NUL characters are removed from the data first;
  (c) "Trim spaces" removes spaces around a field;
  (d) "Evaluate formulas": a field starting with = is a formula (and a leading + - or @ that
      does not make a plain number: cell input reads those as formulas too);
  (e) with "Detect special numbers" and "Detect numbers in scientific notation" off, only a
      plain decimal number (sign, digits, one decimal point) is a number.

Each read is checked under every combination of the options that matter: trimming or not,
quoted fields as text or not, and Excel's habit of skipping a leading tab or line break.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from itertools import product
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support import BASE, ROOT

from generator.render.spreadsheet import FORMULA_SIGNS, guarded, table

# --- Calc's reader, rules (a) and (b) ---------------------------------------------------------

_LINE_END = re.compile(r"\r\n|\r|\n")
_FIELD_END = re.compile(r"[,\r\n]")


def _calc_field(text: str, at: int) -> tuple[str, bool, int]:
    """One field from `at`: its text, whether it was quoted, and where it ends."""
    if not text.startswith('"', at):
        end = _FIELD_END.search(text, at)
        stop = end.start() if end else len(text)
        return text[at:stop], False, stop
    parts, start = [], at + 1
    while True:
        close = text.find('"', start)
        assert close >= 0, f"a quoted field from {at} is never closed"
        parts.append(text[start:close])
        if not text.startswith('"', close + 1):
            return "".join(parts), True, close + 1
        parts.append('"')
        start = close + 2


def calc_read(text: str) -> list[list[tuple[str, bool]]]:
    """The records Calc reads from `text`, each a list of (field, quoted)."""
    text = text.replace("\0", "")  # (b)
    records, at = [], 0
    while at < len(text):
        record = []
        while True:
            field, quoted, at = _calc_field(text, at)
            record.append((field, quoted))
            if text.startswith(",", at):
                at += 1
                continue
            end = _LINE_END.match(text, at)
            # After a closing quote Calc would glue stray characters on: the writer never leaves any.
            assert end is not None or at == len(text), f"data after a field at {at}"
            at = end.end() if end else at
            break
        records.append(record)
    return records


# --- Calc's reading of a field, rules (c) to (e) ----------------------------------------------

_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
# (trim spaces, quoted fields as text, characters skipped before a formula sign)
SETTINGS = list(product((False, True), (False, True), ("", "\t\r\n")))


def calc_kind(field: str, quoted: bool, trim: bool, quoted_as_text: bool, skipped: str) -> str:
    """"number", "formula" or "text": what the cell becomes under these settings."""
    value = field.strip(" ") if trim else field  # (c)
    if quoted and quoted_as_text:
        return "text"
    if _DECIMAL.fullmatch(value):  # (e)
        return "number"
    return "formula" if value.lstrip(skipped)[:1] in FORMULA_SIGNS else "text"  # (d)


# --- what goes in ------------------------------------------------------------------------------

# Texts made of what matters to a spreadsheet (signs, quotes, separators, line breaks, NUL, the
# quote prefix itself) mixed with any other character, CJK and Latin included.
_SPECIAL = st.sampled_from(list("=+-@\t\r\n\0 ,\"';中"))
_PIECES = st.one_of(_SPECIAL, st.sampled_from(["\r\n", "=HYPERLINK(\"http://x\")", "-3.5", "中文"]), st.text(max_size=4))
TEXTS = st.text(alphabet=st.one_of(_SPECIAL, st.characters(codec="utf-8")), max_size=24) | \
    st.lists(_PIECES, max_size=8).map("".join)
NUMBERS = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False))
VALUES = st.one_of(st.none(), st.booleans(), NUMBERS, TEXTS)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[dict[str, object]]]:
    columns = draw(st.lists(TEXTS, min_size=1, max_size=5, unique=True))
    rows = draw(st.lists(st.fixed_dictionaries({}, optional={c: VALUES for c in columns}), max_size=5))
    return columns, rows


def _expected_text(value: object) -> str:
    """What a cell reads back as, once the writer has made it safe."""
    if value is None:
        return ""
    return guarded(value) if isinstance(value, str) else str(value)


def _check_number(field: str, value: float) -> None:
    assert _DECIMAL.fullmatch(field), field
    assert (int(field) if isinstance(value, int) else float(field)) == value, (field, value)


def _check_calc_reads(written: str, columns: Sequence[str], rows: Sequence[Mapping[str, object]]) -> None:
    """What Calc reads from `written`: as many records and fields as were written, every text
    as written (less its NULs, rule b) with its guard, no text a formula and every number a
    number, under every setting."""
    records = calc_read(written)
    assert len(records) == 1 + len(rows), (written, records)
    assert all(len(record) == len(columns) for record in records), records
    for record, row in zip(records, [dict(zip(columns, columns, strict=True)), *rows], strict=True):
        for (field, quoted), column in zip(record, columns, strict=True):
            value = row.get(column)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _check_number(field, value)
                assert not quoted and all(calc_kind(field, quoted, *s) == "number" for s in SETTINGS)
                continue
            assert field == _expected_text(value).replace("\0", ""), (field, value)
            kinds = {calc_kind(field, quoted, *s) for s in SETTINGS}
            assert "formula" not in kinds, (field, value)


# --- the properties ----------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(tables())
def test_pythons_csv_reader_reads_back_what_was_written(drawn: tuple[list[str], list[dict[str, object]]]) -> None:
    """A round trip through Python's csv reader: one record per row plus the header, as many
    fields in each as there are columns, each text cell as written but for its guard, each
    number a plain decimal equal to the figure."""
    columns, rows = drawn
    written = table(columns, rows)
    assert written.endswith("\r\n")
    records = list(csv.reader(io.StringIO(written, newline="")))
    assert len(records) == 1 + len(rows) and all(len(record) == len(columns) for record in records), records
    assert records[0] == [guarded(column) for column in columns]
    for record, row in zip(records[1:], rows, strict=True):
        for field, column in zip(record, columns, strict=True):
            value = row.get(column)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                _check_number(field, value)
            else:
                assert field == _expected_text(value), (field, value)


@settings(max_examples=400, deadline=None)
@given(tables())
def test_calc_reads_no_formula_and_every_number_as_a_number(drawn: tuple[list[str], list[dict[str, object]]]) -> None:
    columns, rows = drawn
    _check_calc_reads(table(columns, rows), columns, rows)


@pytest.mark.parametrize(("text", "cell"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-3", "'-3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t1", "'\t1"), ("\r=1", "'\r=1"), ("\nx", "'\nx"), ("\0=1", "'\0=1"),  # always, whatever follows
    ("  =1", "'  =1"), (" \t-x", "' \t-x"), ("\x01@x", "'\x01@x"),  # a sign after spaces and controls
    ("a=1", "a=1"), ("1-2", "1-2"), (" a", " a"), ("中文=1", "中文=1"), ("'=1", "'=1"), ("", ""),
])
def test_the_guard(text: str, cell: str) -> None:
    assert guarded(text) == cell


def test_a_negative_figure_is_a_number_and_a_negative_text_is_text() -> None:
    """The one place the guard could cost something: a figure of -3.5 and one of -0.00001 are
    written bare, in decimal notation, and Calc reads them as numbers under every setting; the
    same characters in a text cell are guarded and stay text."""
    written = table(["n", "small", "t"], [{"n": -3.5, "small": -1e-05, "t": "-3.5"}])
    assert written == "n,small,t\r\n-3.5,-0.00001,'-3.5\r\n"
    _check_calc_reads(written, ["n", "small", "t"], [{"n": -3.5, "small": -1e-05, "t": "-3.5"}])


def test_a_bare_carriage_return_is_quoted_and_keeps_the_record_whole() -> None:
    written = table(["a", "b"], [{"a": "one\rtwo", "b": "x"}])
    assert written == 'a,b\r\n"one\rtwo",x\r\n'
    assert calc_read(written) == [[("a", False), ("b", False)], [("one\rtwo", True), ("x", False)]]


# --- the real command line ---------------------------------------------------------------------

HOSTILE_NAME = ' =HYPERLINK("http://example.org","点这里")'
HOSTILE_SUMMARY = '-2+3 第一行\n@SUM(1,2) 第二行，"引号", 逗号'


def test_build_writes_downloads_that_calc_reads_as_data(tmp_path: Path) -> None:
    """Hostile texts in a spec go through `python -m generator build`: in every data/*.csv it
    writes, Calc reads one record per entity (the JSON download's count), no formula under any
    setting, and the texts as written with their guard."""
    shutil.copytree(BASE, tmp_path / "specs")
    spec = tmp_path / "specs" / "networks" / "test-ib-hdr.yaml"
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    data["name"], data["summary"]["zh"] = HOSTILE_NAME, HOSTILE_SUMMARY
    spec.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--out", "out"], cwd=tmp_path,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    downloads = sorted((tmp_path / "out" / "data").glob("*.csv"))
    assert len(downloads) > 10
    for path in downloads:
        written = path.read_bytes().decode("utf-8")
        records = calc_read(written)
        entities = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        assert len(records) == 1 + len(entities), path.name
        assert {len(record) for record in records} == {len(records[0])}, path.name
        formulas = [field for record in records for field, quoted in record
                    if any(calc_kind(field, quoted, *s) == "formula" for s in SETTINGS)]
        assert formulas == [], (path.name, formulas)
    header, *rows = calc_read((tmp_path / "out" / "data" / "networks.csv").read_bytes().decode("utf-8"))
    hdr = dict(zip([field for field, _ in header], [field for field, _ in next(r for r in rows if r[0][0] == "test-ib-hdr")],
                   strict=True))
    assert hdr["name"] == "'" + HOSTILE_NAME and hdr["summary.zh"] == "'" + HOSTILE_SUMMARY
