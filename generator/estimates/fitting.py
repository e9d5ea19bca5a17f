"""What would make a layout that does not fit in memory fit, keeping its tensor and pipeline
parallelism: the next ZeRO stages, and full recomputation of the fewest layers of each chunk.
`estimate` prints it under a layout that does not fit, so that a reader knows which flag to change
before reaching for `plan`, which searches every layout. Pure: records in, records out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..costmodel.inputs import Assumptions, Cluster, Layout, Workload
from ..costmodel.memory import chunk_layers, recompute_boundary
from ..costmodel.result import Estimate, estimate


@dataclass(frozen=True)
class Remedy:
    """One change of flags (`flags`, as the CLI spells them) and the memory per GPU it leaves."""

    flags: str
    total_bytes: float


def remedies(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions,
             found: Estimate | None) -> list[Remedy]:
    """For a layout that does not fit (`found`, its estimate, which the caller has made): the
    lowest higher ZeRO stage that fits, and full recomputation of the fewest layers of each chunk
    that fits, at the layout's own ZeRO stage or else the lowest higher one at which some count does
    (every layer where that takes a whole chunk); either left out where nothing of its kind fits or
    the model refuses it. Empty for a layout that fits or cannot be estimated."""
    if found is None or found.memory.fits:
        return []
    out = []
    for zero in range(layout.zero_stage + 1, 4):
        at = estimate(workload, cluster, replace(layout, zero_stage=zero), assumptions).estimate
        if at is not None and at.memory.fits:
            out.append(Remedy(f"--zero {zero}", at.memory.total_bytes))
            break
    for zero in range(layout.zero_stage, 4):
        layers = _fewest_layers(workload, cluster, replace(layout, zero_stage=zero), assumptions,
                                found.memory.usable_bytes)
        if layers is not None:
            stage = "" if zero == layout.zero_stage else f"--zero {zero} "
            out.append(Remedy(stage + layers.flags, layers.total_bytes))
            break
    return out


def _fewest_layers(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions,
                   usable: float) -> Remedy | None:
    """Full recomputation of the fewest layers of each chunk that fits at the layout's stage (None
    where nothing recomputed fits there, or where the layout fits there without recomputation).
    Memory is linear in the share recomputed (`compute.recompute_blend`), so the count follows from
    the layout's memory without recomputation and with every layer recomputed; it is then checked
    and moved by one where rounding put it off."""
    plain = replace(layout, recompute="none", recompute_layers=0)
    full = replace(layout, recompute="full", recompute_layers=0)
    stored = estimate(workload, cluster, plain, assumptions).estimate
    every = estimate(workload, cluster, full, assumptions).estimate
    if stored is None or every is None or not every.memory.fits:
        return None
    chunk = chunk_layers(workload.layers, layout.pipeline_parallel, layout.virtual_pipeline)
    saved = stored.memory.total_bytes - every.memory.total_bytes
    if stored.memory.fits:  # no recomputation needed at this stage: the ZeRO remedy says so
        return None
    if chunk < 2 or saved <= 0.0:
        return Remedy("--recompute full", every.memory.total_bytes)
    count = min(chunk - 1, max(1, math.ceil(recompute_boundary(stored.memory.total_bytes, every.memory.total_bytes,
                                                                usable, chunk))))

    def at(n: int) -> float | None:
        found = estimate(workload, cluster, replace(full, recompute_layers=n), assumptions).estimate
        return None if found is None or not found.memory.fits else found.memory.total_bytes

    while count > 1 and at(count - 1) is not None:
        count -= 1
    while count < chunk and at(count) is None:
        count += 1
    kept = at(count) if count < chunk else None
    if kept is None:
        return Remedy("--recompute full", every.memory.total_bytes)
    return Remedy(f"--recompute full --recompute-layers {count}", kept)
