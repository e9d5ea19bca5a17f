"""tree: each question asks about one of the tree's variables, and its answers cover that
variable's whole domain exactly once: every value of a category, every count from the domain's
minimum up without gap or overlap. Whatever a reader answers, exactly one branch applies."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.selection import Question, Selection
from ..selection.tree import variables
from .base import Check, Context

VARIABLE = Rule("tree-variable", "tree", "问题必须针对树里定义的变量，回答的形式（区间或取值）要与变量类型一致。")
COVERAGE_GAP = Rule("tree-coverage-gap", "tree", "一个问题的回答必须覆盖变量的整个取值范围，不能有空档。")
COVERAGE_OVERLAP = Rule("tree-coverage-overlap", "tree", "一个问题的回答之间不能重叠。")


def check_tree_answers(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        known = variables(sel)
        for qi, question in enumerate(sel.questions):
            variable = known.get(question.variable)
            if variable is None:
                yield VARIABLE.report(entity, ("questions", qi, "variable"),
                                      f"{question.variable!r} is not one of this tree's variables: {', '.join(known)}")
                continue
            yield from _coverage(entity, qi, question, variable.kind, variable.min or 0, list(variable.values))


def _coverage(entity: Loaded[Selection], qi: int, question: Question, kind: str, low: int, values: list[str]) -> Iterator[Diagnostic]:
    base = ("questions", qi, "answers")
    if kind == "category":
        seen: set[str] = set()
        for ai, answer in enumerate(question.answers):
            if answer.value is None or answer.range is not None or answer.value not in values:
                yield VARIABLE.report(entity, (*base, ai),
                                      f"answers of {question.variable!r} name one of its values: {', '.join(values)}")
            elif answer.value in seen:
                yield COVERAGE_OVERLAP.report(entity, (*base, ai, "value"), f"{answer.value!r} is answered twice")
            seen.add(answer.value or "")
        missing = [v for v in values if v not in seen]
        if missing:
            yield COVERAGE_GAP.report(entity, ("questions", qi, "id"),
                                      f"no answer for {', '.join(repr(v) for v in missing)}")
        return
    ranges = []
    for ai, answer in enumerate(question.answers):
        if answer.range is None or answer.value is not None:
            yield VARIABLE.report(entity, (*base, ai), f"answers of {question.variable!r} give a `range`")
        else:
            ranges.append((answer.range.min, ai, answer.range))
    expected: int | None = low
    for _start, ai, r in sorted(ranges, key=lambda item: item[0]):
        where = (*base, ai, "range")
        if expected is None or r.min < expected:
            yield COVERAGE_OVERLAP.report(entity, where,
                                          f"range {r.label()} overlaps another answer of {question.id!r}")
        elif r.min > expected:
            yield COVERAGE_GAP.report(entity, where,
                                      f"no answer of {question.id!r} covers {expected}–{r.min - 1}")
        expected = r.max if expected is None or r.max is None else max(expected, r.max)
    if expected is not None and ranges:
        yield COVERAGE_GAP.report(entity, (*base, ranges[-1][1], "range"),
                                  f"no answer of {question.id!r} covers {expected} and above")


RULES = (VARIABLE, COVERAGE_GAP, COVERAGE_OVERLAP)
CHECKS: tuple[Check, ...] = (check_tree_answers,)
