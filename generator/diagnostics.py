"""Diagnostics: the one record every stage reports problems with, and its two output formats.

Stages never raise on bad user data; they return `Diagnostic` values. The CLI and the MkDocs
hook collect them all, sort them by file and position, and fail once at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

# Characters that would let a file name or a message forge or hide part of a report: line
# breaks and other controls (C0, DEL, C1, U+2028/2029), bidi controls and zero-width characters.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def printable(text: str) -> str:
    """`text` with every character of `_UNPRINTABLE` written as an escape (`\\n`, `\\u202e`), so
    that one diagnostic is always one line that reads as what it is."""
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char)
    return named or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A problem at a 1-based line and column of a spec file, tagged with a stable rule id."""

    path: str
    line: int
    col: int
    rule: str
    message: str
    severity: Severity = Severity.ERROR

    def as_text(self) -> str:
        return f"{printable(self.path)}:{self.line}:{self.col}: {self.severity.value}: {printable(self.message)} [{self.rule}]"

    def as_github(self) -> str:
        # GitHub workflow commands need '%', CR and LF escaped in the message, and also ',' and ':'
        # in properties; see "Workflow commands for GitHub Actions".
        message = _gh_escape(f"{self.message} [{self.rule}]")
        path = _gh_escape(self.path, prop=True)
        return (
            f"::{self.severity.value} file={path},line={self.line},col={self.col},"
            f"title={self.rule}::{message}"
        )


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def format_all(diagnostics: Iterable[Diagnostic], fmt: str = "text") -> str:
    """Sorted, de-duplicated report in `text` (gcc style) or `github` (annotation) format."""
    ordered = sorted(set(diagnostics))
    if fmt == "github":
        return "\n".join(d.as_github() for d in ordered)
    return "\n".join(d.as_text() for d in ordered)
