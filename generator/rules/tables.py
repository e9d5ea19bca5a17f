"""tables: tier tables are half-open GPU-count ranges that start at 1 and leave no gap or
overlap; every recommendation elsewhere agrees with them unless it carries an explicit,
explained conflict (the articles' advice is kept as theirs, never silently fixed)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..knowledge import KnowledgeBase, Loaded
from ..model.common import Range
from ..model.entities import Advice, Recommendation, TierTable
from .base import Context, report

# Which tier-table subject judges which recommendation layer.
_LAYER_SUBJECT = {"network": "network", "topology": "topology", "intra_node": "intra_node"}


def check_tier_tables(ctx: Context) -> Iterator[Diagnostic]:
    for table in ctx.kb.of_type(TierTable):
        yield from _table_problems(table)


def well_formed(table: Loaded[TierTable]) -> bool:
    """Only a table without gaps or overlaps can judge other advice (else one slip ripples)."""
    return next(_table_problems(table), None) is None


def _table_problems(table: Loaded[TierTable]) -> Iterator[Diagnostic]:
    rows = sorted(enumerate(table.model.rows), key=lambda pair: pair[1].gpus.min)
    expected_min: int | None = 1
    for index, row in rows:
        where = ("rows", index, "gpus")
        if expected_min is None:
            yield report(table, where, "tables-tier-overlap",
                         f"range {row.gpus.label()} overlaps an earlier unbounded range")
            continue
        if row.gpus.max is not None and row.gpus.max <= row.gpus.min:
            yield report(table, where, "tables-tier-gap", f"empty range: max {row.gpus.max} ≤ min {row.gpus.min}")
        if row.gpus.min > expected_min:
            yield report(table, where, "tables-tier-gap",
                         f"no row covers {expected_min}–{row.gpus.min - 1} GPUs "
                         "(add a row, with `picks: []` and a note if the source gives no advice)")
        elif row.gpus.min < expected_min:
            yield report(table, where, "tables-tier-overlap",
                         f"range {row.gpus.label()} overlaps the previous row, which ends at {expected_min - 1}")
        expected_min = row.gpus.max
    if expected_min is not None and rows:
        index = rows[-1][0]
        yield report(table, ("rows", index, "gpus"), "tables-tier-gap",
                     f"nothing covers {expected_min}+ GPUs: the last range needs no max")


def _rows_for(table: Loaded[TierTable], gpus: Range) -> list[tuple[int, Range, list[str]]]:
    return [(i, row.gpus, list(row.picks)) for i, row in enumerate(table.model.rows) if row.gpus.overlaps(gpus)]


def judging_tables(kb: KnowledgeBase) -> dict[str, list[Loaded[TierTable]]]:
    """Subject -> every well-formed tier table of it: each one judges other advice on its subject."""
    tables: dict[str, list[Loaded[TierTable]]] = {}
    for table in kb.of_type(TierTable):
        if well_formed(table):
            tables.setdefault(table.model.subject, []).append(table)
    return tables


def check_recommendations(ctx: Context) -> Iterator[Diagnostic]:
    tables = judging_tables(ctx.kb)
    for rec in ctx.kb.of_type(Recommendation):
        for index, item in enumerate(rec.model.items):
            subject = _LAYER_SUBJECT.get(item.layer)
            if subject is None or item.gpus is None:
                continue
            for table in tables.get(subject, []):
                yield from _against(rec, index, item, item.gpus, table)


def _against(rec: Loaded[Recommendation], index: int, item: Advice, gpus: Range,
             table: Loaded[TierTable]) -> Iterator[Diagnostic]:
    """One recommendation item (for `gpus` GPUs) judged by one tier table of its subject."""
    rows = _rows_for(table, gpus)
    disagreements = [pick for pick in item.picks if rows and not any(pick in picks for _, _, picks in rows)]
    acknowledged = item.conflict is not None and item.conflict.table == table.id
    if disagreements and not acknowledged:
        says = "; ".join(f"{r.label()} GPUs → {', '.join(p) or 'no advice'}" for _, r, p in rows)
        yield report(rec, ("items", index, "picks"), "tables-tier-mismatch",
                     f"recommends {disagreements[0]!r} for {gpus.label()} GPUs, but {table.path} says: {says}. "
                     "Fix the pick, or keep the source's advice and record "
                     f"`conflict: {{table: {table.id}, note: ...}}`")
    elif not disagreements and acknowledged:
        yield report(rec, ("items", index, "conflict"), "tables-stale-conflict",
                     f"marked as conflicting with {table.id!r}, but it agrees with it: remove `conflict`")
