"""Golden files: every generated page and data file, byte for byte. After an intended change,
refresh them with `pytest --update-goldens` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ROOT

from generator.render import render_site
from generator.specfiles import read_spec_tree
from generator.validate import validate

GOLDEN = ROOT / "tests" / "golden" / "site"


def _render() -> dict[str, str]:
    result = validate(read_spec_tree(Path("specs"))[0])
    assert result.kb is not None and result.figures is not None
    return {k: v for k, v in render_site(result.kb, result.figures).items() if not k.startswith("schema/")}


def test_generated_files_match_goldens(request: pytest.FixtureRequest) -> None:
    """Each generated file equals its golden copy, and no golden copy is orphaned."""
    files = _render()
    if request.config.getoption("--update-goldens"):
        for old in GOLDEN.rglob("*"):
            if old.is_file() and str(old.relative_to(GOLDEN)) not in files:
                old.unlink()
        for name, text in files.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_text(text, encoding="utf-8")
    stored = {str(p.relative_to(GOLDEN)) for p in GOLDEN.rglob("*") if p.is_file()}
    assert stored == set(files), "run `pytest --update-goldens` and review the diff"
    for name, text in files.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, f"{name} differs from its golden copy"


def test_rendering_is_deterministic() -> None:
    """Two renders of the same specs are identical."""
    assert _render() == _render()


def test_downloads_write_whole_numbers_without_a_decimal_point() -> None:
    """data/*.json and *.csv hold each figure's value as read; a whole number reads 80, not 80.0
    (the same JSON number), and a fraction keeps its digits."""
    import csv
    import json
    files = _render()
    gpus = {g["id"]: g for g in json.loads(files["data/gpus.json"])}
    a100 = gpus["a100-sxm4-80gb"]
    assert a100["memory"]["capacity"]["value"] == 80 and type(a100["memory"]["capacity"]["value"]) is int
    assert a100["compute"]["fp32"]["value"] == 19.5
    row = next(r for r in csv.DictReader(files["data/gpus.csv"].splitlines()) if r["id"] == "a100-sxm4-80gb")
    assert (row["memory.capacity.value"], row["compute.fp32.value"]) == ("80", "19.5")
