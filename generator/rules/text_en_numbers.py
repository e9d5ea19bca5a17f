"""schema: a text's English holds the numbers its Chinese holds. The English edition shows each
pair of pages with the same figures (issue 27); figures are `[[entity#figure]]` references, the
same in both languages, but a text also types plain numbers the Chinese gives as they are (a
year, a count of ports, a section of a paper, "2:4" sparsity). An English text that lacks one
of them, or has one the Chinese lacks, is rarely a style choice: it is a summary that dropped a
fact or a hedge, or a figure added in translation. Hence a warning, reported at the `en:` value
(what is to be rewritten), naming the numbers found only on one side.

The comparison is of the sets of numbers the two texts state, by value
(generator.language.stated_numbers, which the English edition's page tests use too), after
`[[...]]` references are taken out (their ids may hold digits): "4000 亿", "四千亿" and "400
billion" are one number, "1,000" is 1000, and "03" is 3, so the `03` of "2024-03" is the `3` of
"2024 年 3 月". So the English writes numbers as the Chinese does: digits where it has digits
("Section 3", not "the third section"), a Chinese date "2023 年 10 月" as "2023-10", a count of
万 or 亿 in digits ("100 billion" for 千亿, "16,000" for 一万六千), and no digits the Chinese
does not have (what the Chinese writes as a small number in characters, 三维 or 第一层, is a word
in English too: "three-dimensional", "layer one"). The regular expressions read every
character of both texts: about 60 ms on the real base, the price of scanning its 850,000
characters (measured with the rules one by one)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from ..diagnostics import DataPath, Diagnostic, Rule, Severity
from ..knowledge import Loaded
from ..language import stated_numbers
from ..model.common import Identified, Text
from .base import Check, Context

EN_NUMBERS = Rule("text-en-numbers", "schema",
                  "文本的英文（en）要写出中文（zh）里的每个数字，也不添中文没有的数字（数字引用不算）："
                  "中英文两版页面上的数字应当一样。不一致时给出警告（严格模式下视为错误），位置在该文本的 en 值上，"
                  "并列出只在一边出现的数字。",
                  Severity.WARNING)

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


def numbers(text: str) -> frozenset[Decimal]:
    """The numbers `text` states, by value; figure references (`[[entity#figure]]`, whose ids may
    hold digits) are not read."""
    return stated_numbers(_REFERENCE.sub(" ", text) if "[[" in text else text)


def _shown(values: frozenset[Decimal]) -> str:
    return ", ".join(format(v, "f") for v in sorted(values))


def _compare(entity: Loaded[Identified], path: DataPath, text: Text) -> Iterator[Diagnostic]:
    if text.en is None:  # text-missing-en says so
        return
    zh, en = numbers(text.zh), numbers(text.en)
    if zh == en:
        return
    sides = []
    if zh - en:
        sides.append(f"only in Chinese: {_shown(zh - en)}")
    if en - zh:
        sides.append(f"only in English: {_shown(en - zh)}")
    field = ".".join(str(part) for part in path) or "text"
    yield EN_NUMBERS.report(entity, path + ("en",),
                            f"{field} has other numbers in English than in Chinese ({'; '.join(sides)}): "
                            "render every number of zh in en, as digits, and add none")


RULES = (EN_NUMBERS,)
CHECKS: tuple[Check, ...] = (check_text_en_numbers,)
