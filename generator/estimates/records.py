"""The knowledge base as the cost model's records: the ONLY place that reads entity fields for
the model (GPU memory and tensor rates, scale-up links, network ports, workloads, assumptions).
GPU compute is read by precision (specs/precisions/ ids) and the scale-up link whatever its
family; when the GPU schema changes, this is the one file to change.

Everything is converted here to the model's SI floats: bytes (a data size is stored in bits by
`units.to_base`, so ÷ 8), bytes per second per direction, FLOP per second. Pure: it reads a
validated `KnowledgeBase` and returns records or a one-line reason. (`_bytes` of a data rate in bits
per second gives bytes per second.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ..costmodel import parameters_from_shape
from ..costmodel.inputs import Assumptions, GpuSpec, Layout, Mla, Moe, Workload
from ..costmodel.shape import active_parameters_from_shape
from ..knowledge import KnowledgeBase, Loaded
from ..model.common import Quantity
from ..model.costs import PARAMETERS, Assumption, Experts
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import (
    Architecture,
    ComputeNode,
    Gpu,
    Network,
    Pcie,
    Precision,
)
from ..units import UNITS, convert_direction, to_base

BITS_PER_BYTE = 8


def workload(spec: WorkloadSpec) -> Workload:
    """A published shape as the model's record (Ψ is the stated count), with its head width,
    latent attention and experts where it states them."""
    mla = None if spec.mla is None else Mla(
        spec.mla.q_lora_rank, spec.mla.kv_lora_rank, spec.mla.qk_nope_head_dim, spec.mla.qk_rope_head_dim,
        spec.mla.v_head_dim)
    return Workload(
        spec.name, float(spec.parameters), spec.layers, spec.hidden_size, spec.attention_heads, spec.vocabulary_size,
        ffn_hidden_size=spec.ffn_hidden_size, kv_heads=spec.kv_heads, gated_mlp=spec.mlp == "swiglu",
        tied_embeddings=spec.tied_embeddings, linear_biases=spec.linear_biases, norm=spec.norm,
        head_dim=spec.head_dim, mla=mla, moe=moe_record(spec.moe), dropout=spec.dropout is None or spec.dropout.value)


def moe_record(spec: Experts | None) -> Moe | None:
    """A workload's (or a run's inline shape's) experts as the model's record."""
    return None if spec is None else Moe(
        spec.experts, spec.experts_per_token, spec.expert_ffn_hidden_size, shared_experts=spec.shared_experts,
        dense_layers=spec.dense_layers, nodes_per_token=spec.nodes_per_token)


# How far a workload's stated parameter counts (total and active) may lie from the counts its
# shape gives: 1 %, plus half a unit of the last digit the count is written with, so that a
# published label such as "37B" (37000000000) stands for every count that rounds to it (`rounding`). An exact
# count (6738415616) adds less than one parameter.
PARAMETER_TOLERANCE = 0.01


def rounding(count: int) -> float:
    """Half a unit of the last nonzero digit of a stated count, read with at least two significant
    digits (the zero of "30B" counts): 0.5e9 for 37000000000 and for 30000000000, 0.05e9 for
    2400000000 and for 3000000000, 0.5 for an exact count."""
    text = str(count)
    return 0.5 * 10.0 ** max(0, min(len(text) - len(text.rstrip("0")), len(text) - 2))


def agrees(stated: int, derived: float) -> bool:
    """Whether a stated count is the one the shape gives, within `PARAMETER_TOLERANCE` and its
    rounding."""
    return abs(derived - stated) <= PARAMETER_TOLERANCE * stated + rounding(stated)


def heads_divide(spec: WorkloadSpec) -> bool:
    """Whether the shape can exist: the key/value heads split the heads and, where the head width
    is h ÷ heads (no stated `head_dim`, no latent attention), the heads split the hidden size."""
    explicit = spec.head_dim is not None or spec.mla is not None
    return not ((not explicit and spec.hidden_size % spec.attention_heads) or spec.attention_heads % spec.kv_heads)


def experts_fit(spec: WorkloadSpec) -> bool:
    """Whether the experts can exist: a token is routed to at most all of them, at least one layer
    has them, and the attention is either latent or of stated head width, not both."""
    m = spec.moe
    experts = m is None or (m.experts_per_token <= m.experts and m.dense_layers < spec.layers)
    return experts and not (spec.mla is not None and spec.head_dim is not None)


def shape_parameters(spec: WorkloadSpec) -> float | None:
    """The parameter count the shape gives, or None for a shape that cannot exist."""
    return parameters_from_shape(workload(spec)) if heads_divide(spec) and experts_fit(spec) else None


def shape_active_parameters(spec: WorkloadSpec) -> float | None:
    """The count of parameters one token passes through that the shape gives (`costmodel.shape`),
    or None for a shape that cannot exist."""
    return active_parameters_from_shape(workload(spec)) if heads_divide(spec) and experts_fit(spec) else None


def active_sound(spec: WorkloadSpec) -> bool:
    """Whether the stated active count is in order: stated for a mixture-of-experts workload, no
    more than the total, and the count the shape gives."""
    if spec.active_parameters is None:
        return spec.moe is None
    derived = shape_active_parameters(spec)
    return (spec.active_parameters <= spec.parameters and derived is not None
            and agrees(spec.active_parameters, derived))


def sound(spec: WorkloadSpec) -> bool:
    """Whether the model rules accept a workload (rules/costmodel_specs.py): its heads split
    evenly, its experts fit, and its stated counts (total, and active where it has experts) are
    the ones its shape gives. Nothing is estimated for one they reject."""
    derived = shape_parameters(spec)
    return derived is not None and agrees(spec.parameters, derived) and active_sound(spec)


def _bytes(q: Quantity) -> float:
    return float(to_base(q.value, q.unit)) / BITS_PER_BYTE


def unknown_unit(*quantities: Quantity | None) -> str | None:
    """The first unit among `quantities` that the units table does not know, else None. The units
    rule reports it; the model's readers turn it into a reason instead of converting it."""
    return next((q.unit for q in quantities if q is not None and q.unit not in UNITS), None)


