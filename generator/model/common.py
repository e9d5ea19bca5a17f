"""Building blocks shared by every entity: strict base model, bilingual text, quantities, counts,
and the metadata markers that tell the rules which unit dimension a field accepts (`Dim`), which
directions and scopes it may state and what range is plausible (`Allows`, `Plausible`), and which
kind of entity a reference must point to (`Ref`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    PlainSerializer,
    StringConstraints,
)

from ..language import current
from ..units import UNITS, fmt_number, to_base, units_of

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=64)]
# `entity#figure.path`: names one figure of one entity (see generator.figures).
FIGURE_REF_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*#[a-z0-9_]+(?:[.][a-z0-9_-]+)*$"
FigureRef = Annotated[str, StringConstraints(pattern=FIGURE_REF_PATTERN, max_length=160)]


def _number_out(value: float) -> int | float:
    return int(value) if value.is_integer() else value


# A decimal field: read as a float (a spec may write 80 or 80.5), written out in the data
# downloads without a pointless ".0" (80, not 80.0). Checks and schemas are unaffected.
NUMBER_OUT = PlainSerializer(_number_out, return_type=int | float)

TINY = 1e-12
"""The smallest non-zero figure a spec may state. Below it a value only underflows: a denormal
such as 1.0e-320 divides a 1e7 figure past a double and raised OverflowError in the claims rule.
A real figure that small is written in a smaller unit."""


def _not_vanishing(value: float) -> float:
    if 0 < abs(value) < TINY:
        raise ValueError(f"{value!r} is too small to compute with: write 0, or at least {TINY:g} (in a smaller unit)")
    return value


NOT_VANISHING = AfterValidator(_not_vanishing)
""""Field metadata: 0, or a magnitude of at least TINY."""

MAX_TEXT = 4000
Direction = Literal["per_direction", "bidirectional", "aggregate"]
Scope = Literal["per_lane", "per_link", "per_port", "per_gpu", "per_node", "per_switch", "per_pin", "per_system"]


@dataclass(frozen=True)
class Dim:
    """Field metadata: the quantity must use a unit of this dimension (and the JSON Schema says
    which units those are, so that an editor offers exactly what the generator accepts)."""

    dimension: str

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return _narrowed(handler(core_schema), {"unit": {"enum": units_of(self.dimension)}})


def _narrowed(schema: dict[str, Any], properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A field's schema with some properties narrowed (and extra keywords), one level deep
    whichever of `Dim`, `Allows` and `Plausible` pydantic applies first."""
    out: dict[str, Any] = dict(schema) if "allOf" in schema else {"allOf": [schema]}
    narrowed: dict[str, Any] = {**out.get("properties", {}), **properties}
    return {**out, "properties": narrowed, **extra}


@dataclass(frozen=True)
class Allows:
    """Field metadata: the directions and scopes a figure of this field may state (leaving one
    out is always allowed; a bandwidth without a direction is `units-direction-missing`). An
    empty tuple: the field has no direction (or scope) at all. Memory bandwidth marked
    per_direction, or a GPU's power marked per_node, is a slip the units rules catch; the JSON
    Schema lists the same values, so an editor offers exactly these."""

    directions: tuple[Direction, ...]
    scopes: tuple[Scope, ...]

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        # null stays allowed: `direction: null` is what leaving the key out means to the generator.
        return _narrowed(handler(core_schema), {"direction": {"enum": [*self.directions, None]},
                                                "scope": {"enum": [*self.scopes, None]}})


@dataclass(frozen=True)
class Plausible:
    """Field metadata: the closed range [low, high] (in `unit`) that every real part, current or
    announced, falls in, with room to spare. A figure outside it is not necessarily wrong, so it
    is a warning (`plausibility-range`), which CI treats as an error until the pull request
    argues for it and widens the range. Each use says in a comment why its bounds are where
    they are."""

    low: float
    high: float
    unit: str
    low_base: Fraction = field(init=False, repr=False)  # the bounds in the dimension's base unit
    high_base: Fraction = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "low_base", to_base(self.low, self.unit))
        object.__setattr__(self, "high_base", to_base(self.high, self.unit))

    def admits(self, value: float, unit: str) -> bool:
        return self.low_base <= to_base(value, unit) <= self.high_base

    def label(self) -> str:
        return f"{fmt_number(self.low)}–{fmt_number(self.high)} {self.unit}"

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        # Informative only (a warning, not a validity rule; and the value's unit may differ).
        return _narrowed(handler(core_schema), {}, **{"x-plausible": {
            "low": self.low, "high": self.high, "unit": self.unit,
            "description": "Informative: outside this range the generator warns (plausibility-range)."}})


@dataclass(frozen=True)
class Ref:
    """Field metadata: the id must name an entity of one of these kinds (spec folders)."""

    kinds: tuple[str, ...]

    def __init__(self, *kinds: str) -> None:
        object.__setattr__(self, "kinds", kinds)


@dataclass(frozen=True)
class Quote:
    """Field metadata: the text records what a source said (its figures are the source's words,
    checked as claims), so it may hold typed figures; every other text must reference figures."""


class Strict(BaseModel):
    """Unknown keys are errors, types are not coerced ("80" is not 80), nothing is mutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Text(Strict):
    """A text in Chinese and English. `en` is optional, so that an entity written in Chinese
    first still loads; a text without it is the warning `text-missing-en`, which `--strict`
    (CI) counts as an error."""

    zh: Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)] = Field(
        description="The text in Chinese.")
    en: Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)] | None = Field(
        default=None, description="The text in English: without it the generator warns (text-missing-en), "
                                  "and `check --strict` fails.")

    def shown(self) -> str:
        """The text in the language being written (generator.language). A text without `en`
        shows its Chinese on an English page: the rule text-missing-en warns of it, and strict
        mode refuses such a knowledge base."""
        return self.en if self.en is not None and current() == "en" else self.zh


