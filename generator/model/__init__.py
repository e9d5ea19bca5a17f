"""Typed model of the knowledge base: which spec folder holds which entity type."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from .costs import Assumption, Workload
from .entities import (
    Architecture,
    Case,
    Claim,
    ComputeNode,
    FormFactor,
    Gpu,
    Interconnect,
    Layer,
    Network,
    NetworkFamily,
    Nic,
    Pitfall,
    Precision,
    Recommendation,
    ScaleUpFamily,
    Source,
    TierTable,
    Topology,
    Vendor,
)
from .markets import Market
from .runs import Run
from .selection import Selection

# Folder name under specs/ -> the type its files hold. The order is the order pages list them.
KINDS: dict[str, Any] = {
    "sources": Source,
    "vendors": Vendor,
    "architectures": Architecture,
    "form-factors": FormFactor,
    "scale-up-families": ScaleUpFamily,
    "network-families": NetworkFamily,
    "precisions": Precision,
    "gpus": Gpu,
    "interconnects": Interconnect,
    "networks": Network,
    "nics": Nic,
    "nodes": ComputeNode,
    "layers": Layer,
    "topologies": Topology,
    "tiers": TierTable,
    "recommendations": Recommendation,
    "cases": Case,
    "pitfalls": Pitfall,
    "claims": Claim,
    "selection": Selection,
    "workloads": Workload,
    "assumptions": Assumption,
    "runs": Run,
    "markets": Market,
}

ADAPTERS: dict[str, TypeAdapter[Any]] = {kind: TypeAdapter(tp) for kind, tp in KINDS.items()}
