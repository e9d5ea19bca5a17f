"""tree: the selection tree is a tree (every node reached once from the root, no cycle), each
question's answers cover its variable's domain exactly, and every leaf agrees with the tier
tables and with the hardware it names (NVLink where it relies on it, or the pitfall that says
it does not have it)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from ..diagnostics import Diagnostic
from ..knowledge import Loaded
from ..model.common import Range
from ..model.entities import Gpu, Nvlink, Nvswitch, Pcie, Pitfall, TierTable
from ..model.selection import Leaf, Question, Selection
from ..tree import leaf_paths, range_on_path, variables
from .base import Context, report
from .tables import judging_tables

_SINGLE_NODE = 8  # a leaf without a network or topology must stay within one 8-GPU server


def check_tree_structure(ctx: Context) -> Iterator[Diagnostic]:
    trees = sorted(ctx.kb.of_type(Selection), key=lambda e: e.path)
    for extra in trees[1:]:
        # The flowchart page and `recommend` must show the same tree: with two, the page
        # would draw both and the command answer from one.
        yield report(extra, ("id",), "tree-single",
                     f"specs/selection/ holds one decision tree, and {trees[0].path} is it: "
                     "the flowchart and `recommend` both follow that one. Add these questions to it")
    for entity in trees:
        yield from _structure(entity, entity.model)


def _structure(entity: Loaded[Selection], sel: Selection) -> Iterator[Diagnostic]:
    ids: dict[str, tuple[str, int]] = {}
    groups: tuple[tuple[str, Sequence[Question | Leaf]], ...] = (("questions", sel.questions), ("leaves", sel.leaves))
    for group, nodes in groups:
        for index, node in enumerate(nodes):
            if node.id in ids:
                yield report(entity, (group, index, "id"), "tree-duplicate-node",
                             f"node id {node.id!r} is used twice in this tree")
            ids.setdefault(node.id, (group, index))
    if ids.get(sel.root, ("", 0))[0] != "questions":
        yield report(entity, ("root",), "tree-unknown-node", f"root {sel.root!r} is not a question of this tree")
        return
    parents: dict[str, str] = {}
    for qi, question in enumerate(sel.questions):
        for ai, answer in enumerate(question.answers):
            where = ("questions", qi, "answers", ai, "next")
            if answer.next not in ids:
                yield report(entity, where, "tree-unknown-node", f"answer leads to {answer.next!r}, which is not a node")
            elif answer.next in parents or answer.next == sel.root:
                yield report(entity, where, "tree-shared-node",
                             f"{answer.next!r} is also reached from {parents.get(answer.next, 'the root')!r}: "
                             "in a tree every node has one parent (copy the leaf under a new id)")
            else:
                parents[answer.next] = question.id
    yield from _cycles_and_reach(entity, sel, ids)


def _cycles_and_reach(entity: Loaded[Selection], sel: Selection, ids: dict[str, tuple[str, int]]) -> Iterator[Diagnostic]:
    questions = {q.id: q for q in sel.questions}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[tuple[str, int]] = [(sel.root, 0)]
    while stack:
        node_id, child = stack.pop()
        question = questions.get(node_id)
        if child == 0:
            state[node_id] = 1
        if question is None or child >= len(question.answers):
            state[node_id] = 2
            continue
        stack.append((node_id, child + 1))
        target = question.answers[child].next
        if state.get(target) == 1:
            qi = sel.questions.index(question)
            yield report(entity, ("questions", qi, "answers", child, "next"), "tree-cycle",
                         f"answer leads back to {target!r}: the tree has a cycle")
        elif target in ids and target not in state:
            stack.append((target, 0))
    for node_id, (group, index) in sorted(ids.items(), key=lambda item: item[1]):
        if node_id not in state:
            yield report(entity, (group, index, "id"), "tree-unreachable",
                         f"{node_id!r} cannot be reached from the root {sel.root!r}")


def check_tree_answers(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        known = variables(sel)
        for qi, question in enumerate(sel.questions):
            variable = known.get(question.variable)
            if variable is None:
                yield report(entity, ("questions", qi, "variable"), "tree-variable",
                             f"{question.variable!r} is not one of this tree's variables: {', '.join(known)}")
                continue
            yield from _coverage(entity, qi, question, variable.kind, variable.min or 0, list(variable.values))


def _coverage(entity: Loaded[Selection], qi: int, question: Question, kind: str, low: int, values: list[str]) -> Iterator[Diagnostic]:
    base = ("questions", qi, "answers")
    if kind == "category":
        seen: set[str] = set()
        for ai, answer in enumerate(question.answers):
            if answer.value is None or answer.range is not None or answer.value not in values:
                yield report(entity, (*base, ai), "tree-variable",
                             f"answers of {question.variable!r} name one of its values: {', '.join(values)}")
            elif answer.value in seen:
                yield report(entity, (*base, ai, "value"), "tree-coverage-overlap", f"{answer.value!r} is answered twice")
            seen.add(answer.value or "")
        missing = [v for v in values if v not in seen]
        if missing:
            yield report(entity, ("questions", qi, "id"), "tree-coverage-gap",
                         f"no answer for {', '.join(repr(v) for v in missing)}")
        return
    ranges = []
    for ai, answer in enumerate(question.answers):
        if answer.range is None or answer.value is not None:
            yield report(entity, (*base, ai), "tree-variable", f"answers of {question.variable!r} give a `range`")
        else:
            ranges.append((answer.range.min, ai, answer.range))
    expected: int | None = low
    for _start, ai, r in sorted(ranges, key=lambda item: item[0]):
        where = (*base, ai, "range")
        if expected is None or r.min < expected:
            yield report(entity, where, "tree-coverage-overlap",
                         f"range {r.label()} overlaps another answer of {question.id!r}")
        elif r.min > expected:
            yield report(entity, where, "tree-coverage-gap",
                         f"no answer of {question.id!r} covers {expected}–{r.min - 1}")
        expected = r.max if expected is None or r.max is None else max(expected, r.max)
    if expected is not None and ranges:
        yield report(entity, (*base, ranges[-1][1], "range"), "tree-coverage-gap",
                     f"no answer of {question.id!r} covers {expected} and above")


def check_tree_leaves(ctx: Context) -> Iterator[Diagnostic]:
    tables = judging_tables(ctx.kb)  # the same tables as judge the recommendations
    for entity in ctx.kb.of_type(Selection):
        sel = entity.model
        if sel.root not in {q.id for q in sel.questions}:
            continue  # no valid root: the structure rule reports it, and no path means anything
        gpus_min = variables(sel).get("gpus")
        paths = leaf_paths(sel)
        seen: set[str] = set()
        for li, leaf in enumerate(sel.leaves):
            path = paths.get(leaf.id)
            if path is None or leaf.id in seen:
                continue  # unreachable or a duplicate id: reported by the structure rule
            seen.add(leaf.id)
            gpus = range_on_path(path, "gpus", (gpus_min.min or 1) if gpus_min else 1)
            yield from _leaf(ctx, entity, li, leaf, gpus, tables)


def _leaf(ctx: Context, entity: Loaded[Selection], li: int, leaf: Leaf, gpus: Range,
          tables: dict[str, list[Loaded[TierTable]]]) -> Iterator[Diagnostic]:
    where = ("leaves", li)
    gpu = ctx.kb.get(leaf.picks.gpu, Gpu)
    link_type = _link_type(ctx, leaf.picks.intra_node)
    if gpu is None or link_type is None:
        return  # refs-unknown reported it
    has_nvlink = gpu.model.nvlink is not None
    acknowledged = {c.table for c in leaf.conflicts}
    disagreeing: set[str] = set()
    if link_type in ("nvlink", "nvswitch") and not has_nvlink:
        yield report(entity, (*where, "picks", "intra_node"), "tree-leaf-hardware",
                     f"{leaf.picks.gpu!r} has no NVLink, so it cannot use {leaf.picks.intra_node!r}")
    if not has_nvlink and not _warned(ctx, leaf, leaf.picks.gpu):
        yield report(entity, (*where, "pitfalls"), "tree-no-nvlink-pitfall",
                     f"{leaf.picks.gpu!r} has no NVLink: this leaf must carry the pitfall (danger or warning) "
                     "that concerns it, e.g. the PCIe bottleneck for tensor parallelism")
    for subject, pick in (("network", leaf.picks.network), ("topology", leaf.picks.topology)):
        if pick is None:
            if gpus.max is None or gpus.max > _SINGLE_NODE:
                yield report(entity, (*where, "picks"), "tree-missing-pick",
                             f"reached with {gpus.label()} GPUs, more than one server: name a {subject}")
            continue
        for table in tables.get(subject, []):
            if _disagrees(table, gpus, partial(operator.eq, pick)):
                disagreeing.add(table.id)
    for table in tables.get("intra_node", []) if has_nvlink else []:
        if _disagrees(table, gpus, lambda p: _link_type(ctx, p) == link_type):
            disagreeing.add(table.id)
    for table_id in sorted(disagreeing - acknowledged):
        yield report(entity, (*where, "picks"), "tree-tier-mismatch",
                     f"leaf {leaf.id!r} ({gpus.label()} GPUs) disagrees with {table_id!r}: follow the table, or keep "
                     f"the advice and add `conflicts: [{{table: {table_id}, note: ...}}]`")
    judged = {t.id for subject_tables in tables.values() for t in subject_tables}
    for ci, conflict in enumerate(leaf.conflicts):
        if conflict.table in judged and conflict.table not in disagreeing:
            yield report(entity, (*where, "conflicts", ci), "tree-stale-conflict",
                         f"leaf {leaf.id!r} agrees with {conflict.table!r}: remove this conflict")


def _disagrees(table: Loaded[TierTable], gpus: Range, wanted: Callable[[str], bool]) -> bool:
    """Whether a row of `table` for these GPU counts advises, and picks nothing `wanted`."""
    rows = [row for row in table.model.rows if row.gpus.overlaps(gpus) and row.picks]
    return any(not any(wanted(pick) for pick in row.picks) for row in rows)


def _link_type(ctx: Context, entity_id: str) -> str | None:
    """pcie, nvlink or nvswitch: the type of the intra-node link `entity_id`, if it is one."""
    link = ctx.kb.get(entity_id)
    return link.model.type if link is not None and isinstance(link.model, (Pcie, Nvlink, Nvswitch)) else None


def _warned(ctx: Context, leaf: Leaf, gpu: str) -> bool:
    for pitfall_id in leaf.pitfalls:
        pitfall = ctx.kb.get(pitfall_id, Pitfall)
        if pitfall is not None and pitfall.model.severity in ("danger", "warning") \
                and gpu in pitfall.model.concerns:
            return True
    return False
