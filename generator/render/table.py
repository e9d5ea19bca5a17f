"""Tables as data: renderers fill `Table`s in Python, one Jinja macro lays them out (the
`table` macro in templates/_macros.j2: a sortable table that tables.js reads through `num` and
`data-sort`, with no class of its own, so that Material styles it and wraps it in its own
scrolling box, which the first column sticks to)."""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from .text import inert


@dataclass(frozen=True)
class Cell:
    html: Markup
    sort: str = ""  # the number a sortable table sorts this cell by
    numeric: bool = False

    @classmethod
    def text(cls, value: object) -> Cell:
        return cls(inert(value))


@dataclass(frozen=True)
class SpecLink:
    href: str  # the file in the repository's web editor
    path: str  # the file, as named in the repository: specs/<kind>/<id>.yaml


@dataclass(frozen=True)
class Row:
    cells: list[Cell]
    anchor: str | None = None  # element id, so other pages can link to the row
    spec: SpecLink | None = None  # the entity's spec file: a pencil in the first cell links to it


@dataclass(frozen=True)
class Table:
    headers: list[tuple[str, bool]]  # (label, numeric column)
    rows: list[Row] = field(default_factory=list)
    caption: str = ""
