"""JSON Schema for spec files, generated from the typed model (never kept by hand), so editors
can complete and check YAML. One schema per spec folder."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from .model import ADAPTERS


@cache  # depends only on the model classes; callers must not mutate the result
def spec_schemas() -> dict[str, dict[str, Any]]:
    schemas: dict[str, dict[str, Any]] = {}
    for kind, adapter in ADAPTERS.items():
        schema = adapter.json_schema(mode="validation")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema.setdefault("title", kind)
        schemas[kind] = schema
    return schemas


def schema_files() -> dict[str, str]:
    """`<kind>.schema.json` -> its text, as written to schema/ and offered for download."""
    return {f"{kind}.schema.json": json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
            for kind, schema in spec_schemas().items()}
