"""schema: a text's English holds the numbers its Chinese holds. The English edition shows each
pair of pages with the same figures (issue 27); figures are `[[entity#figure]]` references, the
same in both languages, but a text also types plain numbers the Chinese gives as they are (a
year, a count of ports, a section of a paper, "2:4" sparsity). An English text that lacks one
of them, or has one the Chinese lacks, is rarely a style choice: it is a summary that dropped a
fact or a hedge, or a figure added in translation. Hence a warning, reported at the `en:` value
(what is to be rewritten), naming the numbers found only on one side.

The comparison is of sets of numbers written in digits (`2023`, `1.5`), after `[[...]]`
references are taken out (their ids may hold digits); leading zeros do not count, so the `03` of
"2024-03" is the `3` of "2024 年 3 月". So the English writes numbers as the Chinese does: digits
where it has digits ("Section 3", not "the third section"), a Chinese date "2023 年 10 月" as
"2023-10", and no digits the Chinese does not have (what the Chinese writes in characters, 三维
or 千亿, is a word in English too: "three-dimensional", "a hundred billion"). The regular
expression reads every character of both texts: about 14 ms on the real base, the price of
scanning its 850,000 characters."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule, Severity
from ..knowledge import Loaded
from ..model.common import Identified, Text
from .base import Check, Context

EN_NUMBERS = Rule("text-en-numbers", "schema",
                  "文本的英文（en）要写出中文（zh）里的每个数字，也不添中文没有的数字（数字引用不算）："
                  "中英文两版页面上的数字应当一样。不一致时给出警告（严格模式下视为错误），位置在该文本的 en 值上，"
                  "并列出只在一边出现的数字。",
                  Severity.WARNING)

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_REFERENCE = re.compile(r"\[\[[^\]]*\]\]")


def check_text_en_numbers(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb:
        for path, value, _marks in entity.nodes:
            if isinstance(value, Text):
                yield from _compare(entity, path, value)
            elif isinstance(value, dict):  # a mapping of texts (a selection's labels): walk stops at it
                for key, item in value.items():
                    if isinstance(item, Text):
                        yield from _compare(entity, path + (key,), item)


def numbers(text: str) -> list[str]:
    """The numbers typed in `text`, each once, in order of first appearance, without leading
    zeros; figure references (`[[entity#figure]]`, whose ids may hold digits) are not read."""
    bare = _REFERENCE.sub(" ", text) if "[[" in text else text
    return list(dict.fromkeys(_canonical(number) for number in _NUMBER.findall(bare)))


def _canonical(number: str) -> str:
    """`number` without the leading zeros of its integer part (`03` -> `3`, `00.5` -> `0.5`)."""
    whole, dot, fraction = number.partition(".")
    return (whole.lstrip("0") or "0") + dot + fraction


def _compare(entity: Loaded[Identified], path: DataPath, text: Text) -> Iterator[Diagnostic]:
    if text.en is None:  # text-missing-en says so
        return
    zh, en = numbers(text.zh), numbers(text.en)
    if set(zh) == set(en):
        return
    only_zh = [n for n in zh if n not in en]
    only_en = [n for n in en if n not in zh]
    sides = []
    if only_zh:
        sides.append(f"only in Chinese: {', '.join(only_zh)}")
    if only_en:
        sides.append(f"only in English: {', '.join(only_en)}")
    field = ".".join(str(part) for part in path) or "text"
    yield EN_NUMBERS.report(entity, path + ("en",),
                            f"{field} has other numbers in English than in Chinese ({'; '.join(sides)}): "
                            "render every number of zh in en, as digits, and add none")


RULES = (EN_NUMBERS,)
CHECKS: tuple[Check, ...] = (check_text_en_numbers,)
