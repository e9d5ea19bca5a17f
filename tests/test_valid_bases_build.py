"""Every knowledge base that passes `check` builds: generated variations of the fixture base (a
decision tree a thousand questions deep or hundreds of answers wide, texts at their length limit
full of markup and odd characters, odd variables, a scaling study with zero GPUs or a zero
single-GPU baseline (which check refuses: arithmetic-zero-divisor), copied entities, new vocabulary
values: a GPU from a new vendor with a new architecture, form factor, scale-up family and precision)
render without an exception, and a sample of them goes through a real `mkdocs build --strict`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from kbgen import (
    TOKENS,
    assemble,
    base_tree,
    copy_entity,
    deepen,
    knowledge_bases,
    leaf_anchors,
    new_vocabulary,
    retext,
    widen,
)
from support import fixture_project

from generator.pipeline import validate_and_render
from generator.validate import Result, SpecFile, validate

MKDOCS = str(Path(sys.executable).with_name("mkdocs"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
HOSTILE = "".join(TOKENS)


def _renders(rendered: tuple[Result, dict[str, str] | None]) -> dict[str, str]:
    """The pages of what `validate_and_render` gave, after checking it passed and that every leaf
    the chart links to has its section."""
    result, pages = rendered
    assert result.ok and pages is not None, [d.as_text() for d in result.diagnostics][:5]
    linked, present = leaf_anchors(pages["flowchart.md"])
    assert linked <= present, sorted(linked - present)[:5]  # every leaf the chart links to has its section
    return pages


# 40 generated bases: each validates and renders the whole site (about a second apiece, the leaf
# checks included); the slowest test of the suite at 80.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(knowledge_bases())
def test_every_base_that_passes_check_renders(files: list[SpecFile]) -> None:
    """A generated base either fails `check` or renders every page, each leaf with its section."""
    rendered = validate_and_render(files)  # validates once: a base that fails is not rendered
    assume(rendered[0].ok)
    _renders(rendered)


def _text(limit: int) -> str:
    return (HOSTILE * (limit // len(HOSTILE) + 1))[:limit]


SAMPLES = {
    "deep": lambda: assemble(deepen(base_tree(), "deep", 0, 1000)),
    "wide": lambda: assemble(widen(base_tree(), "wide", 0, list(range(1, 300)), 1)),
    "long-texts": lambda: assemble(retext(base_tree(), _text), [copy_entity("pitfalls", "long", _text)]),
    "new-vocabulary": lambda: assemble(base_tree(), [*new_vocabulary("mod", _text), *new_vocabulary("card", _text, mounting="card", memory=False)]),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_builds_with_mkdocs(tmp_path: Path, name: str) -> None:
    """A thousand questions deep, three hundred answers wide, every text at its limit: each
    passes `check` without a warning, and `mkdocs build --strict` builds it without a traceback."""
    files = SAMPLES[name]()
    _renders(validate_and_render(files))
    # A leaf holds no hardware, so no shape of tree gets a warning: the planner answers every
    # leaf, or says on its page why it cannot (no published workload in a narrow band).
    assert not validate(files).warnings, [d.as_text() for d in validate(files).warnings][:3]
    project = fixture_project(tmp_path, files)
    done = subprocess.run([MKDOCS, "build", "--strict"], cwd=project, env=ENV, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert (project / "site" / "flowchart" / "index.html").is_file()
