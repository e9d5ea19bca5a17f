"""A plan as plain data: the JSON object `plan --format json` prints and `recommend` embeds, with
the keys the README documents. `picks` (gpu, node, intra_node, network, topology: each `{id, name}`
or null) and `estimate` (the `estimate` command's object, at the reader's own GPU count) are the
keys `recommend` has always had; `options`, `excluded`, `fewest_gpus` and `range` are the
planner's. Pure: records in, plain data out; generator/edge/plan.py formats it for a terminal."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..costmodel.result import Result
from ..estimates.calibration import architecture_of, block_of, for_kind, training_of
from ..estimates.report import summary
from ..knowledge import KnowledgeBase
from .plan import Excluded, Option, Plan, energy_kwh, gpu_hours, time_to_train_s

PICK_FIELDS = ("gpu", "node", "intra_node", "network", "topology")
"""The fields of an answer's `picks`, in the order pages list them."""

TOPOLOGY = "rail-optimized-fat-tree"
"""The topology the model prices a multi-node cluster on: rail-aligned NICs on a non-blocking fabric."""


def _ref(kb: KnowledgeBase, entity_id: str | None) -> dict[str, str] | None:
    if entity_id is None:
        return None
    entity = kb.get(entity_id)
    return {"id": entity_id, "name": entity.label if entity is not None else entity_id}


def picks(kb: KnowledgeBase, option: Option | None) -> dict[str, Any] | None:
    if option is None:
        return None
    c = option.candidate
    return {"gpu": _ref(kb, c.gpu), "node": _ref(kb, c.node), "intra_node": _ref(kb, option.resolved.ids.get("scale_up")),
            "network": _ref(kb, c.network),
            "topology": _ref(kb, TOPOLOGY if c.network is not None and kb.get(TOPOLOGY) is not None else None)}


def option_data(kb: KnowledgeBase, option: Option, tokens: float | None, rank: int | None) -> dict[str, Any]:
    c, e, lay = option.candidate, option.estimate, option.layout
    m = e.memory
    data: dict[str, Any] = {
        "rank": rank, "id": c.id, "family": c.family, **(picks(kb, option) or {}),
        "equivalent_networks": [_ref(kb, n) for n in c.equivalent_networks],
        "market_status": None if option.standing is None else option.standing.status,
        "gpus": option.gpus, "fits": m.fits,
        "memory_per_gpu_gb": {"model_states_gb": (m.weights_bytes + m.gradients_bytes + m.optimizer_bytes) / 1e9,
                              "activations_gb": m.activations_bytes / 1e9, "total_gb": m.total_bytes / 1e9,
                              "usable_gb": m.usable_bytes / 1e9},
        "step_time_s": e.step.step_s, "tokens_per_s": e.step.tokens_per_s, "comm_share": e.step.comm_share,
        "all_to_all_share": e.step.all_to_all_share,  # null without experts spread over GPUs
        "bottleneck": e.bottleneck,
        "layout": {"tp": lay.tensor_parallel, "pp": lay.pipeline_parallel, "ep": lay.expert_parallel,
                   "etp": lay.expert_tensor_parallel,
                   "zero": lay.zero_stage,
                   "recompute": lay.recompute, "recompute_layers": lay.recompute_layers,
                   "sequence_parallel": lay.sequence_parallel,
                   "micro_batch": lay.micro_batch_size, "global_batch": lay.global_batch_size,
                   "seq": lay.sequence_length},
        "networks_tried": [{"network": n, "step_time_s": s} for n, s in option.networks_tried],
        "time_to_train_s": None, "gpu_hours": None, "energy_kwh": None,
    }
    if tokens is not None:
        data.update(time_to_train_s=time_to_train_s(option, tokens), gpu_hours=gpu_hours(option, tokens),
                    energy_kwh=energy_kwh(option, tokens))
    return data


def estimate_data(option: Option | None, workload_id: str | None) -> dict[str, Any] | None:
    """The `estimate` command's JSON object for an option at the reader's count, and where it is
    taken: `workload`, `workload_name`, `gpus`, `gpus_per_node`, `fits` and `why`."""
    if option is None:
        return None
    r = option.resolved
    data: dict[str, Any] = {"workload": workload_id, "workload_name": r.workload.name, "gpus": option.gpus,
                            "gpus_per_node": r.cluster.node.gpus_per_node, "fits": option.fits,
                            "why": "" if option.fits else "no layout fits in memory"}
    data.update(summary(r, Result((), option.estimate)))  # its `fits` is the option's: the estimate's memory.fits
    return data


def excluded_data(e: Excluded) -> dict[str, Any]:
    return {"id": e.id, "why": e.why, "status": e.status, "ruling": e.ruling, "source": e.source}


def range_data(ladder: list[Plan]) -> list[dict[str, Any]] | None:
    """One row per count a range was planned at: its answer and how fast it trains per GPU."""
    if not ladder:
        return None
    rows = []
    for p in ladder:
        best = p.options[0] if p.options else None
        rows.append({"gpus": p.request.gpus, "best": None if best is None else best.candidate.id,
                     "step_time_s": None if best is None else best.estimate.step.step_s,
                     "tokens_per_s": None if best is None else best.estimate.step.tokens_per_s,
                     "tokens_per_s_per_gpu": None if best is None else best.estimate.step.tokens_per_s / best.gpus})
    return rows


def as_data(kb: KnowledgeBase, found: Plan, as_of: dt.date, accuracy: dict[str, object],
            ladder: list[Plan] | None = None) -> dict[str, Any]:
    req = found.request
    best = found.options[0] if found.options else None
    shown = best or found.closest
    workload_id = None if shown is None else shown.resolved.ids.get("workload")
    return {
        "as_of": as_of.isoformat(),
        "market": {"id": req.market, "name": found.market_name},
        "request": {"workload": workload_id, "workload_name": None if shown is None else shown.resolved.workload.name,
                    "parameters": None if shown is None else shown.resolved.workload.parameter_count,
                    "workload_note": found.workload_note or None, "gpus": req.gpus, "goal": req.goal,
                    "tokens": req.tokens, "licensed": req.licensed},
        "picks": picks(kb, best),
        "estimate": estimate_data(shown, workload_id),
        "options": [option_data(kb, o, req.tokens, i + 1) for i, o in enumerate(found.options)],
        "excluded": [excluded_data(e) for e in found.excluded],
        "fewest_gpus": None if found.fewest is None else {
            "gpus": found.fewest[0], "option": option_data(kb, found.fewest[1], req.tokens, None)},
        "range": range_data(ladder or []),
        # the error on runs of the answer's own kind (its workload's block, its layout's precision and
        # what it trains) and on runs on its GPU's architecture
        "accuracy": accuracy if shown is None else for_kind(accuracy, block_of(shown.resolved.workload),
                                                            shown.layout.precision,
                                                            architecture_of(kb, shown.resolved.ids["gpu"]),
                                                            training=training_of(shown.layout)),
    }
