"""schema: no date lies after the build date. A `last_verified`, `retrieved`, `published` or
price `as_of` in the future is a typo (2062 for 2026) or a claim that a source was read before it
could have been. The build date is read at the edge (generator/edge/cli.py `build_date`: the
SOURCE_DATE_EPOCH of a reproducible build, else today's UTC date) and handed to the pure check in
its Context; with none given (a library call), dates are not judged."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule
from .base import Check, Context

FUTURE_DATE = Rule("schema-future-date", "schema", "日期（核实、检索、发布日期和价格日期）不能晚于构建日期。")


def check_future_dates(ctx: Context) -> Iterator[Diagnostic]:
    if ctx.today is None:
        return
    for entity in ctx.kb:
        stack: list[tuple[DataPath, object]] = [((), entity.file.data)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, dict):
                stack.extend((path + (key,), value) for key, value in node.items())
            elif isinstance(node, list):
                stack.extend((path + (i,), item) for i, item in enumerate(node))
            elif isinstance(node, dt.date):
                day = node.date() if isinstance(node, dt.datetime) else node
                if day > ctx.today:
                    yield FUTURE_DATE.report(entity, path, f"{path[-1] if path else 'date'} is {day.isoformat()}, "
                                                           f"after the build date {ctx.today.isoformat()}")


RULES = (FUTURE_DATE,)
CHECKS: tuple[Check, ...] = (check_future_dates,)
