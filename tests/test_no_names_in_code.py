"""Nothing in generator/ names a product, a vendor, an architecture or a form factor of the
knowledge base, and no code names a scale-up link family or a network family: those are data
(specs/ and its vocabulary folders), so adding one never takes a Python edit. Every string
constant of the package's code and every word of its templates is compared with the ids (and GPU
names and families) of the real knowledge base.

Precisions are left out on purpose: the cost model's training formats (BF16 weights, FP8
activations) are workload settings with their byte sizes, not the throughput vocabulary. Page
prose in templates may name a network family ("InfiniBand、RoCE 与以太网" in a page title)."""

from __future__ import annotations

import ast
import re

from support import ROOT, real_result

from generator.model.entities import Gpu

GENERATOR = ROOT / "generator"
NAMED = ("vendors", "architectures", "form-factors", "gpus", "nodes", "nics")  # neither code nor templates
FAMILIES = ("scale-up-families", "network-families")  # not in code
# Interconnect entities are typed by their standard (`type: pcie | nvlink | nvswitch`, each with its
# own arithmetic): these discriminators are model vocabulary, not a named vocabulary value, and the
# NVLink family of scale-up links shares the word. Nothing else may appear.
INTERCONNECT_TYPES = {"pcie", "nvlink", "nvswitch"}


def _names(kinds: tuple[str, ...]) -> set[str]:
    kb = real_result().kb
    assert kb is not None
    names = {e.id for kind in kinds for e in kb.of_kind(kind)}
    for gpu in kb.of_type(Gpu) if "gpus" in kinds else []:
        names |= {gpu.model.family, gpu.model.name.lower()}
    assert names, "no vocabulary in the real knowledge base"
    return names - INTERCONNECT_TYPES


def _code_strings() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in GENERATOR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found.setdefault(str(path.relative_to(ROOT)), set()).add(node.value.lower())
    return found


def test_no_vocabulary_value_in_generator_code() -> None:
    names = _names(NAMED + FAMILIES)
    hits = {path: sorted(strings & names) for path, strings in _code_strings().items() if strings & names}
    assert not hits, hits


def test_no_vocabulary_value_in_templates() -> None:
    names = _names(NAMED)
    hits = {}
    for path in (GENERATOR / "templates").glob("*.j2"):
        words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", path.read_text(encoding="utf-8").lower()))
        if words & names:
            hits[path.name] = sorted(words & names)
    assert not hits, hits