def per_direction_bytes_per_s(q: Quantity) -> float | None:
    """A link rate in bytes per second, each direction; None if its direction cannot be converted
    (an `aggregate` figure is not a link rate) or its unit is unknown."""
    if unknown_unit(q):
        return None
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
    """`gpu_spec`, computed once per knowledge base and GPU: the planner resolves each GPU on every
    network at every leaf of the tree, and calibration at every run."""
    return kb.once(f"gpu-spec:{spec.id}", lambda: gpu_spec(kb, spec), of=spec)


def gpu_spec(kb: KnowledgeBase, spec: Gpu) -> GpuSpec | str:
    """Memory capacity, memory bandwidth (aggregate, per GPU: the schema allows no other) and the
    dense tensor rates of the training formats (compute by precision: a 16-bit rate is required,
    FP8 only where the GPU states one), and the share of the 16-bit peak FlashAttention-2 reaches on
    its architecture and how much faster cuDNN's fused attention runs there, where published."""
    architecture = kb.get(spec.architecture, Architecture)
    attention = None if architecture is None else architecture.model.flash_attention_2
    cudnn = None if architecture is None else architecture.model.cudnn_attention_speedup
    unknown = unknown_unit(spec.memory.capacity, spec.memory.bandwidth, *(e.dense for e in spec.compute.tensor),
                           attention, cudnn)
    if unknown is not None:
        return f"{spec.name} states a figure in the unknown unit {unknown!r}"
    sixteen = _dense(spec, _formats(kb, SIXTEEN_BIT, 16))
    if sixteen is None:
        return f"{spec.name} states no dense 16-bit ({' or '.join(k.upper() for k in SIXTEEN_BIT)}) tensor rate"
    if spec.memory.capacity is None:
        return f"{spec.name} states no memory capacity"
    if spec.memory.bandwidth is None:
        return f"{spec.name} states no memory bandwidth"
    return GpuSpec(spec.name, _bytes(spec.memory.capacity), _bytes(spec.memory.bandwidth), sixteen,
                   _dense(spec, _formats(kb, EIGHT_BIT, 8)),
                   None if attention is None else float(to_base(attention.value, attention.unit)),
                   None if cudnn is None else float(to_base(cudnn.value, cudnn.unit)))


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
        rate = None if link.bandwidth is None else per_direction_bytes_per_s(link.bandwidth)
        if rate is not None:
            return ScaleUp(link.interconnect or link.family, rate)
    # A GPU without a PCIe host link (a superchip board's GPU reaches its CPU over NVLink-C2C) has
    # no fallback link: the model then reports that it has no rate.
    entity = kb.get(spec.pcie) if spec.pcie is not None else None
    model = entity.model if entity is not None else None
    if entity is not None and isinstance(model, Pcie):
        for q in (model.per_direction, model.bidirectional):
            rate = None if q is None else per_direction_bytes_per_s(q)
            if rate is not None:
                return ScaleUp(entity.id, rate)
    return f"no per-direction scale-up rate for {spec.name}"


