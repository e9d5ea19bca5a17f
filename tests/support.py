"""Test helpers: the real spec tree (read once) and a runner that validates it with one file
replaced or added, the way a contributor's pull request would change it; the invalid corpus."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import TypeVar

from generator.specfiles import read_spec_tree
from generator.validate import Result, SpecFile, validate

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
INVALID = ROOT / "tests" / "invalid"
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


@cache
def real_files() -> tuple[SpecFile, ...]:
    files, problems = read_spec_tree(Path("specs"))
    assert not problems, problems
    return tuple(files)


def with_file(target: str, raw: bytes) -> list[SpecFile]:
    """The real tree with `target` (e.g. specs/gpus/x.yaml) replaced by, or added as, `raw`."""
    kind, name = Path(target).parts[-2:]
    files = [f for f in real_files() if f.path != target]
    files.append(SpecFile(target, kind, Path(name).stem, raw))
    return files


_MEMO: dict[SpecFile, object] = {}


def validate_with(target: str, raw: bytes) -> Result:
    return validate(with_file(target, raw), memo=_MEMO)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Case:
    """A file of tests/invalid/: its header names the file it stands for and what it must produce."""

    name: str
    target: str
    raw: bytes
    expected: frozenset[tuple[str, int, int, str]]
    texts: tuple[tuple[str, str], ...]  # (rule, substring the message must contain)

    @classmethod
    def read(cls, path: Path) -> Case:
        raw = path.read_bytes()
        header = raw.decode("utf-8", "replace").lstrip("\ufeff")
        target = ""
        expected: set[tuple[str, int, int, str]] = set()
        texts: list[tuple[str, str]] = []
        for line in header.splitlines():
            if line.startswith("# target: "):
                target = line.removeprefix("# target: ").strip()
            match = _EXPECT.match(line.strip())
            if match:
                where = match["path"] or target
                expected.add((where, int(match["line"]), int(match["col"]), match["rule"]))
                if match["text"]:
                    texts.append((match["rule"], match["text"]))
        if not target or not expected:
            raise ValueError(f"{path.name}: header needs '# target:' and at least one '# expect:'")
        return cls(path.stem, target, raw, frozenset(expected), tuple(texts))


def invalid_cases() -> list[Case]:
    return [Case.read(p) for p in sorted(INVALID.glob("*.yaml"))]


def copy_project(tmp_path: Path) -> Path:
    """A throwaway copy of what a build reads (docs, specs, generator, includes, mkdocs.yml)."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("docs", "specs", "generator", "includes"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    return project
