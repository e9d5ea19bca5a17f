"""Benchmarks (not tests): every budget of DESIGN.md section 8, measured and printed as Markdown
tables, each with its value, its budget and ✓ or ✗, then a summary of all of them.

Run with `make bench`. Times are CPU seconds (`time.process_time`, or the children's rusage for a
`mkdocs build`): the work is one process, so on an idle machine they equal the wall time, and
on a shared one they move far less than it; wall seconds are printed beside them, with the load
average. The synthetic knowledge bases clone every entity under new ids (references keep
pointing at the originals), so every rule runs on every clone, except what a valid knowledge
base holds a fixed number of: the sources (each must stay cited), one tier table per subject,
the one decision tree, one assumption per model parameter and the precisions (one of them is
the reference).
"""

from __future__ import annotations

import gc
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.edge.specfiles import read_spec_tree  # noqa: E402
from generator.language import LANGUAGES  # noqa: E402
from generator.pipeline import validate_and_render  # noqa: E402
from generator.render.expand import expand_figures  # noqa: E402
from generator.render.trust import source_targets  # noqa: E402
from generator.validate import SpecFile  # noqa: E402
from tools.sitekit import CHROMIUM_ARGS, FULL_CHROMIUM, build_site, serve  # noqa: E402

ENGLISH = "mkdocs.en.yml"  # the English edition's configuration, beside mkdocs.yml
PIPELINE_1X = 0.1  # seconds
PIPELINE_100X = 5.0
LINEAR_GROWTH = 1.25  # per-file time at 100x over 10x
BUILD = 5.0  # seconds, full strict mkdocs build
BUILD_OVERHEAD = 0.25  # at most this much slower than Material building the same pages alone
COST_MODEL = 1.0  # seconds for 10,000 configurations
TREE_ANSWERS = 1.0  # seconds for the planner's answer at every leaf's example (every build renders them)
PLAN = 1.0  # seconds for one `plan` answer (a reader waits for it at the terminal)
PAGE_BYTES = 150_000
SVG_BYTES = 40_000
LIGHTHOUSE_PERFORMANCE = 0.98  # DESIGN.md section 8; issue 26 asks at least 0.95 and within 3 points
LIGHTHOUSE_BEHIND = 0.03  # points (of 1) a page may score below Material alone's median
LIGHTHOUSE_VERSION = "12.2.3"
# Runs of each page on each build, the median kept: Lighthouse's docs/variability.md finds the
# median of five runs twice as stable as one; three halve the time of five, and a page's score in
# one run moved by up to 0.1 between passes here (the flowchart: 0.88 in a pass, 0.98 alone).
LIGHTHOUSE_RUNS = 3
_ID = re.compile(rb"^id: ([a-z0-9-]+)$", re.MULTILINE)

# (measure, value, budget, holds: True, False, or None when not measured)
SUMMARY: list[tuple[str, str, str, bool | None]] = []


def mark(holds: bool | None) -> str:
    return "—" if holds is None else ("✓" if holds else "✗")


def budget_row(measure: str, value: str, budget: str, holds: bool | None) -> None:
    SUMMARY.append((measure, value, budget, holds))


def synthetic(files: list[SpecFile], factor: int) -> list[SpecFile]:
    out = list(files)
    for copy in range(1, factor):
        for spec in files:
            # Not copied: sources, which must all stay cited; the tier tables, one per subject;
            # the decision tree, of which a knowledge base holds exactly one (rule tree-single);
            # the assumptions, one per model parameter (rule model-assumption-duplicate); the
            # precisions, of which exactly one is the reference (rule vocab-reference-precision).
            if spec.kind in ("sources", "tiers", "selection", "assumptions", "precisions"):
                continue
            suffix = f"-c{copy}"
            raw = _ID.sub(b"id: \\1" + suffix.encode(), spec.raw, count=1)
            out.append(SpecFile(spec.path.replace(".yaml", f"{suffix}.yaml"), spec.kind, spec.stem + suffix, raw))
    return out


def time_pipeline(files: list[SpecFile], runs: int) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of each run of validate + render, as `generator build` and the MkDocs
    hook run them. Each run's knowledge base and pages are freed before the next one starts."""
    times = []
    for _ in range(runs):
        gc.collect()
        cpu, wall = time.process_time(), time.perf_counter()
        result, pages = validate_and_render(files, languages=LANGUAGES)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
        if not result.ok or pages is None:
            raise SystemExit(f"the {len(files)}-file knowledge base does not validate")
        del result, pages
    return times


