"""What the calculator opens on (`render.calculator.planned_defaults`): the flowchart's own answer
where one of its examples asks for pre-training on the calculator's GPU count in the first market
that sells everything, else the planner's answer for the middle published workload. Both on the
golden case `complete`, whose examples ask at 4, 16 and 128 GPUs, one of its markets selling
everything."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.edge.specfiles import read_spec_tree
from generator.estimates.choice import Choice
from generator.estimates.records import workloads
from generator.model.markets import Market
from generator.planner.plan import Request, plan
from generator.render import calculator
from generator.render.context import Site
from generator.render.leafview import answers
from generator.validate import validate

COMPLETE = Path(__file__).parent / "golden" / "complete" / "specs"


def _site() -> Site:
    result = validate(read_spec_tree(COMPLETE)[0])
    assert result.kb is not None and result.figures is not None
    return Site(result.kb, result.figures)


def _market(site: Site) -> str:
    return next(m.id for m in site.kb.of_type(Market) if m.model.default is not None
                and m.model.default.status == "available")


def test_the_calculator_opens_on_the_flowcharts_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calculator, "DEFAULT_GPUS", 16)
    site = _site()
    market = _market(site)
    asked = [(a.workload, p) for a in answers(site).values() if a.gpus == 16 and a.goal == "pretrain"
             and a.workload is not None for view, p in a.plans if view.market == market and not view.licensed]
    assert asked, "the fixture tree asks at 16 GPUs"
    workload, answer = max(asked, key=lambda a: (a[0].model.parameters, a[0].id))
    assert not isinstance(answer, str) and answer.options
    best = answer.options[0]

    def no_second_search(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the flowchart has answered this already: no second search")

    monkeypatch.setattr(calculator, "plan", no_second_search)
    found = calculator.planned_defaults(site)
    assert (found["workload"], found["gpu"], found["network"]) == (
        workload.id, best.candidate.gpu, best.resolved.ids.get("network"))
    assert (found["tensor_parallel"], found["pipeline_parallel"], found["zero_stage"], found["recompute"]) == (
        best.layout.tensor_parallel, best.layout.pipeline_parallel, best.layout.zero_stage, best.layout.recompute)
    assert found["gpus"] == 16


def test_without_such_an_example_it_opens_on_the_middle_workload() -> None:
    site = _site()
    assert not any(a.gpus == calculator.DEFAULT_GPUS for a in answers(site).values())
    shapes = sorted(workloads(site.kb), key=lambda w: (w.model.parameters, w.id))
    middle = shapes[len(shapes) // 2]
    answer = plan(site.kb, Request(Choice("", 0, "", middle.id), calculator.DEFAULT_GPUS, _market(site)))
    found = calculator.planned_defaults(site)
    assert answer.options, "the fixture's middle workload fits on the default count"
    assert (found["workload"], found["gpu"]) == (middle.id, answer.options[0].candidate.gpu)
