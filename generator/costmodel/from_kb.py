"""The adapter from the knowledge base to the cost model: the ONLY place that reads entity fields
for the model (GPU memory and tensor rates, scale-up links, network ports, workloads,
assumptions). GPU compute is read by precision (specs/precisions/ ids) and the scale-up link
whatever its family; when the GPU schema changes, this is the one file to change.

Everything is converted here to the model's SI floats: bytes (a data size is stored in bits by
`units.to_base`, so ÷ 8), bytes per second per direction, FLOP per second. Pure: it reads a
validated `KnowledgeBase` and returns records or a one-line reason.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields, replace

from ..knowledge import KnowledgeBase, Loaded
from ..model.common import Quantity
from ..model.costs import PARAMETERS, Assumption
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import (
    ComputeNode,
    Gpu,
    Interconnect,
    ModelledLayout,
    Network,
    Nvlink,
    Nvswitch,
    Pcie,
    Precision,
    ScalingStudy,
)
from ..units import convert_direction, to_base
from .feasibility import Problem, placement
from .inputs import Assumptions, Cluster, GpuSpec, Layout, Node, Recompute, Workload

BITS_PER_BYTE = 8


def workload(spec: WorkloadSpec) -> Workload:
    """A published shape as the model's record (Ψ is the stated count)."""
    return Workload(
        spec.name, float(spec.parameters), spec.layers, spec.hidden_size, spec.attention_heads, spec.vocabulary_size,
        ffn_hidden_size=spec.ffn_hidden_size, kv_heads=spec.kv_heads, gated_mlp=spec.mlp == "swiglu",
        tied_embeddings=spec.tied_embeddings, linear_biases=spec.linear_biases, norm=spec.norm)


def _bytes(q: Quantity) -> float:
    return float(to_base(q.value, q.unit)) / BITS_PER_BYTE


def _per_direction_bytes_per_s(q: Quantity) -> float | None:
    """A link rate in bytes per second, each direction; None if its direction cannot be converted
    (an `aggregate` figure is not a link rate)."""
    value = convert_direction(to_base(q.value, q.unit), q.direction, "per_direction")
    return None if value is None else float(value) / BITS_PER_BYTE


# The model's training formats and the tensor entries (specs/precisions/ ids) that give their
# rates: a 16-bit step runs at the BF16 rate, or at the FP16 rate on a GPU without BF16 (mixed
# precision trains in FP16 there); FP8 at the FP8 rate where the GPU has one.
SIXTEEN_BIT = ("bf16", "fp16")
EIGHT_BIT = ("fp8",)


def _dense(spec: Gpu, keys: tuple[str, ...]) -> float | None:
    """The dense tensor rate (FLOP/s) of the first of `keys` the GPU states; None if none."""
    entries = {e.key: e for e in spec.compute.tensor}
    for key in keys:
        entry = entries.get(key)
        if entry is not None and entry.dense is not None:
            return float(to_base(entry.dense.value, entry.dense.unit))
    return None


def _formats(kb: KnowledgeBase, named: tuple[str, ...], bits: int) -> tuple[str, ...]:
    """The precision ids a training format may read, in order: the named ones, then any other
    value of the vocabulary with as many bits (the reference precision first), so a knowledge
    base that names its formats otherwise (a new vendor's, or a test fixture's) still trains."""
    others = sorted((p for p in kb.of_type(Precision) if p.model.bits == bits and p.id not in named),
                    key=lambda p: (not p.model.reference, p.id))
    return named + tuple(p.id for p in others)


def gpu(kb: KnowledgeBase, spec: Gpu) -> GpuSpec | str:
    """Memory capacity and the dense tensor rates of the training formats (compute by precision:
    a 16-bit rate is required, FP8 only where the GPU states one)."""
    sixteen = _dense(spec, _formats(kb, SIXTEEN_BIT, 16))
    if sixteen is None:
        return f"{spec.name} states no dense 16-bit ({' or '.join(k.upper() for k in SIXTEEN_BIT)}) tensor rate"
    if spec.memory.capacity is None:
        return f"{spec.name} states no memory capacity"
    return GpuSpec(spec.name, _bytes(spec.memory.capacity), sixteen, _dense(spec, _formats(kb, EIGHT_BIT, 8)))


@dataclass(frozen=True)
class ScaleUp:
    """The link between the GPUs of one node, per GPU and direction, and where it is described."""

    entity_id: str
    bytes_per_s: float


