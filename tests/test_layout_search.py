"""The layout search (planner/search.py) gives the answer of a scan of every memory saver in
order at each placement, though it screens fewer layouts; and started from what a search with the
same memory inputs settled (the same build on another network, or another server of GPUs with the
same memory), it gives the answer of a search from scratch: the same layout and the same estimate,
whether a layout fits or none does (the memory a layout needs reads neither the network nor the
node's links, so only the layouts that fit are timed again). Given the floors of the same cluster
on a faster port, it times fewer layouts and still gives that answer: a step never shrinks on a
slower port."""

from __future__ import annotations

import dataclasses
import random

import pytest

from generator.costmodel import Cluster, Layout
from generator.costmodel.grid import (
    illustrative_assumptions,
    synthetic_moe_workloads,
    synthetic_nodes,
    synthetic_workloads,
)
from generator.costmodel.inputs import Assumptions, GpuSpec, Node, Workload
from generator.costmodel.result import estimate, screen
from generator.costmodel.wiring import Screened
from generator.planner import search as searching
from generator.planner.search import (
    RECOMPUTE,
    ZERO_STAGES,
    Searched,
    StepShape,
    layout_at,
    placements,
    recomputations,
    search,
)

# Port rates per direction, bytes/s: 10, 100, 400 and 800 Gb/s.
RATES = (1.25e9, 12.5e9, 50e9, 100e9)


def scan(workload: Workload, cluster: Cluster, assumptions: Assumptions, shape: StepShape) -> tuple[object, ...]:
    """What the search answers, found the plain way: every ZeRO stage of each recomputation tried
    in order at every placement until one fits (a layout that cannot be used ends its
    recomputation's stages); the fastest of those kept, else the first layout of least memory."""
    best: tuple[float, Layout] | None = None
    closest: tuple[float, Layout] | None = None
    fitting: list[Layout] = []
    why = "no layout of tensor × pipeline parallel can be placed on these GPUs"
    for t, p, e, batch, f in placements(workload, cluster, shape):
        fitted = False
        for recompute in recomputations(shape):
            for zero in ZERO_STAGES:
                layout = layout_at(shape, t, p, e, zero, batch, recompute, f)
                found = screen(workload, cluster, layout, assumptions)
                if not isinstance(found, Screened):
                    why = found[0].message
                    break
                if found.fits and found.step_s is not None:
                    if recompute == "full" and recomputations(shape).index("full") > 0:
                        found, layout = fewest_layers(workload, cluster, assumptions, found, layout)
                    fitting.append(layout)
                    best = best if best is not None and best[0] <= found.step_s else (found.step_s, layout)
                    fitted = True
                    break
                if closest is None or found.total_bytes < closest[0]:
                    closest = (found.total_bytes, layout)
            if fitted:
                break
    kept = best[1] if best else closest[1] if closest else None
    result = None if kept is None else estimate(workload, cluster, kept, assumptions).estimate
    why = "" if best else "no layout fits in memory" if closest else why
    return kept, result, why, tuple(fitting), None if best or closest is None else closest[1]


