"""What the command line prints goes through one escape (`render.escape.terminal`, applied to
standard output and error by generator/edge/output.py): no control character from a spec (an
ANSI escape that clears the screen, moves the cursor or retitles the window), bidi control or
lone surrogate reaches the terminal, in text or JSON output; each is shown as `\\uXXXX` instead,
and the rest is kept."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from kbgen import assemble, base_tree, retext
from support import ROOT

from generator.render.escape import terminal

ANSI = "\x1b[2J\x1b]0;pwned\x07\x9b31m\x7f\r\b"
# C0 but tab and newline, DEL, C1, bidi embeddings, overrides and isolates, surrogates.
_ESCAPED = {*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F),
            *range(0x2066, 0x206A), *range(0xD800, 0xE000)}
_AWKWARD = st.sampled_from([*ANSI, "\t", "\n", "\u202e", "\u2066", "\u200d", "\ud800", "\udcff", "\\", '"', "é", "选"])
_CHARACTERS = st.one_of(st.characters(), _AWKWARD, st.integers(0xD800, 0xDFFF).map(chr))


def _has_escaped(text: str) -> bool:
    return any(ord(ch) in _ESCAPED for ch in text)


def _unescape(text: str) -> str:
    return re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_CHARACTERS))
def test_terminal_escapes_what_a_terminal_acts_on(text: str) -> None:
    """Each escaped character becomes `\\uXXXX`, every other one is kept in place (undoing the
    escapes gives the text back when it had no backslash of its own), escaping twice changes
    nothing (a stream may be handed escaped text), and the output always encodes as UTF-8."""
    out = terminal(text)
    assert not _has_escaped(out)
    out.encode("utf-8")
    assert terminal(out) == out
    if "\\" not in text:
        assert _unescape(out) == text


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet=_CHARACTERS),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet=_CHARACTERS), inner,
                                                                                max_size=4), max_leaves=12))
def test_terminal_keeps_json_valid_and_exact(data: object) -> None:
    """JSON as the commands print it (`json.dumps` without ASCII escapes), escaped: no escaped
    character left, and it reads back to the same data, surrogates included (but a high one
    just before a low one, which JSON reads as the character the pair encodes; a file name's
    undecodable bytes are low surrogates only)."""
    printed = json.dumps(data, ensure_ascii=False, indent=2)
    assume(not re.search("[\ud800-\udbff][\udc00-\udfff]", printed))
    out = terminal(printed)
    assert not _has_escaped(out)
    assert json.loads(out) == data


def test_recommend_refuses_escape_sequences_in_specs(tmp_path: Path) -> None:
    """Every text of the fixture tree ends with escape sequences (YAML escapes in the files the
    command reads): text-control refuses each where it stands, so the command prints no spec
    text, and its report, text or JSON requested alike, holds none of their control characters."""
    for spec in assemble(retext(base_tree(), lambda limit: ("选型" + ANSI)[:limit])):
        target = tmp_path / spec.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(spec.raw)
    argv = [sys.executable, "-m", "generator", "recommend", "--specs", str(tmp_path / "specs"), "--gpus", "16",
            "--budget", "low", "--model-size", "70B", "--market", "test-restricted"]
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for extra in ([], ["--format", "json"]):
        done = subprocess.run([*argv, *extra], env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 1 and done.stdout == "", done.stdout[:300]
        assert "[text-control]" in done.stderr and "U+001B" in done.stderr
        assert not _has_escaped(done.stdout + done.stderr)
