"""refs: every id reference resolves to an entity of the kind its field asks for. The fields are
found by their `Ref` marker on the entity's walk, so a new reference field is checked without a
line here."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.walk import ref_of
from .base import Check, Context

UNKNOWN = Rule("refs-unknown", "refs", "引用的 id 必须存在，且属于该字段要求的类别。")


def check_references(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, marks in entity.nodes:
            ref = ref_of(marks)
            if ref is None or not isinstance(value, str) or path[-1:] == ("id",):
                continue
            target = ctx.kb.get(value)
            if target is None:
                yield UNKNOWN.report(entity, path,
                                     f"{path[-1] if isinstance(path[-1], str) else path[-2]} names {value!r}, "
                                     f"which is not defined (expected an id from specs/{'|'.join(ref.kinds)}/)")
            elif target.kind not in ref.kinds:
                yield UNKNOWN.report(entity, path,
                                     f"{value!r} is in specs/{target.kind}/, but this field needs one of: "
                                     f"{', '.join('specs/' + k + '/' for k in ref.kinds)}")


RULES = (UNKNOWN,)
CHECKS: tuple[Check, ...] = (check_references,)
