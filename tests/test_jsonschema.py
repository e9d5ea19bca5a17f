"""The JSON Schema that editors check specs with agrees with the generator: every spec the
generator accepts validates, every unit the schema offers for a field the generator accepts there
and no other, and number forms are accepted or refused alike, except the few the schema cannot
see, which its description names. Validated with the `jsonschema` package (a test dependency),
on data as a YAML 1.2 reader such as the YAML language server would hand it over."""

from __future__ import annotations

import copy
import datetime as dt
import math
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from support import base_files, real_files

from generator.build import build_entity
from generator.derive import FigureIndex
from generator.diagnostics import DataPath
from generator.knowledge import KnowledgeBase, Loaded
from generator.load.parse import ParsedFile, parse_spec
from generator.model.common import Dim, Quantity
from generator.rules.base import Context
from generator.rules.quantity_units import check_units
from generator.spec_schema import NUMBER_FORMS, spec_schemas
from generator.units import DERIVED_UNITS, UNITS
from generator.validate import SpecFile

VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in spec_schemas().items()}
# Units a contributor might type: every known one, and spellings the unit table refuses.
CANDIDATE_UNITS = [*UNITS, *DERIVED_UNITS, "Gbps", "gb/s", "GB/S", "tflops", ""]


def _json(data: Any) -> Any:
    """Data as JSON holds it: a date is text (YAML 1.2 has no dates), a float is a float."""
    if isinstance(data, dict):
        return {k: _json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_json(v) for v in data]
    if isinstance(data, dt.date):
        return data.isoformat()
    return float(data) if isinstance(data, float) else data


def _parsed(spec: SpecFile) -> ParsedFile:
    parsed = parse_spec(spec.path, spec.raw)
    assert isinstance(parsed, ParsedFile), parsed
    return parsed


@pytest.mark.parametrize("spec", [*base_files(), *real_files()], ids=lambda s: s.path)
def test_every_valid_spec_validates_against_its_schema(spec: SpecFile) -> None:
    """What the generator accepts, the schema accepts (fixtures and real specs alike)."""
    errors = [e.message for e in VALIDATORS[spec.kind].iter_errors(_json(_parsed(spec).data))]
    assert not errors, errors[:3]


def _quantity_fields() -> list[tuple[SpecFile, DataPath]]:
    """One stated quantity per distinct field (kind and path, list positions aside)."""
    seen: dict[tuple[str, tuple[str, ...]], tuple[SpecFile, DataPath]] = {}
    for spec in base_files():
        built = build_entity(spec.kind, _parsed(spec), spec.stem)
        assert isinstance(built, Loaded)
        for path, value, marks in built.nodes:
            if isinstance(value, Quantity) and any(isinstance(m, Dim) for m in marks):
                field = (spec.kind, tuple(p for p in path if isinstance(p, str)))
                seen.setdefault(field, (spec, path))
    return [seen[key] for key in sorted(seen)]


def _with(data: dict[str, Any], path: DataPath, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    node: Any = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return changed


def _generator_accepts_unit(spec: SpecFile, parsed: ParsedFile, data: dict[str, Any]) -> bool:
    built = build_entity(spec.kind, ParsedFile(spec.path, data, spec.raw), spec.stem)
    if not isinstance(built, Loaded):
        return False
    kb = KnowledgeBase({built.id: built})
    return not [d for d in check_units(Context(kb, FigureIndex(kb))) if d.rule in ("units-unknown", "units-dimension")]


@pytest.mark.parametrize(("spec", "path"), _quantity_fields(), ids=lambda x: x.path if isinstance(x, SpecFile)
                         else ".".join(map(str, x)))
def test_schema_units_are_the_generator_units(spec: SpecFile, path: DataPath) -> None:
    """For each quantity field, a unit validates against the schema iff the generator accepts it there."""
    parsed = _parsed(spec)
    for unit in CANDIDATE_UNITS:
        data = _with(parsed.data, path + ("unit",), unit)
        schema_ok = VALIDATORS[spec.kind].is_valid(_json(data))
        assert schema_ok == _generator_accepts_unit(spec, parsed, data), (unit, schema_ok)


# How a YAML 1.2 reader (the YAML language server) reads each form; the generator reads the text.
FORMS: dict[str, Any] = {
    "700": 700, "7.5e2": 750.0, "0700": 700, "0o700": 448, "0x2BC": 700, "1_000": "1_000", "1:30": "1:30",
    "0b11": "0b11", ".inf": math.inf, ".nan": math.nan, '"700"': "700", "yes": "yes", "4.0": 4.0,
}
# Refused by the generator, accepted by the schema, which cannot see how a number was written;
# each is named in the schema's description (NUMBER_FORMS) by the text given here.
_WRITTEN = {"0700": "0700", "0o700": "0o", "0x2BC": "0x"}
SCHEMA_CANNOT_SEE = {"port_rate": {**_WRITTEN, ".nan": ".nan"}, "lanes": {**_WRITTEN, "4.0": "4.0", "7.5e2": "4.0"}}
GENERATOR_ACCEPTS = {"port_rate": {"700", "7.5e2", "4.0"}, "lanes": {"700"}}
_NETWORK = next(s for s in base_files() if s.path == "specs/networks/test-ethernet-100g.yaml")


@pytest.mark.parametrize("field", ["port_rate", "lanes"])
@pytest.mark.parametrize("form", FORMS)
def test_number_forms_agree(form: str, field: str) -> None:
    """Each form is accepted by both or refused by both, bar the documented forms the schema cannot see."""
    old = f"{field}: {{value: {4 if field == 'lanes' else 100},"
    raw = _NETWORK.raw.decode().replace(old, f"{field}: {{value: {form},")
    assert raw != _NETWORK.raw.decode()
    parsed = parse_spec(_NETWORK.path, raw.encode())
    generator_ok = isinstance(parsed, ParsedFile) and isinstance(build_entity("networks", parsed, _NETWORK.stem), Loaded)
    data = _with(_parsed(_NETWORK).data, (field, "value"), FORMS[form])
    schema_ok = VALIDATORS["networks"].is_valid(_json(data))
    unseen = SCHEMA_CANNOT_SEE[field]
    if form in unseen:
        assert schema_ok and not generator_ok
        assert unseen[form] in NUMBER_FORMS
    else:
        assert schema_ok == generator_ok
    assert generator_ok == (form in GENERATOR_ACCEPTS[field])