def pipeline(files: list[SpecFile]) -> None:
    print("## Validate + render in-process\n")
    print("| knowledge base | files | runs | CPU s (median) | wall s (median) | ms per file (CPU) | budget |")
    print("|---|---|---|---|---|---|---|")
    # The very first run of this process also compiles the templates and builds the JSON Schemas,
    # as every `mkdocs build` (and every rebuild under `mkdocs serve`, which reloads the generator) does.
    first = time_pipeline(files, 1)[0]
    print(f"| 1x, first run of the process | {len(files)} | 1 | {first[0]:.3f} | {first[1]:.3f} | "
          f"{first[0] / len(files) * 1000:.2f} | < {PIPELINE_1X} s {mark(first[0] < PIPELINE_1X)} |")
    budget_row("validate + render, real knowledge base, first run of a process", f"{first[0]:.3f} s",
               f"< {PIPELINE_1X} s", first[0] < PIPELINE_1X)
    per_file: dict[int, float] = {}
    for factor, runs in ((1, 9), (10, 5), (100, 5)):
        scaled = synthetic(files, factor)
        times = time_pipeline(scaled, runs)
        cpu, wall = statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)
        per_file[factor] = cpu / len(scaled)
        budget = {1: PIPELINE_1X, 100: PIPELINE_100X}.get(factor)
        limit = "" if budget is None else f"< {budget} s {mark(cpu < budget)}"
        label = "1x, later runs" if factor == 1 else f"{factor}x"
        print(f"| {label} | {len(scaled)} | {runs} | {cpu:.3f} | {wall:.3f} | {per_file[factor] * 1000:.3f} | {limit} |")
        if budget is not None:
            what = "real knowledge base, later runs" if factor == 1 else f"synthetic {factor}x ({len(scaled)} files)"
            budget_row(f"validate + render, {what}", f"{cpu:.3f} s", f"< {budget} s", cpu < budget)
    growth = per_file[100] / per_file[10]
    print(f"| growth 10x → 100x | | | | | ×{growth:.2f} per file | ≤ ×{LINEAR_GROWTH} {mark(growth <= LINEAR_GROWTH)} |")
    budget_row("linear: per-file time at 100x over 10x", f"×{growth:.2f}", f"≤ ×{LINEAR_GROWTH}",
               growth <= LINEAR_GROWTH)
    print()


def without_generator(project: Path) -> None:
    """A copy of the project that Material builds alone: the generated pages of both editions
    written into its docs/ (and docs/en/) by `generator build`, figure references in the
    hand-written pages expanded as the hook would, the theme override (generator/theme) beside
    them, a mkdocs.yml with no `hooks:` and the English edition's mkdocs.en.yml, which inherits it
    (`build_both` builds the two, as the hook does in one build)."""
    for name in ("docs", "includes", "generator/theme"):  # the theme override is Material's, not the hook's
        shutil.copytree(ROOT / name, project / name)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"^(hooks|watch):\n(?:[ \t]+.*\n|\n)*", "", config, flags=re.MULTILINE)
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copy(ROOT / ENGLISH, project / ENGLISH)
    subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(project / "docs"), "--specs", "specs"],
                   cwd=ROOT, check=True, capture_output=True)
    result, _pages = validate_and_render(read_spec_tree(ROOT / "specs")[0])
    assert result.kb is not None and result.figures is not None
    titles = source_targets(result.kb)
    for page in sorted((ROOT / "docs").rglob("*.md")):
        relative = page.relative_to(ROOT / "docs")
        in_edition = relative.relative_to("en") if relative.parts[0] == "en" else relative  # depth from its root
        expanded, problems = expand_figures(page.read_text(encoding="utf-8"), result.figures, titles,
                                            f"docs/{relative}", str(in_edition).count("/"))
        assert not problems, problems
        (project / "docs" / relative).write_text(expanded, encoding="utf-8")


def build_both(out: Path, project: Path) -> None:
    """Both editions of a project without the hook: the Chinese one into `out`, the English one
    into `out/en`, as the hook builds them (with the hook, the first build makes both)."""
    for config, where in (("mkdocs.yml", out), (ENGLISH, out / "en")):
        done = build_site(where, project, config)
        if done.returncode:
            raise SystemExit(f"mkdocs build of {project}/{config} failed:\n{done.stderr}")


