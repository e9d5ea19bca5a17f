"""sources: a source says truthfully what it is and how it was reached. Its kind must be one its
publisher can issue (a kernel patch is the project's, not a vendor datasheet; a roadmap post is
press text, not documentation), and it is read either at its own address (`retrieved`) or
through a secondary copy (`via`), never both: a figure shows which."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Source, publisher_name
from ..provenance import KIND_PUBLISHERS
from .base import Check, Context

KIND_PUBLISHER = Rule("sources-kind-publisher", "sources",
                      "来源类别必须与出版方身份相符：数据手册只能出自厂商，标准只能出自标准组织，内核补丁不是数据手册。")
READ_AND_COPY = Rule("sources-read-and-copy", "sources",
                     "来源要么在原地址读到（retrieved），要么经第三方副本读到（via），二者只能有其一。")


def check_source_provenance(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Source):
        m = entity.model
        allowed = KIND_PUBLISHERS[m.kind]
        if m.publisher_role not in allowed:
            yield KIND_PUBLISHER.report(entity, ("kind",),
                                        f"a {m.kind!r} is not issued by a {m.publisher_role!r} publisher "
                                        f"({publisher_name(m.publisher)!r}); a {m.kind!r} comes from: {', '.join(sorted(allowed))}")
        if m.retrieved is not None and m.via is not None:
            yield READ_AND_COPY.report(entity, ("via",),
                                       "both `retrieved` (the document itself was read) and `via` (only a copy was "
                                       "read): keep the one that is true")


RULES = (KIND_PUBLISHER, READ_AND_COPY)
CHECKS: tuple[Check, ...] = (check_source_provenance,)
