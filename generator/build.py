"""Schema stage: turn one parsed file into a typed entity, or into diagnostics at the exact key or
value that is wrong. Pydantic does the checking; this module translates its error locations
(which include union tags) back to positions in the YAML and its error types to rule ids."""

from __future__ import annotations

import difflib
import re
from typing import Any

from pydantic import ValidationError

from .diagnostics import DataPath, Diagnostic
from .knowledge import Loaded
from .load.parse import ParsedFile
from .load.schema_rules import ENUM, FORMAT, ID_FILENAME, ID_FORMAT, REQUIRED, TEXT_TOO_LONG, TYPE, UNKNOWN_KEY, VALUE
from .model import ADAPTERS, KINDS
from .model.common import FIGURE_REF_PATTERN, SLUG_PATTERN, Identified
from .model.walk import model_at

# Pydantic's error types -> the rule each breaks (any other type: schema-type).
_TYPE_RULES = {
    "missing": REQUIRED,
    "extra_forbidden": UNKNOWN_KEY,
    "literal_error": ENUM,
    "union_tag_invalid": ENUM,
    "union_tag_not_found": REQUIRED,
    "finite_number": VALUE,
    "value_error": VALUE,  # a field's own check (model/common.py NOT_VANISHING)
    "greater_than": VALUE,
    "greater_than_equal": VALUE,
    "less_than": VALUE,
    "less_than_equal": VALUE,
    "too_short": VALUE,
    "too_long": VALUE,
    "string_too_long": TEXT_TOO_LONG,
    "string_too_short": VALUE,
    "string_pattern_mismatch": FORMAT,
}


def build_entity(kind: str, parsed: ParsedFile, stem: str) -> Loaded[Identified] | list[Diagnostic]:
    """Validate `parsed` as an entity of `kind`; `stem` is the file name without `.yaml`."""
    try:
        # The typed boundary: each adapter of a folder returns one of that folder's models.
        model: Identified = ADAPTERS[kind].validate_python(parsed.data)
    except ValidationError as err:
        return [_diagnostic(parsed, kind, e) for e in err.errors(include_url=False)]
    if model.id != stem:
        mark = parsed.value_mark(("id",))
        return [ID_FILENAME.at(parsed.path, mark.line, mark.col,
                               f"id {model.id!r} differs from the file name {stem + '.yaml'!r}: rename one")]
    return Loaded(kind, model, parsed)


def _diagnostic(parsed: ParsedFile, kind: str, error: Any) -> Diagnostic:
    path = _data_path(parsed.data, tuple(error["loc"]))
    rule = _TYPE_RULES.get(error["type"], TYPE)
    message = str(error["msg"]).removeprefix("Value error, ")  # pydantic's label for a field's own check
    field = path[-1] if path else kind
    if rule is REQUIRED:
        if error["type"] == "union_tag_not_found":
            missing = str(error.get("ctx", {}).get("discriminator", "type")).strip("'")
        else:
            missing = error["loc"][-1] if error["loc"] else kind
        message = f"missing required field {missing!r}"
        mark = parsed.value_mark(path)
    elif rule is UNKNOWN_KEY:
        allowed = _allowed_keys(kind, parsed.data, path[:-1])
        hint = difflib.get_close_matches(str(field), allowed, n=1)
        message = f"unknown key {field!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
        if allowed:
            message += f"; allowed here: {', '.join(allowed)}"
        mark = parsed.key_mark(path)
    else:
        if rule is FORMAT and FIGURE_REF_PATTERN in message:
            message = f"{field}: {error['input']!r} is not a figure reference like 'ib-ndr#port_rate' (entity#figure)"
        elif rule is FORMAT and re.fullmatch(r"id|[a-z_]*", str(field)) and SLUG_PATTERN in message:
            rule = ID_FORMAT
            message = f"{field!r} must be a lowercase slug like 'a100-sxm4-80gb' (letters, digits, single hyphens)"
        else:
            message = f"{field}: {message}"
        mark = parsed.value_mark(path)
    return rule.at(parsed.path, mark.line, mark.col, message)


def _data_path(data: Any, loc: tuple[Any, ...]) -> DataPath:
    """Map a pydantic error location onto the data, dropping union tags and type labels
    (pydantic inserts e.g. 'nvlink' for a tagged union member or 'function-after[...]')."""
    path: list[str | int] = []
    node = data
    for part in loc:
        if _has(node, part):
            path.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and _is_label(part, node):
            continue
        else:
            if isinstance(node, dict) and isinstance(part, str):
                path.append(part)  # a missing or unknown key: positions fall back to the parent
            break
    return tuple(path)


def _has(node: Any, part: Any) -> bool:
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _is_label(part: str, node: dict[str, Any]) -> bool:
    return part in (node.get("type"), node.get("kind")) or "[" in part or part in (
        "str", "RatioExpr", "constrained-str", "ratio")


def _allowed_keys(kind: str, data: Any, path: DataPath) -> list[str]:
    """Field names of the model at `path` (best effort; empty when it cannot be resolved)."""
    model = model_at(KINDS[kind], data, path)
    return sorted(model.model_fields) if model is not None else []
