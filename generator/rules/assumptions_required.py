"""model: every parameter the knowledge base has a reader for is set by an assumption. Without
this rule a deleted assumption file switches things off without a word: the selection tree's
communication warnings (no threshold: no warning), the calibration over the published runs (no
threshold: nothing to hold the model to), the defaults of mixture-of-experts layouts, and every
estimate (the model cannot run without its assumptions, and the pages would say so only where an
estimate happens to be asked for).

A parameter is required when something in the knowledge base reads it: the model's own
assumptions (`estimates.records.MODEL_PARAMETERS`) once there is a workload to estimate; the
warning threshold once the selection tree has leaves; the two calibration thresholds once there
are runs; the all-to-all overlap and the expert imbalance once a workload has experts; the
tensor-parallel overlap once a run overlaps tensor-parallel communication. The
diagnostic stands where the missing file would be, specs/assumptions/<parameter>.yaml, at 1:1,
and names what reads the value."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import PurePosixPath

from ..diagnostics import Diagnostic, Rule
from ..estimates.records import EP_OVERLAP, EXPERT_IMBALANCE, LEAF_THRESHOLD, MODEL_PARAMETERS, TP_OVERLAP
from ..knowledge import KnowledgeBase
from ..model.costs import Assumption, Workload
from ..model.runs import Run
from ..model.selection import Selection
from .base import Check, Context
from .calibration import PER_SOURCE, SUITE

MISSING = Rule("model-assumption-missing", "model",
               "知识库里有读取某个成本模型参数的内容（工作负载、选型树的叶子、已发表实测、混合专家负载）时，"
               "specs/assumptions/ 必须有一个假设设定这个参数：删掉假设文件不能让估算、警告或校准悄悄停掉。")


def _has_workloads(kb: KnowledgeBase) -> bool:
    return any(True for _ in kb.of_type(Workload))


def _has_leaves(kb: KnowledgeBase) -> bool:
    return any(s.model.leaves for s in kb.of_type(Selection))


def _has_runs(kb: KnowledgeBase) -> bool:
    return any(True for _ in kb.of_type(Run))


def _has_experts(kb: KnowledgeBase) -> bool:
    return any(w.model.moe is not None for w in kb.of_type(Workload))


def _has_tp_overlap(kb: KnowledgeBase) -> bool:
    return any(r.model.layout.tp_comm_overlap for r in kb.of_type(Run))


# (the parameters, whether the knowledge base reads them, what reads them)
READERS: tuple[tuple[tuple[str, ...], Callable[[KnowledgeBase], bool], str], ...] = (
    (MODEL_PARAMETERS, _has_workloads, "the cost model needs it for every estimate of specs/workloads/"),
    ((LEAF_THRESHOLD,), _has_leaves, "the selection tree warns on a leaf whose communication share is above it"),
    ((SUITE, PER_SOURCE), _has_runs, "the calibration rule holds the model to the runs of specs/runs/ with it"),
    ((EP_OVERLAP, EXPERT_IMBALANCE), _has_experts, "the mixture-of-experts workloads' layouts default to it"),
    ((TP_OVERLAP,), _has_tp_overlap, "the runs of specs/runs/ that overlap tensor-parallel communication "
     "(`tp_comm_overlap: true`) take it"),
)


def _folder(kb: KnowledgeBase) -> PurePosixPath:
    """specs/assumptions/ under the root the knowledge base was read from (any entity's file is
    <root>/<kind>/<id>.yaml)."""
    some = next(iter(kb.entities.values()))
    return PurePosixPath(some.path).parent.parent / "assumptions"


def check_required_assumptions(ctx: Context) -> Iterator[Diagnostic]:
    kb = ctx.kb
    if not kb.entities:
        return
    stated = {a.model.parameter for a in kb.of_type(Assumption)}
    folder = _folder(kb)
    for parameters, reads, reader in READERS:
        missing = [p for p in parameters if p not in stated]
        if not missing or not reads(kb):
            continue
        for parameter in missing:
            file = folder / f"{parameter.replace('_', '-')}.yaml"
            yield MISSING.at(str(file), 1, 1, f"no assumption sets {parameter!r}: {reader}; add a file to "
                             f"specs/assumptions/ with `parameter: {parameter}`")


RULES = (MISSING,)
CHECKS: tuple[Check, ...] = (check_required_assumptions,)
