"""schema: every text holds English beside its Chinese. The model keeps `en` optional (a text is
read the same with or without it), so that a contributor can add an entity in Chinese first and
a build still goes through; but the English edition renders each text from its `en`, and the
data downloads carry both languages, so a text without it is a gap in them. Hence a warning,
reported at the text's `zh` key (where `en:` goes, beside it): the build goes on, and `--strict`
(CI, `make check`, `mkdocs build --strict`) fails until it is written. A quoted text (what a
source said) is no exception: its `en` is the source's words in English, or a rendering of them."""

from __future__ import annotations

from collections.abc import Iterator

from ..charsets import chinese
from ..diagnostics import DataPath, Diagnostic, Rule, Severity
from ..knowledge import Loaded
from ..model.common import Identified, Text
from ..model.entities import Source
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


PLAIN_CHINESE = Rule("text-plain-chinese", "schema",
                     "只能写一种文字的字段（名称、出版方之外的标签、版本等）不写中文：英文版页面原样显示它。型号名写中性的写法；允许写成 {zh, en} 的字段（如出版方）两种语言都写。文档自己的标题和原话引用（quote、said）不在此列。",
                     Severity.WARNING)
# What may be Chinese as it stands: a source's words (a run's quote, an article's range as it
# wrote it), and a document's own title (a Chinese article is cited by its Chinese title).
_AS_WRITTEN = ("quote", "said")


def check_plain_chinese(ctx: Context) -> Iterator[Diagnostic]:
    # On the file's data, as written: the model's walk leaves plain strings out (no other rule
    # reads them), and here it is the plain strings that matter.
    for entity in ctx.kb:
        source = isinstance(entity.model, Source)
        stack: list[tuple[DataPath, object]] = [((), entity.file.data)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, dict):
                if path and set(node) <= {"zh", "en"} and "zh" in node:
                    continue  # a text in both languages
                stack.extend((path + (key,), value) for key, value in node.items() if isinstance(key, str))
            elif isinstance(node, list):
                stack.extend((path + (index,), item) for index, item in enumerate(node))
            elif isinstance(node, str) and chinese(node) and path:
                if path[-1] in _AS_WRITTEN or (source and path == ("title",)):
                    continue
                mark = entity.file.value_mark(path)
                field = ".".join(str(part) for part in path)
                yield PLAIN_CHINESE.at(entity.path, mark.line, mark.col,
                                       f"{field} holds Chinese in a field of one language: the English pages show "
                                       f"it as it is; write it in a neutral form, or as {{zh: ..., en: ...}} where "
                                       f"the field takes a text")


RULES = (MISSING_EN, PLAIN_CHINESE)
CHECKS: tuple[Check, ...] = (check_text_english, check_plain_chinese)
