"""schema: a GPU's tensor throughput lists each precision once, and each entry either gives the
dense rate (with the sparse one where the vendor prints it) or says, with a source, that the GPU
has no tensor path at that precision (pages show "—"). A precision not listed is unknown."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Gpu
from .base import Check, Context

ENTRY = Rule("gpu-precision-entry", "schema",
             "每种精度要么给出稠密算力（稀疏算力可选），要么注明不支持并给出处，二者取其一。")
DUPLICATE = Rule("gpu-precision-duplicate", "schema", "一张 GPU 的张量算力里，每种精度只列一次。")


def check_precision_entries(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
        seen: set[str] = set()
        for i, entry in enumerate(gpu.model.compute.tensor):
            where = ("compute", "tensor", i)
            if entry.key in seen:
                yield DUPLICATE.report(gpu, (*where, "key"), f"precision {entry.key!r} is listed twice")
            seen.add(entry.key)
            if entry.unsupported is not None and (entry.dense, entry.sparse, entry.dense_half_accumulate) != (None,) * 3:
                yield ENTRY.report(gpu, (*where, "unsupported"),
                                   f"{entry.key!r} is marked unsupported and also given a rate: keep one")
            elif entry.unsupported is None and entry.dense is None:
                yield ENTRY.report(gpu, where,
                                   f"{entry.key!r} needs `dense` (the rate without sparsity), or `unsupported: "
                                   "{source: ...}` if the GPU has no tensor path at this precision")


RULES = (ENTRY, DUPLICATE)
CHECKS: tuple[Check, ...] = (check_precision_entries,)
