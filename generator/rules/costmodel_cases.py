"""model: a scaling study's modelled layouts fit its cluster. The scaling page runs the cost model
on each layout of a study's `modelled` section; a layout that cannot be placed on the study's
nodes (tensor parallelism leaving a node or not dividing the heads, pipeline stages that do not
divide the layers, a global batch the data-parallel ranks cannot share) is caught here, where it
is written, rather than shown on the page as a missing estimate. The same for the layouts of an
expert study (the mixture-of-experts page), on each of its rows."""

from __future__ import annotations

from collections.abc import Iterator

from ..costmodel import check
from ..diagnostics import DataPath, Diagnostic, Rule
from ..estimates.choice import resolve
from ..estimates.records import EP_OVERLAP, EXPERT_IMBALANCE, assumption_value, assumptions
from ..estimates.studies import expert_choice, study_placement
from ..model.entities import ExpertStudy, ScalingStudy
from .base import Check, Context

LAYOUT = Rule("model-case-layout", "model",
              "扩展性案例里交给成本模型估算的并行布局必须能放到案例的集群上：张量并行组在一个节点之内并整除注意力头，"
              "流水线并行整除层数，全局批大小能被数据并行 × 微批整除。")

# Where a problem's field points in a modelled layout (the study's own fields for the batch).
_FIELD = {"layout.tensor_parallel": ("tp",), "layout.pipeline_parallel": ("pp",)}


def check_modelled_layouts_fit(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(ScalingStudy):
        modelled = entity.model.modelled
        if modelled is None:
            continue
        for index, problem in study_placement(ctx.kb, entity.model):
            path: DataPath = ("modelled", "layouts", index, *_FIELD.get(problem.field, ()))
            if problem.field == "layout.global_batch_size":
                path = ("modelled", "global_batch")
            yield LAYOUT.report(entity, path, f"layout {modelled.layouts[index].key!r}: {problem.message}")


EXPERT = Rule("model-expert-study", "model",
              "混合专家案例的每个布局都必须能在每一行的节点和网络上估算：节点、网络和负载存在且负载是混合专家模型，"
              "GPU 数填满整数个节点，张量、流水线、专家并行能放到集群上，全局批大小能被数据并行 × 微批整除。")


def check_expert_studies_estimate(ctx: Context) -> Iterator[Diagnostic]:
    if isinstance(assumptions(ctx.kb), str):
        return  # a missing assumption: model-assumption-missing names it, once, not once a row
    for entity in ctx.kb.of_type(ExpertStudy):
        study = entity.model
        overlap = assumption_value(ctx.kb, EP_OVERLAP) or 0.0
        imbalance = assumption_value(ctx.kb, EXPERT_IMBALANCE) or 1.0
        for i, layout in enumerate(study.layouts):
            for j, row in enumerate(study.rows):
                resolved = resolve(ctx.kb, expert_choice(study, layout, row, overlap, imbalance))
                if isinstance(resolved, str):
                    yield EXPERT.report(entity, ("rows", j), f"row {row.key!r}: {resolved}")
                    continue
                problems = check(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
                for problem in problems[:1]:
                    # the batch and the sequence are the study's, the rest the layout's
                    path: DataPath = (_STUDY_FIELD[problem.field] if problem.field in _STUDY_FIELD
                                      else ("layouts", i, *_EXPERT_FIELD.get(problem.field, ())))
                    yield EXPERT.report(entity, path, f"layout {layout.key!r} on row {row.key!r}: {problem.message}")


_STUDY_FIELD: dict[str, DataPath] = {"layout.global_batch_size": ("global_batch",),
                                     "layout.sequence_length": ("seq",), "layout.precision": ("precision",)}
_EXPERT_FIELD = {"layout.tensor_parallel": ("tp",), "layout.pipeline_parallel": ("pp",),
                 "layout.expert_parallel": ("ep",), "layout.zero_stage": ("zero",)}

RULES = (LAYOUT, EXPERT)
CHECKS: tuple[Check, ...] = (check_modelled_layouts_fit, check_expert_studies_estimate)