def time_build(project: Path, hooked: bool) -> tuple[float, float]:
    """(CPU, wall) seconds of the strict build of both editions of `project`, in child processes:
    one `mkdocs build` with the hook, or one per edition without it."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        if hooked:
            done = build_site(Path(out), project)
            if done.returncode:
                raise SystemExit(f"mkdocs build of {project} failed:\n{done.stderr}")
        else:
            build_both(Path(out), project)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def builds(runs: int = 5) -> None:
    # Five, not three: on this shared 2-core machine one pass of three moved the ratio by up to 4 points.
    print("## Full strict `mkdocs build`\n")
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp)
        without_generator(plain)
        timed: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
        for _ in range(runs):  # alternated, so that a slow minute falls on both
            timed["with"].append(time_build(ROOT, hooked=True))
            timed["without"].append(time_build(plain, hooked=False))
    cpu = {k: statistics.median(t[0] for t in v) for k, v in timed.items()}
    wall = {k: statistics.median(t[1] for t in v) for k, v in timed.items()}
    overhead = cpu["with"] / cpu["without"] - 1
    print("| build | runs | CPU s (median) | wall s (median) | budget |")
    print("|---|---|---|---|---|")
    print(f"| the project, both editions (generator in the MkDocs hook) | {runs} | {cpu['with']:.2f} | {wall['with']:.2f} | "
          f"< {BUILD} s {mark(cpu['with'] < BUILD)} |")
    print(f"| the same pages, Material alone (no hook, one build per edition) | {runs} | {cpu['without']:.2f} | {wall['without']:.2f} | |")
    print(f"| generator's share | | {overhead:+.0%} | {wall['with'] / wall['without'] - 1:+.0%} | "
          f"≤ +{BUILD_OVERHEAD:.0%} {mark(overhead <= BUILD_OVERHEAD)} |\n")
    budget_row("full strict `mkdocs build`", f"{cpu['with']:.2f} s", f"< {BUILD} s", cpu["with"] < BUILD)
    budget_row("`mkdocs build` slower than Material alone on the same pages", f"{overhead:+.0%}",
               f"≤ +{BUILD_OVERHEAD:.0%}", overhead <= BUILD_OVERHEAD)


def cost_model(runs: int = 5) -> None:
    """The cost model (DESIGN.md section 7a) on the 10,000 configurations of its fixed grid
    (generator.costmodel.grid; building the grid is not timed)."""
    from generator.costmodel.grid import configurations, estimate_all

    configs = configurations(10_000)
    times = []
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        estimate_all(configs)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    seconds = statistics.median(t[0] for t in times)
    print("## Cost model\n")
    print("| measure | runs | CPU s (median) | wall s (median) | budget |")
    print("|---|---|---|---|---|")
    print(f"| estimate {len(configs):,} configurations | {runs} | {seconds:.3f} | "
          f"{statistics.median(t[1] for t in times):.3f} | < {COST_MODEL} s {mark(seconds < COST_MODEL)} |")
    budget_row(f"cost model: {len(configs):,} configurations", f"{seconds:.3f} s", f"< {COST_MODEL} s",
               seconds < COST_MODEL)
    tree_answers(runs)
    calibration(runs)
    planner(runs)


def calibration(runs: int) -> None:
    """`python -m generator calibrate`'s work in-process: the model against every published run of
    specs/runs/ (no budget of its own; rule model-calibration-error runs it in every validation)."""
    from generator.estimates.calibration import calibrate
    from generator.validate import validate

    files, _ = read_spec_tree(Path("specs"))
    kb = validate(files).kb
    assert kb is not None
    times = []
    for _ in range(runs):
        kb.memo.clear()  # what validation computed and kept (the calibration itself): each run computes it
        cpu, wall = time.process_time(), time.perf_counter()
        report = calibrate(kb)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    seconds = statistics.median(t[0] for t in times)
    print(f"| calibrate against {report.overall.runs} published runs ({report.overall.expressed} expressed) | {runs} | "
          f"{seconds:.3f} | {statistics.median(t[1] for t in times):.3f} | no budget |\n")
    budget_row(f"calibrate: {report.overall.runs} runs", f"{seconds:.3f} s", "no budget", None)


def planner(runs: int) -> None:
    """`python -m generator plan`'s work in-process for three readers: the middle workload on 64 GPUs
    in each market, and the largest on one GPU (nothing fits: the fewest-GPUs search runs too)."""
    from generator.estimates.choice import Choice
    from generator.estimates.records import workloads
    from generator.model.markets import Market
    from generator.planner.plan import Request, plan
    from generator.validate import validate

    files, _ = read_spec_tree(Path("specs"))
    kb = validate(files).kb
    assert kb is not None
    shapes = sorted(workloads(kb), key=lambda w: w.model.parameters)
    markets = [m.id for m in kb.of_type(Market)]
    if not shapes or not markets:
        return
    asks = [(shapes[len(shapes) // 2].id, 64, m) for m in markets] + [(shapes[-1].id, 1, markets[0])]
    for workload, gpus, market in asks:
        times = []
        for _ in range(runs):
            kb.memo.clear()  # as a reader's `plan` starts: nothing derived kept from the run before
            cpu, wall = time.process_time(), time.perf_counter()
            plan(kb, Request(Choice("", 0, "", workload), gpus, market))
            times.append((time.process_time() - cpu, time.perf_counter() - wall))
        seconds = statistics.median(t[0] for t in times)
        print(f"| plan {workload} on {gpus} GPUs, {market} | {runs} | {seconds:.3f} | "
              f"{statistics.median(t[1] for t in times):.3f} | < {PLAN} s {mark(seconds < PLAN)} |")
        budget_row(f"plan: {workload}, {gpus} GPUs, {market}", f"{seconds:.3f} s", f"< {PLAN} s", seconds < PLAN)


def tree_answers(runs: int) -> None:
    """The planner at every leaf's example in every market view (generator/selection/answers.py),
    as the flowchart, the tiers page and data/tree.json need them on every build."""
    from generator.model.selection import Selection
    from generator.selection.answers import compute_answers, market_views
    from generator.validate import validate

    files, _ = read_spec_tree(Path("specs"))
    kb = validate(files).kb
    assert kb is not None
    tree = kb.of_type(Selection)[0].model
    times = []
    for _ in range(runs):
        kb.memo.clear()  # nothing derived kept from the run before (the GPUs' model records)
        cpu, wall = time.process_time(), time.perf_counter()
        found = compute_answers(kb, tree)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    seconds = statistics.median(t[0] for t in times)
    plans = len(found) * len(market_views(kb))
    print(f"| the tree's answers ({len(found)} leaves, {plans} plans) | {runs} | {seconds:.3f} | "
          f"{statistics.median(t[1] for t in times):.3f} | < {TREE_ANSWERS} s {mark(seconds < TREE_ANSWERS)} |")
    budget_row(f"tree answers: {len(found)} leaves × {len(market_views(kb))} markets", f"{seconds:.3f} s",
               f"< {TREE_ANSWERS} s", seconds < TREE_ANSWERS)


def sizes(site: Path) -> None:
    pages = sorted(((p.stat().st_size, str(p.relative_to(site))) for p in site.rglob("*.html")), reverse=True)
    flowchart = (site / "flowchart" / "index.html").read_text(encoding="utf-8")
    svg = re.search(r"<svg\b[^>]*\bid=\"flowchart\".*?</svg>", flowchart, re.DOTALL)
    svg_bytes = len(svg.group(0).encode()) if svg else 0
    print("## Page weight (1 KB = 1,000 bytes)\n")
    print("| measure | value | budget |")
    print("|---|---|---|")
    print(f"| largest page | {pages[0][1]}: {pages[0][0] / 1000:.1f} KB | < {PAGE_BYTES // 1000} KB "
          f"{mark(pages[0][0] < PAGE_BYTES)} |")
    print(f"| flowchart SVG (inline in flowchart/index.html) | {svg_bytes / 1000:.1f} KB | < {SVG_BYTES // 1000} KB "
          f"{mark(0 < svg_bytes < SVG_BYTES)} |")
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(f"| whole site | {total / 1e6:.2f} MB | — |\n")
    print("| page | KB of HTML |")
    print("|---|---|")
    for size, name in pages:
        print(f"| {name} | {size / 1000:.1f} |")
    print()
    budget_row("largest page", f"{pages[0][0] / 1000:.1f} KB ({pages[0][1]})", f"< {PAGE_BYTES // 1000} KB",
               pages[0][0] < PAGE_BYTES)
    budget_row("flowchart SVG", f"{svg_bytes / 1000:.1f} KB", f"< {SVG_BYTES // 1000} KB", 0 < svg_bytes < SVG_BYTES)


def material_alone(project: Path) -> None:
    """`without_generator`'s copy, also without the project's stylesheet, scripts and theme
    override: Material alone on the same pages, the reference the project's pages are measured
    against (the difference is what the project adds to Material)."""
    without_generator(project)
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"^(extra_css|extra_javascript):\n(?:[ \t]+.*\n|\n)*", "", config, flags=re.MULTILINE)
    config = re.sub(r"^  custom_dir: .*\n", "", config, flags=re.MULTILINE)
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.rmtree(project / "generator" / "theme")


def lighthouse(site: Path) -> None:
    """Lighthouse (npm, pinned, installed into .bench-tools/) on every page, with Debian's Chromium,
    behind a server that gzips text as real hosts do (uncompressed, the Chinese search index alone
    costs about 20 points of performance), in one run beside the same pages built by Material
    alone (`material_alone`), page after page and run after run, so that a slow minute falls on
    both; each page's figures are those of its median run of `LIGHTHOUSE_RUNS`."""
    print(f"## Lighthouse, every page, served gzip-compressed, beside Material alone (median of {LIGHTHOUSE_RUNS} runs)\n")
    tools = ROOT / ".bench-tools"
    cli = tools / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.exists():
        npm = shutil.which("npm")
        if npm is None:
            print("npm is not installed: no Lighthouse figures\n")
            budget_row(f"Lighthouse performance ≥ {LIGHTHOUSE_PERFORMANCE} on every page", "not measured (no npm)",
                       f"≥ {LIGHTHOUSE_PERFORMANCE}", None)
            return
        subprocess.run([npm, "i", "-E", f"lighthouse@{LIGHTHOUSE_VERSION}", "--prefix", str(tools), "--no-audit",
                        "--no-fund"], check=True, capture_output=True)
    paths = sorted("/" + str(p.relative_to(site)).removesuffix("index.html") for p in site.rglob("index.html")
                   if p.parent.name != "404")
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])

    def measure(base: str, path: str) -> dict[str, float] | None:
        done = subprocess.run(["node", str(cli), base + path, "--output=json", "--quiet", f"--chrome-flags={flags}",
                               "--only-categories=performance,accessibility,best-practices,seo"],
                              capture_output=True, text=True, timeout=300, env={**os.environ, "CHROME_PATH": FULL_CHROMIUM})
        try:
            report = json.loads(done.stdout)
            categories, audits = report["categories"], report["audits"]
            return {"performance": categories["performance"]["score"] or 0.0,
                    "accessibility": categories["accessibility"]["score"] or 0.0,
                    "tbt": audits["total-blocking-time"]["numericValue"],
                    "cls": audits["cumulative-layout-shift"]["numericValue"],
                    "kb": audits["total-byte-weight"]["numericValue"] / 1000}
        except (ValueError, KeyError, TypeError):
            return None

    def median(runs: list[dict[str, float] | None]) -> dict[str, float] | None:
        """The run of the median performance score (a failed run counts as the lowest)."""
        ranked = sorted(runs, key=lambda run: -1.0 if run is None else run["performance"])
        return ranked[len(ranked) // 2]

    rows: list[tuple[str, dict[str, float] | None, dict[str, float] | None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "plain"
        plain.mkdir()
        material_alone(plain)
        bare = Path(tmp) / "site"
        build_both(bare, plain)
        with serve(site, compressed=True) as base, serve(bare, compressed=True) as bare_base:
            # One run of each site first, not counted: a warm-up, so that neither site's first page
            # pays for starting cold.
            measure(base, "/")
            measure(bare_base, "/")
            for path in paths:
                has_bare = (bare / path.strip("/")).exists()
                ours: list[dict[str, float] | None] = []
                theirs: list[dict[str, float] | None] = []
                for run in range(LIGHTHOUSE_RUNS):
                    # Which site goes first alternates from run to run. Measured always first, the
                    # project's home page had a median of 0.89 against Material's 0.99; measured second,
                    # 0.98 against 0.99: the order, not the page, made most of the gap.
                    sites = [(ours, base), (theirs, bare_base if has_bare else None)]
                    for results, where in sites if run % 2 == 0 else sites[::-1]:
                        results.append(measure(where, path) if where else None)
                rows.append((path, median(ours), median(theirs) if has_bare else None))
    print("| page | performance | Material alone | TBT ms | CLS | KB transferred | accessibility |")
    print("|---|---|---|---|---|---|---|")
    for path, ours, theirs in rows:
        if ours is None:
            print(f"| {path} | failed | | | | | |")
            continue
        print(f"| {path} | {ours['performance']:.2f} | {theirs['performance'] if theirs else float('nan'):.2f} | "
              f"{ours['tbt']:.0f} | {ours['cls']:.3f} | {ours['kb']:.0f} | {ours['accessibility']:.2f} |")
    ours_scores = [o["performance"] if o else 0.0 for _p, o, _t in rows]
    bare_scores = [t["performance"] for _p, _o, t in rows if t]
    bare_median = statistics.median(bare_scores) if bare_scores else float("nan")
    # Issue 26: every page within LIGHTHOUSE_BEHIND of Material's median and at least 0.95;
    # DESIGN.md's budget, 0.98, is the row below the table.
    floor = max(0.95, bare_median - LIGHTHOUSE_BEHIND)
    behind = [(score, path) for score, (path, _o, _t) in zip(ours_scores, rows, strict=True) if score < floor]
    print(f"\nmedian: the project {statistics.median(ours_scores):.2f}, Material alone {bare_median:.2f}; "
          f"{len(behind)} of {len(rows)} pages below {floor:.2f} (the higher of 0.95 and "
          f"Material's median − {LIGHTHOUSE_BEHIND})" + (": " + ", ".join(f"{p} {s:.2f}" for s, p in sorted(behind))
                                                        if behind else "") + ".\n")
    budget_row(f"Lighthouse performance within {LIGHTHOUSE_BEHIND} of Material alone's median, ≥ 0.95",
               f"{len(behind)} of {len(rows)} pages below {floor:.2f}", f"≥ {floor:.2f}", not behind)
    below = sum(1 for score in ours_scores if score < LIGHTHOUSE_PERFORMANCE)
    budget_row(f"Lighthouse performance on every page ({len(rows)} pages)", f"lowest {min(ours_scores):.2f}, "
               f"{below} below", f"≥ {LIGHTHOUSE_PERFORMANCE}", below == 0)


def corpus() -> None:
    """Every bad spec of tests/invalid/: time and peak Python memory in-process, and the worst
    inputs (a 50 MB file, an alias bomb) through the command line with its peak RSS."""
    import tracemalloc

    sys.path.insert(0, str(ROOT / "tests"))
    from support import invalid_cases, validate_with

    rows = []
    validate_with("specs/networks/warm.yaml", b"")  # parse the fixture base once, as the tests do
    for case in invalid_cases():
        tracemalloc.start()
        start = time.perf_counter()
        result = validate_with(case.target, case.raw)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append((seconds, peak, case, result.passes(strict=True)))  # warning-only cases fail strictly, as in CI
    slowest = max(rows, key=lambda r: r[0])
    biggest = max(rows, key=lambda r: r[1])
    print("## Invalid-spec corpus (in-process, on the memoised fixture base; no budget)\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| cases | {len(rows)} (all fail under --strict: {all(not ok for *_r, ok in rows)}) |")
    print(f"| slowest case | {slowest[2].name}: {slowest[0] * 1000:.0f} ms |")
    print(f"| peak Python memory | {biggest[2].name}: {biggest[1] / 1024 / 1024:.1f} MiB |")
    with tempfile.TemporaryDirectory() as tmp:
        print("\n## Worst inputs through `python -m generator check` (fresh process each; no budget)\n")
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
    print()


def summary() -> None:
    print("## Budgets of DESIGN.md section 8\n")
    print("| budget | measured | limit | holds |")
    print("|---|---|---|---|")
    for measure, value, budget, holds in SUMMARY:
        print(f"| {measure} | {value} | {budget} | {mark(holds)} |")


def main() -> int:
    os.chdir(ROOT)
    print(f"Load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs seen).\n")
    files, _ = read_spec_tree(Path("specs"))
    pipeline(files)
    builds()
    cost_model()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        build_site(site).check_returncode()
        sizes(site)
        lighthouse(site)
    corpus()
    summary()
    print(f"\nLoad average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
