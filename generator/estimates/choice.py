"""What a reader chooses (by id and plain numbers: the CLI's flags, the calculator's inputs)
resolved into the cost model's inputs, or a one-line reason why it cannot be. A node fills the
GPU, GPUs per node and NICs as it is built."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..costmodel import parameters_from_shape
from ..costmodel.inputs import (
    Assumptions,
    AttentionKernel,
    Cluster,
    Layout,
    Node,
    Precision,
    Recompute,
    Workload,
    ZeroGather,
)
from ..knowledge import KnowledgeBase, Loaded
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import (
    ComputeNode,
    Gpu,
    Network,
)
from .records import (
    EXPERT_IMBALANCE,
    ScaleUp,
    assumption_value,
    assumptions,
    compute_nodes,
    gpu,
    gpus,
    network_port,
    networks,
    per_direction_bytes_per_s,
    scale_up,
    workload,
    workloads,
)


@dataclass(frozen=True)
class Shape:
    """A model shape given by hand (`estimate --layers --hidden ...`) rather than by a workload id.
    `mlp` "swiglu" reads as a Llama block (RMSNorm, no linear biases, untied embeddings), "gelu"
    as a GPT block (LayerNorm, biases, tied embeddings): the two families the model knows."""

    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int | None
    ffn_hidden_size: int | None
    vocabulary_size: int
    mlp: str = "gelu"

    def workload(self, name: str, parameters: float | None) -> Workload:
        llama = self.mlp == "swiglu"
        base = Workload(name, 0.0, self.layers, self.hidden_size, self.attention_heads, self.vocabulary_size,
                        ffn_hidden_size=self.ffn_hidden_size, kv_heads=self.kv_heads, gated_mlp=llama,
                        tied_embeddings=not llama, linear_biases=not llama, norm="rmsnorm" if llama else "layernorm")
        return replace(base, parameter_count=parameters if parameters is not None else parameters_from_shape(base))


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
    recompute: Recompute = "none"
    sequence_parallel: bool = False
    node: str | None = None
    shape: Shape | None = None
    precision: Precision = "bf16"
    flash_attention: bool = True
    virtual_pipeline: int = 1
    fp32_gradients: bool = False
    tp_overlap: float = 0.0
    context_parallel: int = 1
    shard_group: int = 0
    attention_kernel: AttentionKernel = "flash-attention-2"
    zero_gather: ZeroGather = "layer"
    adapter_rank: int = 0
    base_bits: int = 16
    expert_parallel: int = 1
    ep_overlap: float = 0.0
    expert_imbalance: float | None = None  # None: the knowledge base's assumption for an MoE workload, else 1
    expert_tensor_parallel: int = 1
    recompute_layers: int = 0
    fp8_param_gather: bool = False


@dataclass(frozen=True)
class Resolved:
    """A choice as the model's inputs, the ids of the entities they came from, and how the model
    was chosen when it is not a workload of the knowledge base as published (`workload_note`)."""

    workload: Workload
    cluster: Cluster
    layout: Layout
    assumptions: Assumptions
    ids: dict[str, str]
    workload_note: str = ""


DEFAULT_GPUS_PER_NODE = 8


NEAREST_FACTOR = 1.5
"""`--params` picks a published workload only within this factor of the asked count: a shape
is not invented for a size the knowledge base does not hold."""


def nearest_workload(kb: KnowledgeBase, params: float) -> Loaded[WorkloadSpec] | str:
    """The published dense workload nearest to a parameter count (a count alone names no experts:
    a mixture-of-experts workload is asked for by its id)."""
    known = [w for w in workloads(kb) if w.model.moe is None]
    if not known:
        return "specs/workloads/ holds no workload"
    # a difference of logs, not the log of a quotient: a quotient with a count near a double's
    # ends (1e-320, 1e308) comes out 0 or infinite, whose log is no distance
    best = min(known, key=lambda w: abs(math.log(w.model.parameters) - math.log(params)))
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
    model, workload_id, note = found
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
                    choice.sequence_length, choice.global_batch_size, choice.recompute, choice.sequence_parallel,
                    choice.precision, choice.flash_attention, choice.virtual_pipeline, choice.fp32_gradients,
                    choice.tp_overlap, choice.context_parallel, choice.shard_group, choice.attention_kernel,
                    choice.zero_gather, choice.adapter_rank, choice.base_bits, choice.expert_parallel,
                    choice.expert_tensor_parallel, choice.ep_overlap, _imbalance(kb, model, choice.expert_imbalance),
                    recompute_layers=choice.recompute_layers, fp8_param_gather=choice.fp8_param_gather)
    ids = {"gpu": gpu_entity.id, "scale_up": link.entity_id, "network": network_entity.id}
    if workload_id is not None:
        ids = {"workload": workload_id, **ids}
    if choice.node is not None:
        ids["node"] = choice.node
    return Resolved(model, Cluster(node, choice.gpus // per_node), layout, wanted, ids, note)


def _imbalance(kb: KnowledgeBase, model: Workload, stated: float | None) -> float:
    """The busiest GPU's routed tokens ÷ the mean: as chosen, else the knowledge base's assumption
    for a mixture-of-experts workload (learned routing), else 1."""
    if stated is not None:
        return stated
    value = assumption_value(kb, EXPERT_IMBALANCE) if model.moe is not None else None
    return 1.0 if value is None else value


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
    rates = {per_direction_bytes_per_s(g.port_rate) for g in groups}
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


def workload_of(kb: KnowledgeBase, choice: Choice) -> tuple[Workload, str | None, str] | str:
    """The model a choice names (its workload, a parameter count or a shape), as `resolve` builds
    it, or why it names none: what a caller checks before asking about any hardware."""
    return _workload_of(kb, choice)


def _workload_of(kb: KnowledgeBase, choice: Choice) -> tuple[Workload, str | None, str] | str:
    """The model's workload, the id of the workload entity it is (None for a shape given by hand)
    and a note saying how it was made when it is not a published workload as it stands."""
    if choice.params is not None and not choice.params > 0:
        return f"params is {choice.params:g}; it must be greater than 0"
    if choice.shape is not None:
        if choice.workload is not None:
            return "give a workload id or a shape, not both"
        name = f"{choice.shape.layers}-layer {choice.shape.mlp} model, hidden {choice.shape.hidden_size}"
        made = choice.shape.workload(name, choice.params)
        stated = "its count as given" if choice.params is not None else "the count its shape gives"
        return made, None, f"a shape given by hand, {made.parameter_count:.4g} parameters ({stated})"
    if choice.workload is not None:
        entity = kb.get(choice.workload, WorkloadSpec)
        if entity is None:
            return f"unknown workload {choice.workload!r}; known: {', '.join(w.id for w in workloads(kb))}"
        return workload(entity.model), entity.id, ""
    if choice.params is None:
        return "name a workload (--workload ID), a parameter count (--params 70B) or a shape (--layers ...)"
    nearest = nearest_workload(kb, choice.params)
    if isinstance(nearest, str):
        return nearest
    return scaled(workload(nearest.model), nearest.id, choice.params)


def scaled(published: Workload, published_id: str, params: float) -> tuple[Workload, str, str]:
    """A published shape scaled to `params` parameters: its layer count scaled in proportion (at
    least one layer, widths and heads as published, so that every divisibility the shape had it
    keeps), and Ψ set to exactly `params`, which the model states and data-parallel traffic scale
    with. The compute follows the scaled shape."""
    layers = max(1, round(published.layers * params / published.parameter_count))
    made = replace(published, name=f"{published.name} scaled to {params:.4g} parameters", layers=layers,
                   parameter_count=params)
    depth = (f"{layers} layers instead of {published.layers}" if layers != published.layers
             else f"its {layers} layers kept")
    return made, published_id, (f"the shape of {published_id} ({published.parameter_count:.4g} parameters) scaled "
                                f"to {params:.4g}: {depth}, the count as given")
