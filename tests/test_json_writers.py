"""No silent NaN: every JSON writer of the generator passes `allow_nan=False`, so that a value
that is not finite raises where it is written instead of printing `NaN` or `Infinity`, which
are not JSON (RFC 8259 §6) and which a browser's JSON.parse refuses. The cost model refuses a
configuration whose outputs are not finite before any writer sees one (costmodel/result.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from support import ROOT


def _dumps_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("dumps", "dump")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "json"):
                calls.append((str(Path(path).relative_to(ROOT)), node.lineno, node))
    return calls


def test_every_json_writer_refuses_nan() -> None:
    calls = _dumps_calls()
    assert len(calls) >= 10  # the writers exist: this scan finds them
    lax = [(file, line) for file, line, call in calls
           if not any(k.arg == "allow_nan" and isinstance(k.value, ast.Constant) and k.value.value is False
                      for k in call.keywords)]
    assert lax == []
