"""What the browser tests, `make screenshots` and `make bench` share: a strict build of the site
into a folder, a quiet static server for it on 127.0.0.1 (optionally gzip-compressing text, as
real hosts serve it), and how to launch Debian's Chromium."""

from __future__ import annotations

import functools
import gzip
import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
# The browser tests and screenshots run Debian's headless shell (tools/browser-deps.sh says why);
# Lighthouse measures the full browser, as a reader's is.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = "/usr/bin/chromium"
# As the machine notes advise: no background networking, no component updates, no first run.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def build_site(out: Path, project: Path = ROOT, config: str = "mkdocs.yml") -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `project` (its `config`) into `out` (not `-q`: quiet mode drops
    warnings before strict mode counts them, so a quiet strict build passes with warnings)."""
    return subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-f", config,
                           "-d", str(out)],
                          cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
                          timeout=300)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


_TEXT_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")


class _Gzipped(_Quiet):
    """Text responses gzip-compressed when the request accepts gzip, as static hosts serve them."""

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's URL with a slash
            path = path / "index.html"
        kind = self.guess_type(str(path))
        accepted = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepted or not kind.startswith(_TEXT_TYPES) or not path.is_file():
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def serve(directory: Path, *, compressed: bool = False) -> Iterator[str]:
    """Serve `directory` on a free loopback port; yields the base URL (no trailing slash). With
    `compressed`, text files are sent gzip-compressed to clients that accept it."""
    handler = _Gzipped if compressed else _Quiet
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
