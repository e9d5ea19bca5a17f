"""The comparison page (compare.md): GPUs, or servers and racks, side by side, one column each.

Nothing is computed here: the GPU page's three tables (specs, tensor throughput, derived) and the
nodes page's table are turned on their side, so that every figure reads exactly as it does there,
with its unit, direction and source. Every item has its column in the page; the page's script
(docs/assets/javascripts/compare.js) shows the two to four the reader picks, and keeps the choice
in the address (`?gpus=…&nodes=…`), so a shared link opens the same comparison. Without the
script every column shows and the table scrolls in its own box.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from markupsafe import Markup

from ..knowledge import KnowledgeBase
from ..model.entities import ComputeNode
from ..model.runs import Run
from . import hardware, nodes
from .context import Site
from .names import name_cell, short_names
from .table import Cell, Table
from .text import inert

# Before the reader picks, a comparison shows the two GPUs with the most published training runs in
# the knowledge base (specs/runs/), the ones a planner most likely weighs, and a reference server
# of each of them (the first by id); chosen from the data, so no product is named here.
PRESELECTED = 2
MOST = 4  # more columns than this would not read side by side on a laptop


@dataclass(frozen=True)
class Item:
    id: str  # the column's key in the address; an attribute value, never text
    head: Cell  # the item's short name, linked to its row on its own page, full name on hover
    checkbox: Markup  # the short name as the picker's label


@dataclass(frozen=True)
class Side:
    """One comparison: its items and, per figure, the figure's name and each item's cell."""

    kind: str  # "gpus" or "nodes": the address parameter
    items: list[Item]
    rows: list[tuple[Markup, list[Cell]]]
    preselected: list[str]


def _side(kb: KnowledgeBase, kind: str, tables: list[Table]) -> Side:
    """The tables (one row per item, the name first, the same items in the same order) on their
    side: one row per column of theirs, one column per item, headed by the item's short name
    linked to its row on its own page (`kind`, which is also the page)."""
    first = tables[0]
    ids = [row.anchor for row in first.rows if row.anchor]
    assert len(ids) == len(first.rows), "every row of the first table names its item"
    labels = [kb.label_of(i) for i in ids]
    shorts = short_names(kb, labels)
    items = [Item(i, name_cell(i, label, shorts[label], href=f"../{kind}/#{i}"), inert(shorts[label]))
             for i, label in zip(ids, labels, strict=True)]
    rows: list[tuple[Markup, list[Cell]]] = []
    for table in tables:
        assert len(table.rows) == len(ids), "every table holds the same items"
        for column, (label, _numeric) in enumerate(table.headers[1:], start=1):
            # a header from a spec is inert Markup already; one written in the code is escaped here
            rows.append((label if isinstance(label, Markup) else inert(label), [row.cells[column] for row in table.rows]))
    return Side(kind, items, rows, ids[:PRESELECTED])


def _typical(kb: KnowledgeBase, gpus: list[str], servers: list[str]) -> tuple[list[str], list[str]]:
    """The preselected GPUs (most published runs first, then the table's order) and servers."""
    runs = Counter(r.model.gpu for r in kb.of_type(Run))
    chosen = sorted(gpus, key=lambda g: (-runs[g], gpus.index(g)))[:PRESELECTED]
    nodes_of = {g: sorted(n.id for n in kb.of_type(ComputeNode) if n.id in servers and n.model.gpu == g
                          and n.model.kind == "server") for g in chosen}
    picked = [ids[0] for ids in nodes_of.values() if ids]
    return chosen, picked or servers[:PRESELECTED]


def compare(site: Site) -> dict[str, object]:
    gpu_page = hardware.gpus(site)
    node_page = nodes.nodes(site)
    gpu_tables = [t for t in (gpu_page["specs"], gpu_page["compute"], gpu_page["derived"]) if isinstance(t, Table)]
    node_table = node_page["nodes"]
    assert isinstance(node_table, Table)
    gpus, servers = _side(site.kb, "gpus", gpu_tables), _side(site.kb, "nodes", [node_table])
    typical_gpus, typical_servers = _typical(site.kb, [i.id for i in gpus.items], [i.id for i in servers.items])
    return {"gpus": replace(gpus, preselected=typical_gpus), "nodes": replace(servers, preselected=typical_servers),
            "most": MOST}
