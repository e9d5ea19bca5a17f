"""Issue 13's hygiene findings, one test each where tests/invalid/ cannot say it alone: the build
date is read at the edge (SOURCE_DATE_EPOCH honoured), diagnostics are capped per file, and a
report line cannot be forged. The bad inputs themselves are in tests/invalid/ and
tests/hostile_tree.py; the whole list of findings is walked in tests/test_hostile_findings.py."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import BASE, ROOT, read_tree

from generator.edge.cli import build_date
from generator.validate import validate

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize(("epoch", "day"), [("0", dt.date(1970, 1, 1)), ("1764547200", dt.date(2025, 12, 1)),
                                            (" 1764633599 ", dt.date(2025, 12, 1))])
def test_build_date_honours_source_date_epoch(epoch: str, day: dt.date) -> None:
    assert build_date({"SOURCE_DATE_EPOCH": epoch}) == day


@pytest.mark.parametrize("epoch", ["", "soon", "-5", "1e9", "99999999999999999999"])
def test_build_date_falls_back_to_the_clock(epoch: str) -> None:
    """A missing or unusable SOURCE_DATE_EPOCH gives today (UTC), never an error."""
    before = dt.datetime.now(dt.UTC).date()
    assert before <= build_date({"SOURCE_DATE_EPOCH": epoch}) <= dt.datetime.now(dt.UTC).date()


def test_future_dates_judged_only_with_a_build_date() -> None:
    """The pure check judges dates against the date it is given, and none without one."""
    files = read_tree(BASE)
    assert validate(files, today=dt.date(2026, 12, 1)).ok
    assert validate(files).ok
    early = validate(files, today=dt.date(2026, 11, 29))
    assert not early.ok and {d.rule for d in early.diagnostics} == {"schema-future-date"}


def test_check_reads_the_build_date_from_the_environment(tmp_path: Path) -> None:
    """`check` on the fixture base passes today and fails, at every date, with a build date
    before the dates it holds: reproducible, whatever day it runs."""
    tree = tmp_path / "specs"
    shutil.copytree(BASE, tree)
    run = [sys.executable, "-m", "generator", "check", str(tree)]
    assert subprocess.run(run, env=ENV, capture_output=True, timeout=120).returncode == 0
    past = subprocess.run(run, env={**ENV, "SOURCE_DATE_EPOCH": "1700000000"}, capture_output=True, text=True,
                          timeout=120)
    assert past.returncode == 1 and "Traceback" not in past.stderr
    assert "last_verified is 2026-11-30, after the build date 2023-11-14 [schema-future-date]" in past.stderr


def test_cap_counts_the_rest_per_file() -> None:
    """At most the limit per file, plus one that counts the rest; other files are untouched."""
    from generator.load.schema_rules import UNKNOWN_KEY
    from generator.rules.diagnostic_cap import MAX_PER_FILE, TOO_MANY, cap_per_file
    many = [UNKNOWN_KEY.at("specs/gpus/a.yaml", line, 1, "x") for line in range(1, MAX_PER_FILE + 8)]
    few = [UNKNOWN_KEY.at("specs/gpus/b.yaml", line, 1, "x") for line in range(1, MAX_PER_FILE + 1)]
    capped = cap_per_file(many + few + few)
    by_file = {path: [d for d in capped if d.path == path] for path in ("specs/gpus/a.yaml", "specs/gpus/b.yaml")}
    assert len(by_file["specs/gpus/b.yaml"]) == MAX_PER_FILE
    assert len(by_file["specs/gpus/a.yaml"]) == MAX_PER_FILE + 1
    last = [d for d in by_file["specs/gpus/a.yaml"] if d.rule == TOO_MANY.id]
    assert len(last) == 1 and (last[0].line, last[0].col) == (MAX_PER_FILE + 1, 1)
    assert last[0].message.startswith("7 more problem(s)")


def test_the_count_of_left_out_warnings_is_a_warning() -> None:
    """The count is as severe as the worst diagnostic it stands for: warnings only, a warning
    (a knowledge base with many warnings still builds without --strict); any error, an error."""
    from generator.diagnostics import Severity
    from generator.load.schema_rules import UNKNOWN_KEY
    from generator.rules.diagnostic_cap import MAX_PER_FILE, TOO_MANY, cap_per_file
    from generator.rules.plausibility import PLAUSIBILITY as PLAUSIBLE
    warnings = [PLAUSIBLE.at("specs/gpus/a.yaml", line, 1, "w") for line in range(1, MAX_PER_FILE + 4)]
    assert PLAUSIBLE.severity is Severity.WARNING
    count = [d for d in cap_per_file(warnings) if d.rule == TOO_MANY.id]
    assert len(count) == 1 and count[0].severity is Severity.WARNING
    mixed = [*warnings, UNKNOWN_KEY.at("specs/gpus/a.yaml", MAX_PER_FILE + 9, 1, "e")]
    count = [d for d in cap_per_file(mixed) if d.rule == TOO_MANY.id]
    assert len(count) == 1 and count[0].severity is Severity.ERROR
