"""Golden files: each tests/golden/<case>/ holds a small knowledge base (specs/) and, beside it,
every file the site generates from it (expected/: the pages, the data downloads and the flowchart
SVG), byte for byte. The cases are fixtures, so an edit of the real specs/ never touches them
(test_real_specs checks the real site's structure instead). After an intended change of the
output, run `pytest --update-goldens` (it rewrites expected/ and deletes files no longer
generated) and review the diff. A new case is a new folder with a specs/ tree; run the switch
once to create its expected/. A case may name a repository in repository.txt: its entities then
link to their spec files there, as on the published site."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from support import base_result, golden_cases, read_tree

from generator.render import render_site
from generator.render.context import Site
from generator.render.selection import flowchart_svg
from generator.repository import Repository
from generator.validate import validate


def render_case(specs: Path) -> dict[str, str]:
    """Every generated file of a case (JSON Schemas aside: they come from the model, not the
    specs), plus flowchart.svg when the case has a decision tree."""
    result = validate(read_tree(specs))
    assert result.ok and result.kb is not None and result.figures is not None, \
        [d.as_text() for d in result.diagnostics]
    named = specs.parent / "repository.txt"
    repository = Repository(named.read_text(encoding="utf-8").strip()) if named.exists() else None
    files = {k: v for k, v in render_site(result.kb, result.figures, repository).items() if not k.startswith("schema/")}
    for tree in result.kb.of_kind("selection")[:1]:  # one tree at most (rule tree-single)
        files["flowchart.svg"] = str(flowchart_svg(Site(result.kb, result.figures), tree.model)) + "\n"
    return files


def _stored(expected: Path) -> set[str]:
    return {str(p.relative_to(expected)) for p in expected.rglob("*") if p.is_file()}


@pytest.mark.parametrize("case", golden_cases(), ids=lambda p: p.name)
def test_generated_files_match_goldens(case: Path, request: pytest.FixtureRequest) -> None:
    """Each generated file equals its expected copy, and no expected copy is orphaned."""
    files = render_case(case / "specs")
    expected = case / "expected"
    if request.config.getoption("--update-goldens"):
        for name in _stored(expected) - set(files):
            (expected / name).unlink()
        for name, text in files.items():
            (expected / name).parent.mkdir(parents=True, exist_ok=True)
            (expected / name).write_bytes(text.encode("utf-8"))  # byte for byte: CSV records end in CRLF
    assert _stored(expected) == set(files), "run `pytest --update-goldens` and review the diff"
    for name, text in files.items():
        assert (expected / name).read_bytes().decode("utf-8") == text, f"{name} differs from its golden copy"


def test_there_are_golden_cases() -> None:
    """The parametrised test above runs on something (an empty glob would pass silently)."""
    assert len(golden_cases()) >= 2


def test_downloads_write_whole_numbers_without_a_decimal_point() -> None:
    """data/*.json and *.csv hold each figure's value as read; a whole number reads 80, not 80.0
    (the same JSON number), and a fraction keeps its digits."""
    result = base_result()
    assert result.kb is not None and result.figures is not None
    files = render_site(result.kb, result.figures)
    gpus = {g["id"]: g for g in json.loads(files["data/gpus.json"])}
    a100 = gpus["test-a100-sxm4"]
    assert a100["memory"]["capacity"]["value"] == 80 and type(a100["memory"]["capacity"]["value"]) is int
    assert a100["compute"]["fp32"]["value"] == 19.5
    row = next(r for r in csv.DictReader(files["data/gpus.csv"].splitlines()) if r["id"] == "test-a100-sxm4")
    assert (row["memory.capacity.value"], row["compute.fp32.value"]) == ("80", "19.5")
