"""schema: one broken file does not bury the report. After `MAX_PER_FILE` diagnostics in one
file the rest are counted in one last diagnostic, at the first one left out: a file pasted with
the wrong indentation would otherwise print hundreds of lines that all say the same, and hide
the other files' problems. Applied by generator/validate.py to the sorted report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..diagnostics import Diagnostic, Rule, Severity
from .base import Check

MAX_PER_FILE = 50

TOO_MANY = Rule("schema-too-many-problems", "schema",
                f"每个文件最多列出 {MAX_PER_FILE} 条诊断，其余的合并成一条，写明还有多少条；其余的若全是警告，这一条也只是警告。")


def cap_per_file(diagnostics: Iterable[Diagnostic], limit: int = MAX_PER_FILE) -> tuple[Diagnostic, ...]:
    """The diagnostics, sorted and de-duplicated, at most `limit` per file plus one that counts
    the rest of that file's."""
    kept: list[Diagnostic] = []
    left_out: dict[str, list[Diagnostic]] = {}
    shown: dict[str, int] = {}
    for diagnostic in sorted(set(diagnostics)):
        if shown.get(diagnostic.path, 0) < limit:
            shown[diagnostic.path] = shown.get(diagnostic.path, 0) + 1
            kept.append(diagnostic)
        else:
            left_out.setdefault(diagnostic.path, []).append(diagnostic)
    for path, rest in left_out.items():
        first = rest[0]
        rules = sorted({d.rule for d in rest})
        count = TOO_MANY.at(path, first.line, first.col,
                            f"{len(rest)} more problem(s) in this file from here on ({', '.join(rules)}), not listed: "
                            f"only the first {limit} of a file are; fix these and check again")
        # As severe as the worst it stands for: a run of warnings must not become an error.
        if all(d.severity is Severity.WARNING for d in rest):
            count = replace(count, severity=Severity.WARNING)
        kept.append(count)
    return tuple(sorted(kept))


RULES = (TOO_MANY,)
CHECKS: tuple[Check, ...] = ()  # generator/validate.py caps the report
