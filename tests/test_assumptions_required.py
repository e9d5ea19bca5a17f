"""No silent gaps: each assumption of the real knowledge base, deleted in turn, is named by
`model-assumption-missing` where its file would be, and every parameter the model knows has a
reader that requires it (so no parameter can be left out without a word)."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest
import yaml
from support import real_files

from generator.model.costs import PARAMETERS
from generator.rules.assumptions_required import READERS
from generator.validate import SpecFile, validate

_MEMO: dict[SpecFile, object] = {}
_ASSUMPTIONS = [f for f in real_files() if f.kind == "assumptions"]


def test_every_parameter_has_a_reader() -> None:
    """A parameter outside READERS could be deleted with nothing reported."""
    read = [p for parameters, _reads, _reader in READERS for p in parameters]
    assert sorted(read) == sorted(PARAMETERS) and len(read) == len(set(read))


@pytest.mark.parametrize("deleted", _ASSUMPTIONS, ids=lambda f: f.stem)
def test_deleting_an_assumption_is_an_error(deleted: SpecFile) -> None:
    """The real specs read every parameter (workloads, the tree's leaves, runs, experts), so each
    deletion is reported, at specs/assumptions/<parameter>.yaml:1:1, as an error."""
    parameter = yaml.safe_load(deleted.raw)["parameter"]
    files = [f for f in real_files() if f.path != deleted.path]
    result = validate(files, memo=_MEMO)  # type: ignore[arg-type]
    missing = [d for d in result.diagnostics if d.rule == "model-assumption-missing"]
    expected = str(PurePosixPath(deleted.path).parent / f"{parameter.replace('_', '-')}.yaml")
    assert [(d.path, d.line, d.col, d.severity.value) for d in missing] == [(expected, 1, 1, "error")]
    assert repr(parameter) in missing[0].message
    assert not result.passes(strict=False)
