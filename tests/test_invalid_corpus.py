"""Every file in tests/invalid/ produces exactly the diagnostics its header states, against the
frozen fixture knowledge base (tests/fixtures/base/specs/) with that one file replaced or added:
what the real specs/ say never changes a case's outcome."""

from __future__ import annotations

import hostile_tree
import pytest
from support import Case, invalid_cases, validate_with

from generator.diagnostics import Severity
from generator.rules.catalog import RULES


@pytest.mark.parametrize("case", invalid_cases(), ids=lambda c: c.name)
def test_invalid_case(case: Case) -> None:
    """The bad spec fails with exactly the stated file:line:col and rule ids, each diagnostic at
    its rule's severity; a case that expects only warnings still validates, but not strictly."""
    result = validate_with(case.target, case.raw)
    warnings_only = all(RULES[rule].severity is Severity.WARNING for (_p, _l, _c, rule) in case.expected)
    assert result.ok == warnings_only
    assert not result.passes(strict=True)
    assert all(d.severity is RULES[d.rule].severity for d in result.diagnostics)
    got = {(d.path, d.line, d.col, d.rule) for d in result.diagnostics}
    assert got == case.expected, "\n".join(d.as_text() for d in result.diagnostics)
    for rule, text in case.texts:
        messages = [d.message for d in result.diagnostics if d.rule == rule]
        assert any(text in m for m in messages), (text, messages)


def test_every_rule_has_a_failing_case() -> None:
    """Each catalogued rule is shown failing by at least one fixture (or, for what only a file
    system can hold, by a case of tests/hostile_tree.py)."""
    covered = {rule for case in invalid_cases() for (_p, _l, _c, rule) in case.expected} | hostile_tree.RULES
    assert covered <= set(RULES)
    missing = sorted(set(RULES) - covered)
    assert not missing, f"rules without a failing fixture in tests/invalid/: {missing}"
