"""Test helpers. Tests never depend on what the real `specs/` says, only that it is valid: every
value a test compares with comes from a frozen fixture knowledge base under tests/.

- `tests/fixtures/base/specs/`: the fixture knowledge base (it passes `generator check`). The
  invalid corpus (`tests/invalid/*.yaml`) replaces or adds one file of it, the way a pull request
  would (`validate_with`); unit tests read its figures (`base_result`).
- `tests/golden/<case>/specs/`: small knowledge bases rendered by the golden test, with their
  expected output beside them in `tests/golden/<case>/expected/` (`pytest --update-goldens`).
- Every id in a fixture starts with `test-` (FIXTURE_PREFIX); no real spec may use it.
"""

from __future__ import annotations

import datetime
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import TypeVar
from unittest.mock import patch

from generator.edge import cli as cli_module
from generator.edge.cli import run_check as check_afresh
from generator.edge.specfiles import read_spec_tree
from generator.estimates.calibration import ASSUMED
from generator.estimates.runs import RunInputs, run_inputs
from generator.knowledge import KnowledgeBase, Loaded
from generator.model.runs import Run
from generator.render import render_site
from generator.validate import Result, SpecFile, validate

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
BASE = ROOT / "tests" / "fixtures" / "base" / "specs"
GOLDEN = ROOT / "tests" / "golden"
INVALID = ROOT / "tests" / "invalid"
FIXTURE_PREFIX = "test-"
# The repository the real site is built for (tests/conftest.py), so that its edit links do not
# depend on the checkout's remote.
REPOSITORY = "https://example.org/team/gpu-guide"
P = TypeVar("P", bound=HTMLParser)

_EXPECT = re.compile(r'^# expect: (?:(?P<path>\S+\.yaml):)?(?P<line>\d+):(?P<col>\d+) (?P<rule>[a-z0-9-]+)(?: "(?P<text>.*)")?$')


def parse_pages(site: Path, parser: Callable[[], P]) -> dict[str, P]:
    """Every HTML page of a built site fed to a fresh `parser()`, by path relative to the site."""
    pages = {}
    for path in sorted(site.rglob("*.html")):
        page = parser()
        page.feed(path.read_text(encoding="utf-8"))
        pages[str(path.relative_to(site))] = page
    return pages


def read_tree(root: Path) -> list[SpecFile]:
    """A spec folder anywhere on disk, its files named as in the repository (specs/<kind>/<file>),
    so diagnostics read the same whichever tree they come from."""
    files, problems = read_spec_tree(root)
    assert not problems, [p.as_text() for p in problems]
    return [SpecFile(f"specs/{f.kind}/{f.stem}.yaml", f.kind, f.stem, f.raw) for f in files]


@cache
def real_files() -> tuple[SpecFile, ...]:
    """The real knowledge base: only for tests of invariants that hold whatever it says."""
    return tuple(read_tree(SPECS))


@cache
def checked_once(root: Path) -> Result:
    """What `generator check` finds in a spec folder that tests only read (the real specs, the
    fixture base), dates judged, once per test process."""
    return check_afresh(root)


def real_result() -> Result:
    """The real knowledge base as `check` finds it, validated once per test process (about 4 s;
    several modules and `cli` read it). Read it, never change it."""
    return checked_once(SPECS)


