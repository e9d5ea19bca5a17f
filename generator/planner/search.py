"""The layout search: for a workload on a cluster, the fastest layout the cost model finds that
fits in memory (tensor parallel within a node, pipeline parallel, expert parallel for a
mixture-of-experts workload, ZeRO stage, recomputation),
else the one that comes closest, so that an answer can say why nothing fits. The planner runs it
at the reader's own point, and at each leaf's example of the selection tree (selection/answers.py).

For each placement (t, p) the memory savers are tried in the order they cost time (selective
recomputation before full, ZeRO stages upward) and the first that fits is kept: a later one saves
memory the step does not need and adds communication or recomputation. This keeps the search to a
few estimates per placement (the rules run it on every validation). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..costmodel.feasibility import input_problems
from ..costmodel.inputs import Assumptions, Cluster, Layout, Recompute, Workload
from ..costmodel.result import Estimate, estimate, screen
from ..costmodel.wiring import Screened

ZERO_STAGES = (0, 1, 2, 3)
RECOMPUTE: tuple[Recompute, ...] = ("selective", "full")


@dataclass(frozen=True)
class StepShape:
    """What the search holds fixed: the sequence length, the smallest global batch in sequences
    (rounded up to a multiple of the data-parallel size, so that every replica gets whole
    micro-batches), the micro-batch, and the layout fields a goal sets (`base`: e.g. the adapter
    of LoRA fine-tuning), which every layout tried starts from."""

    sequence_length: int
    min_global_batch: int
    micro_batch: int = 1
    base: Layout | None = None
    expert_parallel: int | None = None  # a size the reader fixed (`plan --ep`); None: every size is tried


def placements(workload: Workload, cluster: Cluster, shape: StepShape) -> Iterator[tuple[int, int, int, int]]:
    """(t, p, e, global batch) of every tensor-parallel size that divides a node, pipeline size
    that divides the layers and the GPU count, and for a mixture-of-experts workload every
    expert-parallel size that divides the experts and a stage's GPUs and sits in a node or spans
    whole nodes (1 for a dense one); the batch is the smallest multiple of the data-parallel size ×
    micro-batch of at least `shape.min_global_batch`."""
    per_node, gpus = cluster.node.gpus_per_node, cluster.node_count * cluster.node.gpus_per_node
    experts = 1 if workload.moe is None else workload.moe.experts
    for t in (d for d in range(1, per_node + 1) if per_node % d == 0):
        for p in (d for d in range(1, workload.layers + 1) if workload.layers % d == 0 and gpus % (t * d) == 0):
            step = gpus // (t * p) * shape.micro_batch
            batch = -(-shape.min_global_batch // step) * step
            # e divides the experts and a stage's GPUs, so their greatest common divisor: a knowledge
            # base's expert count (up to a million) never sets the length of this loop
            common = math.gcd(experts, gpus // p)
            for e in (d for d in range(1, common + 1)
                      if common % d == 0 and (d % per_node == 0 or per_node % d == 0)
                      and shape.expert_parallel in (None, d)):
                yield t, p, e, batch


def layout_at(shape: StepShape, t: int, p: int, e: int, zero: int, batch: int, recompute: Recompute) -> Layout:
    plain = Layout(t, p, zero, shape.micro_batch, shape.sequence_length, batch, recompute, t > 1, expert_parallel=e)
    if shape.base is None:
        return plain
    return replace(shape.base, tensor_parallel=t, pipeline_parallel=p, zero_stage=zero,
                   micro_batch_size=shape.micro_batch, sequence_length=shape.sequence_length,
                   global_batch_size=batch, recompute=recompute, sequence_parallel=t > 1, expert_parallel=e)


@dataclass(frozen=True)
class Settled:
    """What a layout search finds about memory, which no network figure changes (the GPUs, their
    memory and their count fix it): the layouts the memory savers settle on that fit, one a
    placement, in the search's order; the closest layout when none fits; why no placement could
    be used when none could. A search of the same build on another network starts from it and
    only times these layouts (`search(..., settled=)`): the planner tries a build on each
    network fast enough, and three in four of a search's screens are of layouts that do not fit."""

    fitting: tuple[Layout, ...]
    closest: Layout | None
    why: str