def scale_up(kb: KnowledgeBase, spec: Gpu, gpus_per_node: int) -> ScaleUp | str:
    """The GPU's scale-up link (any family) when it joins all `gpus_per_node` GPUs, else its PCIe
    link: a card's bridge joins only `bridge_gpus` cards, and a stated domain caps the rest."""
    link = spec.scale_up
    domain = link.domain.value if link is not None and link.domain is not None else None
    if link is not None and (not link.bridge or gpus_per_node <= (link.bridge_gpus or 2)) \
            and (domain is None or gpus_per_node <= domain):
        rate = None if link.bandwidth is None else _per_direction_bytes_per_s(link.bandwidth)
        if rate is not None:
            return ScaleUp(link.interconnect or link.family, rate)
    # A GPU without a PCIe host link (a superchip board's GPU reaches its CPU over NVLink-C2C) has
    # no fallback link: the model then reports that it has no rate.
    entity = kb.get(spec.pcie) if spec.pcie is not None else None
    model = entity.model if entity is not None else None
    if entity is not None and isinstance(model, Pcie):
        for q in (model.per_direction, model.bidirectional):
            rate = None if q is None else _per_direction_bytes_per_s(q)
            if rate is not None:
                return ScaleUp(entity.id, rate)
    return f"no per-direction scale-up rate for {spec.name}"


def is_interconnect(model: object) -> bool:
    return isinstance(model, (Pcie, Nvlink, Nvswitch))


def network_port(spec: Network) -> float | str:
    """One port's rate in bytes per second, each direction."""
    rate = _per_direction_bytes_per_s(spec.port_rate)
    return f"no per-direction port rate for {spec.name}" if rate is None else rate


# The assumptions the estimate reads; the others (the leaf checks' threshold) are read on their own.
MODEL_PARAMETERS = tuple(f.name for f in fields(Assumptions))
LEAF_THRESHOLD = "leaf_comm_share_threshold"


def assumptions(kb: KnowledgeBase) -> Assumptions | str:
    """The model's assumptions from specs/assumptions/, or which are missing."""
    values: dict[str, float] = {a.model.parameter: a.model.value for a in kb.of_type(Assumption)}
    missing = [name for name in MODEL_PARAMETERS if name not in values]
    if missing:
        return f"specs/assumptions/ sets no value for {', '.join(missing)}"
    return Assumptions(**{name: values[name] for name in MODEL_PARAMETERS})


def leaf_threshold(kb: KnowledgeBase) -> Loaded[Assumption] | None:
    """The assumption that sets the communication share a leaf may reach without a warning."""
    return next((a for a in kb.of_type(Assumption) if a.model.parameter == LEAF_THRESHOLD), None)


def assumption_entities(kb: KnowledgeBase) -> list[Loaded[Assumption]]:
    return sorted(kb.of_type(Assumption), key=lambda a: list(PARAMETERS).index(a.model.parameter))


def workloads(kb: KnowledgeBase) -> list[Loaded[WorkloadSpec]]:
    return sorted(kb.of_type(WorkloadSpec), key=lambda w: (w.model.family, w.model.parameters))


def gpus(kb: KnowledgeBase) -> list[Loaded[Gpu]]:
    return kb.of_type(Gpu)


def networks(kb: KnowledgeBase) -> list[Loaded[Network]]:
    return kb.of_type(Network)


def compute_nodes(kb: KnowledgeBase) -> list[Loaded[ComputeNode]]:
    return kb.of_type(ComputeNode)


__all__ = ["LEAF_THRESHOLD", "MODEL_PARAMETERS", "leaf_threshold", "Choice", "Interconnect", "Resolved", "nearest_workload", "NodeFill", "node_fill", "compute_nodes", "resolve", "ScaleUp", "assumption_entities", "assumptions", "export", "gpu", "gpus", "is_interconnect",
           "network_port", "networks", "scale_up", "study_choice", "study_layout", "study_placement", "workload", "workloads"]


@dataclass(frozen=True)
class Choice:
    """What a reader chooses, by knowledge-base id and plain numbers (the CLI's flags, the
    calculator's inputs). `params` picks the published workload nearest to a parameter count
    when no `workload` is named; `gpus_per_node` and `nics_per_node` default to 8 and one NIC per
    GPU (a rail-optimised node)."""

    gpu: str
    gpus: int
    network: str
    workload: str | None = None
    params: float | None = None
    gpus_per_node: int | None = None
    nics_per_node: int | None = None
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    zero_stage: int = 1
    micro_batch_size: int = 1
    sequence_length: int = 4096
    global_batch_size: int = 512
    recompute: Recompute = "selective"
    sequence_parallel: bool = False
    node: str | None = None


@dataclass(frozen=True)
class Resolved:
    """A choice as the model's inputs, and the ids of the entities they came from."""

    workload: Workload
    cluster: Cluster
    layout: Layout
    assumptions: Assumptions
    ids: dict[str, str]


DEFAULT_GPUS_PER_NODE = 8
NEAREST_FACTOR = 1.5
"""`--params` picks a published workload only within this factor of the asked count: a shape
is not invented for a size the knowledge base does not hold."""


