"""Walking the selection tree: the paths to every leaf, the GPU range a leaf is reached with,
and the recommendation for a set of answers. The flowchart page and the `recommend` command
both call `recommend`, so what the picture shows is what the command answers."""

from __future__ import annotations

from dataclasses import dataclass

from ..costmodel.feasibility import MAX_COUNT
from ..diagnostics import quoted
from ..language import say
from ..model.common import Range
from ..model.selection import Answer, Leaf, Question, Selection, Variable

TreeNode = Question | Leaf
Value = int | float | str


@dataclass(frozen=True)
class Step:
    question: Question
    answer: Answer


@dataclass(frozen=True)
class Recommendation:
    steps: tuple[Step, ...]
    leaf: Leaf


class NoAnswer(ValueError):
    """The answers do not lead to a leaf (a value outside every answer of a question)."""


def nodes(selection: Selection) -> dict[str, TreeNode]:
    found: dict[str, TreeNode] = {}
    for question in selection.questions:
        found.setdefault(question.id, question)
    for leaf in selection.leaves:
        found.setdefault(leaf.id, leaf)
    return found


def variables(selection: Selection) -> dict[str, Variable]:
    return {v.id: v for v in selection.variables}


def matches(answer: Answer, value: Value) -> bool:
    if answer.range is not None:
        return isinstance(value, (int, float)) and answer.range.min <= value and (
            answer.range.max is None or value < answer.range.max)
    return answer.value == value


def _domain(selection: Selection, variable_id: str) -> str:
    """How a variable's flag is written: its categories (a|b), or a count with its suffix."""
    variable = variables(selection).get(variable_id)
    if variable is None:
        return "VALUE"
    if variable.kind == "category":
        return "|".join(variable.values) or "VALUE"
    return "N" + variable.suffix


def recommend(selection: Selection, values: dict[str, Value]) -> Recommendation:
    """Follow the tree from the root with `values` (variable id -> value) to one leaf."""
    by_id = nodes(selection)
    node = by_id.get(selection.root)
    steps: list[Step] = []
    while isinstance(node, Question):
        if node.variable not in values:
            raise NoAnswer(f"{node.id} asks for --{node.variable} {_domain(selection, node.variable)}, "
                           "which was not given")
        value = values[node.variable]
        chosen = next((a for a in node.answers if matches(a, value)), None)
        if chosen is None:
            raise NoAnswer(f"{node.variable} = {value!r} fits no answer of {node.id}")
        steps.append(Step(node, chosen))
        if len(steps) > len(by_id):  # a cycle; the tree rules report it
            raise NoAnswer("the tree has a cycle")
        node = by_id.get(chosen.next)
    if node is None:
        raise NoAnswer("the tree leads to a node that does not exist")
    return Recommendation(tuple(steps), node)


def leaf_paths(selection: Selection) -> dict[str, tuple[Step, ...]]:
    """Each reachable leaf with the steps that lead to it (first path found, depth first). Each
    node keeps only the step it was reached by, so a deep tree costs no more than its paths."""
    by_id = nodes(selection)
    reached_by: dict[str, tuple[str, Step] | None] = {}
    leaves: list[str] = []
    stack: list[tuple[str, tuple[str, Step] | None]] = [(selection.root, None)]
    while stack:
        node_id, via = stack.pop()
        if node_id in reached_by:
            continue
        reached_by[node_id] = via
        node = by_id.get(node_id)
        if isinstance(node, Leaf):
            leaves.append(node_id)
        elif isinstance(node, Question):
            for answer in reversed(node.answers):
                stack.append((answer.next, (node_id, Step(node, answer))))
    return {leaf: _path_to(leaf, reached_by) for leaf in leaves}


def _path_to(node_id: str, reached_by: dict[str, tuple[str, Step] | None]) -> tuple[Step, ...]:
    steps: list[Step] = []
    via = reached_by[node_id]
    while via is not None:  # every node was reached from one seen before it: this ends at the root
        parent, step = via
        steps.append(step)
        via = reached_by[parent]
    return tuple(reversed(steps))


def range_on_path(path: tuple[Step, ...], variable: str, domain_min: int) -> Range:
    """The range of a count variable that every step of `path` allows."""
    low, high = domain_min, None
    for step in path:
        if step.question.variable == variable and step.answer.range is not None:
            low = max(low, step.answer.range.min)
            top = step.answer.range.max
            high = top if high is None or (top is not None and top < high) else high
    return Range(min=low, max=high)


def example_values(selection: Selection, path: tuple[Step, ...]) -> dict[str, Value]:
    """One set of answers that follows `path`: for a count, the smallest value that every step
    asking it allows; for a category, the value answered. (When the steps contradict each other,
    no answers follow the path, and `recommend` with these leads elsewhere.)"""
    values: dict[str, Value] = {}
    for step in path:
        answer, variable = step.answer, step.question.variable
        if answer.range is not None:
            low = values.get(variable)
            values[variable] = max(low, answer.range.min) if isinstance(low, int) else answer.range.min
        else:
            values[variable] = str(answer.value)
    return values


def answer_label(variable: Variable, answer: Answer) -> str:
    """How an answer reads on the flowchart: '13B–69B', '256+', '预算有限'."""
    if answer.range is not None:
        r, suffix = answer.range, variable.suffix
        if r.max is None:
            return say(f"{r.min}{suffix} 及以上", f"{r.min}{suffix} or more")
        if r.min == variable.min and r.min == 0:
            return say(f"小于 {r.max}{suffix}", f"under {r.max}{suffix}")
        # Counts of GPUs are whole: 8–63. A size with a suffix is a measure: 13B–70B, lower bound
        # included, upper excluded (the page says so).
        return f"{r.min}–{r.max - 1}" if not suffix else f"{r.min}{suffix}–{r.max}{suffix}"
    label = variable.labels.get(answer.value or "")
    return label.shown() if label is not None else str(answer.value)


def parse_value(variable: Variable, text: str) -> Value:
    """A command-line answer: '70B' or '70' for a count with suffix B, a value id for a category."""
    if variable.kind == "category":
        if text in variable.values:
            return text
        raise NoAnswer(f"--{variable.id} takes one of: {', '.join(variable.values)}")
    raw = text.strip()
    if variable.suffix and raw.upper().endswith(variable.suffix.upper()):
        raw = raw[: -len(variable.suffix)]
    try:
        number = float(raw)
    except ValueError:
        raise NoAnswer(f"--{variable.id} takes a number{' like 70' + variable.suffix if variable.suffix else ''}, "
                       f"not {quoted(text)}") from None
    if number != number:
        raise NoAnswer(f"--{variable.id} takes a finite number, not {quoted(text)}")
    if number < (variable.min or 0):
        raise NoAnswer(f"--{variable.id} must be at least {variable.min or 0}")
    if number > MAX_COUNT:  # infinite too; the planner multiplies it (by 10^9 for a size in billions)
        raise NoAnswer(f"--{variable.id} {quoted(text)} is beyond 2^53 − 1 ({MAX_COUNT:,}), the largest count the "
                       "model takes")
    return int(number) if number.is_integer() else number
