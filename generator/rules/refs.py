"""refs: every id reference resolves to an entity of the right kind; every source is cited."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..model.entities import Source
from ..model.walk import ref_of
from .base import Context, report


def check_references(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            ref = ref_of(marks)
            if ref is None or not isinstance(value, str) or path[-1:] == ("id",):
                continue
            target = ctx.kb.get(value)
            if target is None:
                yield report(entity, path, "refs-unknown",
                             f"{path[-1] if isinstance(path[-1], str) else path[-2]} names {value!r}, "
                             f"which is not defined (expected an id from specs/{'|'.join(ref.kinds)}/)")
            elif target.kind not in ref.kinds:
                yield report(entity, path, "refs-unknown",
                             f"{value!r} is in specs/{target.kind}/, but this field needs one of: "
                             f"{', '.join('specs/' + k + '/' for k in ref.kinds)}")


def check_unused_sources(ctx: Context) -> Iterator[Diagnostic]:
    cited = ctx.kb.citations()
    for source in ctx.kb.of_type(Source):
        if source.id not in cited:
            yield report(source, ("id",), "refs-unused-source",
                         f"source {source.id!r} is cited by no figure or entity: cite it or remove the file")
