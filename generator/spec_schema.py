"""JSON Schema for spec files, generated from the typed model (never kept by hand), so editors
can complete and check YAML. One schema per spec folder.

Editors (the YAML language server) read YAML 1.2, and so does the generator (generator.load.scalars),
so a number means the same to both. Each quantity's `unit` lists exactly the units of its field's
dimension (`Dim`). What a schema cannot see is how a number was written: the few forms the
generator refuses for that reason are named in every schema's description (NUMBER_FORMS)."""

from __future__ import annotations

from functools import cache
from typing import Any

from . import strict_json
from .model import ADAPTERS

NUMBER_FORMS = (
    "Numbers are read as YAML 1.2 reads them. The generator also refuses what this schema cannot "
    "see, because it depends on how a number is written: a leading zero (0700, octal in YAML 1.1: "
    "write 700), 0o and 0x numbers (write decimal), and a count with a decimal point (4.0: write 4); "
    "and it refuses .nan, which bounds cannot catch. Digit separators (1_000), base 60 (1:30), 0b "
    "binary and yes/no/on/off are text in YAML 1.2, so this schema refuses them where a number or a "
    "boolean is due, as the generator does."
)


@cache  # depends only on the model classes; callers must not mutate the result
def spec_schemas() -> dict[str, dict[str, Any]]:
    schemas: dict[str, dict[str, Any]] = {}
    for kind, adapter in ADAPTERS.items():
        schema = adapter.json_schema(mode="validation")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema.setdefault("title", kind)
        schema["description"] = "\n\n".join(filter(None, (schema.get("description"), NUMBER_FORMS)))
        schemas[kind] = schema
    return schemas


def schema_files() -> dict[str, str]:
    """`<kind>.schema.json` -> its text, as written to schema/ and offered for download."""
    return {f"{kind}.schema.json": strict_json.dumps(schema, f"{kind}.schema.json", ensure_ascii=False, indent=2, sort_keys=True) + "\n"
            for kind, schema in spec_schemas().items()}
