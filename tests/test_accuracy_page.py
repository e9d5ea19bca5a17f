"""The accuracy page says in the reader's language why a run could not be expressed: every reason
`estimates.runs` gives has a Chinese and an English sentence (`render.accuracy.REASONS`), and a
reason no pattern knows is shown as written, marked as English on the Chinese page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.language import speaking
from generator.render.accuracy import REASONS, _reason

RUNS = Path(__file__).resolve().parents[1] / "generator" / "estimates" / "runs.py"
# What an f-string's placeholders stand for in a sample reason.
SAMPLES = {"metric": "tflops_per_gpu", "fields": "precision, expert_routing", "number": "12"}
# Reasons the knowledge base cannot give once it validates (its references are checked), and the
# one that quotes the cost model's own refusal, which is shown as written.
UNTRANSLATED = ("unknown workload", "unknown GPU", "the run leaves ")


def _sample(node: ast.expr) -> str:
    """A reason as runs.py writes it, its placeholders filled with sample values."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.BinOp):  # ("a" if x else "b") + ": ..." : the first branch
        left = node.left.body if isinstance(node.left, ast.IfExp) else node.left
        return _sample(left) + _sample(node.right)
    assert isinstance(node, ast.JoinedStr)
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        else:
            code = ast.unparse(value)
            parts.append(SAMPLES["metric"] if "metric" in code else SAMPLES["fields"] if "join" in code
                         else SAMPLES["number"])
    return "".join(parts)


def _reasons() -> list[str]:
    """Every reason string a `return` of runs.py gives (not the numbers its formulas return)."""
    found = []
    for node in ast.walk(ast.parse(RUNS.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Return) and isinstance(node.value, (ast.Constant, ast.JoinedStr, ast.BinOp)):
            if isinstance(node.value, ast.Constant) and not isinstance(node.value.value, str):
                continue
            if isinstance(node.value, ast.BinOp) and not isinstance(node.value.left, (ast.IfExp, ast.Constant)):
                continue  # a formula
            text = _sample(node.value)
            if "(fastest of" in text or text.startswith(UNTRANSLATED):
                continue  # a choice the model made, not a reason; or see UNTRANSLATED
            found.append(text)
    return sorted(set(found))


def test_the_reasons_are_found() -> None:
    """The scan sees the reasons (it would pass vacuously on a file it could not read)."""
    reasons = _reasons()
    assert "the run spans nodes but names no network" in reasons
    assert "tflops_per_gpu names no FLOP convention" in reasons
    assert len(reasons) >= 12


@pytest.mark.parametrize("why", _reasons())
def test_every_reason_is_said_in_both_languages(why: str) -> None:
    assert any(pattern.fullmatch(why) for pattern, _zh, _en in REASONS), why
    with speaking("zh"):
        zh = str(_reason(why))
    with speaking("en"):
        en = str(_reason(why))
    assert 'lang="en"' not in zh and re.search(r"[\u4e00-\u9fff]", zh), zh
    assert not re.search(r"[\u4e00-\u9fff]", en), en
    # field and metric names are shown as words, not as the schema's identifiers
    assert "_" not in zh and "_" not in en, (zh, en)


def test_a_reason_no_pattern_knows_is_shown_as_written() -> None:
    """A refusal of the cost model itself: escaped, and marked English on the Chinese page."""
    why = "48 heads do not divide the hidden size <7168>"
    with speaking("zh"):
        assert str(_reason(why)) == '<span lang="en">48 heads do not divide the hidden size &lt;7168&gt;</span>'
    with speaking("en"):
        assert str(_reason(why)) == "48 heads do not divide the hidden size &lt;7168&gt;"
