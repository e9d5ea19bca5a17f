"""Where a part can be bought: one market per file (specs/markets/), each stating, for the GPUs
and nodes of the knowledge base, whether a buyer there can order them, since when, and by which
rule or vendor notice.

A market lists rulings. A ruling names the parts it covers, their status from its date on, and
the document that says so. A part's status in a market is that of the latest ruling naming it; a
node no ruling names takes its GPU's (export rules cover the systems built on a covered chip), and
a part neither names takes the market's `default`. A restricted market's default is `barred`, so
that a GPU added to specs/gpus/ is not sold there by silence and adding it breaks no check; a
market without a default must name every GPU (rule tree-market-coverage). No ruling lies after the build date (schema-future-date), so the
rulings of a validated knowledge base are the rules in force at that date.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from .common import Entity, Keyed, Ref, Slug, SourceRef, Strict, Text

Status = Literal["available", "licence-required", "barred", "end-of-life"]
"""- `available`: a buyer in the market can order it; no licence stands in the way.
- `licence-required`: an export licence is needed for each sale, reviewed case by case: a plan
  cannot count on it (the planner leaves it out unless asked to consider it).
- `barred`: not to be had: licences are presumed denied, or the vendor does not sell it there.
- `end-of-life`: the vendor no longer sells it (anywhere the ruling's market covers)."""

BUYABLE: frozenset[Status] = frozenset({"available"})

PartRef = Annotated[Slug, Ref("gpus", "nodes")]
Label = Annotated[str, Field(min_length=1, max_length=300)]


class Ruling(Keyed):
    """One rule or notice: a short `title` for pages, the parts it covers, their status from
    `since`, the document (`source`, and `where` in it) and what it says about these parts (`note`)."""

    title: Text
    items: Annotated[list[PartRef], Field(min_length=1, max_length=200)]
    status: Status
    since: dt.date
    source: SourceRef
    where: Label
    note: Text


class Default(Strict):
    """The status of every GPU and node that no ruling names, and why it holds."""

    status: Status
    source: SourceRef
    note: Text


class Market(Entity):
    name: Text
    short_name: Text | None = None  # how a chart's line names it ("全球"); the name where absent
    summary: Text
    default: Default | None = None
    rulings: Annotated[list[Ruling], Field(max_length=500)]
