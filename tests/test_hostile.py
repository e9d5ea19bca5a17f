"""Hostile and broken specs: markup in every text field comes out inert, random mutations of the
real specs never raise, and huge inputs are refused cheaply (a failed build keeping the old site is
tests/test_site_atomic.py). What the real specs say does not matter here, only that they are valid."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import REPOSITORY, ROOT, copy_project, parse_pages, real_files

from generator.model.common import MAX_TEXT
from generator.validate import Built, SpecFile, validate
from tools.sitekit import build_site

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
PAYLOAD = ('<script>alert("x")</script><img src=x onerror=alert(1)> [click](javascript:alert(1)) '
           '"\'><svg onload=alert(1)> &amp; ]]> {{ 7*7 }} {% raw %} <!-- *bold* _em_ `code` #hash ==mark==')
SHORT = "<b onclick=x>&'\"</b><script>y</script>"  # for fields limited to a few dozen characters
TEXT_KEYS = {"zh", "en"}
SHORT_KEYS = {"name", "title", "publisher", "said", "command"}
SHORT_LIMIT = 80  # the tightest limit among SHORT_KEYS (a tier row's `said`, an encoding's name)


def _poisoned(value: str, payload: str, limit: int) -> str:
    """`value` with `payload` appended, cut to the field's limit: a valid spec stays valid
    whatever the length of its texts."""
    return value[: max(0, limit - len(payload))] + payload


def _poison(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (_poisoned(v, " " + PAYLOAD, MAX_TEXT) if k in TEXT_KEYS and isinstance(v, str) else
                    _poisoned(v, SHORT, SHORT_LIMIT) if k in SHORT_KEYS and isinstance(v, str) else _poison(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_poison(v) for v in node]
    return node


class Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.hrefs: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.handlers += [f"<{tag} {k}>" for k in a if k.lower().startswith("on")]
        if tag == "script":
            self._in_script = True
            self.scripts.append(f"src={a.get('src')}")
        for key in ("href", "src", "xlink:href", "action", "formaction"):
            if a.get(key):
                self.hrefs.append(str(a[key]))

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False if tag == "script" else self._in_script

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.scripts[-1] += " " + data.strip()[:80]


def _scan(site: Path) -> dict[str, Scan]:
    return parse_pages(site, Scan)


def test_markup_in_every_text_field_is_inert(tmp_path: Path, real_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A site built from specs whose every text carries HTML, script, handlers, javascript: links
    and template syntax has exactly the scripts of the clean site, no handler attribute, and no
    link target taken from spec text. (Built for the clean site's repository: the same edit links.)"""
    clean = _scan(real_site)
    monkeypatch.setenv("GUIDE_REPO_URL", REPOSITORY)
    project = copy_project(tmp_path)
    for path in (project / "specs").rglob("*.yaml"):  # libyaml both ways: 7 s in pure Python, of a 28 s test
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        path.write_text(yaml.dump(_poison(data), Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False),
                        encoding="utf-8")
    done = build_site(tmp_path / "hostile", project)
    assert done.returncode == 0, done.stderr
    hostile = _scan(tmp_path / "hostile")
    assert set(hostile) == set(clean)
    for name, scan in hostile.items():
        assert not scan.handlers, (name, scan.handlers[:3])
        assert sorted(scan.scripts) == sorted(clean[name].scripts), name
        for target in scan.hrefs:
            assert not target.lower().lstrip().startswith(("javascript:", "data:", "vbscript:")), (name, target)
        assert set(scan.hrefs) <= set(clean[name].hrefs), (name, sorted(set(scan.hrefs) - set(clean[name].hrefs))[:3])
    text = (tmp_path / "hostile" / "flowchart" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in text and "<script>alert" not in text


def _limit_memory() -> None:
    # 1 GiB of address space: generous for Python with pydantic loaded, fatal for any input
    # that tried to materialise a 50 MB file as YAML nodes or expand an alias bomb.
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("name", ["huge.yaml", "bomb.yaml", "deep.yaml"])
def test_heavy_inputs_are_refused_cheaply(tmp_path: Path, name: str) -> None:
    """A 50 MB file, an alias bomb and deep nesting fail with a diagnostic under a memory cap."""
    tree = tmp_path / "specs"
    shutil.copytree(ROOT / "specs", tree)
    target = tree / "networks" / name
    if name == "huge.yaml":
        with target.open("wb") as f:
            f.write(b"id: huge\nsummary: {zh: '")
            f.write(b"x" * (50 * 1024 * 1024))
            f.write(b"'}\n")
    elif name == "bomb.yaml":
        target.write_bytes((ROOT / "tests" / "invalid" / "yaml-billion-laughs.yaml").read_bytes())
    else:
        target.write_bytes(b"x: " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    done = subprocess.run([sys.executable, "-m", "generator", "check", str(tree)], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=60, preexec_fn=_limit_memory)
    assert done.returncode == 1
    assert f"specs/networks/{name}:" in done.stderr and "Traceback" not in done.stderr
    assert ("yaml-too-large" if name == "huge.yaml" else "yaml-") in done.stderr


# --- fuzzing ---------------------------------------------------------------------------------

_FILES = None


def _mutate(raw: bytes, data: st.DataObject) -> bytes:
    lines = raw.split(b"\n")
    action = data.draw(st.sampled_from(["truncate", "delete", "duplicate", "swap", "retype", "indent", "bytes"]))
    if action == "truncate":
        return raw[: data.draw(st.integers(0, len(raw)))]
    i = data.draw(st.integers(0, max(0, len(lines) - 1)))
    if action == "delete":
        del lines[i]
    elif action == "duplicate":
        lines.insert(i, lines[i])
    elif action == "swap":
        j = data.draw(st.integers(0, max(0, len(lines) - 1)))
        lines[i], lines[j] = lines[j], lines[i]
    elif action == "indent":
        lines[i] = b"  " + lines[i]
    elif action == "bytes":
        lines[i] = data.draw(st.binary(max_size=40))
    else:
        value = data.draw(st.sampled_from([b"null", b"[]", b"{}", b"-1", b".nan", b"'12'", b"true", b"2026-13-01",
                                           b"!!binary aGk=", b"*ref", b"9" * 40, b"{value: 1}"]))
        head, sep, _tail = lines[i].partition(b": ")
        lines[i] = head + b": " + value if sep else value
    return b"\n".join(lines)


def test_a_real_gpu_figure_in_an_unknown_unit_is_a_diagnostic() -> None:
    """Found by the test below: a GPU of the real specs whose memory capacity has a number for a
    unit. The units rule reports it; the cost model's readers (the calibration over specs/runs/,
    the studies) give a reason for that GPU instead of converting the figure and raising."""
    files = list(real_files())
    index = next(i for i, f in enumerate(files) if f.path.endswith("gpus/a100-sxm4-40gb.yaml"))
    raw = files[index].raw
    assert b"unit: GB," in raw
    files[index] = SpecFile(files[index].path, files[index].kind, files[index].stem,
                            raw.replace(b"unit: GB,", b"unit: '12',", 1))
    result = validate(files)
    assert [d.rule for d in result.diagnostics] == ["units-unknown"]


# Each file of the real specs as parsed once (validate's memo): an example re-parses only the file
# it mutates, not the other 849, which took more than half of each example's time.
_PARSED: dict[SpecFile, Built] = {}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_real_specs_never_raise(data: st.DataObject) -> None:
    """Deleting, duplicating, swapping, retyping, re-indenting or truncating any real spec gives
    a clean pass or diagnostics, never an exception."""
    files = list(real_files())
    index = data.draw(st.integers(0, len(files) - 1))
    original = files[index]
    files[index] = SpecFile(original.path, original.kind, original.stem, _mutate(original.raw, data))
    result = validate(files, memo=_PARSED)  # the other files as they were parsed before
    assert result.ok or result.diagnostics
