"""The selection decision tree (specs/selection/): questions with explicit answers, and leaves
that say what a branch is about. The hardware of each answer is the planner's, never typed here:
one tree drives the flowchart, the questionnaire and `python -m generator recommend`, and each
of them asks the planner (generator/planner/) at the reader's point."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .common import Entity, Range, Ref, Slug, SourceRef, Strict, Text


class Variable(Strict):
    """What a question asks about: a count with a domain starting at `min`, or a category."""

    id: Slug
    name: Text
    kind: Literal["count", "category"]
    min: Annotated[int, Field(ge=0, le=1000)] | None = None  # counts: the domain is [min, ∞)
    suffix: Annotated[str, Field(max_length=8)] = ""  # how a count is written, e.g. "B" in 70B
    values: list[Slug] = []  # categories: the whole domain
    labels: dict[Slug, Text] = {}  # categories: how each value reads


class Answer(Strict):
    range: Range | None = None  # count variables
    value: Slug | None = None  # category variables
    next: Slug  # a question or a leaf of this tree


class Question(Strict):
    id: Slug
    ask: Text
    variable: Slug
    answers: list[Answer]


class Example(Strict):
    """Where the flowchart shows a leaf's answer: the GPU count (inside the leaf's own range). The
    model is the largest published workload of the leaf's model-size range, so that a new workload
    moves the example without an edit here."""

    gpus: Annotated[int, Field(ge=1, le=1_000_000)]


class Leaf(Strict):
    """A branch's end: what it is about and why (title, reasons, pitfalls on its subject). What to
    buy is not written here: the planner computes it at the reader's own point, and at `example`
    for the flowchart (generator/selection/answers.py)."""

    id: Slug
    title: Text
    example: Example
    reasons: list[Text]
    pitfalls: list[Annotated[Slug, Ref("pitfalls")]] = []


class Selection(Entity):
    title: Text
    source: SourceRef
    variables: list[Variable]
    root: Slug
    questions: list[Question]
    leaves: list[Leaf]
