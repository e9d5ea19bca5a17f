"""The site as maintainers run it: a broken spec stops `mkdocs build` with the same diagnostics
as `check`; `generator build --out` writes the same pages and nothing on failure; and an edit
under `mkdocs serve` shows after exactly one rebuild."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from support import ROOT, copy_project

PYTHON = sys.executable
MKDOCS = str(Path(sys.executable).with_name("mkdocs"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}


def _break_ndr(project: Path) -> None:
    spec = project / "specs" / "networks" / "ib-ndr.yaml"
    spec.write_text(spec.read_text().replace("port_rate: {value: 400, unit: Gb/s", "port_rate: {value: 400, unit: GB/s"))


def test_broken_spec_fails_build_with_check_diagnostics(tmp_path: Path) -> None:
    """mkdocs build stops, listing exactly the diagnostics that check prints; no site is made."""
    project = copy_project(tmp_path)
    _break_ndr(project)
    check = subprocess.run([PYTHON, "-m", "generator", "check", "specs"], cwd=project, env=ENV,
                           capture_output=True, text=True, timeout=120)
    build = subprocess.run([MKDOCS, "build", "--strict", "-d", str(tmp_path / "site")], cwd=project, env=ENV,
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 1 and build.returncode == 1
    diagnostics = [line for line in check.stderr.splitlines() if ": error: " in line]
    assert diagnostics
    for line in diagnostics:
        assert line in build.stderr
    assert "Traceback" not in build.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_build_command_writes_pages_and_nothing_on_failure(tmp_path: Path) -> None:
    """`generator build --out` writes the generated files; a failed run leaves them untouched."""
    project = copy_project(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert out / "gpus.md" in before and out / "data" / "gpus.csv" in before
    _break_ndr(project)
    failed = subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                            capture_output=True, text=True, timeout=120)
    assert failed.returncode == 1 and "[units-bit-byte]" in failed.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def test_serve_rebuilds_once_on_spec_edit(tmp_path: Path) -> None:
    """Editing a spec under `mkdocs serve` triggers one rebuild, and the page shows the new value."""
    project = copy_project(tmp_path)
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([MKDOCS, "serve", "-a", f"127.0.0.1:{port}"], cwd=project, env=ENV,
                              stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/gpus/"
    try:
        deadline = time.monotonic() + 120
        while "H200" not in _get(url):
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        builds_before = (tmp_path / "serve.log").read_text().count("Building documentation")
        spec = project / "specs" / "gpus" / "h200-sxm5-141gb.yaml"
        text = spec.read_text()
        assert "power:\n  value: 700\n" in text
        spec.write_text(text.replace("power:\n  value: 700\n", "power:\n  value: 650\n"))
        deadline = time.monotonic() + 120
        while "650 W" not in _get(url):
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        time.sleep(4)  # a loop would show up as further builds here
        builds = (tmp_path / "serve.log").read_text().count("Building documentation") - builds_before
        assert builds == 1, (tmp_path / "serve.log").read_text()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