@dataclass(frozen=True)
class Searched:
    """A layout search's answer (`fastest_layout`'s three values) and what it settled on memory."""

    layout: Layout | None
    estimate: Estimate | None
    why: str
    settled: Settled


def fastest_layout(workload: Workload, cluster: Cluster, assumptions: Assumptions,
                   shape: StepShape) -> tuple[Layout | None, Estimate | None, str]:
    """The fastest layout that fits; if none fits, the one with the least memory per GPU and
    "no layout fits in memory"; if none can be placed at all, (None, None, why). Layouts are
    compared by `screen` (memory, and the step of one that fits); the one kept is estimated in
    full, so its numbers are `estimate`'s."""
    found = search(workload, cluster, assumptions, shape)
    return found.layout, found.estimate, found.why


def search(workload: Workload, cluster: Cluster, assumptions: Assumptions, shape: StepShape,
           settled: Settled | None = None) -> Searched:
    """`fastest_layout`, with what it settled on memory; given `settled` (from a search of the
    same workload, assumptions, step and GPUs on another network), only the layouts that fit are
    timed on this cluster, and the answer is the same as a search from scratch."""
    # Every layout tried keeps the base's attention kernel, so the inputs' domains are checked once.
    probe = layout_at(shape, 1, 1, 1, 0, shape.min_global_batch, RECOMPUTE[0])
    checked = not input_problems(workload, cluster, probe, assumptions)
    if settled is not None and checked:
        timed, fastest = _time(workload, cluster, assumptions, settled)
        if timed:
            return _kept(workload, cluster, assumptions, fastest, settled)
    best: tuple[float, Layout] | None = None
    closest: tuple[float, Layout] | None = None
    fitting: list[Layout] = []
    why = "no layout of tensor × pipeline parallel can be placed on these GPUs"
    for t, p, e, batch in placements(workload, cluster, shape):
        found_here = False
        for recompute in RECOMPUTE:
            for zero in ZERO_STAGES:
                layout = layout_at(shape, t, p, e, zero, batch, recompute)
                found = screen(workload, cluster, layout, assumptions, inputs_checked=checked)
                if not isinstance(found, Screened):
                    why = found[0].message
                    break  # the placement itself cannot be used: no saver changes that
                if found.fits and found.step_s is not None:
                    fitting.append(layout)
                    if best is None or found.step_s < best[0]:
                        best = (found.step_s, layout)
                    found_here = True
                    break
                if closest is None or found.total_bytes < closest[0]:
                    closest = (found.total_bytes, layout)
            if found_here:
                break
    return _kept(workload, cluster, assumptions, best[1] if best else None,
                 Settled(tuple(fitting), closest[1] if closest else None, why))


def _time(workload: Workload, cluster: Cluster, assumptions: Assumptions,
          settled: Settled) -> tuple[bool, Layout | None]:
    """Whether every settled layout that fits could be timed on this cluster (if one could not,
    the search starts afresh), and the fastest of them (None: none fits)."""
    best: tuple[float, Layout] | None = None
    for layout in settled.fitting:
        found = screen(workload, cluster, layout, assumptions, inputs_checked=True)
        if not isinstance(found, Screened) or not found.fits or found.step_s is None:
            return False, None
        if best is None or found.step_s < best[0]:
            best = (found.step_s, layout)
    return True, None if best is None else best[1]


def _kept(workload: Workload, cluster: Cluster, assumptions: Assumptions, best: Layout | None,
          settled: Settled) -> Searched:
    kept = best or settled.closest
    if kept is None:
        return Searched(None, None, settled.why, settled)
    result = estimate(workload, cluster, kept, assumptions).estimate
    return Searched(kept, result, "" if best is not None else "no layout fits in memory", settled)
