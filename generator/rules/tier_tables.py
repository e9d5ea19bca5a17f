"""tables: a tier table maps GPU counts to advice as half-open ranges that start at 1 and leave
no gap and no overlap, so that every cluster size gets exactly one row. Only such a table judges
other advice (recommendations, decision-tree leaves): one slip in it would ripple everywhere."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..knowledge import KnowledgeBase, Loaded
from ..model.entities import TierTable
from .base import Check, Context

TIER_GAP = Rule("tables-tier-gap", "tables", "分档表的区间必须从 1 开始、首尾相接、没有空档。")
TIER_OVERLAP = Rule("tables-tier-overlap", "tables", "分档表的区间不能重叠。")


def check_tier_tables(ctx: Context) -> Iterator[Diagnostic]:
    for table in ctx.kb.of_type(TierTable):
        yield from _table_problems(table)


def well_formed(table: Loaded[TierTable]) -> bool:
    """Only a table without gaps or overlaps can judge other advice (else one slip ripples)."""
    return next(_table_problems(table), None) is None


def judging_tables(kb: KnowledgeBase) -> dict[str, list[Loaded[TierTable]]]:
    """Subject -> every well-formed tier table of it: each one judges other advice on its subject."""
    tables: dict[str, list[Loaded[TierTable]]] = {}
    for table in kb.of_type(TierTable):
        if well_formed(table):
            tables.setdefault(table.model.subject, []).append(table)
    return tables


def _table_problems(table: Loaded[TierTable]) -> Iterator[Diagnostic]:
    rows = sorted(enumerate(table.model.rows), key=lambda pair: pair[1].gpus.min)
    expected_min: int | None = 1
    for index, row in rows:
        where = ("rows", index, "gpus")
        if expected_min is None:
            yield TIER_OVERLAP.report(table, where, f"range {row.gpus.label()} overlaps an earlier unbounded range")
            continue
        if row.gpus.max is not None and row.gpus.max <= row.gpus.min:
            yield TIER_GAP.report(table, where, f"empty range: max {row.gpus.max} ≤ min {row.gpus.min}")
        if row.gpus.min > expected_min:
            yield TIER_GAP.report(table, where,
                                  f"no row covers {expected_min}–{row.gpus.min - 1} GPUs "
                                  "(add a row, with `picks: []` and a note if the source gives no advice)")
        elif row.gpus.min < expected_min:
            yield TIER_OVERLAP.report(table, where,
                                      f"range {row.gpus.label()} overlaps the previous row, which ends at {expected_min - 1}")
        expected_min = row.gpus.max
    if expected_min is not None and rows:
        index = rows[-1][0]
        yield TIER_GAP.report(table, ("rows", index, "gpus"), f"nothing covers {expected_min}+ GPUs: the last range needs no max")


RULES = (TIER_GAP, TIER_OVERLAP)
CHECKS: tuple[Check, ...] = (check_tier_tables,)
