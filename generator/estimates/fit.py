"""Fitting assumptions on the published runs: the calibration at every point of a grid of
assumption values (`calibrate --scan`), the point with the smallest mean absolute error, and how
well a fit generalises to a source it never saw (each source held out in turn, the grid's best
point on the others, that source's error there).

This is how the fitted assumptions of specs/assumptions/ were chosen; their `why` names the grid.
Pure: a validated knowledge base and a grid in, a `Scan` out; the runs are prepared once and only
the model is run again at each point.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace

from ..costmodel import Assumptions
from ..knowledge import KnowledgeBase
from ..model.costs import PARAMETERS
from .calibration import ASSUMED, Prepared, RunError, Summary, estimated, prepared_runs, summarise
from .records import LAYOUT_DEFAULTS, assumptions, with_defaults
from .runs import Assumed

MAX_POINTS = 400
"""A grid larger than this is refused: each point runs the model on every run (about 0.3 s here)."""

Grid = Mapping[str, Sequence[float]]


@dataclass(frozen=True)
class Point:
    """One point of the grid: the assumption values, in the grid's order, and every run's error there."""

    values: tuple[float, ...]
    runs: tuple[RunError, ...]

    def summary(self, without: str | None = None, only: str | None = None) -> Summary:
        """The summary over all runs, or without one source's, or of one source's alone."""
        return summarise([r for r in self.runs if r.source != without and (only is None or r.source == only)])


@dataclass(frozen=True)
class HeldOut:
    """A source held out: the grid's best point on the other sources, and this source's error there."""

    source: str
    fitted: Point
    summary: Summary


@dataclass(frozen=True)
class Scan:
    names: tuple[str, ...]
    points: tuple[Point, ...]

    def best(self, without: str | None = None) -> Point:
        """The point with the smallest mean absolute error (over all sources, or all but one);
        ties go to the earlier point of the grid."""
        def key(point: Point) -> float:
            mae = point.summary(without=without).mean_abs_error
            return float("inf") if mae is None else mae
        return min(self.points, key=key)

    def sources(self) -> tuple[str, ...]:
        return tuple(sorted({r.source for r in self.points[0].runs if r.error is not None})) if self.points else ()

    def held_out(self) -> tuple[HeldOut, ...]:
        out = []
        for source in self.sources():
            fitted = self.best(without=source)
            out.append(HeldOut(source, fitted, fitted.summary(only=source)))
        return tuple(out)


def grid_problem(grid: Grid) -> str | None:
    """Why a grid cannot be scanned (an unknown or non-model parameter, a value outside its domain,
    no values, too many points), or None. A model parameter is a field of the model's
    `Assumptions`, or a layout default a run takes from specs/assumptions/ (`LAYOUT_DEFAULTS`)."""
    model = {f.name for f in fields(Assumptions)} | set(LAYOUT_DEFAULTS)
    if not grid:
        return "the scan names no assumption"
    points = 1
    for name, values in grid.items():
        if name not in model:
            return f"{name!r} is not an assumption of the cost model ({', '.join(sorted(model))})"
        if not values:
            return f"{name} has no values"
        domain = PARAMETERS[name]
        for value in values:
            if not domain.holds(value):
                return f"{name} = {value:g} lies outside its domain {domain.label()}"
        points *= len(values)
    if points > MAX_POINTS:
        return f"the grid has {points} points; at most {MAX_POINTS}"
    return None


def scan(kb: KnowledgeBase, grid: Grid, assumed: Assumed = ASSUMED) -> Scan | str:
    """The calibration at every point of `grid` (the other assumptions as specs/assumptions/ sets
    them), in the grid's order: the last name varies fastest."""
    problem = grid_problem(grid)
    if problem is not None:
        return problem
    base = assumptions(kb)
    if isinstance(base, str):
        return base
    runs = prepared_runs(kb, assumed)
    names = tuple(grid)
    points = []
    for values in itertools.product(*(grid[name] for name in names)):
        at = dict(zip(names, values, strict=True))
        model = replace(base, **{name: value for name, value in at.items() if name not in LAYOUT_DEFAULTS})
        layouts = {name: value for name, value in at.items() if name in LAYOUT_DEFAULTS}
        points.append(Point(tuple(values), tuple(estimated(_defaulted(run, layouts), model) for run in runs)))
    return Scan(names, tuple(points))


def _defaulted(run: Prepared, values: Mapping[str, float]) -> Prepared:
    """The run with the layout defaults it takes from specs/assumptions/ set to `values` instead
    (a run that takes none of them is returned as it is)."""
    inputs = run.inputs
    taken = {} if inputs is None else {name: value for name, value in values.items() if name in inputs.defaults}
    if inputs is None or not taken:
        return run
    return replace(run, inputs=replace(inputs, layout=with_defaults(inputs.layout, taken)))
