"""`python -m generator recommend`: the selection tree's path for the reader's answers, and the
planner's answer at the reader's own point, as text or JSON. The tree's questions are flags of
its variables (--goal, --model-size, --gpus, and any other the tree asks), so a new question in
specs/selection/ is a new flag without code changes; the planner adds --market, --licensed,
--tokens and --workload (a published model instead of --model-size)."""

from __future__ import annotations

import argparse
import datetime as dt
from dataclasses import dataclass
from typing import Any, NoReturn

from .. import strict_json
from ..derive import FigureIndex
from ..diagnostics import quoted
from ..estimates.choice import Choice
from ..estimates.records import workloads
from ..knowledge import KnowledgeBase
from ..labels import PARALLELISM_ZH
from ..model.common import Text
from ..model.costs import Workload as WorkloadSpec
from ..model.markets import Market
from ..model.selection import Selection, Variable
from ..planner.plan import GOALS, Plan, PlanError, Request, plan
from ..selection.advice import answer_data
from ..selection.answers import BILLION, GOAL, GPUS, MODEL_SIZE
from ..selection.tree import NoAnswer, Value, parse_value, recommend
from .counts import count
from .plan import to_text as plan_text

PLANNER_FLAGS = ("market", "licensed", "tokens", "workload")


@dataclass(frozen=True)
class Asked:
    """A reader's question: the tree's answers and what the planner needs beyond them."""

    values: dict[str, Value]
    market: str
    workload: str | None
    tokens: float | None
    licensed: bool


def _planner_variables(sel: Selection) -> list[Variable]:
    """What the planner needs that the tree may not ask: the model size, the GPU count and the
    goal, as flags of the same form as the tree's own (70B, 64, pretrain)."""
    asked = {v.id for v in sel.variables}
    own = [Variable(id=MODEL_SIZE, name=Text(zh="模型参数量（十亿）"), kind="count", min=0, suffix="B"),
           Variable(id=GPUS, name=Text(zh="GPU 数量"), kind="count", min=1),
           Variable(id=GOAL, name=Text(zh="训练目标"), kind="category", values=list(GOALS))]
    return [v for v in own if v.id not in asked]


def _refuse(message: str) -> NoReturn:
    """A flag argparse cannot read (`--gpus -inf` reads as a flag, not a value): the one line of
    every other bad answer, not argparse's usage block."""
    raise NoAnswer(message)


def parse_answers(kb: KnowledgeBase, sel: Selection, argv: list[str]) -> Asked:
    parser = argparse.ArgumentParser(prog="python -m generator recommend", add_help=False)
    parser.error = _refuse  # type: ignore[method-assign]
    variables = [*sel.variables, *_planner_variables(sel)]
    for variable in variables:
        parser.add_argument(f"--{variable.id}", dest=variable.id, metavar=variable.suffix and "N" + variable.suffix or "VALUE")
    asked = {v.id for v in variables}
    for flag in PLANNER_FLAGS:
        if flag in asked:
            continue  # a tree that asks it as a question takes it as its answer
        if flag == "licensed":
            parser.add_argument("--licensed", dest=flag, action="store_true")
        else:
            parser.add_argument(f"--{flag}", dest=flag)
    known, unknown = parser.parse_known_args(argv)
    if unknown:
        flags = " ".join(f"--{v.id}" for v in sel.variables)
        raise NoAnswer(f"unknown argument {unknown[0]!r}; this tree asks: {flags}, and the planner: "
                       "--market, --licensed, --tokens, --workload")
    values = {v.id: parse_value(v, getattr(known, v.id)) for v in variables if getattr(known, v.id) is not None}
    markets = [m.id for m in kb.of_type(Market)]
    if known.market is None:
        raise NoAnswer(f"--market is missing; choose one of: {', '.join(markets) or 'none (specs/markets/ is empty)'}")
    if known.market not in markets:
        raise NoAnswer(f"--market {known.market!r} is unknown; choose one of: {', '.join(markets)}")
    if GPUS not in values:
        raise NoAnswer("--gpus is missing; give the GPU count, e.g. --gpus 64")
    gpus = values[GPUS]
    if not isinstance(gpus, int) or not 1 <= gpus <= 1_000_000:
        raise NoAnswer(f"--gpus {gpus}: give a whole number of GPUs from 1 to 1000000")
    if known.workload is not None:
        if MODEL_SIZE in values:
            raise NoAnswer("give --workload or --model-size, not both")
        spec = kb.get(known.workload, WorkloadSpec)
        if spec is None:
            raise NoAnswer(f"--workload {known.workload!r} is unknown; the published workloads: "
                           f"{', '.join(w.id for w in workloads(kb))}")
        values[MODEL_SIZE] = spec.model.parameters / BILLION
    elif MODEL_SIZE not in values:
        raise NoAnswer("name the model: --model-size 70B, or --workload ID")
    values.setdefault(GOAL, "pretrain")
    try:
        tokens = None if known.tokens is None else count(known.tokens)
    except ValueError as err:
        raise NoAnswer(f"--tokens {quoted(known.tokens)} {err}: give a count such as 2T or 1e12") from None
    return Asked(values, known.market, known.workload, tokens, bool(known.licensed))