def fewest_layers(workload: Workload, cluster: Cluster, assumptions: Assumptions, full: Screened,
                  layout: Layout) -> tuple[Screened, Layout]:
    """Where full recomputation is the first saver to fit (at `layout`'s stage), the layout at that
    stage recomputing the fewest layers of each chunk that fits, by trying 1, 2, ... in turn; the
    full layout where none below a whole chunk fits."""
    chunk = -(-workload.layers // (layout.pipeline_parallel * layout.virtual_pipeline))
    for layers in range(1, chunk):
        partial = dataclasses.replace(layout, recompute_layers=layers)
        found = screen(workload, cluster, partial, assumptions)
        if isinstance(found, Screened) and found.fits and found.step_s is not None:
            assert full.step_s is not None and found.step_s <= full.step_s * (1 + 1e-12)  # fewer layers, no slower
            return found, partial
    return full, layout


def answer(found: Searched) -> tuple[object, ...]:
    settled = found.settled
    return found.layout, found.estimate, found.why, settled.fitting, None if settled.fitting else settled.closest


def cases(seed: int, count: int) -> list[tuple[Workload, Node, int, StepShape]]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        node = dataclasses.replace(rng.choice(synthetic_nodes()), nics_per_node=rng.choice((1, 4, 8)))
        gpus = rng.choice((1, 2, 4, 16, 64))
        workload = rng.choice(synthetic_workloads() + synthetic_moe_workloads())
        # a base that pins ZeRO-3's gathers makes stages 0-2 unusable: the scan stops at stage 0
        base = Layout(1, 1, 0, 1, 1, 1, zero_gather=rng.choice(("layer", "layer", "tensor-sync")),
                      flash_attention=rng.random() < 0.75)  # without it, selective recomputation is tried
        shape = StepShape(rng.choice((2048, 8192)), rng.choice((64, 512)), rng.choice((1, 2)), base)
        memory = rng.choice((12e9, 24e9, 48e9, 80e9, 192e9))  # from nothing fitting to all of it
        found.append((workload, dataclasses.replace(node, gpu=dataclasses.replace(node.gpu, memory_capacity_bytes=memory)),
                      gpus, shape))
    return found


def test_the_search_answers_as_a_scan_of_every_saver_in_order() -> None:
    # Weights (and gradients) of next to no bytes: ZeRO-3 then needs as much memory as stage 2
    # (and 1), and the first layout of the least memory, which a scan keeps, is stage 2's (1's).
    usual = illustrative_assumptions()
    light = (dataclasses.replace(usual, weight_bytes_per_parameter=1e-30),
             dataclasses.replace(usual, weight_bytes_per_parameter=1e-30, gradient_bytes_per_parameter=1e-30))
    fits = unfit = unusable = 0
    kept: set[str] = set()
    for index, (workload, node, gpus, shape) in enumerate(cases(11, 160)):
        assumptions = light[index % 4] if index % 4 < 2 else usual
        cluster = Cluster(node, max(1, gpus // node.gpus_per_node)) if gpus >= node.gpus_per_node else \
            Cluster(dataclasses.replace(node, gpus_per_node=gpus), 1)
        expected = scan(workload, cluster, assumptions, shape)
        assert answer(search(workload, cluster, assumptions, shape)) == expected
        fits += expected[2] == ""
        unfit += expected[2] == "no layout fits in memory"
        unusable += expected[0] is None
        if expected[2] == "":
            kept.add(expected[0].recompute + ("" if not expected[0].recompute_layers else " of some layers"))
            kept.add("experts split" if expected[0].expert_tensor_parallel > 1 else "experts whole")
    # the cases reach every kind of answer, and every recomputation is an answer somewhere
    assert fits and unfit and unusable, (fits, unfit, unusable)
    # (full recomputation of every layer is kept only where a chunk less one layer does not fit)
    assert {"none", "selective", "full of some layers", "experts split", "experts whole"} <= kept <= {
        "none", "selective", "full", "full of some layers", "experts split", "experts whole"}, kept


def test_under_flash_attention_selective_recomputation_saves_nothing() -> None:
    # Why a search under FlashAttention skips selective recomputation (`recomputations`): at every
    # placement and ZeRO stage it needs the memory of no recomputation, and a step at least as long.
    assumptions = illustrative_assumptions()
    compared = 0
    for workload, node, gpus, shape in cases(7, 40):
        cluster = Cluster(node, max(1, gpus // node.gpus_per_node)) if gpus >= node.gpus_per_node else \
            Cluster(dataclasses.replace(node, gpus_per_node=gpus), 1)
        flash = dataclasses.replace(shape, base=dataclasses.replace(shape.base, flash_attention=True))
        assert recomputations(flash) == ("none", "full")
        for t, p, e, batch, f in placements(workload, cluster, flash):
            for zero in ZERO_STAGES:
                plain, selective = (screen(workload, cluster, layout_at(flash, t, p, e, zero, batch, r, f), assumptions)
                                    for r in ("none", "selective"))
                if not isinstance(plain, Screened) or not isinstance(selective, Screened):
                    continue
                assert selective.total_bytes == plain.total_bytes, (workload.name, t, p, zero)
                if plain.step_s is not None and selective.step_s is not None:
                    assert selective.step_s >= plain.step_s * (1 - 1e-12), (workload.name, t, p, zero)  # rounding
                    compared += 1
    assert compared > 100, compared


def test_a_search_from_the_same_memory_answers_as_one_from_scratch() -> None:
    rng = random.Random(7)
    compared = moved = unfit = 0
    assumptions = illustrative_assumptions()
    for workload, node, count, shape in cases(7, 80):
        count = max(2, count)
        first, second = rng.sample(RATES, 2)
        one = Cluster(dataclasses.replace(node, nic_port_per_direction_bytes_per_s=first), count)
        # another network, or another server of GPUs of the same memory: its own name, rates and NICs
        gpu: GpuSpec = dataclasses.replace(node.gpu, name="other", dense_bf16_flop_per_s=node.gpu.dense_bf16_flop_per_s * 2)
        server = dataclasses.replace(node, name="other", gpu=gpu, scale_up_per_direction_bytes_per_s=rng.choice((32e9, 900e9)),
                                     nics_per_node=rng.choice((1, 8)))
        other = Cluster(dataclasses.replace(rng.choice((node, server)), nic_port_per_direction_bytes_per_s=second), count)
        settled = search(workload, one, assumptions, shape).settled
        fresh = search(workload, other, assumptions, shape)
        started = search(workload, other, assumptions, shape, settled)
        assert (started.layout, started.estimate, started.why) == (fresh.layout, fresh.estimate, fresh.why)
        assert started.settled == fresh.settled
        compared += 1
        unfit += fresh.why == "no layout fits in memory"
        moved += search(workload, one, assumptions, shape).layout != fresh.layout
    # the cases reach both answers, and a network that changes which layout is fastest
    assert compared == 80 and unfit > 0 and moved > 0


def test_what_another_memory_settled_is_not_used() -> None:
    workload, node = synthetic_workloads()[1], synthetic_nodes()[0]
    shape = StepShape(2048, 64)
    assumptions = illustrative_assumptions()
    small = Cluster(dataclasses.replace(node, gpu=dataclasses.replace(node.gpu, memory_capacity_bytes=24e9)), 2)
    large = Cluster(node, 2)
    from_small = search(workload, small, assumptions, shape).settled
    assert search(workload, large, assumptions, shape, from_small) == search(workload, large, assumptions, shape)


def _on_port(node: Node, count: int, port: float) -> Cluster:
    return Cluster(dataclasses.replace(node, nic_port_per_direction_bytes_per_s=port), count)


def test_a_step_never_shrinks_on_a_slower_port() -> None:
    # What the floors rest on: every layout that fits (each placement, recomputation and ZeRO
    # stage), on each port rate, over two or more nodes, so that pipeline, data-parallel and expert
    # all-to-all traffic crosses the network.
    assumptions = illustrative_assumptions()
    compared = slower = 0
    for workload, node, count, shape in cases(5, 30):
        count = max(2, count)
        for t, p, e, batch, f in placements(workload, _on_port(node, count, RATES[0]), shape):
            for recompute in RECOMPUTE:
                for zero in ZERO_STAGES:
                    layout = layout_at(shape, t, p, e, zero, batch, recompute, f)
                    steps = [screen(workload, _on_port(node, count, rate), layout, assumptions) for rate in RATES]
                    times = [s.step_s for s in steps if isinstance(s, Screened) and s.step_s is not None]
                    if len(times) < len(RATES):  # does not fit, or cannot be used
                        continue
                    for faster, slower_step in zip(times[1:], times[:-1], strict=True):  # RATES rise
                        assert slower_step >= faster, (workload.name, layout, times)
                        slower += slower_step > faster
                    compared += 1
    assert compared > 300 and slower > 0, (compared, slower)


@pytest.fixture
def timings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many layouts the searches time (`timed`), counted."""
    count = [0]
    original = searching.timed

    def counted(*args: object) -> object:
        count[0] += 1
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(searching, "timed", counted)
    return count


def test_a_search_given_the_floors_of_a_faster_port_answers_as_one_from_scratch(timings: list[int]) -> None:
    assumptions = illustrative_assumptions()
    compared = spared = 0
    for workload, node, count, shape in cases(3, 80):
        count = max(2, count)
        fast, middle, slow = (_on_port(node, count, rate) for rate in (RATES[3], RATES[2], RATES[0]))
        first = search(workload, fast, assumptions, shape)
        if first.floors is None:
            continue
        previous = first
        for cluster in (middle, slow):  # a build's networks in turn, fastest first, as the planner tries them
            before = timings[0]
            started = search(workload, cluster, assumptions, shape, previous.settled, previous.floors)
            used = timings[0] - before
            fresh = search(workload, cluster, assumptions, shape)
            assert (started.layout, started.estimate, started.why) == (fresh.layout, fresh.estimate, fresh.why)
            assert started.settled == fresh.settled
            spared += len(first.settled.fitting) - used
            compared += 1
            previous = started
    assert compared > 50 and spared > compared, (compared, spared)


def test_floors_of_another_cluster_or_a_slower_port_are_not_used(timings: list[int]) -> None:
    workload, node = synthetic_workloads()[1], synthetic_nodes()[0]
    shape, assumptions = StepShape(2048, 64), illustrative_assumptions()
    slow, fast = _on_port(node, 4, RATES[0]), _on_port(node, 4, RATES[3])
    other = Cluster(dataclasses.replace(fast.node, scale_up_per_direction_bytes_per_s=32e9), 4)
    from_slow = search(workload, slow, assumptions, shape)
    assert from_slow.floors is not None and len(from_slow.settled.fitting) > 1
    for cluster, given in ((fast, from_slow), (slow, search(workload, other, assumptions, shape))):
        before = timings[0]
        started = search(workload, cluster, assumptions, shape, given.settled, given.floors)
        assert timings[0] - before == len(given.settled.fitting)  # every layout timed
        assert started == dataclasses.replace(search(workload, cluster, assumptions, shape), floors=started.floors)
