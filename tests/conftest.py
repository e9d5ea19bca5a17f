"""Pytest wiring for tests/: run from the project root, the --update-goldens switch, the two
sites every test that inspects a built site shares (the real one and the hostile one, each built
once per run), and the markers `unit`, `site` and `browser`, given to each test by what it runs.
Helpers shared by test modules live in support.py (a module named conftest cannot be shared:
tests/browser has its own)."""

from __future__ import annotations

import fcntl
import inspect
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FunctionType

import pytest
from hypothesis import settings
from payloads import build_hostile_site
from support import REPOSITORY, ROOT

# Property tests are not timed: time is measured by the benchmarks (`make bench`). Hypothesis's
# default deadline of 200 ms per example failed a test whose example took 288 ms once, when four
# workers shared the two cores (and 11 ms when run again).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(autouse=True)
def _run_from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/<case>/expected/ from the current output (and delete orphans)")


def _once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], Path]) -> Path:
    """What `build` makes in a folder of its own, made once per test run: under pytest-xdist by
    the first worker that asks, while the others wait for it (a lock on a file beside the folder)
    and then read the same one. Each worker built its own before: four builds of each site a run,
    of about 10 s each, where one does. A worker whose build failed leaves no mark, so the next
    one to ask builds again and reports its own failure."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's, shared by its workers
    folder, done = root / name, root / f"{name}.built"
    with open(root / f"{name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed build left
            folder.mkdir()
            done.write_text(str(build(folder)), encoding="utf-8")
    return Path(done.read_text(encoding="utf-8"))


def _build_real_site(out: Path) -> Path:
    done = subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-d", str(out)],
                          cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "GUIDE_REPO_URL": REPOSITORY},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, `mkdocs build --strict` of the checkout for REPOSITORY. Read it, never
    change it: every test that inspects the real site gets this one folder."""
    return _once_per_run(tmp_path_factory, "real-site", _build_real_site)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the hostile fixture base (tests/payloads.py), built once; read it, never change it."""
    return _once_per_run(tmp_path_factory, "hostile", build_hostile_site)


# --- markers ------------------------------------------------------------------------------------

# What makes a test a site test: a built site, or a name that builds or serves one (a project
# copy exists to be built). Found in the test, its fixtures and the helpers they call.
_SITE_FIXTURES = {"real_site", "hostile_site"}
_SITE_NAMES = {"MKDOCS", "build_site", "build_hostile_site", "copy_project", "fixture_project", "mkdocs_serve"}
_TESTS = Path(__file__).resolve().parent


def _names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names(const)
    return names


def _runs_a_site(func: Callable[..., object], seen: set[CodeType]) -> bool:
    """Whether `func`, or a function of tests/ it names, names what builds or serves a site."""
    if not isinstance(func, FunctionType) or func.__code__ in seen:
        return False
    seen.add(func.__code__)
    names = _names(func.__code__)
    helpers = [func.__globals__.get(name) for name in names]
    return bool(names & _SITE_NAMES) or any(
        isinstance(helper, FunctionType) and Path(helper.__code__.co_filename).is_relative_to(_TESTS)
        and _runs_a_site(helper, seen) for helper in helpers)


def _marker(item: pytest.Item) -> str:
    """The test's own fixtures are read in its module (those of a conftest are the two sites)."""
    if Path(str(item.path)).is_relative_to(_TESTS / "browser"):
        return "browser"
    if not isinstance(item, pytest.Function):
        return "unit"
    if _SITE_FIXTURES & set(item.fixturenames):
        return "site"
    seen: set[CodeType] = set()
    fixtures = [inspect.unwrap(getattr(item.module, name)) for name in item.fixturenames if hasattr(item.module, name)]
    return "site" if any(_runs_a_site(f, seen) for f in [inspect.unwrap(item.function), *fixtures]) else "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test is `browser` (tests/browser/), `site` (builds, serves or reads a built site) or
    `unit` (everything else): `pytest -m unit` is the quick run."""
    for item in items:
        item.add_marker(_marker(item))
