"""sources: one entity never mixes two revisions of one document. A datasheet re-issued with new
figures is two sources sharing a `document` with different `revision`s; a GPU row whose FP32 comes
from one and its memory bandwidth from the other describes no product that ever shipped (the
B200 figures moved between revisions), so every figure of an entity cites the same revision."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Source
from ..model.walk import cites_source
from .base import Check, Context

ONE_REVISION = Rule("sources-one-revision", "sources",
                    "同一条目的所有数字引用同一文档的同一版本：不同版本（revision）的数据手册不得混在一行里。")


def check_one_revision(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        if isinstance(entity.model, Source):
            continue
        first: dict[str, Source] = {}  # document -> the revision cited first (in file order)
        for path, value, marks in entity.nodes:
            if not isinstance(value, str) or not cites_source(marks):
                continue
            source = ctx.kb.get(value, Source)
            if source is None or source.model.document is None:
                continue
            doc = source.model.document
            earlier = first.setdefault(doc, source.model)
            if earlier.revision != source.model.revision:
                yield ONE_REVISION.report(entity, path,
                                          f"{value!r} is revision {source.model.revision!r} of document {doc!r}, but this "
                                          f"entity already cites revision {earlier.revision!r} ({earlier.id!r}): take every "
                                          "figure from one revision")


RULES = (ONE_REVISION,)
CHECKS: tuple[Check, ...] = (check_one_revision,)
