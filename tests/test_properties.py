"""Property tests: for generated inputs that satisfy an invariant the validator is silent, and
breaking that one invariant fires exactly the rule that guards it. Generated specs are added to
the fixture knowledge base (tests/fixtures/base/specs/) and use its ids."""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import FIXTURE_PREFIX, invalid_cases, real_files, validate_with

from generator.build import build_entity
from generator.derive import FigureIndex
from generator.diagnostics import Diagnostic, Severity
from generator.knowledge import KnowledgeBase
from generator.load.parse import ParsedFile, fast_data, parse_spec
from generator.rules.base import Context
from generator.rules.tier_tables import check_tier_tables
from generator.units import decimals_of

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _network(lanes: int, lane_rate: int, port_rate: float, unit: str = "Gb/s") -> bytes:
    return f"""id: test-prop-net
last_verified: 2026-11-30
name: Generated network
fabric: test-ethernet
rdma: rocev2
lanes: {{value: {lanes}, source: test-ethernet-standard}}
lane_rate: {{value: {lane_rate}, unit: Gb/s, direction: per_direction, scope: per_lane, source: test-ethernet-standard}}
port_rate: {{value: {port_rate}, unit: {unit}, direction: per_direction, scope: per_port, source: test-ethernet-standard}}
summary: {{zh: 生成的网络, en: A generated network}}
""".encode()


_NETWORK, _CASE = "specs/networks/test-prop-net.yaml", "specs/cases/test-prop-case.yaml"
_FILE = "specs/networks/test-prop-doc.yaml"  # where a generated YAML document is said to be


def _rules(result) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """The errors, by rule and line. Warnings are left out: a slip may also take a figure out of
    its plausible range (a port in GB/s for Gb/s), which test_plausibility covers."""
    return sorted((d.rule, d.line) for d in result.diagnostics if d.severity.value == "error")


@SLOW
@given(lanes=st.integers(1, 16), lane_rate=st.integers(10, 400))
def test_port_rate_that_adds_up_passes(lanes: int, lane_rate: int) -> None:
    """lanes x lane rate stated exactly: no diagnostic."""
    assert validate_with(_NETWORK, _network(lanes, lane_rate, lanes * lane_rate)).ok


@SLOW
@given(lanes=st.integers(1, 16), lane_rate=st.integers(10, 400), factor=st.sampled_from([0.3, 0.6, 0.9, 1.1, 1.5, 3, 5]))
def test_port_rate_off_fires_arithmetic(lanes: int, lane_rate: int, factor: float) -> None:
    """A port rate off by a factor no slip explains fires arithmetic-port-rate alone, at line 8."""
    stated = round(lanes * lane_rate * factor)
    if abs(stated - lanes * lane_rate) <= 0.5:
        return
    result = validate_with(_NETWORK, _network(lanes, lane_rate, stated))
    assert _rules(result) == [("arithmetic-port-rate", 8)]


@SLOW
@given(lanes=st.integers(1, 16), lane_rate=st.integers(10, 400))
def test_port_rate_in_bytes_fires_bit_byte(lanes: int, lane_rate: int) -> None:
    """The right number with GB/s for Gb/s fires units-bit-byte alone."""
    result = validate_with(_NETWORK, _network(lanes, lane_rate, lanes * lane_rate, "GB/s"))
    assert _rules(result) == [("units-bit-byte", 8)]


def _scaling(gpn: int, nodes: int, single: int, speedup: int, share_delta: float = 0, speed_delta: int = 0) -> bytes:
    gpus = gpn * nodes
    share = round(100 * (1 - speedup / gpus), 2) + share_delta
    return f"""id: test-prop-case
last_verified: 2026-11-30
type: scaling_study
title: {{zh: 生成的案例, en: A generated case}}
source: test-article-net
workload: {{zh: 生成, en: Generated}}
gpu: test-a100-sxm4
nodes: {{value: {nodes}, source: test-article-net}}
gpus_per_node: {{value: {gpn}, source: test-article-net}}
gpus: {{value: {gpus}, source: test-article-net}}
rows:
  - key: only
    label: {{zh: 唯一一行, en: The only row}}
    network: null
    single_gpu: {{value: {single}, unit: tok/s, source: test-article-net}}
    cluster: {{value: {single * speedup}, unit: tok/s, source: test-article-net}}
    speedup: {{value: {speedup + speed_delta}, unit: x, source: test-article-net}}
    comm_share: {{value: {share:.2f}, unit: "%", source: test-article-net}}
caveats: []
""".encode()


@st.composite
def _cluster(draw: st.DrawFn) -> tuple[int, int, int, int]:
    gpn, nodes = draw(st.integers(1, 8)), draw(st.integers(1, 32))
    return gpn, nodes, draw(st.integers(1, 500)), draw(st.integers(1, gpn * nodes))


