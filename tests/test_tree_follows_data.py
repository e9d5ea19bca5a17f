"""The tree's answers follow the data: a copy of the real specs gets a new published workload, a
new GPU and a new market ruling, by YAML alone. The flowchart, the tiers page and the
questionnaire's data change with them, `check --strict` still passes (no rule judges a leaf
against the hardware), and the strict site build succeeds."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import yaml
from support import copy_project, real_pages

from generator.edge.specfiles import read_spec_tree
from generator.estimates.records import shape_parameters
from generator.model.costs import Workload
from generator.pipeline import validate_and_render
from tools.sitekit import build_site

GPU = "aa-test-gpu"  # sorts before every real id: on a tie with its original it is the answer
WORKLOAD = "test-llama-3-1-70b-deeper"
RULING = "test-ruling"


def _pages(specs: Path) -> dict[str, str]:
    files, problems = read_spec_tree(specs)
    assert not problems
    result, pages = validate_and_render(files)
    assert result.passes(strict=True) and pages is not None, [d.as_text() for d in result.diagnostics][:5]
    return pages


def _edit(specs: Path) -> tuple[str, str, str]:
    """Add the workload, the GPU and the ruling; return their names as the pages show them."""
    # A deeper Llama 3.1 70B (still under 100B): the 20-100B branches' largest published model.
    workload = yaml.safe_load((specs / "workloads" / "llama-3-1-70b.yaml").read_text(encoding="utf-8"))
    workload.update(id=WORKLOAD, name="Test Llama 3.1 70B, 100 layers", layers=100)
    shaped = Workload.model_validate({**workload, "parameters": 1})
    workload["parameters"] = int(shape_parameters(shaped))
    (specs / "workloads" / f"{WORKLOAD}.yaml").write_text(yaml.safe_dump(workload, allow_unicode=True), encoding="utf-8")
    # A copy of the fastest module GPU under a new id and family: sold by default in the open market.
    best = yaml.safe_load((specs / "gpus" / "mi355x-oam.yaml").read_text(encoding="utf-8"))
    best.update(id=GPU, family=GPU, name="Test GPU X (OAM)")
    (specs / "gpus" / f"{GPU}.yaml").write_text(yaml.safe_dump(best, allow_unicode=True), encoding="utf-8")
    # A ruling that lets the China market buy it, appended to the file as a contributor writes it:
    # its answers there change too.
    china = specs / "markets" / "china.yaml"
    market = yaml.safe_load(china.read_text(encoding="utf-8"))
    assert list(market)[-1] == "rulings"  # the list ends the file: a ruling appended joins it
    first = market["rulings"][0]
    with china.open("a", encoding="utf-8") as out:
        out.write(f"  - key: {RULING}\n    title: {{zh: \"测试规则：Test GPU X 可以购买\", en: \"Test rule: Test GPU X is available\"}}\n    items: [{GPU}]\n"
                  f"    status: available\n    since: {first['since']}\n    source: {first['source']}\n"
                  f"    where: \"test\"\n    note: {{zh: \"测试用的规则。\", en: \"A rule for the test.\"}}\n")
    return workload["name"], best["name"], market["short_name"]["zh"]


def test_yaml_alone_moves_the_answers_and_everything_still_passes(tmp_path: Path) -> None:
    project = copy_project(tmp_path)
    specs = project / "specs"
    before = real_pages()  # the copy's specs are the real ones, rendered once per test process
    workload_name, gpu_name, china = _edit(specs)
    after = _pages(specs)

    assert before["flowchart.md"] != after["flowchart.md"]
    chart = after["flowchart.md"]
    assert f"例：{workload_name}" in chart  # the new largest model of its band is the branches' example
    answers = re.findall(r"<text[^>]*>([^<]*)</text>", chart)
    assert any(gpu_name.split(" (")[0] in line for line in answers), "the new GPU answers no branch"
    assert any(line.startswith(f"{china}：") and "Test GPU X" in line for line in answers), \
        "the new ruling changed no China answer"
    assert before["tiers.md"] != after["tiers.md"] and workload_name in html.unescape(after["tiers.md"])
    tree = json.loads(after["data/tree.json"])
    assert WORKLOAD in [w["id"] for w in tree["workloads"]]
    data = json.loads(after["data/costmodel.json"])
    assert GPU in [g["id"] for g in data["gpus"]]
    china_standings = next(m for m in data["planner"]["markets"] if m["id"] == "china")["standings"]
    assert china_standings[GPU]["status"] == "available"

    done = build_site(project / "site", project)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Test GPU X" in (project / "site" / "flowchart" / "index.html").read_text(encoding="utf-8")
