"""Directions, scopes and plausible ranges declared beside each quantity field (`Allows`,
`Plausible` in generator/model): every quantity field declares them, the rules enforce exactly
what they declare (a value inside the range passes, one outside warns), and the JSON Schema
offers the same directions and scopes as the generator accepts."""

from __future__ import annotations

import copy
import datetime as dt
import typing
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import BaseModel
from support import base_files, validate_with

from generator.build import build_entity
from generator.derive import FigureIndex
from generator.diagnostics import DataPath, Severity
from generator.knowledge import KnowledgeBase, Loaded
from generator.load.parse import ParsedFile, parse_spec
from generator.model import KINDS
from generator.model.common import TINY, Allows, Dim, Direction, Plausible, Quantity, Scope
from generator.model.walk import markers, models_in
from generator.rules.base import Context
from generator.rules.direction_allowed import check_direction_allowed
from generator.rules.plausibility import PLAUSIBILITY, check_plausibility
from generator.rules.scope_allowed import check_scope_allowed
from generator.spec_schema import spec_schemas
from generator.units import UNITS, units_of
from generator.validate import SpecFile

MAX_WRITTEN = 1e7  # the schema's cap on a quantity's value (Quantity.value, le=1e7)


def _quantity_fields() -> list[tuple[str, str, object]]:
    """(model, field, annotation) of every field, in every model reachable from a spec folder,
    that can hold a quantity."""
    found: dict[tuple[str, str], object] = {}
    seen: set[type[BaseModel]] = set()
    todo = [model for kind in KINDS.values() for model in models_in(kind)]
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, info in model.model_fields.items():
            annotation: object = info.annotation
            if info.metadata:  # pydantic keeps a field's outer Annotated metadata apart
                annotation = typing.Annotated[(annotation, *info.metadata)]
            inner = models_in(annotation)
            if any(issubclass(m, Quantity) for m in inner):
                found[(model.__name__, name)] = annotation
            todo.extend(m for m in inner if not issubclass(m, Quantity))
    return [(model, name, annotation) for (model, name), annotation in sorted(found.items())]


QUANTITY_FIELDS = _quantity_fields()


def test_the_field_list_is_not_empty() -> None:
    assert len(QUANTITY_FIELDS) >= 20, QUANTITY_FIELDS


@pytest.mark.parametrize(("model", "field", "annotation"), QUANTITY_FIELDS, ids=lambda x: x if isinstance(x, str) else "")
def test_every_quantity_field_declares_allows_and_plausible(model: str, field: str, annotation: object) -> None:
    """Each quantity field carries exactly one Dim, one Allows and one Plausible, and they agree:
    the range's unit is of the field's dimension, low <= high, and the directions and scopes
    are among those a quantity can state."""
    marks = markers(annotation)
    dims = [m for m in marks if isinstance(m, Dim)]
    allows = [m for m in marks if isinstance(m, Allows)]
    plausible = [m for m in marks if isinstance(m, Plausible)]
    assert len(dims) == 1 and len(allows) == 1 and len(plausible) == 1, (dims, allows, plausible)
    assert plausible[0].unit in units_of(dims[0].dimension)
    assert 0 <= plausible[0].low <= plausible[0].high
    assert set(allows[0].directions) <= set(typing.get_args(Direction))
    assert set(allows[0].scopes) <= set(typing.get_args(Scope))
    if dims[0].dimension == "data_rate":  # a bandwidth must state a direction, so it needs one to state
        assert allows[0].directions


def _parsed(spec: SpecFile) -> ParsedFile:
    parsed = parse_spec(spec.path, spec.raw)
    assert isinstance(parsed, ParsedFile), parsed
    return parsed


def _fixture_fields() -> list[tuple[SpecFile, DataPath, Allows, Plausible, str]]:
    """One stated quantity per distinct field of the fixture base, with its markers."""
    seen: dict[tuple[str, tuple[str, ...]], tuple[SpecFile, DataPath, Allows, Plausible, str]] = {}
    for spec in base_files():
        built = build_entity(spec.kind, _parsed(spec), spec.stem)
        assert isinstance(built, Loaded)
        for path, value, marks in built.nodes:
            if isinstance(value, Quantity):
                allows = next(m for m in marks if isinstance(m, Allows))
                plausible = next(m for m in marks if isinstance(m, Plausible))
                dim = next(m for m in marks if isinstance(m, Dim)).dimension
                seen.setdefault((spec.kind, tuple(p for p in path if isinstance(p, str))),
                                (spec, path, allows, plausible, dim))
    return [seen[key] for key in sorted(seen)]


FIXTURE_FIELDS = _fixture_fields()


def test_the_fixture_base_states_every_quantity_field() -> None:
    """The tests below edit the fixture base's figures: it must state each field at least once."""
    names = {".".join(p for p in path if isinstance(p, str)).rsplit(".", 1)[-1] for _s, path, *_ in FIXTURE_FIELDS}
    assert {field for _model, field, _a in QUANTITY_FIELDS} <= names


