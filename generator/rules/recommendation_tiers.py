"""tables: every recommendation (an article's summary, its "standard configuration") agrees with
the tier table of its subject, or carries an explicit, explained conflict. The articles' advice
is kept as theirs and shown beside ours, never silently fixed (DESIGN.md section 2); and a
conflict that no longer is one is flagged, so the page does not claim a disagreement that is gone.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.common import Range
from ..model.entities import Advice, Recommendation, TierTable
from .base import Check, Context
from .tier_tables import judging_tables

TIER_MISMATCH = Rule("tables-tier-mismatch", "tables", "别处的推荐（总结、标准配置）必须与分档表一致，除非明确标注了冲突。")
STALE_CONFLICT = Rule("tables-stale-conflict", "tables", "标注为冲突的推荐若其实与分档表一致，标注就是过时的。")

# Which tier-table subject judges which recommendation layer.
_LAYER_SUBJECT = {"network": "network", "topology": "topology", "intra_node": "intra_node"}


def check_recommendations(ctx: Context) -> Iterator[Diagnostic]:
    tables = judging_tables(ctx.kb)
    for rec in ctx.kb.of_type(Recommendation):
        for index, item in enumerate(rec.model.items):
            subject = _LAYER_SUBJECT.get(item.layer)
            if subject is None or item.gpus is None:
                continue
            for table in tables.get(subject, []):
                yield from _against(rec, index, item, item.gpus, table)


def _rows_for(table: Loaded[TierTable], gpus: Range) -> list[tuple[int, Range, list[str]]]:
    return [(i, row.gpus, list(row.picks)) for i, row in enumerate(table.model.rows) if row.gpus.overlaps(gpus)]


def _against(rec: Loaded[Recommendation], index: int, item: Advice, gpus: Range,
             table: Loaded[TierTable]) -> Iterator[Diagnostic]:
    """One recommendation item (for `gpus` GPUs) judged by one tier table of its subject."""
    rows = _rows_for(table, gpus)
    disagreements = [pick for pick in item.picks if rows and not any(pick in picks for _, _, picks in rows)]
    acknowledged = item.conflict is not None and item.conflict.table == table.id
    if disagreements and not acknowledged:
        says = "; ".join(f"{r.label()} GPUs → {', '.join(p) or 'no advice'}" for _, r, p in rows)
        yield TIER_MISMATCH.report(rec, ("items", index, "picks"),
                                   f"recommends {disagreements[0]!r} for {gpus.label()} GPUs, but {table.path} says: {says}. "
                                   "Fix the pick, or keep the source's advice and record "
                                   f"`conflict: {{table: {table.id}, note: ...}}`")
    elif not disagreements and acknowledged:
        yield STALE_CONFLICT.report(rec, ("items", index, "conflict"),
                                    f"marked as conflicting with {table.id!r}, but it agrees with it: remove `conflict`")


RULES = (TIER_MISMATCH, STALE_CONFLICT)
CHECKS: tuple[Check, ...] = (check_recommendations,)
