"""refs: ids are unique across the whole knowledge base, not only within a folder, since
references (`gpu: a100-sxm4-80gb`, `entity#figure`) name an entity by id alone.

This runs while the knowledge base is assembled (generator/validate.py), before there is one to
hand a `Context`: of two files with one id, the first by path is kept and the other reported.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.common import Identified
from .base import Check

DUPLICATE_ID = Rule("refs-duplicate-id", "refs", "整个知识库里 id 唯一。")


def unique_entities(entities: Iterable[Loaded[Identified]]) -> tuple[dict[str, Loaded[Identified]], list[Diagnostic]]:
    """Each id's first entity, and a diagnostic at the id of every later one that repeats it."""
    first: dict[str, Loaded[Identified]] = {}
    problems: list[Diagnostic] = []
    for entity in entities:
        earlier = first.get(entity.id)
        if earlier is not None:
            problems.append(DUPLICATE_ID.report(entity, ("id",), f"id {entity.id!r} is already defined in {earlier.path}"))
        else:
            first[entity.id] = entity
    return first, problems


RULES = (DUPLICATE_ID,)
CHECKS: tuple[Check, ...] = ()  # run by validate() on the entities before they form a knowledge base