def nearest_workload(kb: KnowledgeBase, params: float) -> Loaded[WorkloadSpec] | str:
    known = workloads(kb)
    if not known:
        return "specs/workloads/ holds no workload"
    best = min(known, key=lambda w: abs(math.log(w.model.parameters / params)))
    ratio = best.model.parameters / params
    if not 1 / NEAREST_FACTOR <= ratio <= NEAREST_FACTOR:
        return (f"no published workload within {NEAREST_FACTOR}x of {params:.4g} parameters "
                f"(nearest: {best.id}, {best.model.parameters:.4g})")
    return best


def resolve(kb: KnowledgeBase, choice: Choice) -> Resolved | str:
    """The model's inputs for a choice, or a one-line reason it has none (an unknown id, a
    count that is not a whole positive number, GPUs that do not fill whole nodes)."""
    found = _workload_of(kb, choice)
    if isinstance(found, str):
        return found
    if choice.node is not None:
        from_node = _node_choice(kb, choice)
        if isinstance(from_node, str):
            return from_node
        choice, node_port = from_node
    else:
        node_port = None
    gpu_entity = kb.get(choice.gpu, Gpu)
    if gpu_entity is None:
        return f"unknown GPU {choice.gpu!r}; known: {', '.join(g.id for g in gpus(kb))}"
    network_entity = kb.get(choice.network, Network)
    if network_entity is None:
        return f"unknown network {choice.network!r}; known: {', '.join(n.id for n in networks(kb))}"
    for name in ("gpus", "gpus_per_node", "nics_per_node"):
        value = getattr(choice, name)
        if value is not None and value < 1:
            return f"{name.replace('_', '-')} is {value}; it must be a whole number of at least 1"
    per_node = choice.gpus_per_node or min(DEFAULT_GPUS_PER_NODE, choice.gpus)
    if choice.gpus % per_node:
        return f"{choice.gpus} GPUs do not fill whole nodes of {per_node}"
    link = scale_up(kb, gpu_entity.model, per_node)
    port = network_port(network_entity.model)
    wanted = assumptions(kb)
    for problem in (link, port, wanted):
        if isinstance(problem, str):
            return problem
    assert isinstance(link, ScaleUp) and isinstance(port, float) and isinstance(wanted, Assumptions)
    chip = gpu(kb, gpu_entity.model)
    if isinstance(chip, str):
        return chip
    name = f"{per_node} × {gpu_entity.model.name}"
    if node_port is not None:
        # A port runs at the slower of its NIC and the network it joins.
        port = min(port, node_port)
        name = node_entity_name(kb, choice.node)
    node = Node(name, chip, per_node, link.bytes_per_s, choice.nics_per_node or per_node, port)
    layout = Layout(choice.tensor_parallel, choice.pipeline_parallel, choice.zero_stage, choice.micro_batch_size,
                    choice.sequence_length, choice.global_batch_size, choice.recompute, choice.sequence_parallel)
    ids = {"workload": found.id, "gpu": gpu_entity.id, "scale_up": link.entity_id, "network": network_entity.id}
    if choice.node is not None:
        ids["node"] = choice.node
    return Resolved(workload(found.model), Cluster(node, choice.gpus // per_node), layout, wanted, ids)


def node_entity_name(kb: KnowledgeBase, node_id: str | None) -> str:
    entity = None if node_id is None else kb.get(node_id, ComputeNode)
    return entity.model.name if entity is not None else str(node_id)


@dataclass(frozen=True)
class NodeFill:
    """What naming a node fills in: its GPU, GPUs per node, scale-out ports (NICs × ports of the
    `scale_out` groups) and the rate of one such port per direction in bytes per second."""

    gpu: str
    gpus_per_node: int
    nics_per_node: int
    port_bytes_per_s: float


def node_fill(entity: Loaded[ComputeNode]) -> NodeFill | str:
    """A node's values for the model, or why it has none (its scale-out ports do not share one
    per-direction rate)."""
    m = entity.model
    groups = [g for g in m.nics if g.role == "scale_out"]
    rates = {_per_direction_bytes_per_s(g.port_rate) for g in groups}
    if not groups or None in rates or len(rates) != 1:
        return f"node {entity.id} states no single per-direction scale-out port rate"
    ports = sum(g.count.value * (g.ports.value if g.ports else 1) for g in groups)
    (rate,) = rates
    assert rate is not None
    return NodeFill(m.gpu, m.gpus.value, ports, rate)


def _node_choice(kb: KnowledgeBase, choice: Choice) -> tuple[Choice, float] | str:
    """A choice made by naming a node: its GPU, its GPUs per node and its scale-out ports fill
    what the reader left out, and must agree with what the reader gave; the second value is the
    node's port rate per direction in bytes per second."""
    entity = kb.get(choice.node or "", ComputeNode)
    if entity is None:
        known = ", ".join(n.id for n in compute_nodes(kb))
        return f"unknown node {choice.node!r}; known: {known}"
    fill = node_fill(entity)
    if isinstance(fill, str):
        return fill
    given = {"gpu": (choice.gpu, fill.gpu), "gpus-per-node": (choice.gpus_per_node, fill.gpus_per_node),
             "nics-per-node": (choice.nics_per_node, fill.nics_per_node)}
    for flag, (asked, has) in given.items():
        if asked not in (None, "", has):
            return f"--{flag} {asked} disagrees with node {entity.id}, which has {has}"
    return (replace(choice, gpu=fill.gpu, gpus_per_node=fill.gpus_per_node, nics_per_node=fill.nics_per_node),
            fill.port_bytes_per_s)


def _workload_of(kb: KnowledgeBase, choice: Choice) -> Loaded[WorkloadSpec] | str:
    if choice.workload is not None:
        entity = kb.get(choice.workload, WorkloadSpec)
        if entity is None:
            return f"unknown workload {choice.workload!r}; known: {', '.join(w.id for w in workloads(kb))}"
        return entity
    if choice.params is None:
        return "name a workload (--workload ID) or a parameter count (--params 70B)"
    if not choice.params > 0:
        return f"params is {choice.params:g}; it must be greater than 0"
    return nearest_workload(kb, choice.params)


GPUS_PER_NODE_CHOICES = tuple(range(1, DEFAULT_GPUS_PER_NODE + 1))
"""The node sizes the calculator offers: a scale-up link is resolved for each (a PCIe card's
NVLink bridge joins only a few cards, so the link depends on the node size)."""


def export(kb: KnowledgeBase) -> dict[str, object]:
    """The calculator's inputs (data/costmodel.json): every workload, GPU, network, node and
    assumption already converted to the model's records, field for field as `inputs.py` names them, with the
    id of the entity each came from. The page's script builds the same `Workload`, `Node`,
    `Cluster` and `Assumptions` from it as `resolve` does for the CLI. Where the model cannot use
    an entity (no per-direction rate), `problem` says why instead of a value."""
    gpu_records = []
    for g in gpus(kb):
        links: dict[str, object] = {}
        for per_node in GPUS_PER_NODE_CHOICES:
            link = scale_up(kb, g.model, per_node)
            links[str(per_node)] = _link_record(link)
        spec = gpu(kb, g.model)
        gpu_records.append({"id": g.id, "name": g.model.name, "scale_up": links,
                            **({"problem": spec} if isinstance(spec, str) else {"spec": asdict(spec)})})
    network_records = []
    for n in networks(kb):
        port = network_port(n.model)
        network_records.append({"id": n.id, "name": n.model.name,
                                **({"problem": port} if isinstance(port, str) else {"port_bytes_per_s": port})})
    wanted = assumptions(kb)
    return {
        "nodes": [_node_record(kb, n) for n in compute_nodes(kb)],
        "workloads": [{"id": w.id, "spec": asdict(workload(w.model))} for w in workloads(kb)],
        "gpus": gpu_records,
        "networks": network_records,
        "assumptions": ({"problem": wanted} if isinstance(wanted, str) else
                        {"values": asdict(wanted),
                         "ids": {a.model.parameter: a.id for a in assumption_entities(kb)}}),
        "defaults": asdict(Choice(gpu="", gpus=DEFAULT_GPUS_PER_NODE, network="",
                                   gpus_per_node=DEFAULT_GPUS_PER_NODE)),
    }



def _link_record(link: ScaleUp | str) -> dict[str, object]:
    return {"problem": link} if isinstance(link, str) else {"id": link.entity_id, "bytes_per_s": link.bytes_per_s}


def _node_record(kb: KnowledgeBase, entity: Loaded[ComputeNode]) -> dict[str, object]:
    """A node as `resolve` uses it when `--node` names it: the values it fills in, its port rate
    (the port runs at the slower of this and the network's), and the GPU's scale-up link at the
    node's size (which may exceed the sizes the calculator offers without a node)."""
    base: dict[str, object] = {"id": entity.id, "name": entity.model.name, "gpu": entity.model.gpu,
                               "gpus_per_node": entity.model.gpus.value}
    fill = node_fill(entity)
    if isinstance(fill, str):
        return {**base, "problem": fill}
    gpu_entity = kb.get(fill.gpu, Gpu)
    link = (f"unknown GPU {fill.gpu!r}" if gpu_entity is None
            else scale_up(kb, gpu_entity.model, fill.gpus_per_node))
    return {**base, "nics_per_node": fill.nics_per_node, "port_bytes_per_s": fill.port_bytes_per_s,
            "scale_up": _link_record(link)}


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
