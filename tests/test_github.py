"""The pull-request workflow and the contributor templates: GitHub Actions cannot run here, so
their YAML is loaded and held to what they promise (tests, diff table, preview, the fields a
new-hardware report must give)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from support import ROOT

GITHUB = ROOT / ".github"


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def steps() -> list[dict[str, Any]]:
    workflow = load(GITHUB / "workflows" / "pr.yml")
    assert workflow[True] == {"pull_request": None}  # YAML 1.1 reads the key `on` as true
    assert workflow["permissions"] == {"contents": "read"}
    (job,) = workflow["jobs"].values()
    result: list[dict[str, Any]] = job["steps"]
    return result


def test_pr_workflow_runs_the_tests_posts_the_diff_and_uploads_the_site() -> None:
    """.ci/run, the annotations (strict: a plausibility warning fails too), the diff into the job
    summary, a strict build uploaded as an artifact; `make test` and `make check` check strictly."""
    runs = "\n".join(step.get("run", "") for step in steps())
    assert re.search(r"^\.ci/run$", runs, re.MULTILINE)
    assert "generator check --format github --strict specs" in runs
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("check", "test"):
        recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
        assert recipe and "-m generator check --strict specs" in recipe.group(1), target
    assert 'generator diff "origin/$BASE_REF" HEAD >> "$GITHUB_STEP_SUMMARY"' in runs
    assert "mkdocs build --strict --site-dir site-preview" in runs
    checkout = next(step for step in steps() if step.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    upload = next(step for step in steps() if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["uses"] == "actions/upload-artifact@v4"
    assert (upload["with"]["name"], upload["with"]["path"]) == ("site-preview", "site-preview/")


def test_no_expression_inside_a_script() -> None:
    """`${{ }}` is pasted into a script before it runs: values reach scripts through env only."""
    assert all("${{" not in step.get("run", "") for step in steps())


def form(name: str) -> dict[str, dict[str, Any]]:
    body = load(GITHUB / "ISSUE_TEMPLATE" / name)["body"]
    fields = {item["id"]: item for item in body if "id" in item}
    assert all(re.fullmatch(r"[a-z_]+", field_id) for field_id in fields)
    assert len(fields) == len([item for item in body if "id" in item])
    return fields


def required(fields: dict[str, dict[str, Any]]) -> set[str]:
    return {field_id for field_id, item in fields.items() if item.get("validations", {}).get("required")}


def test_new_hardware_form_asks_for_the_datasheet_direction_and_date() -> None:
    """Product, vendor, variant, datasheet URL, figures, direction and reading date are required."""
    fields = form("new-hardware.yml")
    assert {"product", "vendor", "variant", "datasheet_url", "figures", "direction", "read_date"} <= required(fields)
    options = fields["direction"]["attributes"]["options"]
    assert any("per_direction" in option for option in options) and any("bidirectional" in option for option in options)


def test_data_error_form() -> None:
    """Which figure, what the site says, what the source says and the source URL are required."""
    assert {"figure", "site_says", "source_says", "source_url"} <= required(form("data-error.yml"))
    assert isinstance(load(GITHUB / "ISSUE_TEMPLATE" / "config.yml")["blank_issues_enabled"], bool)


def test_pull_request_template_checklist() -> None:
    """Source URL, direction and scope, retrieved date, make test, the diff table: each a checkbox."""
    items = [line for line in (GITHUB / "pull_request_template.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("- [ ] ")]
    for needle in ("URL", "direction", "scope", "retrieved", "make test", "generator diff"):
        assert any(needle in item for item in items), needle
