"""`generator diff`: a changed figure shows up with the derived figures and claim verdicts it
moved. Expectations come from the data fed in (the real tree with one file edited, or files with
ids starting `test-`), never from the real specs' particular values."""

from __future__ import annotations

import datetime
import html
import json
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support import real_files

from generator.diagnostics import Diagnostic
from generator.edge.diff import ClaimRow, Diff, FigureRow, Shown, Status, Verdict, compare
from generator.edge.diff_format import md, to_json, to_markdown
from generator.validate import Result, SpecFile, validate

_MEMO: dict[SpecFile, Any] = {}
Edit = tuple[str, bytes]  # spec path, new content


def checked(files: Iterable[SpecFile]) -> Result:
    return validate(list(files), memo=_MEMO)


@cache
def real_result() -> Result:
    return checked(real_files())


def tree(*edits: Edit) -> list[SpecFile]:
    """The real tree with each `edits` path replaced by, or added as, its content."""
    changed = dict(edits)
    files = [f for f in real_files() if f.path not in changed]
    for path, raw in changed.items():
        kind, name = Path(path).parts[-2:]
        files.append(SpecFile(path, kind, Path(name).stem, raw))
    return files


def data_of(path: str) -> dict[str, Any]:
    raw = next(f.raw for f in real_files() if f.path == path)
    loaded: dict[str, Any] = yaml.safe_load(raw)
    return loaded


def paths(kind: str, where: Callable[[dict[str, Any]], bool] = lambda _data: True) -> list[str]:
    return [f.path for f in real_files() if f.kind == kind and where(data_of(f.path))]


def edited(path: str, change: Callable[[dict[str, Any]], None]) -> Edit:
    data = data_of(path)
    change(data)
    return path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()


def rows_of(diff: Diff, entity: str) -> dict[tuple[str, bool], FigureRow]:
    return {(row.figure, row.derived): row for row in diff.figures if row.entity == entity}


def moved_by(row: FigureRow, factor: int) -> bool:
    assert row.old is not None and row.new is not None and row.old.value is not None
    return row.change == "changed" and row.new.value == row.old.value * factor


