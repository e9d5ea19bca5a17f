"""`python -m generator recommend` prints spec text to a terminal: no control character from a
spec (an ANSI escape that clears the screen, moves the cursor or retitles the window) reaches it,
in text or JSON output, and the printable rest is kept."""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from kbgen import assemble, base_tree, retext

from generator.edge.recommend import run
from generator.render.escape import json_terminal, terminal
from generator.validate import validate

ANSI = "\x1b[2J\x1b]0;pwned\x07\x9b31m\x7f\r\b"
_CONTROL = {*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)}


def _has_control(text: str) -> bool:
    return any(ord(ch) in _CONTROL for ch in text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",))))
def test_terminal_keeps_printable_text_only(text: str) -> None:
    out = terminal(text)
    assert not _has_control(out)
    assert out == "".join(ch for ch in text if ord(ch) not in _CONTROL)
    assert json.loads(json_terminal(json.dumps(text, ensure_ascii=False))) == text
    assert not _has_control(json_terminal(json.dumps(text, ensure_ascii=False)))


def test_recommend_prints_no_escape_sequence_from_specs() -> None:
    """Every text of the fixture tree ends with escape sequences; the command's output (text and
    JSON) holds none of their control characters, and JSON still reads back the spec text."""
    files = assemble(retext(base_tree(), lambda limit: ("选型" + ANSI)[:limit]))
    result = validate(files)
    assert result.ok and result.kb is not None and result.figures is not None, \
        [d.as_text() for d in result.diagnostics][:3]
    argv = ["--gpus", "16", "--budget", "low", "--model-size", "70B", "--market", "test-restricted"]
    accuracy = {"statement": "选型" + ANSI, "runs": 0, "mean_abs_error": None}
    text = run(result.kb, result.figures, argv, "text", dt.date(2026, 12, 4), accuracy)
    assert "选型[2J" in text and not _has_control(text)
    raw = run(result.kb, result.figures, argv, "json", dt.date(2026, 12, 4), accuracy)
    assert not _has_control(raw)
    assert json.loads(raw)["title"].endswith(ANSI)
