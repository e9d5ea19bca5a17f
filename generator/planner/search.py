"""The layout search: for a workload on a cluster, the fastest layout the cost model finds that
fits in memory (tensor parallel within a node, pipeline parallel, expert parallel and expert
tensor parallel for a mixture-of-experts workload, ZeRO stage, recomputation), else the one that
comes closest, so that an answer can say why nothing fits. The planner runs it at the reader's own
point, and at each leaf's example of the selection tree (selection/answers.py).

For each placement (t, p, e, f) the memory savers are tried in the order they cost time (no
recomputation, then selective where it saves memory, then full; ZeRO stages upward at each) and the
first that fits is kept: a later one saves memory the step does not need and adds communication or
recomputation. Where full recomputation is the first to fit, only the fewest layers of each chunk
that let it fit are recomputed (`_fewest_recomputed`). Memory never grows with the ZeRO stage, so
stage 3 tells whether a recomputation fits at any stage (`_first_fit`); and what a search settles
on memory serves every search with the same memory inputs, which then only times the layouts that
fit (`Settled`). A step never shrinks on a slower network port, so the steps timed on a faster one
(`Floors`) spare the layouts that cannot be fastest on a slower one. This keeps the search to a few
estimates per placement (every build runs it at each leaf of the tree, in each market). Pure.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from ..costmodel.feasibility import Problem, input_problems
from ..costmodel.inputs import Assumptions, Cluster, Layout, Recompute, Workload
from ..costmodel.memory import chunk_layers, recompute_boundary
from ..costmodel.result import Estimate, estimate, screen, timed
from ..costmodel.wiring import Screened

ZERO_STAGES = (0, 1, 2, 3)
RECOMPUTE: tuple[Recompute, ...] = ("none", "selective", "full")
"""Every recomputation a search may try, in the order they cost time (`recomputations`)."""


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


def placements(workload: Workload, cluster: Cluster, shape: StepShape) -> Iterator[tuple[int, int, int, int, int]]:
    """(t, p, e, global batch, f) of every tensor-parallel size that divides a node, pipeline size
    that divides the layers and the GPU count, and for a mixture-of-experts workload every
    expert-parallel size that divides the experts and a stage's GPUs and sits in a node or spans
    whole nodes (1 for a dense one); the batch is the smallest multiple of the data-parallel size ×
    micro-batch of at least `shape.min_global_batch`. f is the expert tensor parallelism: 1, each
    expert whole on a GPU (Megatron-Bridge's presets), and where experts are spread over t > 1
    GPUs of a tensor-parallel group, also t, each expert split over that group (Megatron-Core's
    default when unset), where the e·t GPUs holding a layer's experts once still divide a stage's
    GPUs and sit in a node or span whole nodes."""
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
                yield t, p, e, batch, 1
                block = e * t
                if e > 1 and t > 1 and (gpus // p) % block == 0 and (block % per_node == 0 or per_node % block == 0):
                    yield t, p, e, batch, t


def recomputations(shape: StepShape) -> tuple[Recompute, ...]:
    """The recomputations a search tries, in the order they cost time. Selective recomputation
    only where it saves memory, without FlashAttention (it drops the s×s scores): under
    FlashAttention a layer stores the same with it as without (`memory.py`), and the attention
    core's forward pass is run twice for nothing."""
    flash = shape.base is None or shape.base.flash_attention
    return tuple(r for r in RECOMPUTE if r != "selective" or not flash)


def layout_at(shape: StepShape, t: int, p: int, e: int, zero: int, batch: int, recompute: Recompute,
              f: int = 1) -> Layout:
    plain = Layout(t, p, zero, shape.micro_batch, shape.sequence_length, batch, recompute, t > 1, expert_parallel=e,
                   expert_tensor_parallel=f)
    if shape.base is None:
        return plain
    return replace(shape.base, tensor_parallel=t, pipeline_parallel=p, zero_stage=zero,
                   micro_batch_size=shape.micro_batch, sequence_length=shape.sequence_length,
                   global_batch_size=batch, recompute=recompute, sequence_parallel=t > 1, expert_parallel=e,
                   expert_tensor_parallel=f)


def memory_inputs(workload: Workload, cluster: Cluster, assumptions: Assumptions, shape: StepShape) -> tuple[object, ...]:
    """What decides which layouts fit and which cannot be placed: the workload, the assumptions,
    the step, the GPU, and how many of them there are in a node and in all. The rest of a cluster
    (the scale-up link, the NICs and their rate, the fabric) only times a layout."""
    node, gpu = cluster.node, cluster.node.gpu
    fp8 = (gpu.dense_fp8_flop_per_s or 0.0) > 0.0  # as `feasibility.placement` reads it
    return workload, assumptions, shape, gpu.memory_capacity_bytes, fp8, node.gpus_per_node, cluster.node_count


@dataclass(frozen=True)
class Settled:
    """What a layout search finds about memory, which the cluster's links do not change (the
    inputs `memory_inputs` names fix it): the layouts the memory savers settle on that fit, one a
    placement, in the search's order; the layout of least memory when none fits; why no placement
    could be used when none could. A search with the same memory inputs (the same build on
    another network, or another server of the same GPUs) starts from it and only times these
    layouts (`search(..., settled=)`): the planner tries each build on each network fast enough,
    and most of a search's screens are of layouts that do not fit."""

    inputs: tuple[object, ...]
    fitting: tuple[Layout, ...]
    closest: Layout | None
    why: str


@dataclass(frozen=True)
class Floors:
    """The steps of a search's settled layouts (`layouts`, its `Settled.fitting`), timed on `cluster`.
    On a cluster that differs from it only by a slower network port, no layout's step is shorter:
    every term the port sets is bytes over a rate, and the step only adds, scales and hides such
    terms (tests/test_layout_search.py checks it on random configurations). A search there times
    the layouts in the order of their floors and stops at the first floor above the fastest step
    it has found (`search(..., floors=)`)."""

    cluster: Cluster
    layouts: tuple[Layout, ...]
    steps: tuple[float, ...]


FLOOR_MARGIN = 1e-9
"""A layout is passed over only when its floor exceeds the fastest step by more than this share:
the step computed on the slower port is its floor up to rounding (a few units in the last place)."""

OVERFLOW_MARGIN = 2.0**-16
"""Floors are used only where the highest floor times the port's slowdown stays below this share of
the largest float. Each term the port sets grows at most by that slowdown and a step adds a handful
of them, so no step passed over can be infinite there: one that was would have sent a search
without floors back to a search from scratch (`_time`), and the answers would differ."""


@dataclass(frozen=True)
class Searched:
    """A layout search's answer (`fastest_layout`'s three values), what it settled on memory, and
    the floors it leaves for the same cluster on a slower port (None: it timed no layout)."""

    layout: Layout | None
    estimate: Estimate | None
    why: str
    settled: Settled
    floors: Floors | None = None


def fastest_layout(workload: Workload, cluster: Cluster, assumptions: Assumptions,
                   shape: StepShape) -> tuple[Layout | None, Estimate | None, str]:
    """The fastest layout that fits; if none fits, the one with the least memory per GPU and
    "no layout fits in memory"; if none can be placed at all, (None, None, why). Layouts are
    compared by `screen` (memory, and the step of one that fits); the one kept is estimated in
    full, so its numbers are `estimate`'s."""
    found = search(workload, cluster, assumptions, shape)
    return found.layout, found.estimate, found.why


def search(workload: Workload, cluster: Cluster, assumptions: Assumptions, shape: StepShape,
           settled: Settled | None = None, floors: Floors | None = None) -> Searched:
    """`fastest_layout`, with what it settled on memory; given `settled` from a search of the
    same `memory_inputs` (any other is ignored), only the layouts that fit are timed on this
    cluster, and given `floors` of those layouts on this cluster with a port at least as fast (any
    others are ignored), only those that could be fastest here. The answer is the same as a search
    from scratch."""
    # Every layout tried keeps the base's attention kernel, so the inputs' domains are checked once.
    savers = recomputations(shape)
    probe = layout_at(shape, 1, 1, 1, 0, shape.min_global_batch, savers[0])
    checked = not input_problems(workload, cluster, probe, assumptions)
    inputs = memory_inputs(workload, cluster, assumptions, shape)
    if settled is not None and checked and settled.inputs == inputs and (settled.fitting or settled.closest):
        usable = floors if floors is not None and _below(floors, cluster, settled) else None
        timed, fastest, left = _time(workload, cluster, assumptions, settled, usable)
        if timed:
            return _kept(workload, cluster, assumptions, checked, fastest, settled, left)
    best: tuple[float, Layout] | None = None
    closest: Closest = None
    fitting: list[Layout] = []
    steps: list[float] = []
    why = "no layout of tensor × pipeline parallel can be placed on these GPUs"
    for t, p, e, batch, f in placements(workload, cluster, shape):
        tried: list[_Savers] = []
        for recompute in savers:
            # full recomputation after no recomputation fits at no stage: its fit is timed only where
            # it is kept (`_fewest_recomputed` mostly keeps fewer layers recomputed)
            partial = recompute == "full" and bool(tried) and tried[0].recompute == "none"
            at = _Savers(workload, cluster, assumptions, checked, shape, t, p, e, batch, recompute, f, timed=not partial)
            first, closest, problem = _first_fit(at, closest, best is None)
            if first is not None and partial:
                first, problem = _fewest_recomputed(tried[0], at, first[1])
            why = problem or why
            tried.append(at)
            if first is not None:
                step, layout = first
                assert step is not None  # timed where kept
                fit = (step, layout)
                fitting.append(layout)
                steps.append(step)
                if best is None or step < best[0]:
                    best = fit
                break
    found = Settled(inputs, tuple(fitting), closest[1] if closest and not fitting else None, why)
    return _kept(workload, cluster, assumptions, checked, best[1] if best else None, found,
                 Floors(cluster, found.fitting, tuple(steps)) if fitting else None)


Closest = tuple[float, Layout] | None
"""The layout of the least memory per GPU screened so far (the first of it in the search's order),
with its bytes."""


@dataclass(frozen=True)
class _Savers:
    """One placement and recomputation of a search, screened at a ZeRO stage."""

    workload: Workload
    cluster: Cluster
    assumptions: Assumptions
    checked: bool
    shape: StepShape
    t: int
    p: int
    e: int
    batch: int
    recompute: Recompute
    f: int = 1
    timed: bool = True
    screens: dict[tuple[int, int], Screened | tuple[Problem, ...]] = field(default_factory=dict, compare=False)

    def __call__(self, zero: int, layers: int = 0) -> tuple[Layout, Screened | tuple[Problem, ...]]:
        """The layout at ZeRO stage `zero` (with full recomputation of only `layers` layers of each
        chunk, where > 0) and its screen, which times a layout that fits where `timed` (always with
        `layers`); each is screened once."""
        layout = layout_at(self.shape, self.t, self.p, self.e, zero, self.batch, self.recompute, self.f)
        if layers:
            layout = replace(layout, recompute_layers=layers)
        if (zero, layers) not in self.screens:
            self.screens[zero, layers] = screen(self.workload, self.cluster, layout, self.assumptions,
                                                inputs_checked=self.checked, timed=self.timed or layers > 0)
        return layout, self.screens[zero, layers]

    def fit(self, found: Screened) -> bool:
        """Whether `found` is a layout the scan keeps: one that fits, with its step where timed."""
        return found.fits and (found.step_s is not None or not self.timed)


BOUNDARY_MARGIN = 1e-6
"""How near a whole count of layers the interpolated boundary must fall for the count to be confirmed
by screening it and its neighbour: memory is linear in the count up to rounding (a few units in the
last place), so a boundary farther than this from a whole number rounds up to the same count
whichever way the memory was rounded (gigabytes in the calculator, bytes here)."""


def _fewest_recomputed(plain: _Savers, full: _Savers, layout: Layout) -> tuple[tuple[float, Layout] | None, str | None]:
    """Where no recomputation fits at no ZeRO stage and full recomputation fits at stage z (`layout`,
    screened untimed), the layout at z that recomputes in full only the fewest layers of each
    pipeline chunk that let it fit (Megatron-LM's --recompute-method block), the others storing
    everything, with its step; the full layout, timed, where that takes every layer of a chunk (a
    chunk of one layer); or why the layout kept cannot be timed. A layer recomputed costs a forward
    pass that a stored one does not, so the fewest that fit are the fastest; the choice reads memory
    alone, so that what a search settles serves every network (`Settled`).

    Memory is linear in the share of layers recomputed (`compute.recompute_blend`: φ = n ÷ the
    chunk's layers), so both ends at z place the boundary, and the count is the whole number above
    it. The end without recomputation at z is full recomputation's memory there plus the activations
    the two differ by, read at stage 0, where the scan screened both (model states do not depend on
    the recomputation). Only a boundary within `BOUNDARY_MARGIN` of a whole number is confirmed by
    screening the counts around it, so that rounding never moves the count (the calculator's search
    interpolates gigabytes screened at z)."""
    chunk = chunk_layers(full.workload.layers, layout.pipeline_parallel, layout.virtual_pipeline)
    zero = layout.zero_stage
    _, recomputed = full(zero)
    _, stored_first = plain(0)
    _, recomputed_first = full(0)
    if chunk < 2 or not all(isinstance(s, Screened) for s in (recomputed, stored_first, recomputed_first)):
        return _timed(full, layout)
    assert isinstance(recomputed, Screened) and isinstance(stored_first, Screened)
    assert isinstance(recomputed_first, Screened)
    saved = stored_first.total_bytes - recomputed_first.total_bytes  # the activations full recomputation saves
    over = recomputed.total_bytes + saved - recomputed.usable_bytes  # what no recomputation at z lacks
    if not 0.0 < over <= saved:
        return _timed(full, layout)
    boundary = recompute_boundary(recomputed.total_bytes + saved, recomputed.total_bytes, recomputed.usable_bytes, chunk)
    layers = min(chunk - 1, max(1, math.ceil(boundary)))
    if abs(boundary - round(boundary)) > BOUNDARY_MARGIN:
        if boundary > chunk - 1:
            return _timed(full, layout)  # only a whole chunk recomputed fits
        partial = replace(layout, recompute_layers=layers)
        step_s = timed(full.workload, full.cluster, partial, full.assumptions)
        return ((step_s, partial), None) if isinstance(step_s, float) else _timed(full, layout)

    def fits(n: int) -> bool:
        found = full(zero, n)[1]
        return isinstance(found, Screened) and found.fits and found.step_s is not None

    if fits(layers):
        while layers > 1 and fits(layers - 1):
            layers -= 1
    else:
        while layers < chunk - 1 and not fits(layers):
            layers += 1
    if not fits(layers):
        return _timed(full, layout)
    partial, found = full(zero, layers)
    assert isinstance(found, Screened) and found.step_s is not None
    return (found.step_s, partial), None


def _timed(full: _Savers, layout: Layout) -> tuple[tuple[float, Layout] | None, str | None]:
    """The full layout, which `full` screened untimed and found to fit, with its step, or why it
    cannot be estimated (where a timed screen would have stopped the scan)."""
    step_s = timed(full.workload, full.cluster, layout, full.assumptions)
    if not isinstance(step_s, float):
        return None, step_s[0].message
    return (step_s, layout), None


def _first_fit(at: _Savers, closest: Closest, closest_wanted: bool) -> tuple[tuple[float | None, Layout] | None,
                                                                             Closest, str | None]:
    """What a scan of ZeRO stages 0 to 3 in order finds at one placement and recomputation: the
    first layout that fits, with its step; the closest layout as the scan leaves it, where it is
    `closest_wanted` (a search answers with it only when no layout fits); and the message of the
    stage where it stopped because the layout cannot be used (None: it did not).

    Memory per GPU never grows with the ZeRO stage (each stage partitions one more of weights,
    gradients and optimizer states over the data-parallel ranks, and nothing else reads it), so
    where stage 3 does not fit, stages 1 and 2 do not either and need no less than stage 3: a
    group that fits at no stage takes two screens instead of four. Where the closest layout is
    wanted and stage 3's memory is the least yet, a scan in order would keep the first stage of
    that memory: stage 2 is screened for a tie with stage 3, and on a tie stage 1."""
    layout, found = at(0)
    if not isinstance(found, Screened):
        return None, closest, found[0].message
    if at.fit(found):
        return (found.step_s, layout), closest, None
    closest = _closer(closest, found.total_bytes, layout)
    last_layout, last = at(3)
    if isinstance(last, Screened) and not last.fits:
        if not closest_wanted or closest is not None and not last.total_bytes < closest[0]:
            return None, closest, None
        # the first stage of stage 3's memory: stage 2 needs more unless they tie, and so then does 1
        layout, found = at(2)
        if not isinstance(found, Screened) or found.total_bytes != last.total_bytes:
            return None, (last.total_bytes, last_layout), None
        first_layout, first = at(1)
        if isinstance(first, Screened) and first.total_bytes == last.total_bytes:
            return None, (first.total_bytes, first_layout), None
        return None, (found.total_bytes, layout), None
    # stage 3 fits or cannot be used: stages 1 and 2 are screened as a scan would
    for zero in (1, 2):
        layout, found = at(zero)
        if not isinstance(found, Screened):
            return None, closest, found[0].message
        if at.fit(found):
            return (found.step_s, layout), closest, None
        closest = _closer(closest, found.total_bytes, layout)
    if not isinstance(last, Screened):
        return None, closest, last[0].message
    assert at.fit(last)  # a layout that fits has its step where timed
    return (last.step_s, last_layout), closest, None


def _closer(closest: Closest, total_bytes: float, layout: Layout) -> Closest:
    return (total_bytes, layout) if closest is None or total_bytes < closest[0] else closest


def _below(floors: Floors, cluster: Cluster, settled: Settled) -> bool:
    """Whether `floors` bound the steps of `settled`'s layouts on `cluster`: timed for those very
    layouts on the same cluster but for a port at least as fast, and far enough from overflow."""
    node, there = cluster.node, floors.cluster.node
    port = node.nic_port_per_direction_bytes_per_s
    if floors.layouts != settled.fitting or not 0.0 < port <= there.nic_port_per_direction_bytes_per_s:
        return False
    if floors.cluster != replace(cluster, node=replace(node, nic_port_per_direction_bytes_per_s=there.nic_port_per_direction_bytes_per_s)):
        return False
    slowdown = there.nic_port_per_direction_bytes_per_s / port
    return max(floors.steps, default=0.0) * slowdown < OVERFLOW_MARGIN * sys.float_info.max


def _time(workload: Workload, cluster: Cluster, assumptions: Assumptions, settled: Settled,
          floors: Floors | None) -> tuple[bool, Layout | None, Floors | None]:
    """Whether every settled layout that fits could be timed on this cluster (if one could not,
    the search starts afresh), the fastest of them (None: none fits; ties: the first in the
    search's order), and the floors for a slower port. They fit here too: their memory needs are
    the same (`memory_inputs`). With `floors` (`_below`), the layouts are timed from the lowest
    floor up, and the rest are passed over from the first floor above the fastest step: their
    floors are then left for a slower port as they are, where a full timing leaves its steps."""
    fitting = settled.fitting
    order = range(len(fitting)) if floors is None else sorted(range(len(fitting)), key=lambda i: (floors.steps[i], i))
    best: tuple[float, int] | None = None
    steps: list[float] = []
    for i in order:
        if floors is not None and best is not None and floors.steps[i] > best[0] * (1.0 + FLOOR_MARGIN):
            break
        step_s = timed(workload, cluster, fitting[i], assumptions)
        if not isinstance(step_s, float):
            return False, None, None
        steps.append(step_s)
        if best is None or (step_s, i) < best:
            best = (step_s, i)
    left = floors if floors is not None else Floors(cluster, fitting, tuple(steps)) if fitting else None
    return True, None if best is None else fitting[best[1]], left


def _kept(workload: Workload, cluster: Cluster, assumptions: Assumptions, checked: bool, best: Layout | None,
          settled: Settled, floors: Floors | None) -> Searched:
    """The search's answer: `best`, else the settled closest layout, estimated in full (`checked`:
    the inputs are known to be in their domains), with what it settled and the floors it leaves."""
    kept = best or settled.closest
    if kept is None:
        return Searched(None, None, settled.why, settled, floors)
    result = estimate(workload, cluster, kept, assumptions, inputs_checked=checked).estimate
    return Searched(kept, result, "" if best is not None else "no layout fits in memory", settled, floors)
