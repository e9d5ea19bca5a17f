"""claims: a verdict says what it was checked against. `basis` is worked out from the sources
behind the claim's operands (or, for an assessed claim, its evidence): `independent` when every
operand rests on a document other than an article or an estimate; `self_consistent` when some
operand rests only on the article itself (its own table, its own benchmark), so agreement only
shows that the article agrees with itself; `unverifiable` when nothing was checked."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import AssessedCheck, Claim, Source, UnverifiableCheck
from ..provenance import entity_sources, independent
from .base import Check, Context
from .claims import operands

BASIS = Rule("claims-basis", "claims",
             "论断的核对依据（independent 独立数据 / self_consistent 仅与文章自身一致 / unverifiable 无法核对）"
             "必须等于按操作数来源类别推出的依据。")


def claim_basis(ctx: Context, claim: Claim) -> tuple[str, list[str]] | None:
    """(basis, the ids of the sources it rests on), or None when an operand is unknown (the
    claims rule reports it)."""
    check = claim.check
    if isinstance(check, UnverifiableCheck):
        return "unverifiable", []
    if isinstance(check, AssessedCheck):
        found = [s for s in (ctx.kb.get(i, Source) for i in check.evidence) if s is not None]
        if len(found) != len(check.evidence):
            return None
        ok = any(independent(s.model) for s in found)
        return ("independent" if ok else "self_consistent"), [s.id for s in found]
    cited: list[Source] = []
    for ref in operands(claim):
        figure = ctx.figures.get(ref)
        if figure is None:
            return None
        if figure.source is not None:
            source = ctx.kb.get(figure.source, Source)
            if source is None:
                return None
            cited.append(source.model)
        else:  # a derived figure rests on what its entity's stated figures cite
            cited.extend(entity_sources(ctx.kb, figure.entity))
    ids = list(dict.fromkeys(s.id for s in cited))
    if not cited:
        return None
    return ("independent" if all(independent(s) for s in cited) else "self_consistent"), ids


def check_claim_basis(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Claim):
        found = claim_basis(ctx, entity.model)
        if found is None or found[0] == entity.model.basis:
            continue
        basis, ids = found
        rests = f" (it rests on: {', '.join(ids)})" if ids else ""
        yield BASIS.report(entity, ("basis",), f"basis is {entity.model.basis!r} but the sources give {basis!r}{rests}")


RULES = (BASIS,)
CHECKS: tuple[Check, ...] = (check_claim_basis,)
