"""The fixture knowledge bases are sound and kept apart from the real one: the base passes
`generator check` on its own, and every fixture id starts with the reserved prefix `test-`, which
no real spec may use, so no edit of specs/ can ever collide with a fixture."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import BASE, FIXTURE_PREFIX, Case, golden_cases, invalid_cases, read_tree, real_files

from generator.edge.cli import run_check
from generator.load.parse import ParsedFile, parse_spec
from generator.model.common import SLUG_PATTERN
from generator.validate import SpecFile, validate

# `entity#figure` references, in claim operands and in prose ([[entity#figure unit]]).
_FIGURE_REF = re.compile(r"(?<![a-z0-9-])([a-z0-9]+(?:-[a-z0-9]+)*)#[a-z0-9_]")


def test_base_passes_check() -> None:
    """`generator check` accepts the fixture base as it is, without a single diagnostic."""
    result = run_check(BASE)
    assert result.ok and not result.diagnostics, [d.as_text() for d in result.diagnostics]


def _ids(files: list[SpecFile]) -> list[str]:
    """Every id a valid tree defines: entities, and the questions and leaves of decision trees.
    (References need no check of their own: a tree that passes resolves each one to these.)"""
    result = validate(files)
    assert result.ok and result.kb is not None, [d.as_text() for d in result.diagnostics]
    ids = [entity.id for entity in result.kb]
    for tree in result.kb.of_kind("selection"):
        ids += [node.id for node in (*tree.model.questions, *tree.model.leaves)]
    return ids


@pytest.mark.parametrize("root", [BASE, *(case / "specs" for case in golden_cases())],
                         ids=lambda p: str(p.relative_to(BASE.parents[2])))
def test_fixture_ids_carry_the_prefix(root: Path) -> None:
    """Every id of a fixture knowledge base starts with `test-`."""
    assert [i for i in _ids(read_tree(root)) if not i.startswith(FIXTURE_PREFIX)] == []


def _case_ids(case: Case) -> list[str]:
    if case.raw is None:  # a deletion: the file it deletes is the base's, which carries the prefix
        return [Path(case.target).stem]
    body = "".join(line for line in case.raw.decode("utf-8", "replace").splitlines(True) if not line.startswith("#"))
    ids = [Path(case.target).stem, *_FIGURE_REF.findall(body)]
    # The generator's own loader: it refuses the yaml-* cases (alias bombs, deep nesting) cheaply.
    parsed = parse_spec(case.target, case.raw)
    data = parsed.data if isinstance(parsed, ParsedFile) else None
    if data is not None and isinstance(data.get("id"), str) and re.match(SLUG_PATTERN, data["id"]):
        ids.append(data["id"])  # a malformed id (schema-id-*) is no id at all
    return ids


@pytest.mark.parametrize("case", invalid_cases(), ids=lambda c: c.name)
def test_invalid_cases_use_the_prefix(case: Case) -> None:
    """A bad spec's file, its id and the figures it names carry the prefix too (an id meant not
    to exist, like `test-roce-800g`, stays missing whatever specs/ adds)."""
    assert [i for i in _case_ids(case) if not i.startswith(FIXTURE_PREFIX)] == []


def test_real_specs_never_use_the_prefix() -> None:
    """The prefix is reserved: no real file or id starts with it."""
    files = list(real_files())
    assert [f.path for f in files if f.stem.startswith(FIXTURE_PREFIX)] == []
    assert [i for i in _ids(files) if i.startswith(FIXTURE_PREFIX)] == []
