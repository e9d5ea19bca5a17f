"""Finite by construction: fed extreme values (counts up to and beyond a double's integers,
denormal and huge assumptions and hardware figures), the model gives an estimate whose every
output is finite, or a refusal; never NaN or infinity, never an exception. The browser's port
refuses the same cases with the same codes, and the command line prints one line for them."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT, cli
from test_costmodel_js import run_js

from generator.costmodel import Layout, estimate
from generator.costmodel.feasibility import MAX_COUNT, check, input_problems
from generator.costmodel.grid import illustrative_assumptions, synthetic_nodes, synthetic_workloads
from generator.costmodel.inputs import Cluster
from generator.edge.cli import main
from generator.edge.counts import count, whole
from generator.estimates.report import outputs

HUGE = (2**53, 2**53 + 1, 10**18, 10**320)
# Mostly counts the model takes (small, or anywhere up to 2^53 − 1), sometimes one past it: a
# case with one value out of bounds is refused whatever else it holds, so most cases must hold
# none for the estimate's own outputs to be tested at their extremes.
COUNTS = st.one_of(st.integers(1, 64), st.integers(1, 64), st.integers(1, 2**53 - 1), st.sampled_from(HUGE))
COUNTS_OR_ZERO = st.one_of(st.just(0), st.just(0), st.integers(1, 64), st.sampled_from(HUGE))
NORMAL = (1e-300, 1e-30, 1e-3, 1e30, 1e300, 1.7e308)  # normal floats, near and far from a double's ends
DENORMAL = (5e-324, 1e-320, 2.2e-308)  # below the smallest normal, 2.2250738585072014e-308
TINY_OR_HUGE_JSON = st.one_of(st.sampled_from(NORMAL), st.sampled_from(NORMAL), st.sampled_from(DENORMAL))
TINY_OR_HUGE = st.one_of(TINY_OR_HUGE_JSON, st.sampled_from((math.inf, math.nan)))
# What JSON carries to the browser's port is TINY_OR_HUGE_JSON: no NaN or infinity (JSON has
# none; the page's own inputs are numbers or refused), while 10^320 reads there as Infinity, as
# the form reads it.
SHARE = st.one_of(st.floats(0.0, 1.0), st.sampled_from((5e-324, 1e-320, 1e-300)))


@st.composite
def extreme(draw: st.DrawFn, figures: st.SearchStrategy[float] = TINY_OR_HUGE) -> tuple[object, Cluster, Layout, object]:
    workload = draw(st.sampled_from(synthetic_workloads()))
    node = draw(st.sampled_from(synthetic_nodes()))
    gpu = dataclasses.replace(node.gpu, **draw(st.fixed_dictionaries({}, optional={
        "memory_bandwidth_bytes_per_s": figures, "dense_bf16_flop_per_s": figures,
        "memory_capacity_bytes": figures})))
    node = dataclasses.replace(node, gpu=gpu, **draw(st.fixed_dictionaries({}, optional={
        "scale_up_per_direction_bytes_per_s": figures, "nic_port_per_direction_bytes_per_s": figures,
        "nics_per_node": COUNTS})))
    nodes = draw(st.sampled_from((1, 2, 4, 8, 2**53 + 1)))
    micro = draw(COUNTS)
    # a global batch that data parallelism (every GPU, at tp = pp = 1) and the micro-batch divide,
    # unless the product is past the bound, where the count is refused first
    steps = draw(st.one_of(st.integers(1, 64), st.sampled_from(HUGE)))
    layout = Layout(tensor_parallel=1, pipeline_parallel=1, zero_stage=draw(st.sampled_from((0, 1, 3))),
                    micro_batch_size=micro, sequence_length=draw(COUNTS),
                    global_batch_size=micro * nodes * node.gpus_per_node * steps, adapter_rank=draw(COUNTS_OR_ZERO))
    assumptions = dataclasses.replace(illustrative_assumptions(), **draw(st.fixed_dictionaries({}, optional={
        "gemm_efficiency_max": SHARE, "network_collective_efficiency": SHARE, "gemm_half_intensity": figures,
        "memory_bound_bytes": figures, "network_step_latency_s": figures,
        "weight_bytes_per_parameter": figures})))
    return workload, Cluster(node, nodes), layout, assumptions


def _finite(value: object) -> bool:
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme())
def test_an_estimate_is_finite_or_refused(case: tuple[object, Cluster, Layout, object]) -> None:
    result = estimate(*case)  # type: ignore[arg-type]
    assert (result.estimate is None) == bool(result.problems)
    out = outputs(result)
    assert _finite(out), out
    json.dumps(out, allow_nan=False)  # what every writer does


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(extreme(), st.sampled_from((1, 2, 4, 8, 3)), st.sampled_from((1, 2, 4, 5)), st.sampled_from((0, 1, 2, 3)),
       st.sampled_from(("selective", "full")), st.sampled_from((1, 2, 8)), st.sampled_from((0, 1, 2, 7)))
def test_a_search_that_checked_the_inputs_once_finds_the_same_problems(
        case: tuple[object, Cluster, Layout, object], t: int, p: int, zero: int, recompute: str, e: int,
        group: int) -> None:
    """The layout search checks the inputs' domains once and each layout's with `inputs_checked`:
    wherever the inputs pass, each layout's problems, in their order, are the full check's."""
    workload, cluster, layout, assumptions = case
    layout = dataclasses.replace(layout, tensor_parallel=t, pipeline_parallel=p, zero_stage=zero,
                                 recompute=recompute, sequence_parallel=t > 1, expert_parallel=e, shard_group=group)
    if input_problems(workload, cluster, layout, assumptions):  # type: ignore[arg-type]
        assert check(workload, cluster, layout, assumptions)  # type: ignore[arg-type]
        return
    assert (check(workload, cluster, layout, assumptions, inputs_checked=True)  # type: ignore[arg-type]
            == check(workload, cluster, layout, assumptions))  # type: ignore[arg-type]


def test_the_browser_refuses_what_python_refuses() -> None:
    """A fixed sample of extreme cases through costmodel.js: the same problem codes (or the same
    finite estimate) as Python; in particular every refusal is one."""
    w, n = synthetic_workloads()[0], synthetic_nodes()[0]
    a = illustrative_assumptions()
    plain = Layout(1, 1, 1, micro_batch_size=1, sequence_length=2048, global_batch_size=64)
    cases = [
        (w, Cluster(n, 1), dataclasses.replace(plain, sequence_length=2**53 + 1), a),
        (w, Cluster(n, 1), dataclasses.replace(plain, global_batch_size=2**60), a),
        (w, Cluster(n, 1), plain, dataclasses.replace(a, network_step_latency_s=1e-320)),
        (w, Cluster(n, 1), plain, dataclasses.replace(a, gemm_efficiency_max=1e-320)),
        (w, Cluster(dataclasses.replace(n, gpu=dataclasses.replace(n.gpu, dense_bf16_flop_per_s=5e-324)), 1), plain, a),
        (w, Cluster(dataclasses.replace(n, gpu=dataclasses.replace(n.gpu, memory_bandwidth_bytes_per_s=1e-300)), 1),
         plain, a),
        (w, Cluster(n, 1), dataclasses.replace(plain, sequence_length=2**52), a),
    ]
    python = [outputs(estimate(*c)) for c in cases]
    js = run_js([{"workload": dataclasses.asdict(w), "cluster": dataclasses.asdict(c),
                  "layout": dataclasses.asdict(layout), "assumptions": dataclasses.asdict(x)}
                 for w, c, layout, x in cases])
    codes = [[p["code"] for p in out["problems"]] if "problems" in out else None for out in python]
    assert codes[:4] == [["count-too-large"], ["count-too-large"], ["not-normal"], ["not-normal"]]
    assert codes == [[p["code"] for p in out["problems"]] if "problems" in out else None for out in js]  # type: ignore[index, union-attr]
    assert all(_finite(out) for out in python + js)


def _codes(out: object) -> list[str] | None:
    """The problem codes of a report.outputs() (Python's or the browser's), None for an estimate."""
    assert isinstance(out, dict)
    return [p["code"] for p in out["problems"]] if "problems" in out else None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(extreme(TINY_OR_HUGE_JSON), min_size=25, max_size=25))
def test_the_browser_agrees_on_drawn_extreme_cases(cases: list[tuple[object, Cluster, Layout, object]]) -> None:
    """Drawn extreme cases (25 a Node run, to keep the runs few) through costmodel.js: the same
    refusal codes as Python, or an estimate on both sides, and every number either side gives
    finite."""
    python = [outputs(estimate(*c)) for c in cases]  # type: ignore[arg-type]
    js = run_js([{"workload": dataclasses.asdict(w), "cluster": dataclasses.asdict(c),  # type: ignore[call-overload]
                  "layout": dataclasses.asdict(layout), "assumptions": dataclasses.asdict(x)}  # type: ignore[call-overload]
                 for w, c, layout, x in cases])
    assert [_codes(out) for out in python] == [_codes(out) for out in js]
    assert all(_finite(out) for out in python + js)


BASE = ["estimate", "--workload", "llama-3-1-8b", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--network", "ib-ndr"]


def test_the_command_line_refuses_counts_beyond_a_double_in_one_line() -> None:
    """A 301-digit --seq, and a global batch of 10^320: exit 2, one line, no traceback, text or JSON."""
    for extra in (["--seq", "9" * 301], ["--global-batch", "1" + "0" * 320], ["--seq", "9" * 301, "--format", "json"]):
        done = cli(*BASE, *extra)
        assert done.returncode == 2 and done.stdout == "", done.stdout[:200]
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "2^53" in done.stderr


def test_shape_flags_beyond_a_double_are_refused_in_one_line() -> None:
    """A custom shape with 321-digit layers (it raised OverflowError computing the parameter
    count) is refused before any arithmetic, by estimate and by plan."""
    huge = "1" + "0" * 320
    shape = ["--layers", huge, "--hidden", "4096", "--heads", "32", "--vocab", "32000"]
    for argv in (["estimate", *shape, "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--network", "ib-ndr"],
                 ["plan", *shape, "--gpus", "8", "--market", "global"]):
        done = cli(*argv)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-500:]
        assert len(done.stderr.strip().splitlines()) == 1 and "2^53" in done.stderr


def test_json_output_is_strict_json() -> None:
    """What `estimate --format json` prints parses with NaN and Infinity refused."""
    done = cli(*BASE, "--format", "json")
    assert done.returncode == 0, done.stderr

    def refuse(name: str) -> object:
        raise ValueError(name)
    json.loads(done.stdout, parse_constant=refuse)


HUGE_TEXT = "1" + "0" * 320
ESTIMATE = [*BASE[1:], "--specs", str(ROOT / "specs")]
PLAN = ["plan", "--workload", "llama-3-1-8b", "--gpus", "8", "--market", "global", "--specs", str(ROOT / "specs")]
RECOMMEND = ["recommend", "--market", "global", "--specs", str(ROOT / "specs")]


@pytest.mark.parametrize(("argv", "says"), [
    (["estimate", *ESTIMATE, "--seq", "9" * 301], "a number of 301 digits is beyond 2^53 − 1"),
    (["estimate", *ESTIMATE, "--global-batch", HUGE_TEXT], "argument --global-batch: a number of 321 digits"),
    (["estimate", *ESTIMATE, "--gpus", HUGE_TEXT], "argument --gpus: a number of 321 digits"),
    (["estimate", *ESTIMATE, "--gpus-per-node", HUGE_TEXT], "argument --gpus-per-node"),
    (["estimate", *ESTIMATE, "--nics-per-node", HUGE_TEXT], "argument --nics-per-node"),
    (["estimate", *ESTIMATE, "--lora-rank", HUGE_TEXT], "argument --lora-rank"),
    (["estimate", *ESTIMATE, "--shard-group", "-" + HUGE_TEXT], "below −(2^53 − 1)"),
    (["estimate", *ESTIMATE, "--seq", str(2**53)], "9007199254740992 is beyond 2^53 − 1"),
    (["estimate", *ESTIMATE, "--seq", "9" * 5000], "a number of 5000 digits"),  # past int()'s own 4,300-digit limit
    (["estimate", *ESTIMATE, "--params", "1e308B"], "'1e308B' is beyond 2^53 − 1"),  # 1e308 × 10^9 is infinite
    (["estimate", *ESTIMATE, "--params", "9" * 400], "(400 characters) is beyond 2^53 − 1"),
    ([*PLAN, "--tokens", "1e300T"], "--tokens '1e300T' is beyond 2^53 − 1"),  # JSON writer raised on inf
    ([*PLAN, "--tokens", "1e300T", "--format", "json"], "--tokens '1e300T' is beyond 2^53 − 1"),
    ([*PLAN, "--seq", HUGE_TEXT], "argument --seq: a number of 321 digits"),
    ([*PLAN, "--ep", HUGE_TEXT], "argument --ep"),
    ([*RECOMMEND, "--gpus", "64", "--model-size", "1e308"], "--model-size '1e308' is beyond 2^53 − 1"),  # math domain error
    ([*RECOMMEND, "--gpus", "1e308", "--model-size", "70B"], "--gpus '1e308' is beyond 2^53 − 1"),
    ([*RECOMMEND, "--gpus", "64", "--workload", "llama-3-1-70b", "--tokens", "1e308", "--format", "json"],
     "--tokens '1e308' is beyond 2^53 − 1"),
    ([*RECOMMEND, "--gpus", "-inf", "--model-size", "70B"], "argument --gpus: expected one argument"),
    (["calibrate", "--worst", HUGE_TEXT, "--specs", str(ROOT / "specs")], "argument --worst: a number of 321 digits"),
])
def test_numbers_past_the_bounds_are_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every number flag past what the model takes, as text or JSON: exit 2, nothing on standard
    output, one line on standard error that names the flag's problem; no traceback (the run is
    in-process, so an exception would fail this test; argparse's refusals exit by SystemExit)."""
    try:
        status = main(argv)
    except SystemExit as done:
        status = done.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert status == 2 and out == "", out[:300]
    assert err.count("\n") == 1 and says in err, err[:500]
    assert len(err) < 300, err  # the value is never repeated digit by digit


@given(st.one_of(st.integers(-10**400, 10**400).map(str), st.text(max_size=30),
                 st.sampled_from(["+7", " 12 ", "-0", "1_000", "١٢", "0" * 400 + "7", "9" * 4301,
                                  "0\x1f", "\x1c5"])))  # separators str.strip() removes and int() refuses
def test_a_whole_flag_is_an_int_in_bounds_or_an_argparse_refusal(text: str) -> None:
    try:
        value = whole(text)
    except argparse.ArgumentTypeError as err:
        assert "\n" not in str(err) and len(str(err)) < 200
    else:
        assert isinstance(value, int) and abs(value) <= MAX_COUNT and value == int(text)


@given(st.one_of(st.text(max_size=20), st.floats().map(repr), st.integers(0, 10**400).map(str),
                 st.tuples(st.floats(min_value=0), st.sampled_from("kKmMbBtT")).map(lambda p: f"{p[0]!r}{p[1]}")))
def test_a_count_is_positive_finite_and_bounded_or_a_value_error(text: str) -> None:
    try:
        value = count(text)
    except ValueError as err:
        assert "\n" not in str(err)
    else:
        assert math.isfinite(value) and 0 < value <= MAX_COUNT