def _with(data: dict[str, Any], path: DataPath, changes: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    node: Any = changed
    for part in path:
        node = node[part]
    for key, value in changes.items():
        if value is None:
            node.pop(key, None)
        else:
            node[key] = value
    return changed


def _diagnostics(spec: SpecFile, data: dict[str, Any], check: Any) -> list[Any]:
    built = build_entity(spec.kind, ParsedFile(spec.path, data, spec.raw), spec.stem)
    assert isinstance(built, Loaded), built
    kb = KnowledgeBase({built.id: built})
    return list(check(Context(kb, FigureIndex(kb))))


def _ids(x: object) -> str:
    return ".".join(map(str, x)) if isinstance(x, tuple) else x.path if isinstance(x, SpecFile) else ""


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def _written(draw: st.DrawFn, plausible: Plausible, dimension: str, inside: bool) -> tuple[float, str] | None:
    """A value and unit of the field's dimension, clearly inside (or outside) the range, that a
    spec can write (0, or TINY..1e7); None when no such value exists on the side asked for."""
    unit = draw(st.sampled_from(units_of(dimension)))
    factor = float(UNITS[unit].factor)
    low, high = float(plausible.low_base) / factor, float(plausible.high_base) / factor
    margin = 1e-6
    if inside:
        lo, hi = low * (1 + margin), min(high * (1 - margin), MAX_WRITTEN)
    elif draw(st.booleans()):
        lo, hi = 0.0, min(low * (1 - margin), MAX_WRITTEN)
        if lo < hi and draw(st.booleans()):
            return 0.0, unit
    else:
        lo, hi = high * (1 + margin) + margin, MAX_WRITTEN
    lo = max(lo, TINY)  # a spec writes 0 or at least TINY (schema-value below it)
    if not lo < hi:
        return None
    return draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False)), unit


@pytest.mark.parametrize(("spec", "path", "allows", "plausible", "dimension"), FIXTURE_FIELDS, ids=_ids)
@pytest.mark.parametrize("inside", [True, False], ids=["inside", "outside"])
@SETTINGS
@given(data=st.data())
def test_inside_the_range_passes_outside_warns(spec: SpecFile, path: DataPath, allows: Allows, plausible: Plausible,
                                               dimension: str, inside: bool, data: st.DataObject) -> None:
    """Any value inside the field's range, in any unit of its dimension, passes; any value
    outside warns, at the value, as a warning."""
    drawn = data.draw(_written(plausible, dimension, inside))
    if drawn is None:  # e.g. no value below a range that starts at 0
        return
    value, unit = drawn
    changed = _with(_parsed(spec).data, path, {"value": value, "unit": unit})
    found = [d for d in _diagnostics(spec, changed, check_plausibility) if d.rule == PLAUSIBILITY.id]
    if inside:
        assert found == []
    else:
        assert len(found) == 1 and found[0].severity is Severity.WARNING, (value, unit, found)


@pytest.mark.parametrize(("spec", "path", "allows", "plausible", "dimension"), FIXTURE_FIELDS, ids=_ids)
def test_the_bounds_themselves_pass(spec: SpecFile, path: DataPath, allows: Allows, plausible: Plausible,
                                    dimension: str) -> None:
    """The range is closed: its two ends, as declared, pass (where a spec can write them)."""
    for bound in (plausible.low, plausible.high):
        if bound > MAX_WRITTEN:
            continue
        changed = _with(_parsed(spec).data, path, {"value": float(bound), "unit": plausible.unit})
        assert _diagnostics(spec, changed, check_plausibility) == []
    assert Fraction(plausible.low_base) <= plausible.high_base


DIRECTIONS: list[str | None] = [*typing.get_args(Direction), None]
SCOPES: list[str | None] = [*typing.get_args(Scope), None]
VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in spec_schemas().items()}


def _json(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_json(v) for v in data]
    return data.isoformat() if isinstance(data, dt.date) else data


@pytest.mark.parametrize(("spec", "path", "allows", "plausible", "dimension"), FIXTURE_FIELDS, ids=_ids)
def test_directions_and_scopes_agree_with_the_schema(spec: SpecFile, path: DataPath, allows: Allows,
                                                     plausible: Plausible, dimension: str) -> None:
    """For each field, a direction (or scope) is refused by the generator's rule exactly when
    the JSON Schema refuses it, and accepted exactly when the field's Allows lists it."""
    parsed = _parsed(spec).data
    for key, candidates, allowed, check in (("direction", DIRECTIONS, allows.directions, check_direction_allowed),
                                            ("scope", SCOPES, allows.scopes, check_scope_allowed)):
        for candidate in candidates:
            changed = _with(parsed, path, {key: candidate})
            generator_ok = _diagnostics(spec, changed, check) == []
            schema_ok = VALIDATORS[spec.kind].is_valid(_json(changed))
            assert generator_ok == schema_ok == (candidate is None or candidate in allowed), (key, candidate)


def test_a_vanishing_baseline_is_refused_and_the_smallest_one_warns() -> None:
    """A single-GPU rate of 1e-308 tok/s (a speed-up beyond any float, which once raised
    OverflowError) is refused where it is written; the smallest rate a spec may write, 1e-12,
    gives a speed-up the derivation shows, flagged as implausible."""
    case = next(s for s in base_files() if s.path == "specs/cases/test-scaling-64gpu.yaml")
    raw = case.raw.replace(b"single_gpu: {value: 100,", b"single_gpu: {value: 1e-308,", 1)
    assert raw != case.raw
    refused = validate_with(case.path, raw)
    assert [d.rule for d in refused.diagnostics] == ["schema-value"], refused.diagnostics
    assert "too small to compute with" in refused.diagnostics[0].message
    result = validate_with(case.path, raw.replace(b"1e-308", b"1e-12"))
    warned = [d for d in result.diagnostics if d.rule == PLAUSIBILITY.id]
    assert len(warned) == 1 and "rows.ideal.single_gpu = 1e-12 tok/s is below" in warned[0].message, warned
