"""Benchmarks (not tests): time validation + rendering at 1x, 10x and 100x the real knowledge
base, a full strict `mkdocs build`, and measure page weight. Prints Markdown tables.

Run with `make bench`. The synthetic knowledge bases clone every entity under new ids
(references keep pointing at the originals), so every rule runs on every clone, except what a
valid knowledge base holds a fixed number of: the sources (each must stay cited), one tier table
per subject and the one decision tree. Nothing is cached between runs or keyed on content, so
the clones' likeness buys nothing.
"""

from __future__ import annotations

import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.pipeline import validate_and_render  # noqa: E402
from generator.specfiles import read_spec_tree  # noqa: E402
from generator.validate import SpecFile  # noqa: E402
from tools.sitekit import CHROMIUM, CHROMIUM_ARGS, build_site, serve  # noqa: E402

BUDGETS = {"1x": 0.3, "100x": 3.0}
LINEAR_GROWTH = 1.25
SVG_BUDGET = 40_000  # bytes
_ID = re.compile(rb"^id: ([a-z0-9-]+)$", re.MULTILINE)


def synthetic(files: list[SpecFile], factor: int) -> list[SpecFile]:
    out = list(files)
    for copy in range(1, factor):
        for spec in files:
            # Not copied: sources, which must all stay cited; the tier tables, one per subject;
            # the decision tree, of which a knowledge base holds exactly one (rule tree-single).
            if spec.kind in ("sources", "tiers", "selection"):
                continue
            suffix = f"-c{copy}"
            raw = _ID.sub(b"id: \\1" + suffix.encode(), spec.raw, count=1)
            out.append(SpecFile(spec.path.replace(".yaml", f"{suffix}.yaml"), spec.kind, spec.stem + suffix, raw))
    return out


def time_pipeline(files: list[SpecFile], runs: int, probes: list[float]) -> tuple[list[float], bool]:
    """Validate + render as `python -m generator build` and the MkDocs hook run them. Before each
    run, `probe` times a fixed loop: shared machines change speed from minute to minute, and
    the probe shows how fast this one was while the figures were taken."""
    times = []
    ok = True
    for _ in range(runs):
        probes.append(probe())
        start = time.perf_counter()
        result, pages = validate_and_render(files)
        times.append(time.perf_counter() - start)
        ok = ok and result.ok and pages is not None
        # Free this run's knowledge base and pages before the next run starts its clock: kept
        # alive, they would be torn down inside the next timing.
        del result, pages
        gc.collect()
    return times, ok


def probe() -> float:
    """Seconds for ten million additions in a Python loop: pure interpreter speed, one core."""
    start = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - start


def main() -> int:
    os.chdir(ROOT)
    files, _ = read_spec_tree(Path("specs"))
    print("## Validate + render in-process (median)\n")
    print("| knowledge base | files | runs | seconds (median) | fastest run | ms per file | budget | valid |")
    print("|---|---|---|---|---|---|---|---|")
    probes: list[float] = []
    per_file: dict[str, float] = {}
    for label, factor, runs in (("1x", 1, 7), ("10x", 10, 5), ("100x", 100, 7)):
        synthetic_files = synthetic(files, factor)
        times, ok = time_pipeline(synthetic_files, runs, probes)
        seconds, count = statistics.median(times), len(synthetic_files)
        per_file[label] = seconds / count
        budget = BUDGETS.get(label)
        mark = "" if budget is None else (f"< {budget} s ✓" if seconds < budget else f"< {budget} s ✗")
        print(f"| {label} | {count} | {runs} | {seconds:.3f} | {min(times):.3f} | {seconds / count * 1000:.2f} | {mark} "
              f"| {ok} |")
    # Linear: ten times the files may cost at most a quarter more per file (1x is too short a
    # run to compare).
    growth = per_file["100x"] / per_file["10x"]
    print(f"| growth 10x → 100x | | | | | ×{growth:.2f} per file | linear (≤ ×{LINEAR_GROWTH}) "
          f"{'✓' if growth <= LINEAR_GROWTH else '✗'} | |")
    print(f"\nMachine speed while timing: the probe loop (`probe()`, ten million additions) took "
          f"{min(probes):.2f}–{max(probes):.2f} s before the runs (median {statistics.median(probes):.2f} s). "
          "The budgets are judged on the median run.")
    with tempfile.TemporaryDirectory() as site:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        mkdocs = str(Path(sys.executable).with_name("mkdocs"))
        start = time.perf_counter()
        subprocess.run([mkdocs, "build", "--strict", "-q", "-d", site], check=True, env=env,
                       stderr=subprocess.DEVNULL)
        build = time.perf_counter() - start
        pages = sorted(((p.stat().st_size, str(p.relative_to(site))) for p in Path(site).rglob("*.html")), reverse=True)
        flowchart = (Path(site) / "flowchart" / "index.html").read_text(encoding="utf-8")
        svg = len(re.search(r"<svg\b[^>]*\bid=\"flowchart\".*?</svg>", flowchart, re.DOTALL).group(0).encode())  # type: ignore[union-attr]
        total = sum(p.stat().st_size for p in Path(site).rglob("*") if p.is_file())
    print("\n## Site\n")
    print("| measure | value | budget |")
    print("|---|---|---|")
    print(f"| full `mkdocs build --strict` (wall) | {build:.2f} s | < 5 s {'✓' if build < 5 else '✗'} |")
    print(f"| largest page | {pages[0][1]}: {pages[0][0] / 1024:.1f} KiB | < 150 KB {'✓' if pages[0][0] < 150_000 else '✗'} |")
    print(f"| flowchart SVG (inline in flowchart/index.html) | {svg / 1024:.1f} KiB | < 40 KB "
          f"{'✓' if svg < SVG_BUDGET else '✗'} |")
    print(f"| total site | {total / 1024 / 1024:.2f} MiB | — |")
    print("\n## HTML size per page\n")
    print("| page | KiB |")
    print("|---|---|")
    for size, name in pages:
        print(f"| {name} | {size / 1024:.1f} |")
    corpus()
    lighthouse()
    return 0


