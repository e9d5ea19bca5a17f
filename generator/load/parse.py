"""Parse one spec file's bytes into plain data plus the exact position of every key and value.

This is the only place that touches YAML. PyYAML (libyaml) scans and parses, but the tree is
walked here so that we can (a) keep line/column of every node, (b) reject what PyYAML silently
accepts (duplicate keys, aliases, non-standard tags), (c) read plain scalars as YAML 1.2 does,
not by PyYAML's YAML 1.1 rules, refusing the forms YAML 1.1 reads otherwise (generator.load.scalars
has the table), and (d) bound the work a hostile file can cause (size, depth). Pure: bytes in,
data or diagnostics out.

Two paths give the same data: a fast one that reads libyaml's events straight into dicts and
lists for ordinary files, and the careful composer above for everything else. Positions are
only needed to report a problem, so a file read fast works them out later, on first use. The
fast path parses about three times faster; without it the 100x synthetic knowledge base takes
6.7 s instead of 4.4 s to validate and render, over its 5 s budget (DESIGN.md section 8).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..diagnostics import DataPath, Diagnostic, Mark, Rule
from .scalars import ScalarFormError, read_plain, read_tagged
from .schema_rules import TYPE as SCHEMA_TYPE
from .yaml_rules import ALIAS, DUPLICATE_KEY, EMPTY, ENCODING, SYNTAX, TAB, TAG, TOO_DEEP, TOO_LARGE

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 24
MAX_SCALAR_CHARS = 20_000


_STD = "tag:yaml.org,2002:"
_PLAIN = "tag:gpu-guide:plain"  # a plain scalar: resolved by generator.load.scalars, not by PyYAML's YAML 1.1 rules
_ALLOWED_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")}
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")



class ParsedFile:
    """A spec file's data with positions: `values[path]` is where the value at `path` starts and
    `keys[path]` where its key starts (mapping entries only).

    Positions are only needed to report a problem, so a file read by the fast path works them out
    from its bytes on first use (parsing it again, once, with the position-keeping composer)."""

    __slots__ = ("path", "data", "_raw", "_positions")

    def __init__(self, path: str, data: dict[str, Any], raw: bytes,
                 positions: tuple[dict[DataPath, Mark], dict[DataPath, Mark]] | None = None) -> None:
        self.path, self.data, self._raw, self._positions = path, data, raw, positions

    def __repr__(self) -> str:
        return f"ParsedFile({self.path!r})"

    @property
    def values(self) -> dict[DataPath, Mark]:
        return self._marks()[0]

    @property
    def keys(self) -> dict[DataPath, Mark]:
        return self._marks()[1]

    def _marks(self) -> tuple[dict[DataPath, Mark], dict[DataPath, Mark]]:
        if self._positions is None:
            walker = _compose(self._raw.decode("utf-8"))  # the fast path read it: it decodes
            self._positions = walker.values, walker.keys
        return self._positions

    def value_mark(self, path: DataPath) -> Mark:
        """Position of the deepest existing node on `path` (a missing field points at its parent)."""
        values = self.values
        for cut in range(len(path), -1, -1):
            mark = values.get(path[:cut])
            if mark is not None:
                return mark
        return Mark(1, 1)

    def key_mark(self, path: DataPath) -> Mark:
        return self.keys.get(path) or self.value_mark(path)


class _LoadProblem(Exception):
    def __init__(self, rule: Rule, mark: Mark, message: str) -> None:
        super().__init__(message)
        self.rule, self.mark, self.message = rule, mark, message


def _mark(node_mark: Any) -> Mark:
    return Mark(node_mark.line + 1, node_mark.column + 1)


# libyaml's C parser when present (about 4x faster), composed in Python so that aliases and
# depth can be bounded and every node keeps its position.
_Parser: Any
_Scanning: tuple[Any, ...]
try:
    from yaml._yaml import CParser

    _Parser, _Scanning = CParser, ()
except ImportError:  # PyYAML built without libyaml
    _Parser, _Scanning = yaml.parser.Parser, (yaml.reader.Reader, yaml.scanner.Scanner)


class _BoundedLoader(yaml.composer.Composer, *_Scanning, _Parser, yaml.constructor.SafeConstructor,  # type: ignore[misc]
                     yaml.resolver.Resolver):
    """Safe loader that refuses aliases and excessive nesting while composing."""

    def __init__(self, stream: str) -> None:
        if _Scanning:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
        else:
            _Parser.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self._depth = 0

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is ScalarNode and implicit[0]:
            return _PLAIN
        return super().resolve(kind, value, implicit)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            event: Any = self.peek_event()
            raise _LoadProblem(
                ALIAS, _mark(event.start_mark),
                "aliases (*name) are not allowed in spec files: write the value out",
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()
                raise _LoadProblem(
                    TOO_DEEP, _mark(event.start_mark),
                    f"nesting deeper than {MAX_DEPTH} levels",
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def parse_spec(path: str, raw: bytes, *, fast: bool = True) -> ParsedFile | list[Diagnostic]:
    """Parse `raw` (the bytes of the file shown as `path`) or return why it cannot be parsed;
    `fast=False` skips the fast path (`fast_data`), so that tests can compare the two."""
    text = ""
    try:
        _check_size_and_bom(raw)
        if b"\t" in raw:
            _check_tabs(_decode(raw))
        # libyaml reads the UTF-8 bytes as they are (a str would be encoded back to UTF-8 for
        # it) and refuses what is not UTF-8; the careful path then decodes and says where.
        data = fast_data(raw) if fast else None
        if data is not None:
            return ParsedFile(path, data, raw)
        text = _decode(raw)
        walker = _compose(text)
        return ParsedFile(path, walker.data, raw, (walker.values, walker.keys))
    except _LoadProblem as problem:
        return [problem.rule.at(path, problem.mark.line, problem.mark.col, problem.message)]
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = _mark(mark) if mark is not None else Mark(1, 1)
        message = " ".join(p for p in (err.context, err.problem) if p) or "invalid YAML"
        return [SYNTAX.at(path, where.line, where.col, f"YAML syntax: {message}")]
    except yaml.reader.ReaderError as err:
        where = _position_to_mark(text, err.position)
        return [ENCODING.at(path, where.line, where.col, f"character {err.character!r} is not allowed in YAML ({err.reason})")]
    except yaml.YAMLError as err:  # any other PyYAML error: still a diagnostic, never a traceback
        return [SYNTAX.at(path, 1, 1, f"YAML syntax: {err}")]


def _compose(text: str) -> _Walker:
    """The careful path: compose node by node, keeping every position, and raise the precise
    problem (alias, depth, tag, duplicate key, bad value) where there is one."""
    loader = _BoundedLoader(text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    if root is None:
        raise _LoadProblem(EMPTY, Mark(1, 1), "the file is empty: a spec file holds one mapping")
    walker = _Walker(loader)
    data = walker.build(root, ())
    if not isinstance(data, dict):
        raise _LoadProblem(
            SCHEMA_TYPE, _mark(root.start_mark),
            f"a spec file holds one mapping, not a {_kind_name(root)}",
        )
    walker.data = data
    return walker


class _Fallback(Exception):
    """The fast path met something unusual; the careful path decides what it is."""


def fast_data(raw: bytes) -> dict[str, Any] | None:
    """The common case, about three times faster: plain mappings, lists and scalars without tags,
    anchors or aliases, read straight from libyaml's events with no positions kept. Returns None
    whenever the file holds anything else, or anything wrong, so that `_compose` handles it."""
    if _Scanning:  # pure-Python PyYAML: no speed to gain, keep one path
        return None
    parser: Any = _Parser(raw)
    try:
        return _fast_events(parser)
    except (_Fallback, yaml.YAMLError, ValueError, OverflowError):  # ScalarFormError is a ValueError
        return None
    finally:
        parser.dispose()


def _fast_events(parser: Any) -> dict[str, Any]:
    get = parser.get_event
    if type(get()) is not StreamStartEvent or type(get()) is not DocumentStartEvent:
        raise _Fallback
    root: dict[str, Any] = {}
    event = get()
    if type(event) is not MappingStartEvent or event.tag is not None or event.anchor is not None:
        raise _Fallback
    # The open containers, and for each the key awaiting its value: _NO_KEY while a mapping
    # waits for its next key, None in a list.
    stack: list[Any] = [root]
    keys: list[Any] = [_NO_KEY]
    top: Any = root
    key: Any = _NO_KEY
    value: Any
    while True:
        event = get()
        kind = type(event)
        if kind is ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                raise _Fallback
            value = event.value
            if len(value) > MAX_SCALAR_CHARS:
                raise _Fallback
            if event.implicit[0]:  # plain scalar: may be a number, date, boolean or null
                value = read_plain(value)
            if key is _NO_KEY:  # this scalar is a key
                if type(value) is not str or value in top:
                    raise _Fallback
                key = value
            elif key is None:
                top.append(value)
            else:
                top[key] = value
                key = _NO_KEY
            continue
        if kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            keys.pop()
            if not stack:
                break
            top, key = stack[-1], keys[-1]
            continue
        if kind is not MappingStartEvent and kind is not SequenceStartEvent:
            raise _Fallback  # an alias, or anything unexpected
        if key is _NO_KEY or event.tag is not None or event.anchor is not None or len(stack) + 1 >= MAX_DEPTH:
            raise _Fallback
        value = {} if kind is MappingStartEvent else []
        if key is None:
            top.append(value)
        else:
            top[key] = value
        keys[-1] = None if key is None else _NO_KEY
        stack.append(value)
        top, key = value, (_NO_KEY if kind is MappingStartEvent else None)
        keys.append(key)
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        raise _Fallback
    return root


_NO_KEY = object()


def _check_size_and_bom(raw: bytes) -> None:
    if len(raw) > MAX_FILE_BYTES:
        raise _LoadProblem(
            TOO_LARGE, Mark(1, 1),
            f"file is {len(raw)} bytes; a spec file may hold at most {MAX_FILE_BYTES} bytes",
        )
    if raw.startswith(_BOMS):
        raise _LoadProblem(ENCODING, Mark(1, 1), "file starts with a byte-order mark: save it as UTF-8 without BOM")


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        where = _position_to_mark(raw[: err.start].decode("utf-8", "replace"), err.start)
        raise _LoadProblem(ENCODING, where, f"not UTF-8: byte 0x{raw[err.start]:02x} cannot be decoded") from None


def _position_to_mark(text: str, position: int) -> Mark:
    before = text[:position]
    line = before.count("\n") + 1
    return Mark(line, position - (before.rfind("\n") + 1) + 1)


def _check_tabs(text: str) -> None:
    for number, line in enumerate(text.split("\n"), start=1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and line.strip():
            raise _LoadProblem(TAB, Mark(number, indent.index("\t") + 1),
                               "tab in indentation: YAML indents with spaces only")


def _kind_name(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "mapping"
    return "list" if isinstance(node, SequenceNode) else "single value"


def _scalar(node: ScalarNode) -> Any:
    """A scalar's value: plain ones as generator.load.scalars reads them, quoted ones as text."""
    where = _mark(node.start_mark)
    if len(node.value) > MAX_SCALAR_CHARS:
        raise _LoadProblem(TOO_LARGE, where, f"value of {len(node.value)} characters; at most {MAX_SCALAR_CHARS}")
    try:
        if node.tag == _PLAIN:
            return read_plain(node.value)
        if node.tag not in _ALLOWED_TAGS:
            raise _LoadProblem(TAG, where, f"tag {node.tag!r} is not allowed: only plain YAML values")
        return read_tagged(node.tag.removeprefix(_STD), node.value)
    except ScalarFormError as err:
        raise _LoadProblem(err.rule, where, err.message) from None
    except (ValueError, OverflowError) as err:  # e.g. a date 2026-13-45
        raise _LoadProblem(SYNTAX, where, f"bad value {node.value!r}: {err}") from None


