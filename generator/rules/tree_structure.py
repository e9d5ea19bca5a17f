"""tree: the decision tree is a tree. One tree (the flowchart and `recommend` follow the same
one), its root a question, every answer leading to a node of it, every node reached from the
root once and only once: no duplicate id, no shared node, no cycle, nothing unreachable. The
flowchart's layout and `recommend` rely on it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..diagnostics import Diagnostic, Rule
from ..knowledge import Loaded
from ..model.selection import Leaf, Question, Selection
from .base import Check, Context

SINGLE = Rule("tree-single", "tree", "specs/selection/ 里只能有一棵决策树：流程图和命令行推荐走的是同一棵。")
UNKNOWN_NODE = Rule("tree-unknown-node", "tree", "根节点必须是问题，每个回答指向的节点必须存在。")
DUPLICATE_NODE = Rule("tree-duplicate-node", "tree", "同一棵树里节点 id 不能重复。")
SHARED_NODE = Rule("tree-shared-node", "tree", "每个节点只能有一个上级：决策树是树，不是网。")
CYCLE = Rule("tree-cycle", "tree", "决策树不能有环。")
UNREACHABLE = Rule("tree-unreachable", "tree", "每个节点都必须能从根节点走到。")


def check_tree_structure(ctx: Context) -> Iterator[Diagnostic]:
    trees = sorted(ctx.kb.of_type(Selection), key=lambda e: e.path)
    for extra in trees[1:]:
        # The flowchart page and `recommend` must show the same tree: with two, the page
        # would draw both and the command answer from one.
        yield SINGLE.report(extra, ("id",),
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
                yield DUPLICATE_NODE.report(entity, (group, index, "id"),
                                            f"node id {node.id!r} is used twice in this tree")
            ids.setdefault(node.id, (group, index))
    if ids.get(sel.root, ("", 0))[0] != "questions":
        yield UNKNOWN_NODE.report(entity, ("root",), f"root {sel.root!r} is not a question of this tree")
        return
    parents: dict[str, str] = {}
    for qi, question in enumerate(sel.questions):
        for ai, answer in enumerate(question.answers):
            where = ("questions", qi, "answers", ai, "next")
            if answer.next not in ids:
                yield UNKNOWN_NODE.report(entity, where, f"answer leads to {answer.next!r}, which is not a node")
            elif answer.next in parents or answer.next == sel.root:
                yield SHARED_NODE.report(entity, where,
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
            yield CYCLE.report(entity, ("questions", qi, "answers", child, "next"),
                               f"answer leads back to {target!r}: the tree has a cycle")
        elif target in ids and target not in state:
            stack.append((target, 0))
    for node_id, (group, index) in sorted(ids.items(), key=lambda item: item[1]):
        if node_id not in state:
            yield UNREACHABLE.report(entity, (group, index, "id"),
                                     f"{node_id!r} cannot be reached from the root {sel.root!r}")


RULES = (SINGLE, UNKNOWN_NODE, DUPLICATE_NODE, SHARED_NODE, CYCLE, UNREACHABLE)
CHECKS: tuple[Check, ...] = (check_tree_structure,)
