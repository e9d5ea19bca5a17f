"""tree: every leaf's advice holds in the cost model at its branch's hardest points (largest
workload of its model-size range, smallest and largest GPU count): the training state fits in
memory with some layout, or the leaf says what it needs; the communication share stays below the
stated threshold (specs/assumptions/, `leaf_comm_share_threshold`), or the leaf warns, and the
page shows the model's number. A declaration the model no longer supports is stale.

A knowledge base without the model's assumptions or a workload in a leaf's range is not judged:
`generator/selection/leafcheck.py` records why, and the model rules report missing assumptions."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule, Severity
from ..knowledge import Loaded
from ..model.selection import Selection
from ..selection.leafcheck import LeafCheck, Point, check_tree
from .base import Check, Context

INFEASIBLE = Rule("tree-leaf-infeasible", "tree",
                  "在分支最难的一点（最大的模型、最少和最多的 GPU），叶子推荐的配置必须能放进显存，否则叶子要写明它需要什么（更多 GPU 或卸载）。")
COMM_SHARE = Rule("tree-leaf-comm-share", "tree",
                  "在分支最难的一点，叶子配置的通信占比超过设定的警戒线时，叶子必须带上通信警告（数字由模型给出）。")
STALE = Rule("tree-leaf-stale-advice", "tree", "叶子声明的需求或通信警告若模型已不再支持，声明就是过时的。")

UNMODELLED = Rule("tree-leaf-unmodelled", "tree",
                   "叶子推荐的配置模型无法估算时（分支的模型规模范围内没有训练负载，或所选 GPU、网络缺少模型需要的数字），给出警告：这样的建议没有经过显存与通信的检验。",
                   Severity.WARNING, after_errors=True)

GB = 1e9


def check_tree_model(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        if sel.root not in {q.id for q in sel.questions}:
            continue  # the structure rule reports it
        checks = check_tree(ctx.kb, sel)
        for li, leaf in enumerate(sel.leaves):
            found = checks.get(leaf.id)
            if found is None or found.leaf is not leaf:
                continue
            where: DataPath = ("leaves", li)
            if found.unchecked:
                if not found.reported_elsewhere:
                    yield UNMODELLED.report(entity, (*where, "picks"),
                                            f"leaf {leaf.id!r} cannot be checked against the cost model: "
                                            f"{found.unchecked}")
                continue
            yield from _memory(entity, where, found)
            yield from _communication(entity, where, found)


def _memory(entity: Loaded[Selection], where: DataPath, found: LeafCheck) -> Iterator[Diagnostic]:
    leaf = found.leaf
    failing = [p for p in found.points if not p.fits]
    if failing and leaf.needs is None:
        yield INFEASIBLE.report(entity, (*where, "picks"),
                                f"leaf {leaf.id!r}: {describe(failing[0])}; change the picks, or add "
                                "`needs: {what: more-gpus | offload, note: ...}`")
    if not failing and leaf.needs is not None:
        yield STALE.report(entity, (*where, "needs"),
                           f"leaf {leaf.id!r} fits in memory at every hardest point of its branch: remove `needs`")


def _communication(entity: Loaded[Selection], where: DataPath, found: LeafCheck) -> Iterator[Diagnostic]:
    leaf, share, threshold = found.leaf, found.max_comm_share, found.threshold
    if share is None or threshold is None:
        return
    if share > threshold and leaf.comm_warning is None:
        point = found.loudest()
        at = f" ({point.label()})" if point is not None else ""
        yield COMM_SHARE.report(entity, (*where, "picks"),
                                f"leaf {leaf.id!r}: estimated communication share {share:.1%}{at} is above the "
                                f"threshold {threshold:.0%}: change the picks, or add `comm_warning: {{note: ...}}`")
    if share <= threshold and leaf.comm_warning is not None:
        yield STALE.report(entity, (*where, "comm_warning"),
                           f"leaf {leaf.id!r}: estimated communication share {share:.1%} is within the threshold "
                           f"{threshold:.0%}: remove `comm_warning`")


def describe(point: Point) -> str:
    """Why a point does not fit, in one line with the model's figures."""
    head = point.label()
    if point.estimate is None or point.layout is None:
        return f"{head}: {point.why}"
    memory, layout = point.estimate.memory, point.layout
    return (f"{head}: no layout fits; the closest (tp {layout.tensor_parallel}, pp {layout.pipeline_parallel}, "
            f"ZeRO-{layout.zero_stage}, {layout.recompute} recompute) needs {memory.total_bytes / GB:.1f} GB per GPU "
            f"of {memory.usable_bytes / GB:.1f} GB usable")


RULES = (INFEASIBLE, COMM_SHARE, STALE, UNMODELLED)
CHECKS: tuple[Check, ...] = (check_tree_model,)
