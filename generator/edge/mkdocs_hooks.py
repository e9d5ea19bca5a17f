"""The MkDocs hook file (`hooks:` in mkdocs.yml): each event is handed to
generator.edge.mkdocs_adapter, which holds what the hook does.

MkDocs imports this file once per process and keeps it, so under `mkdocs serve` the adapter and
the whole generator package are imported afresh at the start of every rebuild: an edit to
generator/ (watched, see on_serve) takes effect on the next reload, as an edit to specs/ does.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.plugins import event_priority

_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds generator/
WATCHED = ("specs", "generator", "includes")  # what the site is generated from, beside mkdocs.yml

_startup: dict[str, Any] = {"command": "build", "dirty": False}
_adapter: ModuleType | None = None


def _fresh_adapter() -> ModuleType:
    """The adapter, with every generator module imported anew (a copy from an earlier build, or
    from before an edit, is dropped first)."""
    global _adapter
    # MkDocs loads this file by path and restores sys.path once it has: the package beside it is
    # made importable here, when it is imported.
    if str(_ROOT) not in sys.path:
        sys.path.insert(0, str(_ROOT))
    for name in [m for m in sys.modules if m == "generator" or m.startswith("generator.")]:
        del sys.modules[name]
    _adapter = importlib.import_module("generator.edge.mkdocs_adapter")
    _adapter.on_startup(**_startup)
    return _adapter


def _current() -> ModuleType:
    return _adapter if _adapter is not None else _fresh_adapter()


def on_startup(*, command: str, dirty: bool) -> None:
    _startup.update(command=command, dirty=dirty)
    _fresh_adapter()


def on_config(config: Any) -> Any:
    # Each build starts here: under serve, with the generator as it is on disk now. Not the
    # English edition's build, which runs inside the Chinese one's on_post_build and reaches
    # this same module (MkDocs loads a hook file once per process): it belongs to the adapter
    # already running.
    nested = _adapter is not None and _adapter.nested()
    adapter = _fresh_adapter() if _startup["command"] == "serve" and not nested else _current()
    return adapter.on_config(config)


def on_files(files: Any, config: Any) -> Any:
    return _current().on_files(files, config)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return str(_current().on_page_markdown(markdown, page, config, files))


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return str(_current().on_page_content(html, page, config, files))


@event_priority(-100)  # after the search plugin has indexed the page (see the adapter)
def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    return _current().on_page_context(context, page, config, nav)


@event_priority(-100)  # last: the search plugin writes its index in its own on_post_build
def on_post_build(config: Any) -> None:
    _current().on_post_build(config)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    # Once, when the server starts: watch what the site is generated from, and keep watching it
    # when a folder is replaced (not under mkdocs.yml's `watch:`; see serve_watch.py).
    from generator.edge.serve_watch import keep_watching

    project = Path(config.config_file_path).resolve().parent
    keep_watching(server, [str(project / name) for name in WATCHED])
    return server


def on_build_error(error: Exception) -> None:
    _current().on_build_error(error)


def on_shutdown() -> None:
    _current().on_shutdown()


def on_env(env: Any, config: Any, files: Any) -> Any:
    return _current().on_env(env, config, files)
