"""The compiled templates kept between builds (generator/edge/template_cache.py): a build with the
cache writes the same pages as one without it, an edited template or other settings are compiled
afresh, and a cache that cannot be made or written leaves the build to compile as before."""

from __future__ import annotations

import errno
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment
from support import BASE, ROOT

from generator.edge import template_cache
from generator.edge.cli import run_build
from generator.edge.template_cache import keep_compiled_templates
from generator.language import LANGUAGES
from generator.render import environment


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache folder moved to tmp_path; the generator's environment made afresh before and
    after (it is kept per process)."""
    folder = tmp_path / ".cache" / "templates"
    monkeypatch.setattr(template_cache, "CACHE", folder)
    environment.cache_clear()
    yield folder
    environment.cache_clear()


def test_the_cache_lives_in_the_checkout_and_git_ignores_it() -> None:
    assert template_cache.CACHE == ROOT / ".cache" / "templates"
    assert "/.cache/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()


def _pages() -> dict[str, str]:
    result, files = run_build(BASE, None, LANGUAGES)
    assert result.ok and files is not None
    return files


def test_a_build_from_kept_templates_writes_the_same_pages(cache_folder: Path) -> None:
    cold = _pages()  # compiles, and keeps what it compiled
    kept = sorted(p.name for p in cache_folder.iterdir())
    assert len(kept) >= 20
    environment.cache_clear()  # as a new process: every template comes from the folder
    assert _pages() == cold
    assert sorted(p.name for p in cache_folder.iterdir()) == kept  # read, not written again


def test_an_edited_template_is_compiled_afresh(cache_folder: Path) -> None:
    templates = {"page.j2": "one {{ x }}"}
    first = Environment(loader=DictLoader(templates))
    keep_compiled_templates(first)
    assert first.get_template("page.j2").render(x=1) == "one 1"
    templates["page.j2"] = "two {{ x }}"
    second = Environment(loader=DictLoader(templates))
    keep_compiled_templates(second)
    assert second.get_template("page.j2").render(x=1) == "two 1"


def test_a_file_in_the_folders_place_means_no_cache(cache_folder: Path) -> None:
    cache_folder.parent.mkdir(parents=True)
    cache_folder.write_text("not a folder")
    env = Environment(loader=DictLoader({"page.j2": "{{ x }}"}))
    keep_compiled_templates(env)
    assert env.bytecode_cache is None
    assert _pages()  # and the build goes on


def test_a_cache_that_cannot_be_written_is_no_cache(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", full)
    assert _pages()
    assert not any(cache_folder.iterdir())  # made, and nothing kept in it


def test_an_environment_with_other_settings_compiles_afresh(cache_folder: Path) -> None:
    """Jinja keys an entry by the template's name and source alone, but the compiled code depends
    on the environment's settings too: here `trim_blocks` (the newline after a block tag)."""
    templates = {"page.j2": "{% if x %}\nyes{% endif %}"}
    first = Environment(loader=DictLoader(templates))
    keep_compiled_templates(first)
    assert first.get_template("page.j2").render(x=1) == "\nyes"
    trimmed = Environment(loader=DictLoader(templates), trim_blocks=True)
    keep_compiled_templates(trimmed)
    assert trimmed.get_template("page.j2").render(x=1) == "yes"
