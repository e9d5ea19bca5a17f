"""The chain of figures: how each output was computed, for a page or the CLI to show.

Every formula of the model is a small float function registered with `@formula`, which records
its text, the symbol each positional parameter stands for, and where the formula comes from. A
`Term` is one value in the chain: an input (a workload, cluster, layout or assumption value)
or a value derived by one registered formula from other figures, each bound to one of the
formula's symbols. `derive` computes a derived figure's value by calling the formula on its
inputs' values, so a chain shows exactly the figures its value was computed from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

_F = TypeVar("_F", bound=Callable[..., float])


@dataclass(frozen=True)
class Formula:
    """A formula's text over its own `symbols` (one per positional parameter) and its source."""

    text: str
    symbols: tuple[str, ...]
    cite: str


FORMULAS: dict[Callable[..., float], Formula] = {}


def formula(text: str, symbols: str, cite: str = "") -> Callable[[_F], _F]:
    """Register a float function as a formula; `symbols` names its parameters, space-separated."""

    def register(fn: _F) -> _F:
        names = tuple(symbols.split())
        if len(names) != fn.__code__.co_argcount:
            raise ValueError(f"{fn.__qualname__}: {len(names)} symbols for {fn.__code__.co_argcount} parameters")
        FORMULAS[fn] = Formula(text, names, cite)
        return fn

    return register


@dataclass(frozen=True)
class Term:
    """One value of a chain. `origin` is `workload`, `cluster`, `layout`, `assumption` or
    `derived`; a derived figure carries its formula and binds each symbol to an input figure."""

    key: str
    unit: str
    value: float
    origin: str
    formula: Formula | None = None
    inputs: tuple[tuple[str, Term], ...] = ()


def given(key: str, unit: str, value: float, origin: str) -> Term:
    """A leaf of the chain: a value read from the inputs."""
    return Term(key, unit, float(value), origin)


def derive(key: str, unit: str, fn: Callable[..., float], *inputs: Term) -> Term:
    """A derived figure: `fn` (a registered formula) applied to the inputs' values."""
    spec = FORMULAS[fn]
    value = fn(*(figure.value for figure in inputs))
    return Term(key, unit, value, "derived", spec, tuple(zip(spec.symbols, inputs, strict=True)))


def walk(root: Term) -> Iterator[Term]:
    """Every figure of a chain once (by key), inputs before the figures derived from them."""
    seen: set[str] = set()

    def visit(figure: Term) -> Iterator[Term]:
        if figure.key in seen:
            return
        seen.add(figure.key)
        for _symbol, child in figure.inputs:
            yield from visit(child)
        yield figure

    yield from visit(root)


def explain_lines(root: Term) -> list[str]:
    """A plain-text rendering, one line per figure: `key = formula [symbol = key, ...] = value unit`
    (no brackets for a formula of no inputs, such as a count of passes)."""
    lines = []
    for figure in walk(root):
        value = f"{figure.value:.6g}" + ("" if figure.unit == "1" else f" {figure.unit}")
        if figure.formula is None:
            lines.append(f"{figure.key} = {value} ({figure.origin})")
            continue
        bound = ", ".join(f"{symbol} = {child.key}" for symbol, child in figure.inputs)
        lines.append(f"{figure.key} = {figure.formula.text}{f' [{bound}]' if bound else ''} = {value}")
    return lines