def doubled(*keys: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in keys:
            if key in data:
                data[key]["value"] *= 2
    return change


def claim_on(figure_ref: str, source_of: Result) -> Edit:
    """A claim (id test-claim-port) that states `figure_ref` as it is in `source_of`: confirmed there."""
    figure = source_of.figures.get(figure_ref) if source_of.figures else None
    assert figure is not None
    article = data_of(paths("claims")[0])["source"]
    claim = {"id": "test-claim-port", "last_verified": datetime.date(2026, 1, 1), "source": article, "said": {"zh": "测试", "en": "Test"},
             "check": {"kind": "value", "actual": figure_ref,
                       "stated": {"value": float(figure.shown), "unit": figure.unit}},
             "verdict": "confirmed", "basis": "independent", "why": {"zh": "测试", "en": "Test"}}
    return "specs/claims/test-claim-port.yaml", yaml.safe_dump(claim, allow_unicode=True).encode()


def test_lane_rate_moves_port_rate_and_flips_a_claim() -> None:
    """Doubling a network's lane rate (and its stated port rate) moves the derived port rate;
    a claim that stated the old port rate goes from confirmed to corrected."""
    path = paths("networks")[0]
    network = data_of(path)["id"]
    claim = claim_on(f"{network}#port_rate", real_result())
    diff = compare(checked(tree(claim)), checked(tree(claim, edited(path, doubled("lane_rate", "port_rate")))))
    assert diff.compared
    rows = rows_of(diff, network)
    assert moved_by(rows["lane_rate", False], 2) and moved_by(rows["port_rate", True], 2)
    (flip,) = [row for row in diff.claims if row.claim == "test-claim-port"]
    assert flip.old is not None and flip.new is not None
    assert (flip.old.computed, flip.new.computed, flip.new.recorded) == ("confirmed", "corrected", "confirmed")
    text = to_markdown(diff, "base", "head")
    assert "| test-claim-port | confirmed → corrected |" in text
    assert f"| {md(network)}（networks） | lane\\_rate | 标称 |" in text and "| port\\_rate | 推导 |" in text


def test_nvlink_rate_moves_the_totals_built_on_it() -> None:
    """Doubling an NVLink generation's per-link rate doubles its derived total and the derived
    NVLink figures of every GPU and switch that uses it, and moves no other stated figure."""
    path = paths("interconnects", lambda d: d.get("type") == "nvlink")[0]
    link = data_of(path)["id"]
    diff = compare(real_result(), checked(tree(edited(path, doubled("per_link")))))
    assert diff.compared
    expected = {(link, "per_link", False), (link, "total", True)}
    expected |= {(data_of(p)["id"], "nvlink.bandwidth", True)
                 for p in paths("gpus", lambda d: (d.get("nvlink") or {}).get("interconnect") == link)}
    expected |= {(data_of(p)["id"], "per_gpu", True) for p in paths("interconnects", lambda d: d.get("nvlink") == link)}
    found = {(row.entity, row.figure, row.derived): row for row in diff.figures}
    assert expected <= found.keys()
    assert all(moved_by(found[key], 2) for key in expected)
    assert {key for key in found if not key[2]} == {(link, "per_link", False)}


def test_added_and_removed_entities() -> None:
    """A new GPU is an added entity whose figures (stated and derived) are all added; the reverse
    diff removes them."""
    original = paths("gpus")[0]
    gpu = data_of(original)["id"]
    copy_id = f"test-copy-{gpu}"
    copy = (f"specs/gpus/{copy_id}.yaml", edited(original, lambda data: data.update(id=copy_id))[1])
    head = checked(tree(copy))
    diff = compare(real_result(), head)
    assert [(r.entity, r.kind, r.change) for r in diff.entities] == [(copy_id, "gpus", "added")]
    added = rows_of(diff, copy_id)
    assert head.figures is not None and {name for name, _derived in added} == set(head.figures.names(copy_id))
    assert all(row.change == "added" for row in added.values())
    reverse = compare(head, real_result())
    assert [r.change for r in reverse.entities] == ["removed"]
    assert all(row.change == "removed" for row in rows_of(reverse, copy_id).values())


def test_unit_and_direction_changes() -> None:
    """A lane rate rewritten in the other of bits and bytes is a change of unit only, on it and on
    the port rate derived from it; a new direction shows on both likewise."""
    path = paths("networks")[0]
    network = data_of(path)["id"]

    def other_unit(data: dict[str, Any]) -> None:
        lane = data["lane_rate"]
        factor = Fraction(1, 8) if lane["unit"].endswith("b/s") else Fraction(8)
        lane["value"] = float(Fraction(str(lane["value"])) * factor)
        lane["unit"] = lane["unit"][:-3] + ("B/s" if lane["unit"].endswith("b/s") else "b/s")

    def both_ways(data: dict[str, Any]) -> None:
        data["lane_rate"]["direction"] = "bidirectional"

    diff = compare(real_result(), checked(tree(edited(path, other_unit))))
    rows = rows_of(diff, network)
    assert rows["lane_rate", False].fields == rows["port_rate", True].fields == ("unit",)
    assert not any(row.fields and "value" in row.fields for row in diff.figures)
    assert re.search(r"\| lane\\_rate \| 标称 \| [^|]+ \| [^|]+ \| 数值不变 \| unit \S+ → \S+ \|", to_markdown(diff, "a", "b"))
    rows = rows_of(compare(real_result(), checked(tree(edited(path, both_ways)))), network)
    assert rows["lane_rate", False].fields == ("direction",) and "direction" in rows["port_rate", True].fields


def test_identical_trees_say_so_in_one_line() -> None:
    """No change: one line of Markdown, and `changed: false` in JSON."""
    diff = compare(real_result(), checked(real_files()))
    assert diff.unchanged
    text = to_markdown(diff, "main", "HEAD")
    assert text.count("\n") == 1 and "无变化" in text
    assert json.loads(to_json(diff, "main", "HEAD"))["changed"] is False


def test_head_that_does_not_load() -> None:
    """A HEAD that does not load: no comparison, its first diagnostics are listed."""
    path = paths("networks")[0]
    diff = compare(real_result(), checked(tree((path, b"id: [unclosed\n"))))
    assert not diff.compared and not diff.head.ok and diff.head.errors >= 1
    text = to_markdown(diff, "main", "HEAD")
    assert "**HEAD 未能载入**" in text and md(path) in text
    data = json.loads(to_json(diff, "main", "HEAD"))
    assert data["compared"] is False and data["changed"] is None and data["head"]["diagnostics"][0]["path"] == path


HOSTILE = "a|b\nc\r`d` <script>x</script> [l](javascript:x) ![i](http://x/i.png) *e* _u_ $m$ ~s~ &amp; \x1b\u202e"


def test_escaping_of_hostile_text() -> None:
    """Spec text cannot add a cell, a line, a link, an image, HTML, code, math or a bidi override."""
    cell = md(HOSTILE)
    assert "\n" not in cell and "\r" not in cell and "\x1b" not in cell and "\u202e" not in cell
    assert "<" not in cell and "&amp;" in cell and "&amp;amp;" in cell
    for mark in "|`[]*_$~!":
        assert re.search(r"(?<!\\)" + re.escape(mark), cell) is None, mark
    shown = Shown(Fraction(1), "unknown", HOSTILE, HOSTILE, HOSTILE, HOSTILE)
    rows = (FigureRow(HOSTILE, HOSTILE, HOSTILE, False, shown, Shown(Fraction(2), "unknown", "x", None, None, None)),)
    problem = Diagnostic(f"specs/{HOSTILE}.yaml", 1, 1, "schema-folder", HOSTILE)
    diff = Diff(Status(True, ()), Status(True, (problem,)), figures=rows)
    text = to_markdown(diff, HOSTILE, "HEAD")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert all(len(re.findall(r"(?<!\\)\|", line)) == 8 for line in table)
    assert "<script" not in text and "](" not in text.replace("\\](", "")
    assert len(text.splitlines()) == len(to_markdown(diff, "a", "HEAD").splitlines())


_LINKISH = st.sampled_from(["http://", "HTTPS://", "ftp://", "www.", "WwW.", "@", "a@b.example", "mailto:", "xmpp:",
                             "<", ">", "&", "&lt;", "[", "](", ")", "!", "`", "\\", ":", "/", ".", " ", "x", "é"])


def _read_back(cell: str) -> str:
    """What a Markdown reader shows of `md`'s output: backslash escapes and entities read, and a
    code span's text (`md` writes only those around `@`)."""
    out, at = [], 0
    while at < len(cell):
        if cell[at] == "\\":
            out.append(cell[at + 1])
            at += 2
        elif cell[at] == "`":
            end = cell.index("`", at + 1)
            out.append(cell[at + 1:end])
            at = end + 1
        else:
            out.append(cell[at])
            at += 1
    return html.unescape("".join(out))


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINKISH, max_size=12).map("".join))
def test_no_address_is_left_for_github_to_link(text: str) -> None:
    """Whatever address-like text a spec holds, `md` leaves GitHub's autolinker nothing: every
    scheme's `:` before `//` and every `www.`'s dot backslash-escaped, every `@` in a code span of
    its own; and a reader still sees the text as written."""
    cell = md(text)
    assert not re.search(r"(?<!\\)://|(?<!\\)www\.", cell, re.IGNORECASE), cell
    assert "@" not in re.sub("`@+`", "", cell), cell
    assert _read_back(cell) == " ".join(text.split())


