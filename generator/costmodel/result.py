"""The estimate: memory, compute, communication and step outputs for one configuration.

The fast path: the model's one wiring (`wiring.py`) run on plain floats, then the bottleneck.
`explain.py` runs the same wiring on figures, so the chains behind these numbers cannot drift
from them. Every count is converted to a float before any arithmetic, so the order of IEEE
operations is the one written in each formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TypeVar

from . import compute as cp
from . import memory as me
from . import step as st
from .evaluate import FLOATS, Evaluator
from .feasibility import Problem, check
from .inputs import Assumptions, Cluster, Layout, Workload
from .wiring import Screened, run, step_of
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


def _first_not_finite(part: str, values: object) -> tuple[Problem, ...]:
    """A problem for the first output of `values` (a dataclass of floats) that is infinite or NaN."""
    for field in fields(values):  # type: ignore[arg-type]
        value = getattr(values, field.name)
        if isinstance(value, float) and not math.isfinite(value):
            return (_refusal(f"{part}.{field.name}", value),)
    return ()


def _refusal(output: str, value: float) -> Problem:
    """The `not-finite` problem for an output that came out `value`."""
    # The field is the estimate as a whole: no one input is to blame (costmodel.js says the same).
    return Problem("not-finite", "estimate", f"the estimate is not finite ({output} comes out {value}): a count or "
                   "figure of the configuration is beyond what the model can compute with")


def estimate(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, *,
             inputs_checked: bool = False) -> Result:
    """Estimate one configuration, or say why it cannot be estimated: as for a layout that does not
    divide, an estimate whose outputs are not all finite is refused, never returned.
    `inputs_checked` as in `feasibility.check`."""
    problems = check(workload, cluster, layout, assumptions, inputs_checked=inputs_checked)
    if problems:
        return Result(problems, None)
    try:
        out = run(FLOATS, workload, cluster, layout, assumptions)
    except ArithmeticError:  # a product of normal figures that underflows to 0 and is divided by
        return Result((_refusal("a quotient", math.inf),), None)
    problems = (_first_not_finite("memory", out.memory) or _first_not_finite("compute", out.compute)
                or _first_not_finite("step", out.step))
    if not problems and out.scaling_efficiency is not None and not math.isfinite(out.scaling_efficiency):
        # the one-node reference run is a second estimate: its step may not be finite when this one is
        problems = (_refusal("scaling_efficiency", out.scaling_efficiency),)
    if problems:
        return Result(problems, None)
    memory, step = out.memory, out.step
    choke = st.bottleneck(memory.fits, step.compute_s, step.intra_node_s, step.network_s)
    return Result((), Estimate(memory, out.compute, step, choke, out.scaling_efficiency, out.scaling_note))


def screen(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, *,
           inputs_checked: bool = False, timed: bool = True) -> Screened | tuple[Problem, ...]:
    """What a layout search compares (memory, fit, and the step of a layout that fits, where
    `timed`), or why the configuration cannot be estimated: `estimate`'s numbers, less what the
    search does not read. `inputs_checked` as in `feasibility.check`."""
    found = _guarded(workload, cluster, layout, assumptions, inputs_checked,
                     lambda ev, w, c, lay, a: _screen(ev, w, c, lay, a, timed))
    if not isinstance(found, Screened):  # a Screened is a tuple too
        return found
    for name, value in (("memory.total_bytes", found.total_bytes), ("step.step_s", found.step_s)):
        if value is not None and not math.isfinite(value):
            return (_refusal(name, value),)
    return found


def timed(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> float | tuple[Problem, ...]:
    """The step of a layout known to fit (`wiring.step_of`), or why it cannot be estimated, as `screen`
    would say; its inputs are known to be in their domains."""
    step_s = _guarded(workload, cluster, layout, assumptions, True, step_of)
    if not isinstance(step_s, float) or math.isfinite(step_s):
        return step_s
    return (_refusal("step.step_s", step_s),)


T = TypeVar("T")


def _guarded(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions, inputs_checked: bool,
             wired: Callable[[Evaluator[float], Workload, Cluster, Layout, Assumptions], T]) -> T | tuple[Problem, ...]:
    """`wired` in floats, for a configuration `feasibility.check` accepts, or why it cannot be estimated."""
    problems = check(workload, cluster, layout, assumptions, inputs_checked=inputs_checked)
    if problems:
        return problems
    try:
        return wired(FLOATS, workload, cluster, layout, assumptions)
    except ArithmeticError:  # as in `estimate`
        return (_refusal("a quotient", math.inf),)
