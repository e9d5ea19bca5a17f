"""Typed model of the knowledge base: which spec folder holds which entity type."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from .costs import Assumption, Workload
from .entities import (
    Case,
    Claim,
    Gpu,
    Interconnect,
    Layer,
    Network,
    Pitfall,
    Recommendation,
    Source,
    TierTable,
    Topology,
)
from .selection import Selection

# Folder name under specs/ -> the type its files hold. The order is the order pages list them.
KINDS: dict[str, Any] = {
    "sources": Source,
    "gpus": Gpu,
    "interconnects": Interconnect,
    "networks": Network,
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
}

ADAPTERS: dict[str, TypeAdapter[Any]] = {kind: TypeAdapter(tp) for kind, tp in KINDS.items()}
