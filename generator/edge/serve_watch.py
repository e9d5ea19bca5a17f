"""Under `mkdocs serve`, watch the folders the site is generated from (specs/, generator/,
includes/), and keep watching them when one is deleted, replaced or moved away and back: a branch
switch, a restore from a backup, `rm -rf specs && git checkout specs`.

They are not listed under mkdocs.yml's `watch:`: MkDocs validates that list on every rebuild and
refuses a folder that is missing, and a refused configuration leaves the server answering no
request ("The server will appear stuck until build errors are resolved"). Watched from here, a
missing specs/ is what the generator reports instead: the problems page.

MkDocs watches a folder with one watchdog watch on it. The watch dies with the folder (inotify
drops it) or follows it under its new name after a move, so the server would never see the new
folder. Here one more watch sits on each folder's parent, without recursion; when a watched folder
is created, deleted or moved there, its own watch is dropped and, if the folder exists again,
made anew, and a rebuild is asked for. Files copied into a new folder before its watch existed
are picked up by that rebuild or, at the latest, by the next edit.

Asking for a rebuild uses the server's own condition (`_rebuild_cond`, `_want_rebuild`), as its
`watch` callback does: MkDocs has no public call for it. tests/test_site_integration.py
(test_serve_recovers_when_specs_is_replaced) runs a real
`mkdocs serve` through these cases, so a MkDocs release that renames them fails there.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler

_CHANGES = ("created", "deleted", "moved")


def _paths(event: FileSystemEvent) -> set[str]:
    """The paths an event names (a move names two), as text."""
    return {os.fsdecode(p) for p in (event.src_path, getattr(event, "dest_path", "")) if p}


class _Rewatch(FileSystemEventHandler):
    """On the parent of watched folders: re-creates a folder's watch when the folder itself changes."""

    def __init__(self, server: Any, folders: set[str]) -> None:
        self._server = server
        self._folders = folders
        self._lock = threading.Lock()  # watchdog may call from more than one emitter thread

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _CHANGES:
            return
        for folder in sorted(self._folders & _paths(event)):
            self._rewatch(folder)

    def _rewatch(self, folder: str) -> None:
        with self._lock:
            if folder in self._server._watched_paths:
                # the old watch is dead or follows the folder elsewhere; unscheduling a watch whose
                # emitter has already stopped is allowed, and a second drop is harmless
                with contextlib.suppress(KeyError, ValueError):
                    self._server.unwatch(folder)
            if os.path.isdir(folder):
                self._server.watch(folder)
        with self._server._rebuild_cond:
            self._server._want_rebuild = True
            self._server._rebuild_cond.notify_all()


def keep_watching(server: Any, folders: Iterable[str]) -> None:
    """Watch each of `folders` that exists, and their parents, so that each folder's own watch
    survives its replacement (and starts when a missing one appears)."""
    wanted = {os.path.abspath(f) for f in folders}
    by_parent: dict[str, set[str]] = {}
    for folder in sorted(wanted):
        if os.path.isdir(folder):
            server.watch(folder)
        by_parent.setdefault(os.path.dirname(folder), set()).add(folder)
    for parent, children in sorted(by_parent.items()):
        if os.path.isdir(parent):
            server.observer.schedule(_Rewatch(server, children), parent, recursive=False)
