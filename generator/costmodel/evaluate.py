"""Two evaluators for the model's one wiring (`wiring.py`): plain floats for the estimate, and
figures for the chain behind each output.

The wiring never calls a formula itself. It asks an evaluator for an input (`given`) or for a
registered formula applied to values the evaluator made (`derive`), naming each value with a
key and a unit. `Floats` ignores the names and calls the formula: the fast path. `Figures`
records a `Figure` (chain.py) around the same call on the same values, so a chain's value is
the estimate's by construction, bit for bit, and costs names only when someone asks for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .chain import Figure, derive, given

V = TypeVar("V")
"""What an evaluator computes with: `float` or `Figure`."""

SHARED_ORIGINS = ("workload", "assumption")


class Evaluator(Protocol[V]):
    """What the wiring may ask of the values it computes with."""

    def given(self, key: str, unit: str, value: float, origin: str) -> V:
        """An input: a workload, cluster, layout or assumption value (`origin` says which)."""
        ...

    def derive(self, key: str, unit: str, fn: Callable[..., float], *inputs: V) -> V:
        """A registered formula (`chain.formula`) applied to values of this evaluator."""
        ...

    def value(self, of: V) -> float:
        """The float behind a value, for what is a comparison rather than a formula."""
        ...

    def beside(self, prefix: str) -> Evaluator[V]:
        """The evaluator for a second run whose figures join this run's in one chain (the
        one-node reference): its keys start with `prefix` unless both runs read the same input."""
        ...


class Floats:
    """The fast path: names are dropped, formulas called directly."""

    def given(self, key: str, unit: str, value: float, origin: str) -> float:
        return float(value)  # counts are ints; every formula runs on floats (see inputs.py)

    def derive(self, key: str, unit: str, fn: Callable[..., float], *inputs: float) -> float:
        return fn(*inputs)

    def value(self, of: float) -> float:
        return of

    def beside(self, prefix: str) -> Floats:
        return self  # keys do not exist here, so they cannot collide


FLOATS = Floats()


@dataclass(frozen=True)
class Figures:
    """Records the chain: every value is a `Figure` keyed by `prefix` + the wiring's key. Inputs
    read from the workload, the assumptions or the node keep their key, since a second run
    (`beside`) reads the very same ones, and a shared key must mean one value."""

    prefix: str = ""

    def given(self, key: str, unit: str, value: float, origin: str) -> Figure:
        return given(self._key(key, origin), unit, value, origin)

    def derive(self, key: str, unit: str, fn: Callable[..., float], *inputs: Figure) -> Figure:
        return derive(self._key(key, "derived"), unit, fn, *inputs)

    def value(self, of: Figure) -> float:
        return of.value

    def beside(self, prefix: str) -> Figures:
        return Figures(self.prefix + prefix)

    def _key(self, key: str, origin: str) -> str:
        if origin in SHARED_ORIGINS or key.startswith("node."):
            return key
        return self.prefix + key
