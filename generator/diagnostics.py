"""Diagnostics: the one record every stage reports problems with, the rules that make them, and
the two output formats. The lowest layer of the generator: it imports nothing of it.

Stages never raise on bad user data; they return `Diagnostic` values. The CLI and the MkDocs
hook collect them all, sort them by file and position, and fail once at the end.

A `Rule` is declared once, as a module constant beside the code that checks it (the loader's
yaml-* and schema-* rules in generator/load/, the cross-entity rules in generator/rules/), with
its stable id, family and the sentence the site's rules page shows. Every diagnostic is made
through its rule object (`RULE.report(entity, path, message)`, or `RULE.at(file, line, col,
message)` where there is no entity yet), so an id is spelled in exactly one place and a misspelt
one is a NameError, not a silent new id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Protocol, get_args

# Where a value sits in a spec file's data: keys and list indexes from the top.
PathKey = str | int
DataPath = tuple[PathKey, ...]


@dataclass(frozen=True)
class Mark:
    line: int  # 1-based
    col: int  # 1-based

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


def quoted(text: str, keep: int = 24) -> str:
    """A value as a message repeats it: quoted whole when short, else its start and its length,
    so that a 301-digit flag or a pasted page does not become the message."""
    return repr(text) if len(text) <= keep else f"{text[:8]!r}… ({len(text)} characters)"


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


# The families in the order the rules page lists them.
Family = Literal["yaml", "schema", "refs", "units", "arithmetic", "claims", "tables", "tree", "model", "sources"]
FAMILIES: tuple[Family, ...] = get_args(Family)


class Located(Protocol):
    """What a rule reports at: a spec file's path and the position of any value in it (a loaded
    entity, generator.knowledge.Loaded)."""

    @property
    def path(self) -> str: ...

    def at(self, path: DataPath) -> Mark: ...


@dataclass(frozen=True)
class Rule:
    id: str  # stable kebab-case id, printed in brackets after each message
    family: Family
    zh: str  # what it checks, one sentence for the rules page
    # A warning flags what is probably, not certainly, wrong: it does not stop a build, but
    # `--strict` (CI, `make check`, `mkdocs build --strict`) counts it as an error.
    severity: Severity = Severity.ERROR
    # A consequence of gaps other rules name (a leaf the model cannot judge because a figure it
    # needs is missing or invalid): shown only once the knowledge base has no errors, so that a
    # contributor sees the cause first and not the same problem twice.
    after_errors: bool = False

    def report(self, entity: Located, path: DataPath, message: str) -> Diagnostic:
        """A diagnostic at the value `path` of `entity` (at its parent, if the value is missing)."""
        mark = entity.at(path)
        return Diagnostic(entity.path, mark.line, mark.col, self.id, message, self.severity)

    def at(self, file: str, line: int, col: int, message: str) -> Diagnostic:
        """A diagnostic at a position of a file that is not (yet) an entity."""
        return Diagnostic(file, line, col, self.id, message, self.severity)


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
