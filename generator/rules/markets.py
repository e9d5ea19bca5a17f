"""tree: every market says where each GPU stands, and says it once. A market without a `default`
must name every GPU in some ruling (a node without a ruling of its own takes its GPU's), so that a
GPU added to specs/gpus/ is not sold to a restricted market by silence. Within a market, ruling
keys are unique, a ruling names a part once, and two rulings of one date do not give one part two
statuses (which would be the latest is then a matter of file order)."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import Gpu
from ..model.markets import Market
from .base import Check, Context

COVERAGE = Rule("tree-market-coverage", "tree",
                "没有默认状态（default）的市场必须为每个 GPU 写明状态：新增的 GPU 不能因为没写而被当成可以买。")
RULINGS = Rule("tree-market-ruling", "tree",
               "同一市场里规则的 key 不重复，一条规则不重复列同一部件，同一天的两条规则不给同一部件两种状态。")


def check_coverage(ctx: Context) -> Iterator[Diagnostic]:
    gpus = [g.id for g in ctx.kb.of_type(Gpu)]
    for entry in ctx.kb.of_type(Market):
        if entry.model.default is not None:
            continue
        named = {item for r in entry.model.rulings for item in r.items}
        missing = [g for g in gpus if g not in named]
        if missing:
            yield COVERAGE.report(entry, ("rulings",),
                                  f"market {entry.id!r} has no default and no ruling names {', '.join(missing)}: "
                                  "add a ruling (status, since, source) for each, or a default for the market")


def check_rulings(ctx: Context) -> Iterator[Diagnostic]:
    for entry in ctx.kb.of_type(Market):
        keys: set[str] = set()
        dated: dict[tuple[str, object], str] = {}
        for i, r in enumerate(entry.model.rulings):
            if r.key in keys:
                yield RULINGS.report(entry, ("rulings", i, "key"), f"ruling key {r.key!r} is used twice in the market")
            keys.add(r.key)
            seen: set[str] = set()
            for j, item in enumerate(r.items):
                if item in seen:
                    yield RULINGS.report(entry, ("rulings", i, "items", j), f"ruling {r.key!r} names {item!r} twice")
                seen.add(item)
                status = dated.setdefault((item, r.since), r.status)
                if status != r.status:
                    yield RULINGS.report(entry, ("rulings", i, "items", j),
                                         f"{item!r} is {status!r} and {r.status!r} on {r.since.isoformat()}: "
                                         "give the later status a later date, or drop one")


RULES = (COVERAGE, RULINGS)
CHECKS: tuple[Check, ...] = (check_coverage, check_rulings)