class _Walker:
    """Turns a composed node tree into dicts/lists/scalars, recording positions."""

    def __init__(self, loader: _BoundedLoader) -> None:
        self._loader = loader
        self.values: dict[DataPath, Mark] = {}
        self.keys: dict[DataPath, Mark] = {}
        self.data: dict[str, Any] = {}

    def build(self, node: Node, path: DataPath) -> Any:
        self.values[path] = _mark(node.start_mark)
        if node.tag not in _ALLOWED_TAGS and node.tag != _PLAIN:
            raise _LoadProblem(TAG, _mark(node.start_mark),
                               f"tag {node.tag!r} is not allowed: only plain YAML values")
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)  # the composer yields no other node type
        return _scalar(node)

    def _mapping(self, node: MappingNode, path: DataPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_mark = _mark(key_node.start_mark)
            key = _scalar(key_node) if isinstance(key_node, ScalarNode) else None
            if not isinstance(key, str):
                raise _LoadProblem(SCHEMA_TYPE, key_mark, "mapping keys must be plain text")
            if key in result:
                first = self.keys[path + (key,)]
                raise _LoadProblem(DUPLICATE_KEY, key_mark,
                                   f"duplicate key {key!r} (first defined at line {first.line})")
            self.keys[path + (key,)] = key_mark
            result[key] = self.build(value_node, path + (key,))
        return result
