"""Command line: `python -m generator check|build|recommend|schema`. The only place, with the
MkDocs hook, that reads or writes files; everything it calls is pure."""

from __future__ import annotations

import argparse
import json
import os
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
    from .jsonschema import schema_files, spec_schemas
    if args.out:
        for name, text in schema_files().items():
            _write_if_changed(Path(args.out) / name, text)
    else:
        sys.stdout.write(json.dumps(spec_schemas(), ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    return 0


def _write_if_changed(path: Path, text: str) -> None:
    """Write atomically, and only when the content differs (keeps mtimes for tools that watch)."""
    data = text.encode("utf-8")
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def run_build(root: Path) -> tuple[Result, dict[str, str] | None]:
    """Validate the tree and, when it passes, render every generated file (in memory)."""
    from .pipeline import validate_and_render
    files, early = read_spec_tree(root)
    return validate_and_render(files, early)


def _build(args: argparse.Namespace) -> int:
    result, files = run_build(Path(args.specs))
    if files is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        print("nothing written: the knowledge base does not validate", file=sys.stderr)
        return 1
    out = Path(args.out).resolve()
    for relative in sorted(files):
        target = (out / relative).resolve()
        if not target.is_relative_to(out):  # generated names are ours, but never write outside
            print(f"refusing to write outside {out}: {relative}", file=sys.stderr)
            return 1
    for relative, text in sorted(files.items()):
        _write_if_changed(out / relative, text)
    print(f"{len(files)} files up to date in {args.out}", file=sys.stderr)
    return 0


def _recommend(args: argparse.Namespace) -> int:
    from .recommend import run
    from .tree import NoAnswer
    result = run_check(Path(args.specs))
    if not result.ok or result.kb is None or result.figures is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        return 1
    try:
        print(run(result.kb, result.figures, args.answers, args.format))
    except NoAnswer as err:
        print(f"recommend: {err}", file=sys.stderr)
        return 2
    return 0


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
    build = sub.add_parser("build", help="validate, then write the generated pages and data files")
    build.add_argument("--out", required=True, help="output folder")
    build.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    build.set_defaults(func=_build)
    rec = sub.add_parser("recommend", help="answer the selection tree's questions, e.g. --model-size 70B --gpus 64",
                         description="Flags are the tree's variables (specs/selection/): --model-size, --gpus, --budget.")
    rec.add_argument("--format", choices=("text", "json"), default="text")
    rec.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    rec.set_defaults(func=_recommend)
    args, extra = parser.parse_known_args(argv)
    if args.command != "recommend" and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.answers = extra
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
