"""`generator diff`: what a change to the specs does to the numbers, figure by figure. A pull
request shows the YAML lines that changed; a reviewer also needs what they moved: the derived
figures computed from them and the verdicts of the claims that use them.

Pure: two validation results in, rows out (`compare`); `diff_format` turns rows into text. Only
`_side` reads generator internals, so a refactor of the rules or the figure index touches one
function here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ..derive import FigureIndex
from ..diagnostics import Diagnostic, has_errors
from ..estimates.calibration import Summary, calibrate
from ..figures import Figure
from ..knowledge import KnowledgeBase
from ..model.entities import Claim
from ..rules.claims import claim_outcome
from ..units import DERIVED_UNITS, UNITS, from_base
from ..validate import Result

FIELDS = ("value", "unit", "direction", "scope", "source")


@dataclass(frozen=True)
class Shown:
    """A figure as compared: its exact value (base units) and how it is written."""

    value: Fraction | None  # None: stated in a unit the units rule rejects, nothing to compare
    dimension: str
    unit: str
    direction: str | None
    scope: str | None
    source: str | None

    @property
    def in_unit(self) -> Fraction | None:
        return None if self.value is None else _in_unit(self.value, self.unit)


@dataclass(frozen=True)
class Verdict:
    """What the data says of a claim (`computed`: None when it cannot be evaluated) and what the
    claim file says (`recorded`)."""

    computed: str | None
    actual: str
    deviation_pct: float | None
    recorded: str


# (entity id, figure name, derived?): a stated figure and the derived one that checks it share a
# name, and both are shown, since an edit can move one and not the other.
FigureKey = tuple[str, str, bool]


@dataclass(frozen=True)
class Side:
    entities: dict[str, str]  # id -> kind
    figures: dict[FigureKey, Shown]
    claims: dict[str, Verdict]


def _side(kb: KnowledgeBase, index: FigureIndex) -> Side:
    """The adapter onto generator internals: `FigureIndex.names`/`get` for the stated figures,
    `FigureIndex.derived` for the derived ones (`get` prefers a stated figure of the same
    name), and `rules.claims.claim_outcome` for the verdicts."""
    entities = {entity.id: entity.kind for entity in kb}
    figures: dict[FigureKey, Shown] = {}
    for entity_id in entities:
        for name in index.names(entity_id):
            figure = index.get(f"{entity_id}#{name}")
            if figure is None:  # stated in an unknown or wrong unit
                figures[entity_id, name, False] = Shown(None, "unknown", "?", None, None, None)
            elif figure.path is not None:
                figures[entity_id, name, False] = _shown(figure)
        for figure in index.derived(entity_id):
            figures[entity_id, figure.name, True] = _shown(figure)
    claims: dict[str, Verdict] = {}
    for entity in kb.of_type(Claim):
        outcome = claim_outcome(kb, index, entity.id)
        recorded = str(entity.model.verdict)
        claims[entity.id] = (Verdict(None, "", None, recorded) if outcome is None else
                             Verdict(outcome.verdict, outcome.actual, outcome.deviation_pct, recorded))
    return Side(entities, figures, claims)


def _shown(figure: Figure) -> Shown:
    return Shown(figure.value, figure.dimension, figure.unit, figure.direction, figure.scope, figure.source)


def _in_unit(value: Fraction, unit: str) -> Fraction:
    return from_base(value, unit) if unit in UNITS or unit in DERIVED_UNITS else value


# How a row changed between the two revisions.
Change = Literal["added", "removed", "changed"]


@dataclass(frozen=True)
class EntityRow:
    entity: str
    kind: str
    change: Change  # added | removed


@dataclass(frozen=True)
class FigureRow:
    entity: str
    kind: str
    figure: str
    derived: bool
    old: Shown | None  # None: added
    new: Shown | None  # None: removed

    @property
    def change(self) -> Change:
        return "added" if self.old is None else "removed" if self.new is None else "changed"

    @property
    def fields(self) -> tuple[str, ...]:
        """Which of value, unit, direction, scope and source differ (value compared exactly, in
        base units: 400 Gb/s rewritten as 50 GB/s is a change of unit only)."""
        if self.old is None or self.new is None:
            return ()
        return tuple(name for name in FIELDS if getattr(self.old, name) != getattr(self.new, name))

    @property
    def delta(self) -> Fraction | None:
        """new - old, in the new figure's unit; None when not comparable."""
        old, new = self.old, self.new
        if old is None or new is None or old.value is None or new.value is None or old.dimension != new.dimension:
            return None
        return _in_unit(new.value - old.value, new.unit)

    @property
    def delta_pct(self) -> float | None:
        old, new = self.old, self.new
        if old is None or new is None or old.value is None or new.value is None or not old.value:
            return None
        if old.dimension != new.dimension:
            return None
        return float((new.value - old.value) / abs(old.value) * 100)