def corpus() -> None:
    """Every bad spec of tests/invalid/: time and peak Python memory in-process, and the worst
    inputs (a 50 MB file, an alias bomb) through the command line with its peak RSS."""
    import shutil
    import tracemalloc

    sys.path.insert(0, str(ROOT / "tests"))
    from support import invalid_cases, validate_with

    rows = []
    validate_with("specs/networks/warm.yaml", b"")  # parse the real tree once, as the tests do
    for case in invalid_cases():
        tracemalloc.start()
        start = time.perf_counter()
        result = validate_with(case.target, case.raw)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append((seconds, peak, case, result.ok))
    slowest = max(rows, key=lambda r: r[0])
    biggest = max(rows, key=lambda r: r[1])
    print("\n## Invalid-spec corpus (in-process, real tree memoised)\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| cases | {len(rows)} (all fail: {all(not ok for *_r, ok in rows)}) |")
    print(f"| slowest case | {slowest[2].name}: {slowest[0] * 1000:.0f} ms |")
    print(f"| peak Python memory | {biggest[2].name}: {biggest[1] / 1024 / 1024:.1f} MiB |")
    with tempfile.TemporaryDirectory() as tmp:
        print("\n## Worst inputs through `python -m generator check` (fresh process each)\n")
        print("| input | exit | seconds | peak RSS of the run |")
        print("|---|---|---|---|")
        for name, body in (("50 MB file", None), ("alias bomb", (ROOT / "tests/invalid/yaml-billion-laughs.yaml").read_bytes())):
            tree = Path(tmp) / name.replace(" ", "-") / "specs"
            shutil.copytree(ROOT / "specs", tree)
            target = tree / "networks" / "bad.yaml"
            if body is None:
                with target.open("wb") as f:
                    f.write(b"id: bad\nsummary: {zh: '" + b"x" * (50 * 1024 * 1024) + b"'}\n")
            else:
                target.write_bytes(body)
            script = ("import resource,subprocess,sys,time;t=time.perf_counter();"
                      f"r=subprocess.run([sys.executable,'-m','generator','check',{str(tree)!r}],capture_output=True);"
                      "print(r.returncode, round(time.perf_counter()-t,2), "
                      "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
            out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout.split()
            print(f"| {name} | {out[0]} | {out[1]} | {int(out[2]) / 1024:.0f} MiB |")


LIGHTHOUSE_VERSION = "12.2.3"
LIGHTHOUSE_PAGES = ["", "gpus/", "flowchart/"]


def lighthouse() -> None:
    """Lighthouse (npm, pinned) on the home page, the GPU comparison and the flowchart, with
    CHROME_PATH pointing at Debian's Chromium. A report, not a gate."""
    import json
    import shutil

    tools = ROOT / ".bench-tools"
    cli = tools / "node_modules" / "lighthouse" / "cli" / "index.js"
    print("\n## Lighthouse (report, not a gate)\n")
    if not cli.exists():
        npm = shutil.which("npm")
        if npm is None:
            print("npm is not installed: no Lighthouse figures")
            return
        subprocess.run([npm, "i", "-E", f"lighthouse@{LIGHTHOUSE_VERSION}", "--prefix", str(tools), "--no-audit",
                        "--no-fund"], check=True, capture_output=True)

    with tempfile.TemporaryDirectory() as site, serve(Path(site)) as base:
        build_site(Path(site)).check_returncode()
        print("| page | performance | accessibility | best practices | SEO |")
        print("|---|---|---|---|---|")
        flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
        for path in LIGHTHOUSE_PAGES:
            url = f"{base}/{path}"
            done = subprocess.run(["node", str(cli), url, "--output=json", "--quiet", f"--chrome-flags={flags}",
                                   "--only-categories=performance,accessibility,best-practices,seo"],
                                  capture_output=True, text=True, timeout=300,
                                  env={**os.environ, "CHROME_PATH": CHROMIUM})
            try:
                categories = json.loads(done.stdout)["categories"]
                scores = [categories[k]["score"] for k in ("performance", "accessibility", "best-practices", "seo")]
                print(f"| /{path} | " + " | ".join(f"{round(s * 100)}" if s is not None else "—" for s in scores) + " |")
            except (ValueError, KeyError):
                print(f"| /{path} | failed: {done.stderr.strip().splitlines()[-1:]} | | | |")


if __name__ == "__main__":
    sys.exit(main())


