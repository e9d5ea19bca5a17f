"""Two evaluators for the model's one wiring (`wiring.py`): plain floats for the estimate, and
figures for the chain behind each output.

The wiring never calls a formula itself. It asks an evaluator for an input (`given`) or for a
registered formula under a key and a unit (`derive(key, unit, fn)`), which it then applies to
values the evaluator made. `Floats` drops the names and hands back the formula itself, so the
fast path calls it directly, with no frame or packed arguments in between. `Terms` hands back
a function that records a `Term` (chain.py) around the same call on the same values, so a
chain's value is the estimate's by construction, bit for bit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from .chain import Term, derive, given

V = TypeVar("V")
"""What an evaluator computes with: `float` or `Term`."""

SHARED_ORIGINS = ("workload", "assumption")


class Apply(Protocol[V]):
    """A formula as an evaluator applies it: to the values bound to its symbols, in order."""

    def __call__(self, *inputs: V) -> V: ...


class Evaluator(Protocol[V]):
    """What the wiring may ask of the values it computes with."""

    def given(self, key: str, unit: str, value: float, origin: str) -> V:
        """An input: a workload, cluster, layout or assumption value (`origin` says which)."""
        ...

    def derive(self, key: str, unit: str, fn: Callable[..., float]) -> Apply[V]:
        """A registered formula (`chain.formula`), to apply to values of this evaluator."""
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
        return float(value)  # counts are ints (see inputs.py); every formula runs on floats

    def derive(self, key: str, unit: str, fn: Callable[..., float]) -> Callable[..., float]:
        return fn  # called by the wiring itself: no frame between it and the formula

    def value(self, of: float) -> float:
        return of

    def beside(self, prefix: str) -> Floats:
        return self  # keys do not exist here, so they cannot collide


FLOATS = Floats()


@dataclass(frozen=True)
class Terms:
    """Records the chain: every value is a `Term` keyed by `prefix` + the wiring's key. Inputs
    read from the workload, the assumptions or the node keep their key, since a second run
    (`beside`) reads the very same ones, and a shared key must mean one value."""

    prefix: str = ""

    def given(self, key: str, unit: str, value: float, origin: str) -> Term:
        return given(self._key(key, origin), unit, value, origin)

    def derive(self, key: str, unit: str, fn: Callable[..., float]) -> Apply[Term]:
        return partial(derive, self._key(key, "derived"), unit, fn)

    def value(self, of: Term) -> float:
        return of.value

    def beside(self, prefix: str) -> Terms:
        return Terms(self.prefix + prefix)

    def _key(self, key: str, origin: str) -> str:
        if origin in SHARED_ORIGINS or key.startswith("node."):
            return key
        return self.prefix + key
