"""The site as maintainers run it: a broken spec stops `mkdocs build` with the same diagnostics
as `check`; `generator build --out` writes the same pages, all or none; an edit under
`mkdocs serve` shows after exactly one rebuild, and a broken spec or figure reference there gives
the pages the list of problems while the server keeps answering. Each works on a project whose
specs are the fixture base (support.small_project) and changes it without depending on what the
specs say (a new file, not an edited value)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import (
    ROOT,
    add_bit_byte_slip,
    add_implausible_lane,
    fetch,
    mkdocs_serve,
    read_tree,
    small_project,
    wait_for,
)

PYTHON = sys.executable
MKDOCS = str(Path(sys.executable).with_name("mkdocs"))
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}


def test_broken_spec_fails_build_with_check_diagnostics(tmp_path: Path) -> None:
    """mkdocs build stops, listing exactly the diagnostics that check prints; no site is made."""
    project = small_project(tmp_path)
    add_bit_byte_slip(project / "specs")
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


def test_spec_warning_fails_strict_build_only(tmp_path: Path) -> None:
    """A plausibility warning stops `mkdocs build --strict` (no site) with the line `check`
    prints; `mkdocs build --no-strict` (mkdocs.yml sets strict) logs it as a warning and builds the site."""
    project = small_project(tmp_path)
    add_implausible_lane(project / "specs")
    check = subprocess.run([PYTHON, "-m", "generator", "check", "specs"], cwd=project, env=ENV,
                           capture_output=True, text=True, timeout=120)
    warnings = [line for line in check.stderr.splitlines() if ": warning: " in line]
    assert check.returncode == 0 and len(warnings) == 1 and "[plausibility-range]" in warnings[0], check.stderr
    strict = subprocess.run([MKDOCS, "build", "--strict", "-d", str(tmp_path / "strict")], cwd=project, env=ENV,
                            capture_output=True, text=True, timeout=300)
    assert strict.returncode == 1 and warnings[0] in strict.stderr and "Traceback" not in strict.stderr
    assert not (tmp_path / "strict" / "index.html").exists()
    plain = subprocess.run([MKDOCS, "build", "--no-strict", "-d", str(tmp_path / "plain")], cwd=project, env=ENV,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and "WARNING" in plain.stderr and warnings[0] in plain.stderr, plain.stderr
    assert (tmp_path / "plain" / "networks" / "index.html").is_file()


def test_build_command_writes_pages_and_nothing_on_failure(tmp_path: Path) -> None:
    """`generator build --out` writes the generated files; a failed run leaves them untouched."""
    project = small_project(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert out / "gpus.md" in before and out / "data" / "gpus.csv" in before
    add_bit_byte_slip(project / "specs")
    failed = subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                            capture_output=True, text=True, timeout=120)
    assert failed.returncode == 1 and "[units-bit-byte]" in failed.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_build_command_writes_all_or_nothing(tmp_path: Path) -> None:
    """When one generated file cannot be written, `generator build --out` writes none of them and
    leaves no temporary behind (the others are written to temporaries first)."""
    project = small_project(tmp_path)
    out = tmp_path / "out"
    assert subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                          capture_output=True, text=True, timeout=120).returncode == 0
    last = max(p for p in out.iterdir() if p.suffix == ".md")  # written after every other page
    last.unlink()
    last.mkdir()  # a folder in the way of one file
    _copy_of_a_gpu(project / "specs")  # a valid edit: the GPU page and the data files change
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    failed = subprocess.run([PYTHON, "-m", "generator", "build", "--out", str(out)], cwd=project, env=ENV,
                            capture_output=True, text=True, timeout=120)
    assert failed.returncode == 1 and "nothing written" in failed.stderr and "Traceback" not in failed.stderr
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


def _copy_of_a_gpu(specs: Path) -> Path:
    """A new GPU file: a copy of the first one under the id test-serve-gpu and the name "Test serve
    GPU" (valid whatever the GPUs say: no claim or table names the new id)."""
    original = next(f for f in read_tree(specs) if f.kind == "gpus")
    text = re.sub(r"^id: .*$", "id: test-serve-gpu", original.raw.decode("utf-8"), count=1, flags=re.MULTILINE)
    text = re.sub(r"^name: .*$", "name: Test serve GPU", text, count=1, flags=re.MULTILINE)
    target = specs / "gpus" / "test-serve-gpu.yaml"
    target.write_text(text, encoding="utf-8")
    return target


