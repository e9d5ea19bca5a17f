"""The language a render writes in, and the small tools that pick a text by it.

The site is written in Chinese and English from the same knowledge base (issue 27). Which of the
two a page is written in is a property of the whole render, like a locale, not of any one
function: `speaking("en")` sets it for the duration of a `with` block (a context variable, so it
is undone on exit, even on an exception, and never leaks into another render), and everything
below reads it through `current()`. Threading a language argument through every renderer and
formatter would add a parameter to a hundred call sites that only pass it on.

The lowest layer: imports nothing of the generator.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from typing import Generic, TypeVar

LANGUAGES = ("zh", "en")  # the site's languages; the first is the default and the site's root
DEFAULT = LANGUAGES[0]

_current: ContextVar[str] = ContextVar("language", default=DEFAULT)

T = TypeVar("T")


def current() -> str:
    """The language being written: "zh" or "en"."""
    return _current.get()


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Write in `language` inside the block."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def say(zh: str, en: str) -> str:
    """A phrase of the generator's own, in the language being written."""
    return en if _current.get() == "en" else zh


class Bilingual(Mapping[str, T], Generic[T]):
    """A table of labels in both languages, read as one: `DIRECTION["per_direction"]` is "单向"
    while writing Chinese and "per direction" while writing English. Both tables must have the
    same keys (checked here, once, when the module that holds the table is imported)."""

    def __init__(self, zh: Mapping[str, T], en: Mapping[str, T]) -> None:
        if set(zh) != set(en):
            missing = sorted(set(zh) ^ set(en))
            raise ValueError(f"a bilingual table's languages differ in keys: {', '.join(missing)}")
        self.zh = dict(zh)
        self.en = dict(en)

    def _table(self) -> dict[str, T]:
        return self.en if _current.get() == "en" else self.zh

    def __getitem__(self, key: str) -> T:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.zh)

    def __len__(self) -> int:
        return len(self.zh)


# A number as prose writes it, with its magnitude word: "1,000", "4000 亿", "400 billion", "3.5".
# "400-billion-parameter" too (in Markdown, "400\\-billion").
_STATED = re.compile(r"(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(亿|万)|[\s\\-]*(trillion|billion|million)\b)?")
_MAGNITUDE = {"亿": 10**8, "万": 10**4, "trillion": 10**12, "billion": 10**9, "million": 10**6, "thousand": 10**3}


# A count in Chinese numerals that reaches 万 or 亿: "千亿" (10¹¹), "二百亿" (2 × 10¹⁰), "一万六千"
# (16,000). Smaller ones are words in either language (三维, 第一层, 三十).
_CHINESE_COUNT = re.compile(r"[零一二两三四五六七八九十百千万亿]*[万亿][零一二两三四五六七八九十百千]*")
_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNIT = {"十": 10, "百": 100, "千": 1000}


def _chinese_count(numeral: str) -> int:
    """A Chinese numeral: "二百" 200, "千亿" 10¹¹, "一万六千" 16,000, "一亿五千万" 150,000,000."""
    above, below, section, digit = 0, 0, 0, 0  # 亿s so far, 万s since the last 亿, the rest
    for char in numeral:
        if char in _DIGIT:
            digit = _DIGIT[char]
        elif char in _UNIT:
            section += (digit or 1) * _UNIT[char]
            digit = 0
        elif char == "万":
            below += ((section + digit) or 1) * 10**4
            section = digit = 0
        else:  # 亿
            above = (above + ((below + section + digit) or 1)) * 10**8
            below = section = digit = 0
    return above + below + section + digit


# A count in English words that reaches a million, or a thousand with a count before it: "a
# hundred billion", "per trillion tokens", "sixteen thousand", "ten-thousand-GPU". A bare
# "thousand(s)" is a word, as 千 is in Chinese.
_ONES = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
         "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_MAGNITUDE_WORDS = ("thousand", "million", "billion", "trillion")
_ENGLISH_COUNT = re.compile(r"(?<![\d.,])\b((?:(?:" + "|".join(_ONES) + r"|hundred)[\s-]+)*)"
                            r"(thousand|million|billion|trillion)s?\b", re.IGNORECASE)


def _english_count(words: str, magnitude: str) -> int | None:
    count = 0
    for word in re.split(r"[\s-]+", words.lower().strip()):
        if word == "hundred":
            count = (count or 1) * 100
        elif word:
            count += _ONES[word]
    value = (count or 1) * _MAGNITUDE[magnitude.lower()]
    return value if value >= 10**4 else None  # "a thousand", "two thousand": words, as 千 and 两千 are


_RANGE = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(?:to|到|至|–|~)\s*(\d+(?:\.\d+)?)\s*(亿|万|trillion|billion|million)")


def stated_numbers(text: str) -> frozenset[Decimal]:
    """The numbers a text states, by value: "4000 亿", "四千亿", "400 billion" and "four hundred
    billion" are the same number, and so are "1,000" and "1000". A Chinese text and its English
    rendering state the same ones (the rule text-en-numbers, and the English edition's tests
    compare pages by them). Numbers in characters or words count from 万 (ten thousand) up;
    smaller ones are words in both languages (一个, 两张卡, "three-dimensional")."""
    lowered = text.lower()
    if "万" in text or "亿" in text or any(word in lowered for word in _MAGNITUDE_WORDS):
        return _with_magnitudes(text)
    # No magnitude anywhere (most texts): no range shares one, no numeral reaches one, and no
    # count in characters or words can be read, so the numerals are all there is. The same set
    # as _with_magnitudes gives, which the tests hold it to, in two thirds of the time.
    return frozenset(Decimal(m[1].replace(",", "") + (m[2] or "")).normalize() for m in _STATED.finditer(text))


def _with_magnitudes(text: str) -> frozenset[Decimal]:
    """`stated_numbers` of any text: ranges, numerals with their magnitude, and counts in
    characters or words."""
    found: set[Decimal] = set()
    # A range shares its magnitude: "20 to 100 billion", "20–100 亿".
    text = _RANGE.sub(lambda m: f"{m[1]} {m[3]} {m[2]} {m[3]}", text)

    def read(match: re.Match[str]) -> str:
        whole, fraction, chinese, english = match.groups()
        value = Decimal(whole.replace(",", "") + (fraction or "")) * _MAGNITUDE.get(chinese or english, 1)
        found.add(value.normalize())
        return " "

    rest = _STATED.sub(read, text)  # what is left of "2.15 亿" and "400 billion" once read: a space
    # A count in characters or words needs its magnitude: a text without one is not scanned for
    # counts, which at every word would try the English number words (half the time of the rule).
    if "万" in rest or "亿" in rest:
        for numeral in _CHINESE_COUNT.findall(rest):
            found.add(Decimal(_chinese_count(numeral)).normalize())
    lowered = rest.lower()
    if not any(word in lowered for word in _MAGNITUDE_WORDS):
        return frozenset(found)
    for words, magnitude in _ENGLISH_COUNT.findall(rest):
        count = _english_count(words, magnitude)
        if count is not None:
            found.add(Decimal(count).normalize())
    return frozenset(found)