def test_json_keys() -> None:
    """The JSON rows carry exact values, units, directions and the computed and recorded verdicts."""
    old = Shown(Fraction(400 * 10**9), "data_rate", "Gb/s", "per_direction", "per_port", "src")
    new = Shown(Fraction(800 * 10**9), "data_rate", "Gb/s", "per_direction", "per_port", "src")
    figure = FigureRow("test-net", "networks", "port_rate", True, old, new)

    claim = ClaimRow("test-claim", Verdict("confirmed", "400 Gb/s", 0.0, "confirmed"),
                     Verdict("corrected", "800 Gb/s", float("inf"), "confirmed"))
    data = json.loads(to_json(Diff(Status(True, ()), Status(True, ()), (), (figure,), (claim,)), "a", "b"))
    assert data["changed"] is True and data["entities"] == []
    (row,) = data["figures"]
    assert row["origin"] == "derived" and row["fields"] == ["value"] and row["delta"] == 400 and row["delta_pct"] == 100
    assert row["new"] == {"value": 800, "exact": "800", "unit": "Gb/s", "dimension": "data_rate",
                          "direction": "per_direction", "scope": "per_port", "source": "src"}
    assert data["claims"][0]["new"] == {"verdict": "corrected", "recorded": "confirmed", "actual": "800 Gb/s",
                                        "deviation_pct": None}


def test_an_assumption_that_moves_the_models_accuracy_shows_it() -> None:
    """Changing the GEMM efficiency of the fixture base moves every predicted step time, so the
    calibration summary of the two sides differs and both formats show it; an edit that leaves
    the model alone shows no accuracy row."""
    from support import base_files, base_result, with_file
    path = "specs/assumptions/test-gemm-efficiency-max.yaml"
    raw = next(f.raw for f in base_files() if f.path == path)
    assert b"value: 0.5\n" in raw
    base = base_result()
    head = validate(with_file(path, raw.replace(b"value: 0.5\n", b"value: 0.6\n")))
    diff = compare(base, head)
    assert diff.accuracy is not None and diff.accuracy.old != diff.accuracy.new
    assert diff.accuracy.old.expressed == diff.accuracy.new.expressed > 0
    assert "成本模型在已发表实测上的精度" in to_markdown(diff, "base", "head")
    data = json.loads(to_json(diff, "base", "head"))
    assert set(data["accuracy"]) == {"old", "new"}
    assert compare(base, base).accuracy is None
