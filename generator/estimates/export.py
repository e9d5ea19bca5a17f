"""The calculator's data file (data/costmodel.json): every record the browser's port of the
model needs, in the model's units, from the same readers as `estimate`."""

from __future__ import annotations

from dataclasses import asdict

from ..knowledge import KnowledgeBase, Loaded
from ..model.entities import (
    ComputeNode,
    Gpu,
)
from .choice import DEFAULT_GPUS_PER_NODE, Choice, node_fill
from .records import (
    EXPERT_IMBALANCE,
    ScaleUp,
    assumption_entities,
    assumption_value,
    assumptions,
    compute_nodes,
    gpu,
    gpus,
    network_port,
    networks,
    scale_up,
    workload,
    workloads,
)

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
        # the layout default `resolve` takes for a mixture-of-experts workload (choice.py _imbalance)
        "expert_imbalance": assumption_value(kb, EXPERT_IMBALANCE),
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
