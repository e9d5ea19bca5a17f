"""The adapter from the knowledge base to the cost model: the ONLY place that reads entity fields
for the model (GPU memory and tensor rates, scale-up links, network ports, workloads,
assumptions). When the GPU schema changes (compute by precision, scale-up link, node entities),
this is the one file to change.

Everything is converted here to the model's SI floats: bytes (a data size is stored in bits by
`units.to_base`, so ÷ 8), bytes per second per direction, FLOP per second. Pure: it reads a
validated `KnowledgeBase` and returns records or a one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..knowledge import KnowledgeBase, Loaded
from ..model.common import Quantity
from ..model.costs import PARAMETERS, Assumption
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import Gpu, Interconnect, Network, Nvlink, Nvswitch, Pcie
from ..units import convert_direction, to_base
from .inputs import Assumptions, GpuSpec, Workload

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


def gpu(spec: Gpu) -> GpuSpec:
    """Memory capacity and the dense tensor rates. FP8: the schema has no dense FP8 rate yet,
    so a GPU offers BF16 only (the layout check reports `--precision fp8` as unavailable)."""
    return GpuSpec(spec.name, _bytes(spec.memory.capacity), float(to_base(spec.compute.tensor_bf16_dense.value,
                                                                            spec.compute.tensor_bf16_dense.unit)))


@dataclass(frozen=True)
class ScaleUp:
    """The link between the GPUs of one node, per GPU and direction, and where it is described."""

    entity_id: str
    bytes_per_s: float


def scale_up(kb: KnowledgeBase, spec: Gpu, gpus_per_node: int) -> ScaleUp | str:
    """NVLink (or NVSwitch) when the GPU has it for all `gpus_per_node` GPUs, else its PCIe link:
    a PCIe card's NVLink bridge joins only `bridge_gpus` cards."""
    nvlink = spec.nvlink
    if nvlink is not None and (not nvlink.bridge or gpus_per_node <= (nvlink.bridge_gpus or 2)):
        rate = _per_direction_bytes_per_s(nvlink.bandwidth)
        if rate is not None:
            return ScaleUp(nvlink.interconnect, rate)
    entity = kb.get(spec.pcie)
    model = entity.model if entity is not None else None
    if isinstance(model, Pcie):
        for q in (model.per_direction, model.bidirectional):
            rate = None if q is None else _per_direction_bytes_per_s(q)
            if rate is not None:
                return ScaleUp(spec.pcie, rate)
    return f"no per-direction scale-up rate for {spec.name}"


def is_interconnect(model: object) -> bool:
    return isinstance(model, (Pcie, Nvlink, Nvswitch))


def network_port(spec: Network) -> float | str:
    """One port's rate in bytes per second, each direction."""
    rate = _per_direction_bytes_per_s(spec.port_rate)
    return f"no per-direction port rate for {spec.name}" if rate is None else rate


def assumptions(kb: KnowledgeBase) -> Assumptions | str:
    """The model's assumptions from specs/assumptions/, or which are missing."""
    values = {a.model.parameter: a.model.value for a in kb.of_type(Assumption)}
    missing = [name for name in PARAMETERS if name not in values]
    if missing:
        return f"specs/assumptions/ sets no value for {', '.join(missing)}"
    return Assumptions(**values)


def assumption_entities(kb: KnowledgeBase) -> list[Loaded[Assumption]]:
    return sorted(kb.of_type(Assumption), key=lambda a: list(PARAMETERS).index(a.model.parameter))


def workloads(kb: KnowledgeBase) -> list[Loaded[WorkloadSpec]]:
    return sorted(kb.of_type(WorkloadSpec), key=lambda w: (w.model.family, w.model.parameters))


def gpus(kb: KnowledgeBase) -> list[Loaded[Gpu]]:
    return kb.of_type(Gpu)


def networks(kb: KnowledgeBase) -> list[Loaded[Network]]:
    return kb.of_type(Network)


__all__ = ["Interconnect", "ScaleUp", "assumption_entities", "assumptions", "gpu", "gpus", "is_interconnect",
           "network_port", "networks", "scale_up", "workload", "workloads"]