def network_port(spec: Network) -> float | str:
    """One port's rate in bytes per second, each direction."""
    rate = per_direction_bytes_per_s(spec.port_rate)
    return f"no per-direction port rate for {spec.name}" if rate is None else rate


# The assumptions the estimate reads; the others (the communication warning's threshold) are read on their own.
MODEL_PARAMETERS = tuple(f.name for f in fields(Assumptions))


LEAF_THRESHOLD = "leaf_comm_share_threshold"


def assumptions(kb: KnowledgeBase) -> Assumptions | str:
    """The model's assumptions from specs/assumptions/, or which are missing; read once per
    knowledge base (every estimate of the planner and of calibration asks)."""
    return kb.once("assumptions", lambda: _assumptions(kb))


def _assumptions(kb: KnowledgeBase) -> Assumptions | str:
    values: dict[str, float] = {a.model.parameter: a.model.value for a in kb.of_type(Assumption)}
    missing = [name for name in MODEL_PARAMETERS if name not in values]
    if missing:
        return f"specs/assumptions/ sets no value for {', '.join(missing)}"
    return Assumptions(**{name: values[name] for name in MODEL_PARAMETERS})


def leaf_threshold(kb: KnowledgeBase) -> Loaded[Assumption] | None:
    """The assumption that sets the communication share a leaf may reach without a warning."""
    return next((a for a in kb.of_type(Assumption) if a.model.parameter == LEAF_THRESHOLD), None)


EP_OVERLAP = "ep_overlap_fraction"
EXPERT_IMBALANCE = "expert_imbalance"
TP_OVERLAP = "tp_overlap_fraction"
"""Assumptions that set layout defaults rather than fields of the model's `Assumptions`: the
expert all-to-all share a DualPipe-style schedule hides, the busiest GPU's routed tokens ÷ the
mean under learned routing, and the tensor-parallel communication share a framework's overlap
hides (read with `assumption_value`)."""

LAYOUT_DEFAULTS: dict[str, str] = {EP_OVERLAP: "ep_overlap", EXPERT_IMBALANCE: "expert_imbalance",
                                   TP_OVERLAP: "tp_overlap"}
"""The `Layout` field each layout-default assumption sets (`calibrate --scan` varies them too)."""


def with_defaults(layout: Layout, values: Mapping[str, float]) -> Layout:
    """`layout` with layout-default assumptions (`LAYOUT_DEFAULTS`, by parameter) in their fields;
    a field not named keeps the layout's own default (nothing hidden, balanced routing)."""
    taken: dict[str, Any] = {LAYOUT_DEFAULTS[name]: value for name, value in values.items()}
    return replace(layout, **taken) if taken else layout


def assumption_value(kb: KnowledgeBase, parameter: str) -> float | None:
    """The value specs/assumptions/ sets for a parameter that is not a field of the model's
    `Assumptions` (a layout default, such as the all-to-all overlap), or None."""
    return next((a.model.value for a in kb.of_type(Assumption) if a.model.parameter == parameter), None)


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
