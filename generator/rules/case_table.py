"""tables: a scaling study's columns agree. GPUs = nodes x GPUs per node; each row's speed-up =
cluster throughput / single-GPU throughput, and its communication share = 1 - speed-up / GPUs.

Speed-up and share both follow from the throughputs. When both are off in a row and still agree
with each other, it is the cluster throughput that was edited: that is reported once, at the
throughput, saying which value would make the row add up, rather than twice at two columns that
are right.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.entities import ScalingStudy
from ..units import fmt_number, from_base
from .base import Check, Context
from .figure_slips import Mismatch, diagnose, mismatches

GPUS = Rule("tables-case-gpus", "tables", "案例的 GPU 总数 = 节点数 × 每节点 GPU 数。")
SPEEDUP = Rule("tables-case-speedup", "tables", "加速比 = 集群吞吐 ÷ 单卡吞吐。")
SHARE = Rule("tables-case-share", "tables", "通信占比 = 1 − 加速比 ÷ GPU 数。")


def check_case_tables(ctx: Context) -> Iterator[Diagnostic]:
    for study in ctx.kb.of_type(ScalingStudy):
        judged = {"gpus": GPUS}
        for row in study.model.rows:
            judged[f"rows.{row.key}.speedup"] = SPEEDUP
            judged[f"rows.{row.key}.comm_share"] = SHARE
        found = mismatches(ctx, study.id, judged)
        blamed = _blame_throughputs(ctx, study, found)
        yield from blamed.values()
        yield from diagnose(ctx, study, [m for m in found if _row_of(m) not in blamed])


def _row_of(mismatch: Mismatch) -> str | None:
    """The key of the row a mismatched column belongs to (None for the GPU count)."""
    parts = mismatch.stated.name.split(".")
    return parts[1] if parts[0] == "rows" and len(parts) == 3 else None


def _blame_throughputs(ctx: Context, study: Loaded[ScalingStudy], found: list[Mismatch]) -> dict[str, Diagnostic]:
    """Row key -> the diagnostic at its cluster throughput, for each row whose speed-up and
    share are both off but agree with each other."""
    off: dict[str, set[str]] = {}
    for m in found:
        row_key = _row_of(m)
        if row_key is not None:
            off.setdefault(row_key, set()).add(m.stated.name.rpartition(".")[2])
    stated = ctx.figures.stated[study.id]
    gpus = study.model.nodes.value * study.model.gpus_per_node.value
    blamed: dict[str, Diagnostic] = {}
    for index, row in enumerate(study.model.rows):
        if off.get(row.key) != {"speedup", "comm_share"}:
            continue
        speedup, share = stated[f"rows.{row.key}.speedup"], stated[f"rows.{row.key}.comm_share"]
        if abs((1 - speedup.value / gpus) - share.value) > share.tolerance + speedup.tolerance / gpus:
            continue  # the stated columns disagree with each other too: report each
        single, cluster = stated[f"rows.{row.key}.single_gpu"], stated[f"rows.{row.key}.cluster"]
        want = single.value * speedup.value
        blamed[row.key] = SPEEDUP.report(
            study, ("rows", index, "cluster", "value"),
            f"rows.{row.key}.cluster is {fmt_number(cluster.shown)} tok/s, but the row states speed-up "
            f"{fmt_number(speedup.shown)}x and share {fmt_number(share.shown)}%, which "
            f"need {fmt_number(from_base(want, cluster.unit))} tok/s "
            f"({fmt_number(single.shown)} tok/s × {fmt_number(speedup.shown)})")
    return blamed


RULES = (GPUS, SPEEDUP, SHARE)
CHECKS: tuple[Check, ...] = (check_case_tables,)
