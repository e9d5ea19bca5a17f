"""A part's standing in a market: its status, and the ruling (or the market's default) that sets
it. See model/markets.py for how rulings combine. Pure: a validated knowledge base in, records out.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..knowledge import KnowledgeBase, Loaded
from ..model.entities import ComputeNode
from ..model.markets import BUYABLE, Market, Status


@dataclass(frozen=True)
class Standing:
    """Where a part stands in a market, and why: the ruling's key (None: the market's default),
    its date, source and note. `via` names the GPU a node's standing comes from."""

    market: str
    status: Status
    ruling: str | None
    since: dt.date | None
    source: str
    where: str
    note: str
    via: str | None = None

    @property
    def buyable(self) -> bool:
        return self.status in BUYABLE


def markets(kb: KnowledgeBase) -> list[Loaded[Market]]:
    return kb.of_type(Market)


def market(kb: KnowledgeBase, market_id: str) -> Loaded[Market] | None:
    return kb.get(market_id, Market)


def own_standing(entry: Loaded[Market], part_id: str) -> Standing | None:
    """The standing the market's rulings give `part_id` by name: the latest ruling naming it (on
    one date, the later in the file), else None."""
    named = [(r.since, i, r) for i, r in enumerate(entry.model.rulings) if part_id in r.items]
    if not named:
        return None
    _since, _index, r = max(named, key=lambda t: (t[0], t[1]))
    return Standing(entry.id, r.status, r.key, r.since, r.source, r.where, r.note.zh)


def standing(kb: KnowledgeBase, entry: Loaded[Market], part_id: str) -> Standing | None:
    """A GPU's or node's standing in the market: by name; a node no ruling names, by its GPU's;
    else the market's default. None: the market says nothing (rule markets-coverage reports it)."""
    found = own_standing(entry, part_id)
    if found is not None:
        return found
    node = kb.get(part_id, ComputeNode)
    if node is not None:
        by_gpu = own_standing(entry, node.model.gpu)
        if by_gpu is not None:
            return Standing(by_gpu.market, by_gpu.status, by_gpu.ruling, by_gpu.since, by_gpu.source, by_gpu.where,
                            by_gpu.note, via=node.model.gpu)
    default = entry.model.default
    if default is None:
        return None
    return Standing(entry.id, default.status, None, None, default.source, "", default.note.zh)
