"""Command line: `python -m generator check|schema ...`. The only place, with the MkDocs hook,
that reads or writes files; everything it calls is pure."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .diagnostics import format_all
from .specfiles import read_spec_tree
from .validate import Result, validate


def run_check(root: Path) -> Result:
    files, early = read_spec_tree(root)
    return validate(files, early)


def _check(args: argparse.Namespace) -> int:
    result = run_check(Path(args.path))
    report = format_all(result.diagnostics, args.format)
    if report:
        print(report, file=sys.stdout if args.format == "github" else sys.stderr)
    if result.ok:
        if args.format == "text":
            count = len(result.kb.entities) if result.kb else 0
            print(f"{args.path}: {count} entities, no problems", file=sys.stderr)
        return 0
    errors = sum(1 for d in result.diagnostics if d.severity.value == "error")
    if args.format == "text":
        print(f"{errors} error(s)", file=sys.stderr)
    return 1


def _schema(args: argparse.Namespace) -> int:
    from .jsonschema import spec_schemas
    text = json.dumps(spec_schemas(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name, schema in spec_schemas().items():
            _write_if_changed(out / f"{name}.schema.json",
                              json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write(text)
    return 0


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description="GPU cluster knowledge base tools")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate the spec files and print every problem")
    check.add_argument("path", nargs="?", default="specs", help="spec folder (default: specs)")
    check.add_argument("--format", choices=("text", "github"), default="text")
    check.set_defaults(func=_check)
    schema = sub.add_parser("schema", help="print (or write with --out) the JSON Schema of each spec folder")
    schema.add_argument("--out", help="folder to write <kind>.schema.json files into")
    schema.set_defaults(func=_schema)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
