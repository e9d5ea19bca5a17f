"""refs: a text names entities by their names, never by their ids. An id is how YAML refers to an
entity (`network: roce-100g`); in prose a reader would see `roce-100g` where a name belongs, and the
id would not follow a rename. A figure is cited as `[[entity#figure]]`, which the build shows with
its unit and source; an entity is named by its name. Ids of one word (`torus`, `bf16`) are
ordinary words a text may use, so only ids of two parts or more are looked for, as whole tokens
outside figure references."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..figure_refs import find_references
from ..model.common import Text
from .base import Check, Context

SPEC_ID = Rule("text-spec-id", "refs",
               "正文里不能用 id 称呼另一个实体（id 由两段以上组成、用连字符相连的那种）：读者看到的应当是它的名称，id 也不会随改名而变。")

_TOKEN = re.compile(r"(?<![\w./#\[-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w/#\]-])")
_REFERENCE = re.compile(r"\[\[[^\]]*\]\]")


def check_text_ids(ctx: Context) -> Iterator[Diagnostic]:
    ids = {entity.id for entity in ctx.kb if "-" in entity.id}
    for entity in ctx.kb:
        for path, value, _marks in entity.nodes:
            if not isinstance(value, Text):
                continue
            for lang, text in (("zh", value.zh), ("en", value.en)):
                if not text or "-" not in text:
                    continue
                bare = _REFERENCE.sub(" ", text) if find_references(text) else text
                named = next((t for t in _TOKEN.findall(bare) if t in ids), None)
                if named is not None:
                    label = ctx.kb.label_of(named)
                    yield SPEC_ID.report(entity, path + (lang,),
                                         f"the text names {named!r} by its id: write its name ({label!r}) instead")


RULES = (SPEC_ID,)
CHECKS: tuple[Check, ...] = (check_text_ids,)