SourceRef = Annotated[Slug, Ref("sources")]
# A unit symbol from the unit table (generator.units); a `Dim` narrows it to one dimension.
UnitSymbol = Annotated[str, StringConstraints(max_length=16), Field(json_schema_extra={"enum": list(UNITS)})]
QuotedText = Annotated[Text, Quote()]


class Quantity(Strict):
    """One figure: value and unit, plus direction and scope for bandwidths, and its source."""

    value: Annotated[float, Field(ge=0, le=1e7, allow_inf_nan=False), NOT_VANISHING, NUMBER_OUT]
    unit: UnitSymbol
    direction: Direction | None = None
    scope: Scope | None = None
    source: SourceRef
    # Relative tolerance when a stated figure is compared with a derived one; without it the
    # tolerance is half a unit of the last digit the value is written with.
    tolerance_pct: Annotated[float, Field(gt=0, le=50), NUMBER_OUT] | None = None
    note: Text | None = None


class Latency(Quantity):
    measures: Text


class Price(Quantity):
    """A price is never timeless: `as_of` says when it held."""

    as_of: dt.date


class Count(Strict):
    value: Annotated[int, Field(ge=0, le=1_000_000)]
    source: SourceRef
    note: Text | None = None


class Range(Strict):
    """Half-open range of a count (GPUs, billions of parameters), [min, max); no max: unbounded."""

    min: Annotated[int, Field(ge=0, le=10_000_000)]
    max: Annotated[int, Field(ge=1, le=10_000_000)] | None = None

    def label(self) -> str:
        return f"{self.min}+" if self.max is None else f"{self.min}–{self.max - 1}"

    def overlaps(self, other: Range) -> bool:
        return (self.max is None or other.min < self.max) and (other.max is None or self.min < other.max)

    def contains(self, value: float) -> bool:
        return self.min <= value and (self.max is None or value < self.max)

    @property
    def empty(self) -> bool:
        return self.max is not None and self.max <= self.min


class Identified(Strict):
    """What every spec file holds at its top: a model with an id (a source, or an `Entity`)."""

    id: Slug


class Entity(Identified):
    """A spec file's model other than a source: it also says when it was last checked."""

    last_verified: dt.date


class Keyed(Strict):
    """A list item named by its `key` (a figure below it is named `list.<key>.field`, not by index)."""

    key: Slug


DataRate = Annotated[Quantity, Dim("data_rate")]
TransferRate = Annotated[Quantity, Dim("transfer_rate")]
DataSize = Annotated[Quantity, Dim("data_size")]
Compute = Annotated[Quantity, Dim("compute")]
Power = Annotated[Quantity, Dim("power")]
Frequency = Annotated[Quantity, Dim("frequency")]
TokenRate = Annotated[Quantity, Dim("token_rate")]
Ratio = Annotated[Quantity, Dim("ratio")]
LatencyFigure = Annotated[Latency, Dim("time")]
PriceFigure = Annotated[Price, Dim("currency")]
