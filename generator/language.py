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
_MAGNITUDE = {"亿": 10**8, "万": 10**4, "trillion": 10**12, "billion": 10**9, "million": 10**6}


def stated_numbers(text: str) -> frozenset[Decimal]:
    """The numbers a text states, by value: "4000 亿" and "400 billion" are the same number, and
    so are "1,000" and "1000". A Chinese text and its English rendering state the same ones (the
    rule text-en-numbers, and the English edition's tests compare pages by them)."""
    found = set()
    for whole, fraction, chinese, english in _STATED.findall(text):
        value = Decimal(whole.replace(",", "") + fraction) * _MAGNITUDE.get(chinese or english, 1)
        found.add(value.normalize())
    return frozenset(found)