def test_serve_rebuilds_once_on_spec_edit(tmp_path: Path) -> None:
    """Editing a spec under `mkdocs serve` triggers one rebuild, and the page shows the edit (the
    spec is one the test added, so the edit does not depend on what the real specs say)."""
    project = small_project(tmp_path)
    spec = _copy_of_a_gpu(project / "specs")
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([MKDOCS, "serve", "-a", f"127.0.0.1:{port}"], cwd=project, env=ENV,
                              stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/gpus/"
    try:
        deadline = time.monotonic() + 120
        while "Test serve GPU" not in _get(url):
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        builds_before = (tmp_path / "serve.log").read_text().count("Building documentation")
        spec.write_text(spec.read_text(encoding="utf-8").replace("name: Test serve GPU", "name: Test serve GPU renamed"),
                        encoding="utf-8")
        deadline = time.monotonic() + 120
        while "Test serve GPU renamed" not in _get(url):
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        time.sleep(4)  # a loop would show up as further builds here
        builds = (tmp_path / "serve.log").read_text().count("Building documentation") - builds_before
        assert builds == 1, (tmp_path / "serve.log").read_text()
        # The same rebuild made the English edition, from the same validation.
        assert "Test serve GPU renamed" in _get(f"http://127.0.0.1:{port}/en/gpus/")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


HOSTILE_KEY = "<img src=x onerror=alert(1)>"


class _Text(HTMLParser):
    """A page's text (entities decoded) and its elements' tags with their attribute names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, [k for k, _v in attrs]))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read(url: str) -> tuple[int, str, _Text]:
    status, body = fetch(url)
    page = _Text()
    page.feed(body)
    return status, body, page


def _lists_problems(url: str) -> bool:
    return "kb-problems" in fetch(url)[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Path]]:
    """One `mkdocs serve` of one project copy, shared by the serve tests below (a server's start
    is a full build): (project, base URL, server log). Each test puts back what it breaks and
    waits for its own page states, so none depends on another having run."""
    root = tmp_path_factory.mktemp("serve")
    project, log = small_project(root), root / "serve.log"
    with mkdocs_serve(project, log) as url:
        yield project, url, log


def test_serve_lists_problems_and_keeps_answering(served: tuple[Path, str, Path]) -> None:
    """Under `mkdocs serve`, a spec that does not validate gives every page the list of its
    diagnostics, escaped, and every request an answer; fixing it brings the pages back. The same
    for a bad figure reference in a hand-written page, on that page."""
    project, url, log = served
    hostile = project / "specs" / "gpus" / "test-hostile.yaml"
    hostile.write_text(f'id: test-hostile\n"{HOSTILE_KEY}": 1\n', encoding="utf-8")
    expected = f"specs/gpus/test-hostile.yaml:2:1 错误：unknown key '{HOSTILE_KEY}'"
    # Wait for this diagnostic, not for any problem list: the watcher may rebuild first from
    # the file as created (still empty), whose list says something else.
    wait_for(lambda: expected in "".join(_read(url + "/gpus/")[2].text), "no problem list after breaking a spec",
             log)
    for path in ("/", "/gpus/", "/flowchart/", "/reading/", "/contributing/"):
        status, body, page = _read(url + path)
        text = "".join(page.text)
        assert status == 200 and "kb-problems" in body, path
        assert expected in text, path
        assert "[schema-unknown-key]" in text and "[schema-required]" in text, path
        assert not [t for t, attributes in page.tags if t == "img" or "onerror" in attributes], path
    hostile.unlink()
    wait_for(lambda: not _lists_problems(url + "/gpus/"), "the problem list stayed after the fix", log)
    reading = project / "docs" / "reading.md"
    original = reading.read_text(encoding="utf-8")
    reading.write_text(original + "\n不存在的数字：[[test-no-such-entity#port_rate]]\n", encoding="utf-8")
    wait_for(lambda: "[refs-unknown-figure]" in "".join(_read(url + "/reading/")[2].text),
             "no problem list on a page with a bad reference", log)
    text = "".join(_read(url + "/reading/")[2].text)
    assert "docs/reading.md:" in text and "[refs-unknown-figure]" in text
    assert not _lists_problems(url + "/gpus/")
    reading.write_text(original, encoding="utf-8")
    wait_for(lambda: not _lists_problems(url + "/reading/"), "the problem list stayed on the fixed page", log)
    assert "Traceback" not in log.read_text(encoding="utf-8")


def test_serve_lists_warnings_on_every_page(served: tuple[Path, str, Path]) -> None:
    """Under `mkdocs serve`, a knowledge base with a warning is built as usual, with the warning
    listed at the top of every page, generated or hand-written; fixing it removes the list."""
    project, url, log = served
    added = project / add_implausible_lane(project / "specs")
    wait_for(lambda: "[plausibility-range]" in "".join(_read(url + "/networks/")[2].text),
             "no warning list after an implausible figure", log)
    for path in ("/", "/networks/", "/reading/", "/contributing/"):
        status, body, page = _read(url + path)
        text = "".join(page.text)
        assert status == 200 and "kb-problems" in body and "admonition warning" in body, path
        assert "specs/networks/test-implausible.yaml:" in text and "[plausibility-range]" in text, path
        assert " 警告：" in text, path
    assert "Test implausible" in _read(url + "/networks/")[1]  # the page itself is there too
    added.unlink()
    wait_for(lambda: not _lists_problems(url + "/networks/"), "the warning list stayed after the fix", log)
    assert "Traceback" not in log.read_text(encoding="utf-8")


def test_serve_picks_up_an_edit_to_the_generator(served: tuple[Path, str, Path]) -> None:
    """Under `mkdocs serve`, an edit to generator/ (a template here) shows after the rebuild it
    triggers: MkDocs keeps the hook file loaded, so the hook imports the generator afresh."""
    project, url, log = served
    template = project / "generator" / "templates" / "gpus.md.j2"
    assert "test-generator-edit" not in fetch(url + "/gpus/")[1]
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("# GPU 对比\n", "# GPU 对比\n\ntest-generator-edit\n", 1), encoding="utf-8")
    wait_for(lambda: "test-generator-edit" in fetch(url + "/gpus/")[1], "the template edit never showed", log)
    template.write_text(text, encoding="utf-8")
    wait_for(lambda: "test-generator-edit" not in fetch(url + "/gpus/")[1], "the template's undo never showed", log)
    assert "Traceback" not in log.read_text(encoding="utf-8")


@pytest.mark.parametrize("how", ["moved away and back", "deleted and copied back"])
def test_serve_recovers_when_specs_is_replaced(served: tuple[Path, str, Path], how: str) -> None:
    """Under `mkdocs serve`, specs/ taken away (a branch switch, a restore) gives every page the
    problem list, not a server that answers nothing; put back, the pages return, and the new folder
    is watched: an edit in it shows after its rebuild."""
    project, url, log = served
    specs, away = project / "specs", project.parent / f"specs-away-{how.split()[0]}"
    if how == "moved away and back":
        specs.rename(away)
    else:
        shutil.copytree(specs, away)
        shutil.rmtree(specs)
    wait_for(lambda: "[schema-folder]" in "".join(_read(url + "/gpus/")[2].text),
             "no problem list after specs/ went away", log)
    assert fetch(url + "/")[0] == 200 and _lists_problems(url + "/")
    if how == "moved away and back":
        away.rename(specs)
    else:
        shutil.copytree(away, specs)
        shutil.rmtree(away)
    wait_for(lambda: not _lists_problems(url + "/gpus/"), "the problem list stayed after specs/ came back", log)
    added = _copy_of_a_gpu(specs)
    wait_for(lambda: "Test serve GPU" in fetch(url + "/gpus/")[1], "an edit in the new specs/ never showed", log)
    added.unlink()
    wait_for(lambda: "Test serve GPU" not in fetch(url + "/gpus/")[1], "the edit's undo never showed", log)
    assert "Traceback" not in log.read_text(encoding="utf-8")
