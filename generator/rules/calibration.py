"""model: the cost model is held to the published runs it is measured against (specs/runs/). The
mean absolute error of the step time over every run the model can express may not exceed the
threshold that specs/assumptions/ declares for the suite, nor, for the runs of any one source,
the per-source threshold. A change to an assumption or a formula that makes the model's answers
worse than declared fails `check --strict`; `python -m generator calibrate` shows run by run
where the error lies. Reported only once the knowledge base has no errors: a broken GPU figure
or run is its own problem first."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule, Severity
from ..estimates.calibration import calibrate
from ..knowledge import Loaded
from ..model.costs import Assumption, Parameter
from .base import Check, Context

ERROR = Rule("model-calibration-error", "model",
             "成本模型在 specs/runs/ 全部已发表实测上的平均绝对误差（以及每个来源的平均绝对误差）不得超过 specs/assumptions/ 声明的上限。",
             Severity.WARNING, after_errors=True)

SUITE: Parameter = "calibration_error_threshold"
PER_SOURCE: Parameter = "calibration_source_error_threshold"


def check_calibration(ctx: Context) -> Iterator[Diagnostic]:
    thresholds: dict[str, Loaded[Assumption]] = {
        a.model.parameter: a for a in ctx.kb.of_type(Assumption) if a.model.parameter in (SUITE, PER_SOURCE)}
    if not thresholds:
        return
    report = calibrate(ctx.kb)
    suite = thresholds.get(SUITE)
    error = report.overall.mean_abs_error
    if suite is not None and error is not None and error > suite.model.value:
        yield ERROR.report(suite, ("value",), f"the model's mean absolute error over {report.overall.expressed} "
                           f"published runs is {error:.1%}, above the declared {suite.model.value:.1%}; "
                           "`python -m generator calibrate` lists the runs")
    per_source = thresholds.get(PER_SOURCE)
    if per_source is None:
        return
    for s in report.sources:
        e = s.summary.mean_abs_error
        if e is not None and e > per_source.model.value:
            yield ERROR.report(per_source, ("value",), f"on the {s.summary.expressed} runs of {s.source!r} the mean "
                               f"absolute error is {e:.1%}, above the declared {per_source.model.value:.1%}")


RULES = (ERROR,)
CHECKS: tuple[Check, ...] = (check_calibration,)
