"""schema: every text holds English beside its Chinese. The model keeps `en` optional (a text is
read the same with or without it), so that a contributor can add an entity in Chinese first and
a build still goes through; but the English edition renders each text from its `en`, and the
data downloads carry both languages, so a text without it is a gap in them. Hence a warning,
reported at the text's `zh` key (where `en:` goes, beside it): the build goes on, and `--strict`
(CI, `make check`, `mkdocs build --strict`) fails until it is written. A quoted text (what a
source said) is no exception: its `en` is the source's words in English, or a rendering of them."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule, Severity
from ..knowledge import Loaded
from ..model.common import Identified, Text
from .base import Check, Context

MISSING_EN = Rule("text-missing-en", "schema",
                  "每个文本在中文（zh）之外还要写英文（en）：英文版页面和数据下载都读它。缺了给出警告（严格模式下视为错误），位置在该文本的 zh 键上。",
                  Severity.WARNING)


def check_text_english(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, _marks in entity.nodes:
            if isinstance(value, Text):
                if value.en is None:
                    yield _missing(entity, path)
            elif isinstance(value, dict):  # a mapping of texts (a selection's labels): walk stops at it
                for key, item in value.items():
                    if isinstance(item, Text) and item.en is None:
                        yield _missing(entity, path + (key,))


def _missing(entity: Loaded[Identified], path: DataPath) -> Diagnostic:
    mark = entity.file.key_mark(path + ("zh",))
    field = ".".join(str(part) for part in path) or "text"
    return MISSING_EN.at(entity.path, mark.line, mark.col,
                         f"{field} has Chinese (zh) but no English: add `en:` beside `zh:`")


RULES = (MISSING_EN,)
CHECKS: tuple[Check, ...] = (check_text_english,)