@dataclass(frozen=True)
class ClaimRow:
    claim: str
    old: Verdict | None
    new: Verdict | None

    @property
    def change(self) -> Change:
        return "added" if self.old is None else "removed" if self.new is None else "changed"


@dataclass(frozen=True)
class Status:
    """One side's validation: whether it loaded (figures to compare) and what was wrong."""

    loaded: bool
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.loaded and not has_errors(self.diagnostics)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity.value == "error")


@dataclass(frozen=True)
class AccuracyRow:
    """The calibration summary (estimates.calibration) of each side."""

    old: Summary
    new: Summary


@dataclass(frozen=True)
class Diff:
    base: Status
    head: Status
    entities: tuple[EntityRow, ...] = ()
    figures: tuple[FigureRow, ...] = ()
    claims: tuple[ClaimRow, ...] = ()
    # The model's accuracy on the published runs, before and after, when either moved: a change
    # to an assumption, a formula's input or a run shows what it does to the answers' error.
    accuracy: AccuracyRow | None = None

    @property
    def compared(self) -> bool:
        """Both sides loaded: without a knowledge base there are no figures to compare."""
        return self.base.loaded and self.head.loaded

    @property
    def unchanged(self) -> bool:
        return self.compared and not (self.entities or self.figures or self.claims or self.accuracy)


def compare(base: Result, head: Result) -> Diff:
    """Every entity added or removed, every figure (stated or derived) whose value, unit,
    direction, scope or source differs, and every claim whose verdict or data differs, sorted
    by kind, entity and name so that the same trees always give the same rows."""
    base_status = Status(base.kb is not None, base.diagnostics)
    head_status = Status(head.kb is not None, head.diagnostics)
    if base.kb is None or base.figures is None or head.kb is None or head.figures is None:
        return Diff(base_status, head_status)
    old, new = _side(base.kb, base.figures), _side(head.kb, head.figures)
    kinds = {**old.entities, **new.entities}
    entities = [EntityRow(entity_id, kinds[entity_id], "removed" if entity_id in old.entities else "added")
                for entity_id in old.entities.keys() ^ new.entities.keys()]
    figures = []
    for key in old.figures.keys() | new.figures.keys():
        before, after = old.figures.get(key), new.figures.get(key)
        if before != after:
            entity_id, name, derived = key
            figures.append(FigureRow(entity_id, kinds[entity_id], name, derived, before, after))
    claims = [ClaimRow(claim_id, old.claims.get(claim_id), new.claims.get(claim_id))
              for claim_id in old.claims.keys() | new.claims.keys()
              if old.claims.get(claim_id) != new.claims.get(claim_id)]
    before_accuracy, after_accuracy = calibrate(base.kb).overall, calibrate(head.kb).overall
    accuracy = None if before_accuracy == after_accuracy else AccuracyRow(before_accuracy, after_accuracy)
    return Diff(base_status, head_status,
                tuple(sorted(entities, key=lambda row: (row.kind, row.entity))),
                tuple(sorted(figures, key=lambda row: (row.kind, row.entity, row.figure, row.derived))),
                tuple(sorted(claims, key=lambda row: row.claim)), accuracy)
