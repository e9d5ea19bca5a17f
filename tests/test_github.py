"""The GitHub files, held to what GitHub needs of them (the workflows cannot run here, and what
they say is not restated): no workflow pastes an expression into a script, and every issue form
is one GitHub can show."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from support import ROOT

GITHUB = ROOT / ".github"


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_no_expression_inside_a_script() -> None:
    """`${{ }}` is pasted into a script before it runs (a branch name can then run as code):
    values reach scripts through env only, in every step of every workflow."""
    scripts = {f"{path.name}:{job}:{step.get('name', i)}": step.get("run", "")
               for path in sorted((GITHUB / "workflows").glob("*.yml"))
               for job, body in load(path)["jobs"].items() for i, step in enumerate(body["steps"])}
    assert any(scripts.values()), "no workflow step runs a script"
    assert [where for where, script in scripts.items() if "${{" in script] == []


def test_issue_forms_are_well_formed() -> None:
    """Each issue form has a body whose field ids are unique (GitHub refuses a form otherwise) and
    lower-case words, and the chooser's config says whether blank issues are allowed."""
    forms = [path for path in sorted((GITHUB / "ISSUE_TEMPLATE").glob("*.yml")) if path.name != "config.yml"]
    assert forms, "no issue form"
    for path in forms:
        ids = [item["id"] for item in load(path)["body"] if "id" in item]
        assert ids and len(set(ids)) == len(ids), path.name
        assert all(re.fullmatch(r"[a-z_]+", field_id) for field_id in ids), path.name
    assert isinstance(load(GITHUB / "ISSUE_TEMPLATE" / "config.yml")["blank_issues_enabled"], bool)
