"""The layout search (planner/search.py) started from what a search of the same build on another
network settled on memory gives the answer of a search from scratch: the same layout and the same
estimate, whether a layout fits or none does (the memory a layout needs does not depend on the
network, so only the layouts that fit are timed again)."""

from __future__ import annotations

import dataclasses
import random

from generator.costmodel import Cluster, Layout
from generator.costmodel.grid import (
    illustrative_assumptions,
    synthetic_moe_workloads,
    synthetic_nodes,
    synthetic_workloads,
)
from generator.planner.search import StepShape, search

# Port rates per direction, bytes/s: 10, 100, 400 and 800 Gb/s.
RATES = (1.25e9, 12.5e9, 50e9, 100e9)


def test_a_search_from_another_networks_memory_answers_as_one_from_scratch() -> None:
    rng = random.Random(7)
    compared = moved = unfit = 0
    for _ in range(80):
        node = dataclasses.replace(rng.choice(synthetic_nodes()), nics_per_node=rng.choice((1, 4, 8)))
        count = rng.choice((2, 4, 16, 64))
        workload = rng.choice(synthetic_workloads() + synthetic_moe_workloads())
        shape = StepShape(rng.choice((2048, 8192)), rng.choice((64, 512)), rng.choice((1, 2)), Layout(1, 1, 0, 1, 1, 1))
        assumptions = illustrative_assumptions()
        first, second = rng.sample(RATES, 2)
        one = Cluster(dataclasses.replace(node, nic_port_per_direction_bytes_per_s=first), count)
        other = Cluster(dataclasses.replace(node, nic_port_per_direction_bytes_per_s=second), count)
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
