"""`make screenshots`: the main pages in light, dark and phone views, as PNG files in
screenshots/ (ignored by git), so anyone can look at what a reader sees; and the README's
picture, .github/readme-gpus.png (the GPU page's first screen at 1280 × 800, committed), so that
it shows the site as it is."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools.sitekit import CHROMIUM, CHROMIUM_ARGS, ROOT, build_site, serve  # noqa: E402

PAGES = ["", "gpus/", "interconnects/", "networks/", "flowchart/", "scaling/", "pitfalls/", "claims/"]
VIEWS = {"light": ({"width": 1280, "height": 900}, "light"), "dark": ({"width": 1280, "height": 900}, "dark"),
         "phone": ({"width": 375, "height": 812}, "light")}
README_PICTURE = ROOT / ".github" / "readme-gpus.png"


def main() -> int:
    out = ROOT / "screenshots"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as site, serve(Path(site)) as base:
        done = build_site(Path(site))
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return 1
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for view, (viewport, scheme) in VIEWS.items():
                context = browser.new_context(viewport=viewport, color_scheme=scheme,  # type: ignore[arg-type]
                                              device_scale_factor=2 if view == "phone" else 1)
                page = context.new_page()
                for path in PAGES:
                    page.goto(f"{base}/{path}", wait_until="networkidle")
                    name = (path.strip("/") or "home") + f"-{view}.png"
                    page.screenshot(path=str(out / name), full_page=view != "phone")
                    print(out / name)
                context.close()
            context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
            page = context.new_page()
            page.goto(f"{base}/gpus/", wait_until="networkidle")
            page.screenshot(path=str(README_PICTURE))
            print(README_PICTURE)
            context.close()
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
