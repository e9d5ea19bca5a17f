"""The generator's imports go one way: each module imports only modules of its own layer or of
layers below it, and no two modules import each other, directly or around a loop. Read from the
source with `ast`, so imports inside functions and under `TYPE_CHECKING` count as well."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

GENERATOR = Path(__file__).resolve().parent.parent / "generator"

# Bottom to top. A module belongs to the first layer with a prefix that names it or its package.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("language",),  # the language a render writes in: read by every layer that writes words
    ("diagnostics", "units", "labels", "charsets", "repository", "strict_json"),
    ("figure_refs", "figure_text", "markdown_scan"),
    ("load",),
    ("model",),
    ("knowledge",),
    ("build", "spec_schema"),
    ("figures", "derive", "provenance", "figure_format"),
    ("costmodel",),
    ("estimates",),
    ("planner",),
    ("selection",),
    ("rules",),
    ("validate",),
    ("render",),
    ("pipeline",),
    ("edge", "__main__"),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(GENERATOR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(GENERATOR.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def _imported(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The generator modules an import statement of module `name` loads. A package's `__init__`
    counts too, since importing generator.a.b runs generator/a/__init__.py first, except for a
    package that holds `name` itself: that one has already run."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        if node.level:
            base = name.split(".") if _is_package(name) else name.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules() else module
                   for alias in node.names]
    loaded: set[str] = set()
    for target in targets:
        parts = target.split(".")
        for i in range(2, len(parts) + 1):  # generator itself is empty: not an edge
            prefix = ".".join(parts[:i])
            if prefix in modules() and (i == len(parts) or not name.startswith(prefix + ".")):
                loaded.add(prefix)
    loaded.discard(name)
    return loaded


@cache
def graph() -> dict[str, frozenset[str]]:
    edges = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found |= _imported(name, node)
        edges[name] = frozenset(found)
    return edges


def layer_of(name: str) -> int:
    rest = name.removeprefix("generator.")
    for index, prefixes in enumerate(LAYERS):
        if any(rest == p or rest.startswith(p + ".") for p in prefixes):
            return index
    raise AssertionError(f"{name} is in no layer of LAYERS: add it where it belongs")


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read() -> None:
    """The reader sees the imports it must judge: a module with known imports has them."""
    assert len(modules()) > 100
    assert "generator.diagnostics" in graph()["generator.validate"]
    assert "generator.costmodel" in graph()["generator.estimates.records"]


def test_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_cycles_are_found() -> None:
    """The cycle finder finds a loop of three and leaves a chain alone."""
    loop = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert cycles(loop) == [["a", "b", "c"]]
    assert cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_every_module_has_a_layer() -> None:
    for name in modules():
        if name != "generator":
            layer_of(name)


def test_imports_go_down() -> None:
    upward = sorted(f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
                    for name, targets in graph().items() if name != "generator"
                    for target in targets if layer_of(target) > layer_of(name))
    assert upward == []


@pytest.mark.parametrize(("package", "allowed"), [
    ("generator.costmodel", ("generator.costmodel",)),
    ("generator.load", ("generator.load", "generator.diagnostics")),
])
def test_package_imports_only(package: str, allowed: tuple[str, ...]) -> None:
    """The cost model imports nothing of the generator; the loader only the diagnostics (and so
    nothing of generator/rules/)."""
    outside = sorted(f"{name} imports {target}" for name, targets in graph().items()
                     if name == package or name.startswith(package + ".")
                     for target in targets
                     if not any(target == a or target.startswith(a + ".") for a in allowed))
    assert outside == []
