"""`make screenshots`: the main pages in light, dark and phone views, as PNG files in
screenshots/ (ignored by git), so anyone can look at what a reader sees."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["", "gpus/", "interconnects/", "networks/", "flowchart/", "scaling/", "pitfalls/", "claims/"]
VIEWS = {"light": ({"width": 1280, "height": 900}, "light"), "dark": ({"width": 1280, "height": 900}, "dark"),
         "phone": ({"width": 375, "height": 812}, "light")}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def main() -> int:
    out = ROOT / "screenshots"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as site:
        subprocess.run([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-q", "-d", site], cwd=ROOT,
                       check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, stderr=subprocess.DEVNULL)
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                                 args=ARGS)
            for view, (viewport, scheme) in VIEWS.items():
                context = browser.new_context(viewport=viewport, color_scheme=scheme,  # type: ignore[arg-type]
                                              device_scale_factor=2 if view == "phone" else 1)
                page = context.new_page()
                for path in PAGES:
                    page.goto(base + path, wait_until="networkidle")
                    name = (path.strip("/") or "home") + f"-{view}.png"
                    page.screenshot(path=str(out / name), full_page=view != "phone")
                    print(out / name)
                context.close()
            browser.close()
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
