"""Tables as data: renderers fill `Table`s in Python and `Table.html` lays them out (in Python
rather than a Jinja loop: the biggest tables hold thousands of cells)."""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup, escape

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
class Row:
    cells: list[Cell]
    anchor: str | None = None  # element id, so other pages can link to the row


@dataclass(frozen=True)
class Table:
    headers: list[tuple[str, bool]]  # (label, numeric column)
    rows: list[Row] = field(default_factory=list)
    caption: str = ""

    def html(self) -> Markup:
        """A sortable table (tables.js reads `num` and `data-sort`). The table itself has no class,
        so Material styles it and wraps it in its own scrolling box, which the first column sticks to."""
        parts = ['<div class="data-table"><table>\n']
        if self.caption:
            parts.append(f"<caption>{escape(self.caption)}</caption>\n")
        parts.append("<thead><tr>")
        parts.extend(f'<th class="num">{escape(label)}</th>' if numeric else f"<th>{escape(label)}</th>"
                     for label, numeric in self.headers)
        parts.append("</tr></thead>\n<tbody>\n")
        for row in self.rows:
            parts.append(f'<tr id="{escape(row.anchor)}">' if row.anchor else "<tr>")
            for cell in row.cells:
                numeric = ' class="num"' if cell.numeric else ""
                sort = f' data-sort="{escape(cell.sort)}"' if cell.sort else ""
                html = cell.html if isinstance(cell.html, Markup) else escape(cell.html)  # as Jinja would
                parts.append(f"<td{numeric}{sort}>{html}</td>")
            parts.append("</tr>\n")
        parts.append("</tbody>\n</table></div>")
        return Markup("".join(parts))
