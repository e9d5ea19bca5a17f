"""refs: the vocabularies (specs/vendors/, architectures/, form-factors/, scale-up-families/,
network-families/, precisions/) hold what pages and rules need to know about a value, so the
generator names none of them. One precision is the reference the per-watt, per-byte and
per-dollar GPU ratios are taken at; a scale-up family's or an architecture's vendor is a vendor."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Precision
from .base import Check, Context

REFERENCE_PRECISION = Rule("vocab-reference-precision", "refs",
                           "精度词表中恰好一个值标 `reference: true`，GPU 的每瓦、每字节、每美元算力都按它计算。")


def check_reference_precision(ctx: Context) -> Iterator[Diagnostic]:
    precisions = ctx.kb.of_type(Precision)
    marked = [p for p in precisions if p.model.reference]
    if precisions and not marked:
        yield REFERENCE_PRECISION.report(precisions[0], ("id",),
                                         "no precision sets `reference: true`: mark the one GPU ratios compare at")
    for extra in marked[1:]:
        yield REFERENCE_PRECISION.report(extra, ("reference",),
                                         f"{marked[0].id!r} is already the reference precision: keep one")


RULES = (REFERENCE_PRECISION,)
CHECKS: tuple[Check, ...] = (check_reference_precision,)
