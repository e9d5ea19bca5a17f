"""The estimate: memory, compute, communication and step outputs for one configuration.

The fast path: the model's one wiring (`wiring.py`) run on plain floats, then the bottleneck.
`explain.py` runs the same wiring on figures, so the chains behind these numbers cannot drift
from them. Every count is converted to a float before any arithmetic, so the order of IEEE
operations is the one written in each formula.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import compute as cp
from . import memory as me
from . import step as st
from .evaluate import FLOATS
from .feasibility import Problem, check
from .inputs import Assumptions, Cluster, Layout, Workload
from .wiring import Screened, run
from .wiring import screen as _screen


@dataclass(frozen=True)
class Estimate:
    """All outputs of one configuration. `scaling_efficiency` is None when no one-node run with
    the same per-GPU work exists; `scaling_note` then says why."""

    memory: me.Memory[float]
    compute: cp.Compute[float]
    step: st.Step[float]
    bottleneck: st.Bottleneck
    scaling_efficiency: float | None
    scaling_note: str


@dataclass(frozen=True)
class Result:
    """Either problems (and no estimate) or an estimate (and no problems)."""

    problems: tuple[Problem, ...]
    estimate: Estimate | None


def estimate(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> Result:
    """Estimate one configuration, or say why it cannot be estimated."""
    problems = check(workload, cluster, layout, assumptions)
    if problems:
        return Result(problems, None)
    out = run(FLOATS, workload, cluster, layout, assumptions)
    memory, step = out.memory, out.step
    choke = st.bottleneck(memory.fits, step.compute_s, step.intra_node_s, step.network_s)
    return Result((), Estimate(memory, out.compute, step, choke, out.scaling_efficiency, out.scaling_note))


def screen(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> Screened | tuple[Problem, ...]:
    """What a layout search compares (memory, fit, and the step of a layout that fits), or why the
    configuration cannot be estimated: `estimate`'s numbers, less what the search does not read."""
    problems = check(workload, cluster, layout, assumptions)
    if problems:
        return problems
    return _screen(FLOATS, workload, cluster, layout, assumptions)
