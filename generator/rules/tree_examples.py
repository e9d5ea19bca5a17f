"""tree: what the planner reads from the tree makes sense. Each leaf's example GPU count (where
the flowchart shows the planner's answer for it) lies in the range of GPU counts that reach the
leaf, and the tree's `goal` variable takes only goals the planner knows. The answers themselves
are computed (generator/selection/answers.py): nothing in a leaf names hardware, so no edit of
the hardware, the workloads or the markets can make a leaf wrong."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.selection import Selection
from ..planner.plan import GOALS
from ..selection.answers import GOAL, GPUS
from ..selection.tree import leaf_paths, range_on_path, variables
from .base import Check, Context

EXAMPLE_RANGE = Rule("tree-example-range", "tree", "叶子的示例 GPU 数必须落在走到这个叶子的 GPU 数区间里。")
GOAL_VALUES = Rule("tree-goal-values", "tree", "决策树的 goal 变量只能取规划器认得的目标：pretrain、finetune、lora。")


def check_tree_examples(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        known = variables(sel)
        goal = known.get(GOAL)
        if goal is not None:
            vi = sel.variables.index(goal)
            for i, value in enumerate(goal.values):
                if value not in GOALS:
                    yield GOAL_VALUES.report(entity, ("variables", vi, "values", i),
                                             f"goal {value!r} is not a goal of the planner: {', '.join(GOALS)}")
        if sel.root not in {q.id for q in sel.questions}:
            continue  # no valid root: the structure rule reports it
        counts = known.get(GPUS)
        paths = leaf_paths(sel)
        for li, leaf in enumerate(sel.leaves):
            path = paths.get(leaf.id)
            if path is None:
                continue  # unreachable: the structure rule reports it
            reach = range_on_path(path, GPUS, (counts.min or 1) if counts else 1)
            if reach.empty:
                continue  # a path whose answers contradict each other: no count reaches the leaf
            gpus = leaf.example.gpus
            if not reach.contains(gpus):
                yield EXAMPLE_RANGE.report(entity, ("leaves", li, "example", "gpus"),
                                           f"leaf {leaf.id!r} is reached with {reach.label()} GPUs: its example "
                                           f"{gpus} lies outside")


RULES = (EXAMPLE_RANGE, GOAL_VALUES)
CHECKS: tuple[Check, ...] = (check_tree_examples,)
