"""The scaling case studies as model inputs: a study's modelled layouts as the reader's choice
that `estimate` resolves."""

from __future__ import annotations

from ..costmodel.feasibility import Problem, placement
from ..costmodel.inputs import Layout
from ..knowledge import KnowledgeBase
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import (
    ExpertLayout,
    ExpertRow,
    ExpertStudy,
    Gpu,
    ModelledLayout,
    ScalingStudy,
)
from .choice import Choice
from .records import gpu, workload


def study_layout(study: ScalingStudy, layout: ModelledLayout) -> Layout | None:
    """A modelled layout of a scaling study as the model's record (None: the study has no model)."""
    m = study.modelled
    if m is None:
        return None
    return Layout(layout.tp, layout.pp, layout.zero, layout.micro_batch, m.seq, m.global_batch, layout.recompute,
                  layout.sequence_parallel)


def study_choice(study: ScalingStudy, layout: ModelledLayout, network: str) -> Choice | None:
    """What `estimate` is asked for one layout of a study on one of its networks."""
    m = study.modelled
    if m is None:
        return None
    return Choice(study.gpu, int(study.gpus.value), network, workload=m.workload,
                  gpus_per_node=int(study.gpus_per_node.value), nics_per_node=m.nics_per_node,
                  tensor_parallel=layout.tp, pipeline_parallel=layout.pp, zero_stage=layout.zero,
                  micro_batch_size=layout.micro_batch, sequence_length=m.seq, global_batch_size=m.global_batch,
                  recompute=layout.recompute, sequence_parallel=layout.sequence_parallel)


def study_placement(kb: KnowledgeBase, study: ScalingStudy) -> list[tuple[int, Problem]]:
    """Placement problems of each modelled layout on the study's cluster (its GPU, node size and
    node count: no network needed), by layout index. Unknown ids give none (the reference rules
    report them)."""
    m = study.modelled
    workload_entity = None if m is None else kb.get(m.workload, WorkloadSpec)
    gpu_entity = kb.get(study.gpu, Gpu)
    if m is None or workload_entity is None or gpu_entity is None:
        return []
    per_node, gpus_total = int(study.gpus_per_node.value), int(study.gpus.value)
    shape, spec = workload(workload_entity.model), gpu(kb, gpu_entity.model)
    if isinstance(spec, str):
        return []  # the GPU has no rate the model can use: estimate says so, placement cannot judge
    out = []
    for index, modelled in enumerate(m.layouts):
        layout = study_layout(study, modelled)
        assert layout is not None
        out += [(index, p) for p in placement(shape, spec, per_node, max(gpus_total // per_node, 1), layout)]
    return out


def expert_choice(study: ExpertStudy, layout: ExpertLayout, row: ExpertRow, overlap: float,
                  imbalance: float) -> Choice:
    """What `estimate` is asked for one layout of an expert study on one hardware row: the node
    names the GPU, GPUs per node and NICs; `overlap` is the all-to-all share hidden where the layout
    asks for it, `imbalance` the busiest GPU's load ÷ the mean (the knowledge base's assumptions)."""
    return Choice(row.gpu or "", study.gpus, row.network, workload=study.workload, node=row.node,
                  nics_per_node=row.nics_per_node,
                  tensor_parallel=layout.tp, pipeline_parallel=layout.pp, zero_stage=layout.zero,
                  micro_batch_size=layout.micro_batch, sequence_length=study.seq, global_batch_size=study.global_batch,
                  recompute=layout.recompute, sequence_parallel=layout.tp > 1, precision=study.precision,
                  expert_parallel=layout.ep, ep_overlap=overlap if layout.overlap else 0.0, expert_imbalance=imbalance)
