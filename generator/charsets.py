"""Character classes that more than one stage needs: the invisible characters (bidi controls,
zero-width and other blank-looking code points) that rules/text_hygiene.py refuses in specs and
that the typed-figure detector (generator/figure_text.py) reads through, so that `4\u200b00 Gb/s`
is still a typed figure on a hand-written page; and Chinese, which the English pages mark
(render/) and fields of one language must not hold (rules/text_english.py)."""

from __future__ import annotations

import re

INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]")

# Chinese characters and punctuation (CJK symbols, ideographs, compatibility ideographs, full-width
# forms).
CHINESE = re.compile("[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def chinese(text: object) -> bool:
    """Whether a text holds Chinese: a name or title the specs give in Chinese only (a source's
    title, a product name written in Chinese), which an English page shows as it is, marked as
    Chinese (`lang="zh"`) for the reader's browser, its screen reader and its fonts."""
    return bool(CHINESE.search(str(text)))
