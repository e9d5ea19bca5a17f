"""The mixture-of-experts page: each expert study (specs/cases/, type expert_study) is run through
the model as the CLI runs it, one table per layout with one row per hardware row. Invariants of
the real knowledge base only, so a valid edit of the specs never fails this test."""

from __future__ import annotations

from functools import cache

from support import cli, real_result

from generator.costmodel import estimate
from generator.estimates.choice import resolve
from generator.estimates.records import EP_OVERLAP, EXPERT_IMBALANCE, assumption_value
from generator.estimates.studies import expert_choice
from generator.model.entities import ExpertStudy
from generator.render.context import Site
from generator.render.expert_study import outcomes, page
from generator.validate import Result


@cache
def _real() -> Result:
    result = real_result()
    assert result.ok and result.kb is not None
    return result


def _site() -> Site:
    result = _real()
    assert result.kb is not None and result.figures is not None
    return Site(result.kb, result.figures)


def test_every_layout_has_a_row_per_hardware_row_and_every_row_is_estimated() -> None:
    site = _site()
    context = page(site)
    studies = site.kb.of_type(ExpertStudy)
    assert len(context["studies"]) == len(studies)  # type: ignore[arg-type]
    for entity, shown in zip(studies, context["studies"], strict=True):  # type: ignore[call-overload]
        for layout in shown["layouts"]:
            assert len(layout["table"].rows) == len(entity.model.rows)
        # the rule model-expert-study guarantees every pair can be estimated
        assert all(o.out is not None for o in outcomes(site, entity.model)), entity.id


def test_the_figures_are_the_clis() -> None:
    """Each outcome is `estimate` on what `resolve` makes of the study's choice, with the
    knowledge base's overlap where the layout asks for it and its imbalance."""
    site = _site()
    overlap, imbalance = assumption_value(site.kb, EP_OVERLAP), assumption_value(site.kb, EXPERT_IMBALANCE)
    for entity in site.kb.of_type(ExpertStudy):
        for o in outcomes(site, entity.model):
            resolved = resolve(site.kb, expert_choice(entity.model, o.layout, o.row, overlap or 0.0, imbalance or 1.0))
            assert not isinstance(resolved, str)
            result = estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
            assert result.estimate is not None and o.number("step_time_s") == result.estimate.step.step_s


def test_hiding_the_all_to_all_never_slows_a_step() -> None:
    """The same layout with and without overlap, on every row of every study."""
    site = _site()
    for entity in site.kb.of_type(ExpertStudy):
        study = entity.model
        plain = study.model_copy(update={"layouts": [lay.model_copy(update={"overlap": False}) for lay in study.layouts]})
        hidden = study.model_copy(update={"layouts": [lay.model_copy(update={"overlap": True}) for lay in study.layouts]})
        for a, b in zip(outcomes(site, plain), outcomes(site, hidden), strict=True):
            sa, sb = a.number("step_time_s"), b.number("step_time_s")
            assert sa is not None and sb is not None and sb <= sa


def test_plan_keeps_the_readers_expert_parallel_size() -> None:
    """`plan --ep N` searches only layouts with N; every option it offers for an MoE workload of
    the real knowledge base carries N and the all-to-all's share."""
    import json

    from generator.model.costs import Workload as WorkloadSpec
    result = _real()
    assert result.kb is not None
    moe = next(w for w in result.kb.of_type(WorkloadSpec) if w.model.moe is not None and w.model.moe.experts % 8 == 0)
    for market in ("global", "china"):
        done = cli("plan", "--workload", moe.id, "--gpus", "64", "--market", market, "--ep", "8", "--format", "json")
        assert done.returncode == 0, done.stderr
        options = json.loads(done.stdout)["options"]
        assert all(o["layout"]["ep"] == 8 and o["all_to_all_share"] is not None for o in options)
