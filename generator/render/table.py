"""Tables as data: renderers fill `Table`s in Python, one Jinja macro lays them out."""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup


@dataclass(frozen=True)
class Cell:
    html: Markup
    sort: str = ""  # the number a sortable table sorts this cell by
    numeric: bool = False

    @classmethod
    def text(cls, value: object) -> Cell:
        from .text import inert  # local: text.py imports nothing from here, keep it that way
        return cls(inert(value))


@dataclass(frozen=True)
class Row:
    cells: list[Cell]
    anchor: str | None = None  # element id, so other pages can link to the row


@dataclass(frozen=True)
class Table:
    headers: list[tuple[str, bool]]  # (label, numeric column)
    rows: list[Row] = field(default_factory=list)
    caption: str = ""
