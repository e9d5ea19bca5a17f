"""Short names for table rows: a spec's `name` is the full variant name ("NVIDIA A800 80GB SXM
(export-control variant of A100)"), which wraps over four to six lines in a table's first column.
A row shows it without a closing parenthetical and without a leading vendor name ("A800 80GB
SXM"); the full name stays in the link's title and in the page's notes, which the short name links
to. Derived, not stored: every name in the knowledge base already reads that way, and a name with
nothing to drop is shown whole."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

from markupsafe import Markup, escape

from ..knowledge import KnowledgeBase, Loaded
from ..language import current
from ..model.common import Entity
from ..model.entities import Vendor
from .escape import attr, inert
from .table import Cell
from .text import chinese

# A parenthetical that ends the name, ASCII or full-width, with no bracket inside it.
_TRAILING_NOTE = re.compile(r"^(?P<head>.*\S)\s*[(（][^()（）]*[)）]$")


def short_name(name: str, vendors: Iterable[str] = ()) -> str:
    """`name` without a trailing parenthetical and a leading vendor name; whole if nothing is left."""
    text = name.strip()
    found = _TRAILING_NOTE.match(text)
    if found:
        text = found["head"]
    for vendor in sorted(set(vendors), key=len, reverse=True):
        rest = text[len(vendor):]
        if vendor and text.startswith(vendor) and rest[:1] == " " and rest.strip():
            text = rest.strip()
            break
    return text or name


def vendor_names(kb: KnowledgeBase) -> list[str]:
    """Every way the vocabulary writes a vendor's name (its Chinese and English labels)."""
    names: list[str] = []
    for vendor in kb.of_type(Vendor):
        names += [n for n in (vendor.model.label.zh, vendor.model.label.en) if n]
    return names


def short_names(kb: KnowledgeBase, names: Iterable[str]) -> dict[str, str]:
    """Full name -> short name for the rows of one table; two names that would shorten alike
    (NVSwitch's generations differ only in their note) both stay whole."""
    vendors = vendor_names(kb)
    shorts = {name: short_name(name, vendors) for name in names}
    taken = Counter(shorts.values())
    return {name: short if taken[short] == 1 else name for name, short in shorts.items()}


def note_anchor(entity_id: str) -> str:
    """The element id of an entity's item in its page's notes."""
    return f"about-{entity_id}"


def name_cell(entity_id: str, name: str, short: str, href: str | None = None) -> Cell:
    """A row's first cell: the short name, linked to the entity's note (or `href`), with the full
    name as the link's title."""
    target = href if href is not None else "#" + note_anchor(entity_id)
    # The href is made of ids (slugs, rule schema-id) and page paths: escaped as Site.link escapes it.
    # A name written in Chinese, on an English page: the whole link, title too, marked as Chinese.
    lang = ' lang="zh"' if current() == "en" and chinese(name) else ""
    return Cell(Markup(f'<a class="row-name"{lang} href="{escape(target)}" title="{attr(name)}">{inert(short)}</a>'))


class RowNamer(Protocol):
    """The first cell of an entity's row in one table (`row_names`)."""

    def __call__(self, entity_id: str, href: str | None = None) -> Cell: ...


def row_names(kb: KnowledgeBase, entities: Sequence[Loaded[Entity]]) -> RowNamer:
    """The first cell of an entity's row: its short name (unique among `entities`), linked to its
    note on the page (or to `href`), with the full name as the link's title."""
    shorts = short_names(kb, [e.label for e in entities])
    labels = {e.id: e.label for e in entities}

    def cell(entity_id: str, href: str | None = None) -> Cell:
        label = labels[entity_id]
        return name_cell(entity_id, label, shorts[label], href)
    return cell
