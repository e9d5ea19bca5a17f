"""The CSV downloads (data/<kind>.csv), safe to open in a spreadsheet. Spec texts are hostile
input, and a spreadsheet reads a CSV file as more than data: a cell may run as a formula, and a
line break may end a record. Pure: records in, text out.

What a cell becomes, and why. Sources: OWASP "CSV Injection"; ASVS 4.0 V1.2.10; RFC 4180;
LibreOffice Calc's Text Import dialog (help page 00000208, "Opening and Saving Text CSV Files")
and its import code (sc/source/ui/docshell/impex.cxx, sc/source/ui/dbgui/asciiopt.cxx). The
Calc rules checked, each held by tests/test_hostile_csv.py's model of Calc's reader:

  (a) a record ends at CR, LF or CRLF outside a quoted field; a field that starts with the text
      delimiter (") runs to the matching one, taking separators and line breaks as text, and a
      doubled delimiter inside it is one quote;
  (b) NUL characters are removed from the data before the fields are read (fdo#57841);
  (c) "Trim spaces" removes spaces from both ends of a field;
  (d) with "Evaluate formulas" on (ScAsciiOptions' default), a field that starts with = is a
      formula; Calc's cell input also reads a leading + or - followed by an expression as one,
      and Excel a leading @;
  (e) with "Detect special numbers" off, only decimal numbers (digits, separators, a sign) are
      numbers, and with "Detect numbers in scientific notation" also off, 1e-05 is text.

So:
- Records end in CRLF (RFC 4180 §2.1), and a field that holds a CR, an LF, a comma or a quote is
  quoted, its quotes doubled (§2.6, §2.7): rule (a). Python's writer quotes a field that holds
  any character of the line terminator, so with CRLF a bare CR is quoted as well as an LF (with
  LF alone, a CR went out bare and split the record).
- A text cell that could start a formula gets a leading single quote (OWASP's neutralising
  prefix; the cell is then text, and shows the quote): one that starts with = + - or @ (d); one
  that starts with a tab or CR (OWASP, ASVS: Excel skips them before the sign), LF or NUL (b);
  and one whose first character after a run of spaces and controls (U+0000 to U+0020) is a sign
  (b, c).
- The header row is cells like any other.
- Numbers stay numbers: a figure is a number in the YAML, never a text, so a negative figure is
  written bare (-3.5) and reads back as a number; only text cells are guarded, so a text "-3"
  becomes '-3 and stays text. A float goes out in plain decimal notation (0.00001, not 1e-05),
  which is a number under every setting of (e).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from decimal import Decimal

FORMULA_SIGNS = frozenset("=+-@")
# Leading characters a spreadsheet skips or strips before it looks for a formula sign, or that
# OWASP and ASVS (V1.2.10) list as dangerous at the start of a cell whatever follows.
ALWAYS_GUARDED = frozenset("\t\r\n\0")
# Skipped before a sign: spaces (Calc's "Trim spaces"), NUL (removed by Calc), tab and CR (Excel),
# and the other controls up to U+0020 with them.
_SKIPPED = "".join(chr(code) for code in range(0x21))


def guarded(text: str) -> str:
    """`text` as a cell that no spreadsheet runs as a formula: with a leading single quote when it
    starts with a formula sign or a character that a spreadsheet skips before one."""
    if text[:1] in ALWAYS_GUARDED or text.lstrip(_SKIPPED)[:1] in FORMULA_SIGNS:
        return "'" + text
    return text


def plain_number(value: float) -> str:
    """A float in plain decimal notation, as short as its round trip allows (repr's digits)."""
    return format(Decimal(repr(value)), "f")


def cell(value: object) -> object:
    """What the writer gets for one value: a guarded text, a float in decimal notation, an int
    or a bool as it is, None for an empty cell."""
    if isinstance(value, str):
        return guarded(value)
    if isinstance(value, float):
        return plain_number(value)
    return value


def table(columns: Sequence[str], rows: Sequence[Mapping[str, object]]) -> str:
    """A header and one record per row (a column a row lacks is an empty cell), every cell made
    safe by `cell`, records ending in CRLF."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(column) for column in columns])
    for row in rows:
        writer.writerow([cell(row.get(column)) for column in columns])
    return out.getvalue()