@SLOW
@given(_cluster())
def test_case_table_that_adds_up_passes(c: tuple[int, int, int, int]) -> None:
    """Speed-up and share that follow from the throughputs: no diagnostic."""
    assert validate_with(_CASE, _scaling(*c)).ok


@SLOW
@given(_cluster(), st.sampled_from([-3.0, -1.0, 1.0, 2.5]))
def test_case_share_off_fires_share_rule(c: tuple[int, int, int, int], delta: float) -> None:
    """A share off by a point or more fires tables-case-share alone."""
    result = validate_with(_CASE, _scaling(*c, share_delta=delta))
    if result.ok:  # a negative share is refused by the schema instead: nothing to check here
        return
    # A share pushed past 100 % also leaves its plausible range: a warning, not what is judged here.
    errors = {d.rule for d in result.diagnostics if d.severity is Severity.ERROR}
    assert errors in ({"tables-case-share"}, {"schema-value"})


@SLOW
@given(_cluster(), st.integers(1, 5))
def test_case_speedup_off_fires_speedup_rule(c: tuple[int, int, int, int], delta: int) -> None:
    """A speed-up that the throughputs do not give fires tables-case-speedup alone."""
    result = validate_with(_CASE, _scaling(*c, speed_delta=delta))
    assert [d.rule for d in result.diagnostics] == ["tables-case-speedup"]


def _tier_table(bounds: list[int]) -> str:
    rows = []
    for low, high in zip([1, *bounds], [*bounds, None], strict=True):
        upper = "" if high is None else f", max: {high}"
        rows.append(f"  - gpus: {{min: {low}{upper}}}\n    picks: []\n")
    return ("id: test-prop-tiers\nlast_verified: 2026-11-30\ntitle: {zh: 生成, en: Generated}\nsubject: network\n"
            "source: test-article-net\nclaim: test-claim-net-bands\nrows:\n" + "".join(rows))


def _tier_rules(text: str) -> list[str]:
    parsed = parse_spec("specs/tiers/test-prop-tiers.yaml", text.encode())
    assert not isinstance(parsed, list), parsed
    built = build_entity("tiers", parsed, "test-prop-tiers")
    assert not isinstance(built, list), built
    kb = KnowledgeBase({built.id: built})
    return sorted(d.rule for d in check_tier_tables(Context(kb, FigureIndex(kb))))


def test_generated_specs_use_fixture_ids() -> None:
    """Generated specs are fixtures too: their ids carry the reserved prefix (see test_fixtures)."""
    for text in (_network(4, 100, 400).decode(), _scaling(8, 2, 100, 16).decode(), _tier_table([8])):
        assert yaml.safe_load(text)["id"].startswith(FIXTURE_PREFIX)


_BOUNDS = st.lists(st.integers(2, 100_000), min_size=1, max_size=6, unique=True).map(sorted)


@given(_BOUNDS)
def test_tiers_without_gaps_pass(bounds: list[int]) -> None:
    """Any partition of 1..infinity into half-open ranges passes."""
    assert _tier_rules(_tier_table(bounds)) == []


@given(_BOUNDS, st.data())
def test_tier_gap_fires_gap_rule(bounds: list[int], data: st.DataObject) -> None:
    """Raising one row's start leaves a gap: tables-tier-gap alone."""
    text = _tier_table(bounds)
    i = data.draw(st.integers(0, len(bounds) - 1))
    old = f"{{min: {bounds[i]}"
    limit = bounds[i + 1] - 1 if i + 1 < len(bounds) else bounds[i] + 10
    if limit <= bounds[i]:
        return
    new = f"{{min: {data.draw(st.integers(bounds[i] + 1, limit))}"
    assert _tier_rules(text.replace(old, new, 1)) == ["tables-tier-gap"]


@given(_BOUNDS, st.data())
def test_tier_overlap_fires_overlap_rule(bounds: list[int], data: st.DataObject) -> None:
    """Lowering one row's start makes it overlap the previous row: tables-tier-overlap alone."""
    i = data.draw(st.integers(0, len(bounds) - 1))
    previous = bounds[i - 1] if i > 0 else 1
    if bounds[i] - 1 <= previous:
        return
    new = data.draw(st.integers(previous + 1, bounds[i] - 1))
    text = _tier_table(bounds).replace(f"{{min: {bounds[i]}", f"{{min: {new}", 1)
    assert _tier_rules(text) == ["tables-tier-overlap"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_loader_never_raises(raw: bytes) -> None:
    """Arbitrary bytes parse or give diagnostics; nothing escapes as an exception."""
    result = parse_spec("specs/networks/x.yaml", raw)
    assert isinstance(result, list) or isinstance(result.data, dict)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("{}[]:- ,#&*!|>'\"\n\tab1\\%@`")), max_size=120))
def test_loader_survives_yaml_punctuation(text: str) -> None:
    """Strings of YAML punctuation never raise either."""
    result = parse_spec("specs/networks/x.yaml", text.encode())
    assert isinstance(result, list) or isinstance(result.data, dict)


