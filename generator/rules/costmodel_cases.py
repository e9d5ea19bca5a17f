"""model: a scaling study's modelled layouts fit its cluster. The scaling page runs the cost model
on each layout of a study's `modelled` section; a layout that cannot be placed on the study's
nodes (tensor parallelism leaving a node or not dividing the heads, pipeline stages that do not
divide the layers, a global batch the data-parallel ranks cannot share) is caught here, where it
is written, rather than shown on the page as a missing estimate."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule
from ..estimates.studies import study_placement
from ..model.entities import ScalingStudy
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


RULES = (LAYOUT,)
CHECKS: tuple[Check, ...] = (check_modelled_layouts_fit,)
