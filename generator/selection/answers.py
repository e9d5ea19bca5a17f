"""The tree's answers, computed by the planner. A leaf holds no hardware: what to buy for a branch
is the planner's answer (generator/planner/) for the leaf's goal, the largest published workload
of its model-size range and its example GPU count, in each market view (each market, and each
market that licenses some parts case by case once more with them counted on). `recommend` and the
questionnaire ask the planner at the reader's own point instead; the flowchart, the tiers page
and data/tree.json show these examples.

So a new workload, GPU or market ruling moves the answers with no edit of the tree, and the tree
has nothing the model could find wrong: no rule checks a leaf against the model. Pure: a
validated knowledge base in, records out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..estimates.choice import Choice
from ..estimates.records import sound, workloads
from ..knowledge import KnowledgeBase, Loaded
from ..language import say
from ..model.common import Range, Text
from ..model.costs import Workload as WorkloadSpec
from ..model.markets import Market
from ..model.selection import Leaf, Selection
from ..planner.plan import GOALS, Evaluated, Goal, Plan, PlanError, Request, plan
from .tree import Step, leaf_paths, range_on_path, variables

# The tree's variables the planner reads, by id (the flowchart and the rules name them too).
MODEL_SIZE = "model-size"
GPUS = "gpus"
GOAL = "goal"
BILLION = 1e9


@dataclass(frozen=True)
class MarketView:
    """A market as the answers are given for it: `licensed` counts on the parts it licenses case
    by case (the planner's `--licensed`)."""

    market: str
    licensed: bool
    title: Text  # the market's (short) name

    @property
    def name(self) -> str:
        """How a page labels it, in the language being written (the views are computed once for
        both languages: kept with the answers)."""
        name = self.title.shown()
        return say(f"{name}（获出口许可）", f"{name} (export licence granted)") if self.licensed else name

    @property
    def key(self) -> str:
        return self.market + ("+licensed" if self.licensed else "")


def market_views(kb: KnowledgeBase) -> tuple[MarketView, ...]:
    """Each market, then once more with licences where some ruling of it requires one; markets
    whose default is `available` first (the open market, then the restricted ones)."""
    views: list[MarketView] = []
    entries = sorted(kb.of_type(Market), key=lambda m: (m.model.default is None or m.model.default.status != "available",
                                                         m.id))
    for entry in entries:
        title = entry.model.short_name or entry.model.name
        views.append(MarketView(entry.id, False, title))
        if any(r.status == "licence-required" for r in entry.model.rulings):
            views.append(MarketView(entry.id, True, title))
    return tuple(views)


@dataclass(frozen=True)
class LeafAnswer:
    """A leaf's example and the planner's answer there in each market view (a string: why there is
    none, e.g. no published workload in the leaf's model-size range)."""

    leaf: Leaf
    steps: tuple[Step, ...]
    goal: Goal
    workload: Loaded[WorkloadSpec] | None
    gpus: int
    plans: tuple[tuple[MarketView, Plan | str], ...]


def goal_on(steps: tuple[Step, ...]) -> Goal:
    """The goal a path answers (pre-training where it asks none, or answers a value the planner
    does not know: rule tree-goal-values reports that)."""
    for step in steps:
        if step.question.variable == GOAL and step.answer.value in GOALS:
            return step.answer.value
    return "pretrain"


def band_workload(kb: KnowledgeBase, sizes: Range) -> Loaded[WorkloadSpec] | None:
    """The largest sound published dense workload whose parameter count lies in the range (billions,
    half-open [min, max)): the hardest model a leaf's answer has to hold for. Mixture-of-experts
    workloads are left out: the tree's size bands count the parameters a token passes through,
    which for them is a small share of the total (their answers are on the MoE page and in the
    planner, asked by name)."""
    inside = [w for w in workloads(kb) if sound(w.model) and w.model.moe is None and sizes.min * BILLION <= w.model.parameters
              and (sizes.max is None or w.model.parameters < sizes.max * BILLION)]
    return max(inside, key=lambda w: (w.model.parameters, w.id)) if inside else None


def ask(kb: KnowledgeBase, model: Choice, gpus: int, view: MarketView, goal: Goal,
        evaluated: Evaluated | None = None) -> Plan | str:
    """The planner's answer, or why there is none (one line). `evaluated` is shared by the market
    views of one example: they differ in what may be bought, not in what a build estimates."""
    try:
        return plan(kb, Request(model, gpus, view.market, goal, licensed=view.licensed), evaluated)
    except PlanError as err:
        return str(err)


def leaf_answers(kb: KnowledgeBase, sel: Selection) -> dict[str, LeafAnswer]:
    """Every reachable leaf's answers, by leaf id; computed once per knowledge base and tree (the
    flowchart, the tiers page and data/tree.json all ask)."""
    return dict(kb.once(f"answers:{sel.id}", lambda: compute_answers(kb, sel), of=sel))


def compute_answers(kb: KnowledgeBase, sel: Selection) -> dict[str, LeafAnswer]:
    """Every reachable leaf's answers, computed afresh (`leaf_answers` keeps them)."""
    paths = leaf_paths(sel)
    sizes_var = variables(sel).get(MODEL_SIZE)
    views = market_views(kb)
    found: dict[str, LeafAnswer] = {}
    for leaf in sel.leaves:
        steps = paths.get(leaf.id)
        if steps is None or leaf.id in found:
            continue
        sizes = range_on_path(steps, MODEL_SIZE, (sizes_var.min or 0) if sizes_var else 0)
        goal = goal_on(steps)
        spec = band_workload(kb, sizes)
        plans: list[tuple[MarketView, Plan | str]] = []
        evaluated = Evaluated()
        for view in views:
            if spec is None:
                plans.append((view, f"no workload in specs/workloads/ lies in {sizes.label()}B"))
            else:
                plans.append((view, ask(kb, Choice("", 0, "", spec.id), leaf.example.gpus, view, goal, evaluated)))
        found[leaf.id] = LeafAnswer(leaf, steps, goal, spec, leaf.example.gpus, tuple(plans))
    return found


__all__ = ["BILLION", "GOAL", "GPUS", "MODEL_SIZE", "LeafAnswer", "MarketView", "ask", "band_workload",
           "compute_answers", "goal_on", "leaf_answers", "market_views"]
