"""arithmetic: no derivation divides by zero. A figure that divides in a formula (a single-GPU
throughput under the speed-up, the GPU count under the efficiency, the power under TFLOPS per
watt, the BF16 rate under bytes per FLOP, the PCIe rate under the NVLink ratio) and is zero
leaves the derived figure out (generator.derive records it), and the rules that judge that figure
would then have nothing to judge: this rule reports the zero where it is written instead."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from .base import Check, Context

ZERO_DIVISOR = Rule("arithmetic-zero-divisor", "arithmetic",
                    "推导公式里作除数的数字（单卡吞吐、GPU 数、功耗、BF16 算力、PCIe 带宽）不能为零，否则依赖它的核对会被跳过。")


def check_zero_divisors(ctx: Context) -> Iterator[Diagnostic]:
    # One report per zero figure, naming every figure it keeps from being derived.
    blocked: dict[tuple[str, str], list[str]] = {}
    for zero in ctx.figures.zero_divisors:
        blocked.setdefault((zero.divisor.entity, zero.divisor.name), []).append(
            f"{zero.entity}#{zero.name} ({zero.formula})")
    for (entity_id, name), figures in blocked.items():
        entity = ctx.kb.get(entity_id)
        divisor = ctx.figures.stated.get(entity_id, {}).get(name)
        if entity is None or divisor is None or divisor.path is None:
            continue  # only stated figures divide; a derived divisor's own inputs are judged
        suffix = ("value",) if divisor.dimension != "count" else ()
        yield ZERO_DIVISOR.report(entity, divisor.path + suffix,
                                  f"{name} is 0, and it divides in {'; '.join(figures)}: "
                                  "a zero makes those figures undefined and their checks impossible")


RULES = (ZERO_DIVISOR,)
CHECKS: tuple[Check, ...] = (check_zero_divisors,)
