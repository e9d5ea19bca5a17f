"""claims: what restates an article's claim says which one, and never states as fact what the
claims page rejects. An article's pitfall restates at least one claim; a pitfall that `asserts`
a claim needs a verdict of confirmed or approximate (a corrected or unsupported one may only be
`qualified`: reported as the article's word, with the verdict in the text). A pitfall, a
recommendation or a tier table restates claims of its own article."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import DataPath, Diagnostic, Rule
from ..knowledge import Loaded
from ..model.common import Identified
from ..model.entities import Claim, Pitfall, Recommendation, TierTable
from .base import Check, Context

ASSERTS_REJECTED = Rule("pitfalls-assert-rejected", "claims",
                        "避坑条目不得把结论为“已更正”或“无法核实”的文章论断当作事实陈述（stance: asserts）。")
ARTICLE_CLAIM = Rule("pitfalls-article-claim", "claims", "来自文章的避坑条目必须在 restates 中注明它复述的文章论断。")
RESTATED_SOURCE = Rule("claims-restated-source", "claims", "避坑条目、推荐和分档表复述的论断必须出自同一篇文章。")

_REJECTED = ("corrected", "unsupported")


def check_pitfall_claims(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Pitfall):
        m = entity.model
        if m.origin == "article" and not m.restates:
            yield ARTICLE_CLAIM.report(entity, ("origin",),
                                       "a pitfall from an article restates its claim(s): list them under `restates`")
        for i, item in enumerate(m.restates):
            claim = ctx.kb.get(item.claim, Claim)
            if claim is None:
                continue  # reported by the refs rules
            if item.stance == "asserts" and claim.model.verdict in _REJECTED:
                yield ASSERTS_REJECTED.report(entity, ("restates", i, "stance"),
                                              f"states {item.claim!r} as fact but its verdict is {claim.model.verdict!r}: "
                                              "rewrite the text to report it as the article's claim with the verdict, "
                                              "and mark it `stance: qualifies`")
            if m.origin == "article":
                yield from _same_article(ctx, entity, m.source, item.claim, ("restates", i, "claim"))


def check_restated_sources(ctx: Context) -> Iterator[Diagnostic]:
    for rec in ctx.kb.of_type(Recommendation):
        for i, item in enumerate(rec.model.items):
            yield from _same_article(ctx, rec, rec.model.source, item.claim, ("items", i, "claim"))
    for table in ctx.kb.of_type(TierTable):
        yield from _same_article(ctx, table, table.model.source, table.model.claim, ("claim",))


def _same_article(ctx: Context, entity: Loaded[Identified], source: str, claim_id: str,
                  path: DataPath) -> Iterator[Diagnostic]:
    claim = ctx.kb.get(claim_id, Claim)
    if claim is not None and claim.model.source != source:
        yield RESTATED_SOURCE.report(entity, path, f"{claim_id!r} is a claim of {claim.model.source!r}, "
                                                   f"but this restates {source!r}: reference a claim of that article")


RULES = (ASSERTS_REJECTED, ARTICLE_CLAIM, RESTATED_SOURCE)
CHECKS: tuple[Check, ...] = (check_pitfall_claims, check_restated_sources)
