"""No silent NaN: every JSON writer of the generator refuses a number that is not finite, so that
it raises where it is written instead of printing `NaN` or `Infinity`, which are not JSON (RFC
8259 §6) and which a browser's JSON.parse refuses. The writers go through `strict_json.dumps`,
whose refusal names the output and the value's place; the few that call `json.dumps` directly
pass `allow_nan=False`. The command line turns the refusal into one line and exit 2. The cost
model refuses a configuration whose outputs are not finite before any writer sees one
(costmodel/result.py)."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT

from generator import strict_json
from generator.edge import plan as plan_out
from generator.edge.cli import main


def _dumps_calls() -> list[tuple[str, int, ast.Call, str]]:
    """Every `json.dumps`/`json.dump` and `strict_json.dumps` call in generator/, with its module."""
    calls = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("dumps", "dump")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("json", "strict_json")):
                calls.append((str(Path(path).relative_to(ROOT)), node.lineno, node, node.func.value.id))
    return calls


def test_every_json_writer_refuses_nan() -> None:
    calls = _dumps_calls()
    assert len([c for c in calls if c[3] == "strict_json"]) >= 10  # the writers exist: this scan finds them
    lax = [(file, line) for file, line, call, module in calls
           if module == "json" and not any(k.arg == "allow_nan" and isinstance(k.value, ast.Constant)
                                           and k.value.value is False for k in call.keywords)]
    assert lax == []


def test_writers_use_the_strict_writer_where_it_is() -> None:
    """Direct `json.dumps` is left only in the helper itself and two writers of data that holds
    no computed number (the schema on standard output, diff's report of spec changes)."""
    direct = {file for file, _line, _call, module in _dumps_calls() if module == "json"}
    assert direct <= {"generator/strict_json.py", "generator/edge/cli.py", "generator/edge/diff_format.py"}, direct


@pytest.mark.parametrize(("data", "where", "value"), [
    ({"a": 1.0, "b": [0.5, {"c": math.inf}]}, "b[1].c", math.inf),
    ([1, 2, {"x": -math.inf}], "[2].x", -math.inf),
    ({"options": [{"energy_kwh": 3.0}, {"energy_kwh": math.nan}]}, "options[1].energy_kwh", math.nan),
    ({math.inf: 1}, "inf", math.inf),  # a float key, which json formats as a number too
    (math.nan, "", math.nan),
])
def test_a_value_that_is_not_finite_is_named_where_it_sits(data: object, where: str, value: float) -> None:
    with pytest.raises(strict_json.NotFinite) as raised:
        strict_json.dumps(data, "data/x.json")
    err = raised.value
    assert err.where == where and (err.value == value or (math.isnan(err.value) and math.isnan(value)))
    message = str(err)
    assert message.startswith("data/x.json: ") and "\n" not in message and "not a finite number" in message


FINITE = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                      | st.text(max_size=5),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                      max_leaves=20)


@given(FINITE)
def test_finite_data_is_written_as_json_does(data: object) -> None:
    """The strict writer changes nothing for finite data: the same text as json.dumps."""
    assert strict_json.dumps(data, "x", sort_keys=True) == json.dumps(data, sort_keys=True)
    assert strict_json.first_not_finite(data) is None


def test_a_circular_reference_is_not_mistaken_for_a_number() -> None:
    """Another of json's ValueErrors is re-raised as it is: a bug, not a refused value."""
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference") as raised:
        strict_json.dumps(loop, "x")
    assert not isinstance(raised.value, strict_json.NotFinite)


def test_a_writer_refusal_is_one_line_on_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A non-finite figure that reaches plan's writers (here planted in its data, standing for a
    bug) ends the command with one line and exit 2, in JSON and in text, never a traceback."""
    real = plan_out.as_data

    def poisoned(*args: object, **kwargs: object) -> dict[str, object]:
        data = real(*args, **kwargs)  # type: ignore[arg-type]
        data["options"][0]["step_time_s"] = math.inf  # type: ignore[index]
        return data
    monkeypatch.setattr(plan_out, "as_data", poisoned)
    for fmt in ("json", "text"):
        status = main(["plan", "--workload", "llama-3-1-8b", "--gpus", "8", "--market", "global", "--format", fmt,
                       "--specs", str(ROOT / "specs")])
        out, err = capsys.readouterr()
        assert status == 2 and out == "", out[:200]
        assert err.count("\n") == 1 and "options[0].step_time_s comes out inf" in err, err


def test_a_build_whose_data_is_not_finite_writes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The site's data files go through the same writer: a value that is not finite in the
    calculator's data (planted, standing for a bug) stops the build before anything is written,
    with one line that names the file and the value's place."""
    from generator.render import calculator

    real = calculator.data

    def poisoned(site: object) -> dict[str, object]:
        data = real(site)  # type: ignore[arg-type]
        data["assumptions"] = {**data["assumptions"], "network_step_latency_s": math.nan}  # type: ignore[dict-item]
        return data
    monkeypatch.setattr(calculator, "data", poisoned)
    out = tmp_path / "site"
    status = main(["build", "--specs", str(ROOT / "specs"), "--out", str(out)])
    _, err = capsys.readouterr()
    assert status == 2 and not out.exists()
    assert err.count("\n") == 1 and err.startswith("build: data/costmodel.json: assumptions.network_step_latency_s"), err