@cache
def real_pages() -> dict[str, str]:
    """Every generated file of the real knowledge base in Chinese (`render_site` of real_result),
    rendered once per test process (about 5 s). Read it, never change it."""
    result = real_result()
    assert result.kb is not None and result.figures is not None
    return render_site(result.kb, result.figures)


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGV` through `main` in this process: its exit status, standard output
    and standard error (an exception fails the test, as a traceback would). The real specs are
    read and validated once per process, and so is the fixture base (`checked_once`): that was
    four fifths of each command's time, and is what `check` and its own tests cover. Any other
    folder is read afresh."""
    def run_check(root: Path) -> Result:
        folder = Path(root).resolve()
        return checked_once(folder) if folder in (SPECS, BASE) else check_afresh(root)

    out, err = io.StringIO(), io.StringIO()
    with patch.object(cli_module, "run_check", run_check), redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli_module.main(list(argv))
        except SystemExit as stop:  # argparse's own exit, e.g. a flag without its value
            code = int(stop.code or 0)
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


@cache
def base_files() -> tuple[SpecFile, ...]:
    return tuple(read_tree(BASE))


@cache
def base_result() -> Result:
    """The fixture knowledge base, validated (it passes: test_fixtures holds it to that)."""
    return validate(list(base_files()))


def with_file(target: str, raw: bytes | None) -> list[SpecFile]:
    """The fixture base with `target` (e.g. specs/gpus/test-x.yaml) replaced by, or added as, `raw`
    (None: deleted)."""
    return with_files({target: raw})


def with_files(changed: Mapping[str, bytes | None]) -> list[SpecFile]:
    """The fixture base with each of `changed`'s paths replaced by, or added as, its bytes (None:
    deleted)."""
    files = [f for f in base_files() if f.path not in changed]
    for target, raw in changed.items():
        if raw is not None:
            kind, name = Path(target).parts[-2:]
            files.append(SpecFile(target, kind, Path(name).stem, raw))
    return files


FIXTURE_RUN = "specs/runs/test-run-llama-70b.yaml"
FIXTURE_RUN_TEXT = (BASE / "runs" / "test-run-llama-70b.yaml").read_text(encoding="utf-8")


def validate_texts(added: Mapping[str, str]) -> Result:
    """The fixture base with each of `added`'s paths replaced by, or added as, its text, validated
    on the build date."""
    return validate(with_files({path: text.encode() for path, text in added.items()}), today=BUILD_DATE)


def run_kb(added: Mapping[str, str]) -> KnowledgeBase:
    """The fixture base with `added` (`validate_texts`), which must validate with no diagnostic but
    the calibration's: the fixture's runs are not measurements the model is held to."""
    result = validate_texts(added)
    others = [d.as_text() for d in result.diagnostics if d.rule != "model-calibration-error"]
    assert result.ok and result.kb is not None and not others, others
    return result.kb


def fixture_run(kb: KnowledgeBase) -> Loaded[Run]:
    found = kb.get("test-run-llama-70b", Run)
    assert found is not None
    return found


def fixture_run_inputs(kb: KnowledgeBase) -> RunInputs:
    """The fixture run's model inputs, filled as calibration fills what the run leaves unstated."""
    got = run_inputs(kb, fixture_run(kb), ASSUMED)
    assert isinstance(got, RunInputs), got
    return got


_MEMO: dict[SpecFile, object] = {}
# The build date the invalid corpus is judged on (a fixed day, not the clock: a case must not
# change its outcome as time passes); every date of the fixture base is before it.
BUILD_DATE = datetime.date(2026, 12, 1)


def validate_with(target: str, raw: bytes | None) -> Result:
    """Validate the fixture base with one file replaced, added or deleted (see `with_file`)."""
    return validate(with_file(target, raw), memo=_MEMO, today=BUILD_DATE)  # type: ignore[arg-type]


def golden_cases() -> list[Path]:
    """Each tests/golden/<case>/ folder: specs/ in, expected/ out."""
    return sorted(path.parent for path in GOLDEN.glob("*/specs"))


@dataclass(frozen=True)
class Case:
    """A file of tests/invalid/: its header names the file of the fixture base it replaces or
    adds (`# target:`), or deletes (`# delete:` in its place: the case holds no body), and the
    diagnostics it must produce (`# expect: [file:]line:col rule`)."""

    name: str
    target: str
    raw: bytes | None  # None: the target is deleted
    expected: frozenset[tuple[str, int, int, str]]
    texts: tuple[tuple[str, str], ...]  # (rule, substring the message must contain)

    @classmethod
    def read(cls, path: Path) -> Case:
        raw = path.read_bytes()
        header = raw.decode("utf-8", "replace").lstrip("\ufeff")
        target = ""
        deleted = False
        expected: set[tuple[str, int, int, str]] = set()
        texts: list[tuple[str, str]] = []
        for line in header.splitlines():
            if line.startswith(("# target: ", "# delete: ")):
                target = line[len("# target: "):].strip()
                deleted = line.startswith("# delete: ")
            match = _EXPECT.match(line.strip())
            if match:
                where = match["path"] or target
                expected.add((where, int(match["line"]), int(match["col"]), match["rule"]))
                if match["text"]:
                    texts.append((match["rule"], match["text"]))
        if not target or not expected:
            raise ValueError(f"{path.name}: header needs '# target:' (or '# delete:') and at least one '# expect:'")
        return cls(path.stem, target, None if deleted else raw, frozenset(expected), tuple(texts))


def invalid_cases() -> list[Case]:
    return [Case.read(p) for p in sorted(INVALID.glob("*.yaml"))]


def copy_project(tmp_path: Path) -> Path:
    """A throwaway copy of what a build reads (docs, specs, generator, includes, mkdocs.yml and
    the English edition's mkdocs.en.yml)."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("docs", "specs", "generator", "includes"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("mkdocs.yml", "mkdocs.en.yml"):
        shutil.copy(ROOT / name, project / name)
    return project


def fixture_project(tmp_path: Path, files: list[SpecFile]) -> Path:
    """A project copy whose specs/ holds `files` (a fixture knowledge base), and whose hand-written
    pages cite no figure of the real one (each `[[entity#figure]]` becomes plain text): a site
    that `mkdocs build --strict` can build from any valid fixture base."""
    project = copy_project(tmp_path)
    shutil.rmtree(project / "specs")
    for spec in files:
        target = project / spec.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(spec.raw)
    for page in (project / "docs").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        english = page.relative_to(project / "docs").parts[0] == "en"
        page.write_text(re.sub(r"\[\[[^\]]*\]\]", "(figure)" if english else "（数字）", text), encoding="utf-8")
    return project


def small_project(tmp_path: Path) -> Path:
    """A project copy built from the fixture base (BASE) instead of the real specs: for the tests
    of the build and of `mkdocs serve` themselves (atomic output, rebuilds, live reload, problem
    lists), which hold whatever the knowledge base says. Its builds take about half the time of
    the real project's; the real site is built once per test worker (`real_site`) and read by
    the tests of what the pages say."""
    return fixture_project(tmp_path, read_tree(BASE))


def _add_network(specs: Path, name: str, lanes: int, lane_rate: int, port_rate: str) -> str:
    """Add to a copy of a valid spec tree the network `test-<name>`, of the tree's first network
    family, each figure citing its first non-article source (nothing here depends on what the tree
    says); returns the new file as diagnostics name it."""
    kb = validate(read_tree(specs)).kb
    assert kb is not None
    source = next(s.id for s in kb.of_kind("sources") if s.model.kind != "article")
    fabric = next(f.id for f in kb.of_kind("network-families"))
    (specs / "networks" / f"test-{name}.yaml").write_text(
        f"id: test-{name}\nlast_verified: 2026-11-30\nname: Test {name}\nfabric: {fabric}\nrdma: none\n"
        f"lanes: {{value: {lanes}, source: {source}}}\n"
        f"lane_rate: {{value: {lane_rate}, unit: Gb/s, direction: per_direction, scope: per_lane, source: {source}}}\n"
        f"port_rate: {{value: {port_rate}, direction: per_direction, scope: per_port, source: {source}}}\n"
        "summary: {zh: 测试, en: Test}\n", encoding="utf-8")
    return f"specs/networks/test-{name}.yaml"


def add_bit_byte_slip(specs: Path) -> str:
    """A network whose port rate is written in GB/s for Gb/s: that slip is its only problem."""
    return _add_network(specs, "slip", 4, 100, "400, unit: GB/s")


def add_implausible_lane(specs: Path) -> str:
    """A one-lane network at 1000 Gb/s per lane: consistent, but above the lane rate's plausible
    range, so its one diagnostic is a plausibility-range warning."""
    return _add_network(specs, "implausible", 1, 1000, "1000, unit: Gb/s")


def fetch(url: str) -> tuple[int, str]:
    """(HTTP status, body) of a GET; status 0 when nothing answers. `mkdocs serve` holds a
    request until the rebuild in progress ends, which on a loaded two-core machine can take well
    over ten seconds: the timeout is a deadline for a hung server, not a timing being tested."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return int(response.status), str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        return int(err.code), ""
    except OSError:
        return 0, ""


def wait_for(condition: Callable[[], bool], what: str, log: Path, seconds: float = 120) -> None:
    """Poll `condition` until it holds; fail with the server log after `seconds` (a deadline for
    a hung server, not a timing being tested)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}\n{log.read_text(encoding='utf-8')[-4000:]}"
        time.sleep(0.3)


@contextmanager
def mkdocs_serve(project: Path, log: Path) -> Iterator[str]:
    """`mkdocs serve` of `project` on a free loopback port, its output in `log`; yields the base
    URL (no trailing slash) once the home page answers, and stops the server afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen([str(Path(sys.executable).with_name("mkdocs")), "serve", "-a", f"127.0.0.1:{port}"],
                                  cwd=project, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_for(lambda: fetch(url + "/")[0] == 200, "mkdocs serve never answered", log)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)
