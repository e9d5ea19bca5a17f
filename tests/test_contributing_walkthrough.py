"""The contributing page's walkthrough, done exactly as written: every YAML file the section "新厂商的
GPU：只改 YAML" shows (a new vendor, architecture, form factor, scale-up link family, precision
and the GPU that uses them) is added, as the page prints it, to a copy of the fixture knowledge
base. It passes `check`, the GPU appears in every table of the GPU page and in the downloads, and
`mkdocs build --strict` builds the site. No Python was touched to get there. The English edition's
contributing page (docs/en/, issue 27) shows the same files and is held to the same walkthrough."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml
from support import ROOT, base_files, fixture_project

from generator.pipeline import validate_and_render
from generator.validate import SpecFile

PAGE = ROOT / "docs" / "contributing.md"
PAGES = {"zh": PAGE, "en": ROOT / "docs" / "en" / "contributing.md"}  # each edition's page
_BLOCK = re.compile(r"<!-- walkthrough-file: (specs/([a-z-]+)/([a-z0-9-]+)\.yaml) -->\n```yaml\n(.*?)```", re.S)
# The page writes the real knowledge base's PCIe generation; the fixture base names its own.
FIXTURE_IDS = {b"pcie: pcie-5-x16": b"pcie: test-pcie-5"}
MKDOCS = str(Path(sys.executable).with_name("mkdocs"))


@cache
def walkthrough(page: Path = PAGE) -> tuple[SpecFile, ...]:
    files = []
    for path, kind, stem, text in _BLOCK.findall(page.read_text(encoding="utf-8")):
        raw = text.encode("utf-8")
        for real, fixture in FIXTURE_IDS.items():
            raw = raw.replace(real, fixture)
        files.append(SpecFile(path, kind, stem, raw))
    return tuple(files)


@pytest.mark.parametrize("edition", PAGES)
def test_the_page_walks_through_every_vocabulary_a_new_vendor_needs(edition: str) -> None:
    kinds = {f.kind for f in walkthrough(PAGES[edition])}
    assert {"sources", "vendors", "architectures", "form-factors", "scale-up-families", "precisions", "gpus"} <= kinds


def test_each_edition_walks_through_the_same_files() -> None:
    """The English page's files are the Chinese page's, byte for byte: what is checked and built
    below for one holds for the other."""
    assert walkthrough(PAGES["en"]) == walkthrough(PAGES["zh"])


@pytest.mark.parametrize("edition", PAGES)
def test_walkthrough_passes_check_and_shows_everywhere(edition: str) -> None:
    walked = walkthrough(PAGES[edition])
    files = [*base_files(), *walked]
    result, pages = validate_and_render(files)
    assert result.ok and pages is not None, [d.as_text() for d in result.diagnostics][:5]
    gpu = next(f.stem for f in walked if f.kind == "gpus")
    gpus_page = pages["gpus.md"]
    tables = gpus_page.split("<table>")[1:]
    assert len(tables) >= 3
    for table in tables:  # specs (the row's anchor), per-precision compute and derived (links to it)
        assert f'id="{gpu}"' in table or f'href="#{gpu}"' in table, table[:200]
    precision = next(yaml.safe_load(f.raw) for f in walked if f.kind == "precisions")
    assert f"{precision['label']['zh']} 稠密" in gpus_page and f"{precision['label']['zh']} 稀疏" in gpus_page
    assert any(gpu == record["id"] for record in json.loads(pages["data/gpus.json"]))
    assert gpu in pages["data/gpus.csv"]
    for value in walked:
        if value.kind not in ("gpus", "sources"):
            assert f'id="{value.stem}"' in pages["vocabularies.md"], value.stem


def test_walkthrough_builds_strictly(tmp_path: Path) -> None:
    project = fixture_project(tmp_path, [*base_files(), *walkthrough()])
    done = subprocess.run([MKDOCS, "build", "--strict"], cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    gpu = next(f.stem for f in walkthrough() if f.kind == "gpus")
    assert gpu in (project / "site" / "gpus" / "index.html").read_text(encoding="utf-8")
