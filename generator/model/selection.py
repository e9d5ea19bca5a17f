"""The selection decision tree (specs/selection/): questions with explicit answers, and leaves
that recommend a GPU, an intra-node link, a network and a topology. One tree drives both the
flowchart and `python -m generator recommend`, so the picture and the answer cannot differ."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .common import Entity, Range, Ref, Slug, SourceRef, Strict, Text
from .entities import Conflict


class Variable(Strict):
    """What a question asks about: a count with a domain starting at `min`, or a category."""

    id: Slug
    name: Text
    kind: Literal["count", "category"]
    min: Annotated[int, Field(ge=0, le=1000)] | None = None  # counts: the domain is [min, ∞)
    suffix: Annotated[str, Field(max_length=8)] = ""  # how a count is written, e.g. "B" in 70B
    values: list[Slug] = []  # categories: the whole domain
    labels: dict[Slug, Text] = {}  # categories: how each value reads
    # counts: the largest value the leaf checks examine on an open-ended branch ("256 GPUs and
    # more" is checked at 256 and at `check_max`); without it such a branch is checked at its min.
    check_max: Annotated[int, Field(ge=1, le=1_000_000)] | None = None


class Answer(Strict):
    range: Range | None = None  # count variables
    value: Slug | None = None  # category variables
    next: Slug  # a question or a leaf of this tree


class Question(Strict):
    id: Slug
    ask: Text
    variable: Slug
    answers: list[Answer]


class Picks(Strict):
    gpu: Annotated[Slug, Ref("gpus")]
    intra_node: Annotated[Slug, Ref("interconnects")]
    network: Annotated[Slug, Ref("networks")] | None = None  # None: one node, no cluster network
    topology: Annotated[Slug, Ref("topologies")] | None = None

    def by_field(self) -> dict[str, str | None]:
        """Each pick under its field name (the flowchart and `recommend` list them in this order)."""
        return {"gpu": self.gpu, "intra_node": self.intra_node, "network": self.network, "topology": self.topology}


class Needs(Strict):
    """What a leaf needs where the model finds no layout that fits in memory at its branch's
    hardest point: more GPUs than the branch's smallest count, or offloading the training state
    to host memory (which the model does not estimate). The note says it to the reader."""

    what: Literal["more-gpus", "offload"]
    note: Text


class CommWarning(Strict):
    """A leaf whose estimated communication share at its branch's hardest point exceeds the
    stated threshold says so; the share itself is rendered from the model, never typed here."""

    note: Text


class Leaf(Strict):
    id: Slug
    title: Text
    picks: Picks
    parallelism: list[Literal["data", "tensor", "pipeline"]]
    reasons: list[Text]
    pitfalls: list[Annotated[Slug, Ref("pitfalls")]] = []
    conflicts: list[Conflict] = []  # acknowledged disagreements with a tier table, explained
    needs: Needs | None = None  # checked against the cost model (generator/selection/leafcheck.py)
    comm_warning: CommWarning | None = None  # idem: required when the communication share is high


class Selection(Entity):
    title: Text
    source: SourceRef
    variables: list[Variable]
    root: Slug
    questions: list[Question]
    leaves: list[Leaf]