# The loader reads ordinary files on a fast path without positions and falls back to the
# position-keeping composer for anything unusual; both must give the same data, and the fast
# path must never accept what the careful one refuses.
# Mostly ordinary values (repeated to weight the draw), with the odd ones the fast path must hand
# over: bad dates, times, merge keys, tags, anchors, aliases, duplicate or non-text keys, deep nesting.
_GOOD_SCALARS = ["1", "-2", "1.5", "1.50", "5.", ".5", "07.5", "1e3", "7.5e2", "2.5E-1", ".inf", "-.nan", "~", "null",
                 "", "NULL", "true", "FALSE", "2026-01-31", "'1'", "'0700'", '"a: b"', "abc", "a b", "'x' # c",
                 "|\n  block", "[1, 2]", "{a: 1}", "!!str 1", "!!float 1", "=", "0:30"]
# Refused by both paths (generator.load.scalars): the fast one hands them over, the careful one says why.
_ODD_SCALARS = ["2026-13-45", "2026-01-31 10:00:00", "<<", "!!int x", "!!int 0700", "&a 1", "*a", "!x y", "- 1",
                "{a: 1, a: 2}", "[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]", "0700", "09", "0o17", "0x1f",
                "0b11", "1_000", "1:30", "yes", "No", "on", "y", "N"]
_SCALAR_TEXT = st.sampled_from(_GOOD_SCALARS * 8 + _ODD_SCALARS)
_KEY_TEXT = st.sampled_from(["a", "b", "c", "'q'", "key two"] * 12 + ["1", "null", "yes", "? a", "<<", "[x]", "0700",
                                                                        "n", "'on'"])


@st.composite
def _yaml_document(draw: st.DrawFn, depth: int = 0) -> str:
    lines = []
    for key in draw(st.lists(_KEY_TEXT, min_size=1, max_size=4, unique=True)):
        indent = "  " * depth
        if depth < 3 and draw(st.booleans()):
            lines.append(f"{indent}{key}:")
            lines.append(draw(_yaml_document(depth + 1)))
        elif draw(st.booleans()):
            lines.append(f"{indent}{key}:")
            lines.extend(f"{indent}  - {v}" for v in draw(st.lists(_SCALAR_TEXT, max_size=3)))
        else:
            lines.append(f"{indent}{key}: {draw(_SCALAR_TEXT)}")
    return "\n".join(lines)


def _shown(data: object) -> str:
    """repr tells 1 from 1.0 and True, and nan equals nan; the written decimals of a float
    (`1.50`, `7.5e2`) are shown too, since figures round by them."""
    if isinstance(data, dict):
        return "{" + ", ".join(f"{k!r}: {_shown(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list):
        return "[" + ", ".join(_shown(v) for v in data) + "]"
    return f"{data!r}/{decimals_of(data)}" if isinstance(data, float) else repr(data)


def _outcome(parsed: ParsedFile | list[Diagnostic]) -> str:
    """What a parse gives, comparable: the data shown exactly, or the diagnostics."""
    return _shown(parsed.data) if isinstance(parsed, ParsedFile) else "\n".join(d.as_text() for d in parsed)


@settings(max_examples=400, deadline=None)
@given(_yaml_document())
def test_fast_path_agrees_with_careful_path(text: str) -> None:
    """Whatever the fast path reads, the careful path reads the same; it hands over no ordinary
    file that the careful path accepts."""
    raw = text.encode()  # the fast path reads the file's bytes
    careful = parse_spec(_FILE, raw, fast=False)
    assert _outcome(parse_spec(_FILE, raw)) == _outcome(careful)
    ordinary = not any(odd in text for odd in ("!!", "&", "*", "'", '"', "? ", "|"))
    if fast_data(raw) is None and isinstance(careful, ParsedFile) and ordinary:
        raise AssertionError(f"the fast path handed over an ordinary file: {text!r}")


def test_fast_path_reads_every_real_file_like_the_careful_path() -> None:
    for spec in real_files():
        assert fast_data(spec.raw) is not None, spec.path
        assert _outcome(parse_spec(spec.path, spec.raw)) == _outcome(parse_spec(spec.path, spec.raw, fast=False)), spec.path


def test_fast_path_never_accepts_an_invalid_fixture() -> None:
    for case in (c for c in invalid_cases() if c.raw is not None):
        fast, careful = parse_spec(case.target, case.raw), parse_spec(case.target, case.raw, fast=False)
        assert _outcome(fast) == _outcome(careful), case.name


def test_no_property_test_is_timed() -> None:
    """Every property test runs without hypothesis's per-example deadline (tests/conftest.py): a
    slow example on a busy machine is not a failure; time is the benchmarks' to measure."""
    assert settings.default.deadline is None
    assert settings(max_examples=5).deadline is None  # a test's own settings inherit it