def planned_for(kb: KnowledgeBase, asked: Asked) -> Plan:
    """The planner's answer at the reader's own point (its one-line errors as `NoAnswer`)."""
    size = asked.values[MODEL_SIZE]
    model = Choice("", 0, "", asked.workload, None if asked.workload else float(size) * BILLION)
    goal = str(asked.values[GOAL])
    try:
        return plan(kb, Request(model, int(asked.values[GPUS]), asked.market, goal,  # type: ignore[arg-type]
                                asked.tokens, asked.licensed))
    except PlanError as err:
        raise NoAnswer(str(err)) from None


def as_text(data: dict[str, Any], planned_text: str) -> str:
    lines = ["路径："]
    lines += [f"  {step['ask']} → {step['answer']}" for step in data["path"]]
    lines.append(f"分支：{data['title']}（{data['leaf']}）")
    lines.append(planned_text)
    if data["parallelism"]:
        lines.append("并行方式：" + "、".join(PARALLELISM_ZH[p] for p in data["parallelism"]))
    if data["comm_warning"] is not None:
        w = data["comm_warning"]
        lines.append(f"通信警告：按模型估算通信占一步的 {w['share']:.1%}，超过警戒线 {w['threshold']:.0%}")
    lines.append("这一分支的理由：")
    lines += [f"  - {reason}" for reason in data["reasons"]]
    if data["pitfalls"]:
        lines.append("注意：")
        lines += [f"  - [{p['severity']}] {p['title']}（{p['id']}"
                  + (f"，与所选的 {p['about']} 有关" if p["about"] else "") + "）" for p in data["pitfalls"]]
    return "\n".join(lines)


def run(kb: KnowledgeBase, figures: FigureIndex, argv: list[str], fmt: str, as_of: dt.date,
        accuracy: dict[str, object]) -> str:
    """The answer for `argv` (flags of the tree's variables and the planner's), formatted."""
    trees = kb.of_type(Selection)
    if not trees:
        raise NoAnswer("no selection tree in specs/selection/")
    sel = trees[0].model
    asked = parse_answers(kb, sel, argv)
    found = recommend(sel, asked.values)
    planned = planned_for(kb, asked)
    data = answer_data(kb, figures, sel, found, planned, as_of, accuracy)
    if fmt == "json":
        return strict_json.dumps(data, "recommend's JSON", ensure_ascii=False, indent=2)
    strict_json.require_finite(data, "recommend's answer")  # as the JSON would: no "inf" in a text answer
    return as_text(data, plan_text(kb, planned, as_of, accuracy))
