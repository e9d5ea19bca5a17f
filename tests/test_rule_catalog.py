"""The rule catalog is assembled from the rule modules and is complete: every rule is declared
once, in a module of generator/rules/ that the catalog lists; every diagnostic the generator can
emit is made through a declared rule; and the rules page shows each rule with its documentation.
(Each declared rule also fails somewhere in tests/invalid/: see test_invalid_corpus.)"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

from support import ROOT, base_result

import generator
import generator.load
import generator.rules
from generator.diagnostics import FAMILIES, Rule
from generator.render import render_site
from generator.render.text import inert
from generator.rules.catalog import CHECKS, MODULES, RULES

_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")


def _declared() -> list[tuple[str, Rule]]:
    """(module, rule) for every Rule object a module of generator/rules/ or generator/load/ (the
    loader's own yaml-* and schema-* rules) holds as a constant, each object once, under the
    module that created it (an imported one is the same object)."""
    found: dict[int, tuple[str, Rule]] = {}
    infos = [*pkgutil.iter_modules(generator.rules.__path__, "generator.rules."),
             *pkgutil.iter_modules(generator.load.__path__, "generator.load.")]
    for info in infos:
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Rule) and id(value) not in found:
                found[id(value)] = (info.name, value)
    return list(found.values())


def test_every_rule_module_is_in_the_catalog() -> None:
    """Each module of generator/rules/ that declares a rule is one of the catalog's modules,
    and each of its rules is in its RULES tuple: a rule cannot be left out of the registry."""
    listed = {id(rule) for module in MODULES for rule in module.RULES}
    assert [(name, rule.id) for name, rule in _declared() if id(rule) not in listed] == []


def test_every_catalogued_rule_is_a_module_constant() -> None:
    """The other way round: each rule of the catalog is a constant of a module of generator/rules/
    (not written inline in a RULES tuple, where no check could name it). Two constants with one id
    cannot both be catalogued: the catalog refuses that at import."""
    declared = {id(rule) for _name, rule in _declared()}
    assert [rule.id for rule in RULES.values() if id(rule) not in declared] == []


def test_rule_ids_and_families() -> None:
    """Ids are kebab-case, families are the page's, and every rule has its sentence."""
    for rule in RULES.values():
        assert _KEBAB.match(rule.id), rule.id
        assert rule.family in FAMILIES, rule
        assert rule.zh.strip().endswith("。"), rule.id


def test_checks_are_named_for_their_invariant() -> None:
    """Registered checks are functions named check_<invariant>, each registered once."""
    names = [check.__name__ for check in CHECKS]
    assert all(name.startswith("check_") for name in names), names
    assert len(set(names)) == len(names)


def _diagnostic_constructions() -> list[str]:
    """file:line of every `Diagnostic(...)` call in generator/ outside the Rule record (generator/diagnostics.py)."""
    calls = []
    for path in sorted(Path(generator.__file__).parent.rglob("*.py")):
        if path.relative_to(ROOT).as_posix() == "generator/diagnostics.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Diagnostic":
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return calls


def test_every_emitted_id_is_declared() -> None:
    """Only a Rule makes a Diagnostic: no stage spells an id as a string. (That every id the
    invalid corpus produces is catalogued follows from test_invalid_corpus: each case produces
    exactly the ids its header states, and those are catalogued rules.)"""
    assert _diagnostic_constructions() == []


def test_rules_page_documents_every_rule() -> None:
    """The rules page has one row per rule, anchored by its id, with its id, its severity and its
    sentence, under its family's heading, and counts them all."""
    result = base_result()
    assert result.kb is not None and result.figures is not None
    page = render_site(result.kb, result.figures)["rules.md"]
    assert f"共有 {len(RULES)} 条规则" in page
    rows = re.findall(r'<tr id="rule-([a-z0-9-]+)">(.*?)</tr>', page, re.DOTALL)
    assert [rule_id for rule_id, _cells in rows] == [r.id for f in FAMILIES for r in RULES.values() if r.family == f]
    for rule_id, cells in rows:
        rule = RULES[rule_id]
        assert f"<code>{rule.id}</code>" in cells and str(inert(rule.zh)) in cells, rule_id
        assert f"<td>{ {'error': '错误', 'warning': '警告'}[rule.severity.value]}</td>" in cells, (rule_id, cells)
    headings = re.findall(r"^## .* \{ #([a-z]+) \}$", page, re.MULTILINE)
    assert headings[: len(FAMILIES)] == list(FAMILIES)
