"""The site search's index as UTF-8. MkDocs' search plugin writes search/search_index.json with
`json.dumps`' defaults, so every CJK character becomes a six-byte `\\uXXXX` escape, and so does
each U+200B that the plugin's jieba segmentation puts between words (the search worker splits on
it): about 60 % of the file was escapes, and every page fetches it. Written as UTF-8 (JSON's own
encoding, RFC 8259 §8.1), the same index is about 40 % smaller and parses to the same object.

Pure: text in, text out; the hook reads and writes the file (generator/edge/mkdocs_adapter.py)."""

from __future__ import annotations

import json

from .. import strict_json


def as_utf8(index: str) -> str:
    """The same JSON document, without ASCII escapes and without spaces between tokens."""
    # json.loads reads NaN and Infinity, which are not JSON: dumps refuses them by name
    return strict_json.dumps(json.loads(index), "search/search_index.json", ensure_ascii=False, separators=(",", ":"))
