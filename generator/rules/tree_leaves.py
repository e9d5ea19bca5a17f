"""tree: every leaf is advice one can follow. For the GPU counts that reach it, its network,
topology and intra-node link agree with the tier tables (or say why not), a leaf beyond one
server names a network and a topology, and the hardware it names fits together: no NVSwitch for
a GPU without NVLink, and such a GPU comes with the pitfall that warns about it."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from functools import partial

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.common import Range
from ..model.entities import Gpu, Nvlink, Nvswitch, Pcie, Pitfall, TierTable
from ..model.selection import Leaf, Selection
from ..selection.tree import leaf_paths, range_on_path, variables
from .base import Check, Context
from .tier_tables import judging_tables

TIER_MISMATCH = Rule("tree-tier-mismatch", "tree", "叶子的网络、拓扑和机内互连必须与分档表一致，除非明确标注并解释了冲突。")
STALE_CONFLICT = Rule("tree-stale-conflict", "tree", "叶子标注的冲突若其实不存在，标注就是过时的。")
MISSING_PICK = Rule("tree-missing-pick", "tree", "超出一台服务器的叶子必须给出节点间网络和拓扑。")
LEAF_HARDWARE = Rule("tree-leaf-hardware", "tree", "叶子推荐的机内互连必须是这块 GPU 能用的（没有 NVLink 的卡不能配 NVSwitch）。")
NO_NVLINK_PITFALL = Rule("tree-no-nvlink-pitfall", "tree", "推荐没有 NVLink 的 GPU 的叶子，必须带上说明这一点的避坑条目。")

_SINGLE_NODE = 8  # a leaf without a network or topology must stay within one 8-GPU server


def check_tree_leaves(ctx: Context) -> Iterator[Diagnostic]:
    tables = judging_tables(ctx.kb)  # the same tables as judge the recommendations
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        if sel.root not in {q.id for q in sel.questions}:
            continue  # no valid root: the structure rule reports it, and no path means anything
        gpus_min = variables(sel).get("gpus")
        paths = leaf_paths(sel)
        seen: set[str] = set()
        for li, leaf in enumerate(sel.leaves):
            path = paths.get(leaf.id)
            if path is None or leaf.id in seen:
                continue  # unreachable or a duplicate id: reported by the structure rule
            seen.add(leaf.id)
            gpus = range_on_path(path, "gpus", (gpus_min.min or 1) if gpus_min else 1)
            yield from _leaf(ctx, entity, li, leaf, gpus, tables)


def _leaf(ctx: Context, entity: Loaded[Selection], li: int, leaf: Leaf, gpus: Range,
          tables: dict[str, list[Loaded[TierTable]]]) -> Iterator[Diagnostic]:
    where = ("leaves", li)
    gpu = ctx.kb.get(leaf.picks.gpu, Gpu)
    link_type = _link_type(ctx, leaf.picks.intra_node)
    if gpu is None or link_type is None:
        return  # refs-unknown reported it
    has_nvlink = gpu.model.scale_up is not None
    acknowledged = {c.table for c in leaf.conflicts}
    disagreeing: set[str] = set()
    if link_type in ("nvlink", "nvswitch") and not has_nvlink:
        yield LEAF_HARDWARE.report(entity, (*where, "picks", "intra_node"),
                                   f"{leaf.picks.gpu!r} has no NVLink, so it cannot use {leaf.picks.intra_node!r}")
    if not has_nvlink and not _warned(ctx, leaf, leaf.picks.gpu):
        yield NO_NVLINK_PITFALL.report(entity, (*where, "pitfalls"),
                                       f"{leaf.picks.gpu!r} has no NVLink: this leaf must carry the pitfall (danger or warning) "
                                       "that concerns it, e.g. the PCIe bottleneck for tensor parallelism")
    for subject, pick in (("network", leaf.picks.network), ("topology", leaf.picks.topology)):
        if pick is None:
            if gpus.max is None or gpus.max - 1 > _SINGLE_NODE:  # half-open: [1, 9) is one server
                yield MISSING_PICK.report(entity, (*where, "picks"),
                                          f"reached with {gpus.label()} GPUs, more than one server: name a {subject}")
            continue
        for table in tables.get(subject, []):
            if _disagrees(table, gpus, partial(operator.eq, pick)):
                disagreeing.add(table.id)
    for table in tables.get("intra_node", []) if has_nvlink else []:
        if _disagrees(table, gpus, lambda p: _link_type(ctx, p) == link_type):
            disagreeing.add(table.id)
    for table_id in sorted(disagreeing - acknowledged):
        yield TIER_MISMATCH.report(entity, (*where, "picks"),
                                   f"leaf {leaf.id!r} ({gpus.label()} GPUs) disagrees with {table_id!r}: follow the table, or keep "
                                   f"the advice and add `conflicts: [{{table: {table_id}, note: ...}}]`")
    judged = {t.id for subject_tables in tables.values() for t in subject_tables}
    for ci, conflict in enumerate(leaf.conflicts):
        if conflict.table in judged and conflict.table not in disagreeing:
            yield STALE_CONFLICT.report(entity, (*where, "conflicts", ci),
                                        f"leaf {leaf.id!r} agrees with {conflict.table!r}: remove this conflict")


def _disagrees(table: Loaded[TierTable], gpus: Range, wanted: Callable[[str], bool]) -> bool:
    """Whether a row of `table` for these GPU counts advises, and picks nothing `wanted`."""
    rows = [row for row in table.model.rows if row.gpus.overlaps(gpus) and row.picks]
    return any(not any(wanted(pick) for pick in row.picks) for row in rows)


def _link_type(ctx: Context, entity_id: str) -> str | None:
    """pcie, nvlink or nvswitch: the type of the intra-node link `entity_id`, if it is one."""
    link = ctx.kb.get(entity_id)
    return link.model.type if link is not None and isinstance(link.model, (Pcie, Nvlink, Nvswitch)) else None


def _warned(ctx: Context, leaf: Leaf, gpu: str) -> bool:
    for pitfall_id in leaf.pitfalls:
        pitfall = ctx.kb.get(pitfall_id, Pitfall)
        if pitfall is not None and pitfall.model.severity in ("danger", "warning") \
                and gpu in pitfall.model.concerns:
            return True
    return False


RULES = (TIER_MISMATCH, STALE_CONFLICT, MISSING_PICK, LEAF_HARDWARE, NO_NVLINK_PITFALL)
CHECKS: tuple[Check, ...] = (check_tree_leaves,)
