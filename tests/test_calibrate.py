"""`python -m generator calibrate` and the calibration behind it: every run of specs/runs/ with its
measured and predicted step time, the error measured ÷ predicted − 1, and the means by source and
overall over the runs the model can express. The fixture base's two runs give exact checks; the
real knowledge base is only checked for structure, so a valid edit of specs/ never fails here."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys

import pytest
from support import ROOT, base_result, validate_with

from generator.costmodel import estimate
from generator.estimates.calibration import ASSUMED, RunError, calibrate, run_error, statement, summarise
from generator.estimates.records import assumptions
from generator.estimates.runs import measured_step, run_inputs
from generator.knowledge import KnowledgeBase, Loaded
from generator.language import speaking
from generator.model.runs import Run


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "calibrate", *args], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_each_error_is_measured_over_predicted_minus_one() -> None:
    kb = base_result().kb
    assert kb is not None
    report = calibrate(kb)
    assert len(report.runs) == len(kb.of_type(Run)) >= 2
    wanted = assumptions(kb)
    assert not isinstance(wanted, str)
    for entity in kb.of_type(Run):
        row = next(r for r in report.runs if r.id == entity.id)
        inputs, measured = run_inputs(kb, entity, ASSUMED), measured_step(kb, entity)
        assert not isinstance(inputs, str) and not isinstance(measured, str), (inputs, measured)
        predicted = estimate(inputs.workload, inputs.cluster, inputs.layout, wanted).estimate
        assert predicted is not None
        assert row.predicted_s == predicted.step.step_s and row.measured_s == measured.seconds
        assert row.error == pytest.approx(measured.seconds / predicted.step.step_s - 1.0, rel=1e-12)
    errors = [r.error for r in report.runs if r.error is not None]
    assert report.overall.mean_abs_error == pytest.approx(statistics.fmean(abs(e) for e in errors))
    assert report.overall.bias == pytest.approx(statistics.fmean(errors))
    assert report.worst(1)[0].error is not None and abs(report.worst(1)[0].error) == max(abs(e) for e in errors)


def test_a_run_the_model_cannot_express_counts_in_no_mean() -> None:
    """A run over eight nodes that names no network has no port rate to price: it is kept, with
    its reason, and leaves the means to the run that was estimated."""
    target = "specs/runs/test-run-llama-70b.yaml"
    raw = (ROOT / "tests/fixtures/base" / target).read_bytes()
    assert b"network: test-ib-hdr\n" in raw and b"gpus: 64\n" in raw
    result = validate_with(target, raw.replace(b"network: test-ib-hdr\n", b""))
    assert result.kb is not None, [d.as_text() for d in result.diagnostics]
    report = calibrate(result.kb)
    row = next(r for r in report.runs if r.id == "test-run-llama-70b")
    assert row.why == "the run spans nodes but names no network"
    assert row.predicted_s is None and row.error is None and row.measured_s is not None
    assert (report.overall.runs, report.overall.expressed) == (2, 1)
    only = next(r for r in report.runs if r.id != "test-run-llama-70b")
    assert only.error is not None and report.overall.mean_abs_error == pytest.approx(abs(only.error))


def test_summary_of_nothing_and_its_statement() -> None:
    empty = summarise([])
    assert (empty.runs, empty.expressed, empty.mean_abs_error, empty.bias) == (0, 0, None, None)
    assert "还没有" in statement(empty)
    with speaking("en"):
        assert statement(empty).startswith("There are no published measured runs")


def test_the_statement_in_english_says_the_same_figures() -> None:
    summary = summarise([RunError("a", "A", "s", 2.0, 1.0, True, None, ()),
                         RunError("b", "B", "s", 1.0, 2.0, True, None, ())])
    with speaking("en"):
        english = statement(summary)
    assert "2 published measured runs" in english and "75.0%" in english and "+25.0%" in english
    assert re.findall(r"\d+(?:\.\d+)?", english) == re.findall(r"\d+(?:\.\d+)?", statement(summary))


def test_cli_json_has_the_documented_keys() -> None:
    done = _run("--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"error", "overall", "without_inferred", "sources", "kinds", "architectures", "does_not_fit",
                         "worst", "runs"}
    assert set(data["overall"]) == set(data["without_inferred"]) == {"runs", "expressed", "mean_abs_error", "bias"}
    assert data["overall"]["runs"] == len(data["runs"]) == len(list((ROOT / "specs/runs").glob("*.yaml")))
    for run in data["runs"]:
        assert set(run) == {"id", "name", "source", "measured_step_s", "predicted_step_s", "error", "fits", "why",
                            "assumed", "inferred", "kind", "architecture"}
        assert run["kind"] is None or set(run["kind"]) == {"block", "precision", "training"}
        if run["inferred"] is not None:  # listed in `assumed` too, with the value taken and every accepted one
            chosen = "×".join(map(str, run["inferred"]["chosen"]))
            assert any(a.startswith(f"{'×'.join(run['inferred']['fields'])}={chosen} (fastest of ") for a in run["assumed"])
            assert run["inferred"]["chosen"] in run["inferred"]["accepted"]
        assert (run["error"] is None) == (run["predicted_step_s"] is None or run["measured_step_s"] is None)
        assert (run["why"] is None) == (run["predicted_step_s"] is not None)
    assert sum(s["runs"] for s in data["sources"]) == data["overall"]["runs"]
    # Every run the model has inputs for is in exactly one group of block and precision, and each
    # group's error is that of its runs.
    for kind in data["kinds"]:
        group = [r["error"] for r in data["runs"]
                 if r["kind"] == {"block": kind["block"], "precision": kind["precision"], "training": kind["training"]}]
        assert kind["runs"] == len(group)
        errors = [e for e in group if e is not None]
        assert kind["expressed"] == len(errors)
        assert kind["mean_abs_error"] == pytest.approx(sum(map(abs, errors)) / len(errors))
    assert sum(k["runs"] for k in data["kinds"]) == sum(r["kind"] is not None for r in data["runs"])
    plain = [r for r in data["runs"] if r["inferred"] is None]
    assert data["without_inferred"]["runs"] == len(plain)
    assert data["without_inferred"]["expressed"] == sum(r["error"] is not None for r in plain)


def test_cli_text_and_errors() -> None:
    done = _run("--worst", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cost model against ")
    assert "worst 3:" in done.stdout and "not expressed:" in done.stdout
    assert "without the runs whose layout the model chose (below): " in done.stdout
    assert "layout choices left unstated by the run, taken as the model's fastest: " in done.stdout
    bad = _run("--bogus")
    assert bad.returncode == 2 and bad.stderr.strip() == "calibrate: unrecognized arguments: --bogus"


def test_a_scan_point_is_the_calibration_with_that_value() -> None:
    """Each point of `scan` is what `calibrate` reports once specs/assumptions/ holds that value;
    the best point has the least error, and a held-out source is fitted without its own runs."""
    from pathlib import Path

    from generator.estimates.fit import scan
    kb = base_result().kb
    assert kb is not None
    found = scan(kb, {"gemm_efficiency_max": [0.45, 0.6]})
    assert not isinstance(found, str)
    path = Path(ROOT) / "tests/fixtures/base/specs/assumptions/test-gemm-efficiency-max.yaml"
    for point in found.points:
        raw = path.read_text(encoding="utf-8").replace("value: 0.5", f"value: {point.values[0]}")
        edited = validate_with("specs/assumptions/test-gemm-efficiency-max.yaml", raw.encode())
        assert edited.kb is not None
        assert point.summary() == calibrate(edited.kb).overall
    maes = [p.summary().mean_abs_error or 0.0 for p in found.points]
    assert found.best().summary().mean_abs_error == min(maes)
    for held in found.held_out():
        assert held.summary == held.fitted.summary(only=held.source)
        others = [m for p in found.points if (m := p.summary(without=held.source).mean_abs_error) is not None]
        if others:  # a base with one source has no other runs to fit on
            assert held.fitted.summary(without=held.source).mean_abs_error == min(others)


@pytest.mark.parametrize(("flags", "says"), [
    (("--scan", "gemm_efficiency_max=0.5,0.6"), None),
    (("--scan", "no_such_thing=1"), "'no_such_thing' is not an assumption of the cost model"),
    (("--scan", "gemm_efficiency_max=1.5"), "gemm_efficiency_max = 1.5 lies outside its domain"),
    (("--scan", "gemm_efficiency_max=a,b"), "is not NAME=V1,V2,... with numbers"),
    (("--scan", "gemm_efficiency_max=" + ",".join(str(0.01 * i) for i in range(1, 30)),
      "--scan", "gemm_half_intensity=" + ",".join(str(i) for i in range(15))), "the grid has 435 points; at most 400"),
])
def test_cli_scan(flags: tuple[str, ...], says: str | None) -> None:
    """`calibrate --scan` prints the grid, the best point and each source held out; a bad grid is
    one line and exit 2."""
    done = _run(*flags)
    if says is None:
        assert done.returncode == 0, done.stderr
        assert "best: gemm_efficiency_max" in done.stdout and "each source held out" in done.stdout
        data = json.loads(_run(*flags, "--format", "json").stdout)
        assert [p["values"] for p in data["points"]] == [{"gemm_efficiency_max": 0.5}, {"gemm_efficiency_max": 0.6}]
        assert {"best", "held_out", "names", "error"} <= set(data)
    else:
        assert done.returncode == 2, done.stdout
        assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def _interleaving_unstated(tflops: str = "137") -> tuple[KnowledgeBase, Loaded[Run]]:
    """The fixture GPT run on two pipeline stages, interleaving unstated, measured at `tflops`."""
    target = "specs/runs/test-run-gpt-1-7b.yaml"
    raw = (ROOT / "tests/fixtures/base" / target).read_text(encoding="utf-8")
    for old, new in (("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n",
                      "  tensor_parallel: 1\n  pipeline_parallel: 2\n  data_parallel: 16\n  virtual_pipeline: unstated\n"),
                     ("{metric: tflops_per_gpu, value: 137,", f"{{metric: tflops_per_gpu, value: {tflops},")):
        assert old in raw, old
        raw = raw.replace(old, new)
    result = validate_with(target, raw.encode("utf-8"))
    assert result.kb is not None, [d.as_text() for d in result.diagnostics]
    entity = result.kb.get("test-run-gpt-1-7b", Run)
    assert entity is not None
    return result.kb, entity


def test_an_inferred_choice_never_reads_the_measured_figure() -> None:
    """The same run measured at 137 and at 40 TFLOP/s per GPU: the measured step differs, the
    model's choice of chunks and its prediction do not. The run lists the choice, and the summary
    without inferred runs leaves it out."""
    rows = []
    for tflops in ("137", "40"):
        kb, entity = _interleaving_unstated(tflops)
        rows.append(run_error(kb, entity))
        report = calibrate(kb)
        assert report.without_inferred == summarise([r for r in report.runs if r.id != entity.id])
        assert report.overall == summarise(list(report.runs))
    fast, slow = rows
    assert fast.inferred is not None and fast.inferred == slow.inferred
    assert fast.predicted_s == slow.predicted_s and fast.measured_s != slow.measured_s
    assert str(fast.inferred) in fast.assumed and fast.error is not None and slow.error is not None
