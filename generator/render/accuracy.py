"""The accuracy page: the cost model against every published run of specs/runs/, as the scatter
of predicted against measured step time, the error by source, and every run with its figures or
the reason the model cannot express it. The numbers are `estimates.calibration`'s, the same ones
`python -m generator calibrate` prints."""

from __future__ import annotations

from markupsafe import Markup

from ..estimates.calibration import Calibration, RunError, statement
from ..estimates.runs import Inferred
from ..labels import BLOCK
from ..language import Bilingual, say
from ..units import fmt_number
from .context import Site
from .scatter import accuracy_chart
from .table import Cell, Row, Table

# The fields `estimates.calibration.ASSUMED` may fill in, as the page names them.
ASSUMED = Bilingual(
    zh={"micro_batch": "微批", "gpus_per_node": "每节点 GPU 数", "nics_per_node": "每节点网卡数",
        "zero_stage": "ZeRO 阶段", "recompute": "重计算", "sequence_parallel": "序列并行", "precision": "精度",
        "flash_attention": "FlashAttention", "network": "网络（取该 GPU 参考服务器的计算网络）"},
    en={"micro_batch": "micro-batch", "gpus_per_node": "GPUs per node", "nics_per_node": "NICs per node",
        "zero_stage": "ZeRO stage", "recompute": "recomputation", "sequence_parallel": "sequence parallelism",
        "precision": "precision", "flash_attention": "FlashAttention",
        "network": "network (the compute network of the GPU's reference server)"})
# The layout fields the model may choose where a run leaves them unstated (`runs.OPENABLE`).
CHOSEN = Bilingual(zh={"tensor_parallel": "张量并行", "pipeline_parallel": "流水线并行", "virtual_pipeline": "交错块数"},
                   en={"tensor_parallel": "tensor parallel", "pipeline_parallel": "pipeline parallel",
                       "virtual_pipeline": "interleaved chunks"})
# labels.BLOCK_ZH with its English, for this page.


def _choice(c: Inferred) -> str:
    fields = " × ".join(CHOSEN.get(f, f) for f in c.fields)
    accepted = say("、", ", ").join(map(c.values, c.accepted))
    return say(f"{fields} = {c.values(c.chosen)}"
               f"（来源未写明，取模型在 {len(c.accepted)} 种可行取值中预测最快的：{accepted}）",
               f"{fields} = {c.values(c.chosen)} (unstated by the source: the model's fastest prediction "
               f"among {len(c.accepted)} feasible choices: {accepted})")


def _assumed(r: RunError) -> str:
    """The assumed fields as the page names them, and the model's choice in words."""
    chosen = None if r.inferred is None else str(r.inferred)
    names = [ASSUMED.get(n, n) for n in r.assumed if n != chosen]
    return say("、", ", ").join([*names, *([] if r.inferred is None else [_choice(r.inferred)])])


def _pct(value: float | None, signed: bool = False) -> Cell:
    if value is None:
        return Cell.text("—")
    return Cell(Cell.text(f"{value:+.1%}" if signed else f"{value:.1%}").html, f"{value:.6f}", numeric=True)


def _seconds(value: float | None) -> Cell:
    if value is None:
        return Cell.text("—")
    return Cell(Cell.text(fmt_number(value, 4)).html, f"{value:.6g}", numeric=True)


def _count(value: int) -> Cell:
    return Cell(Cell.text(str(value)).html, str(value), numeric=True)


def accuracy(site: Site) -> dict[str, object]:
    report: Calibration = site.calibration
    sources = [s for s in report.sources if s.summary.expressed]
    index = {s.source: i for i, s in enumerate(sources)}
    points = [(r.measured_s, r.predicted_s, index[r.source], r.name) for r in report.runs
              if r.measured_s is not None and r.predicted_s is not None]
    chart = accuracy_chart("accuracy", say("模型预测与实测单步时间", "Predicted against measured step time"),
                           [s.title for s in sources], [(m, p, s, label) for m, p, s, label in points])
    runs, expressed = say("运行", "Runs"), say("可表达", "Expressed")
    mae, bias = say("平均绝对误差", "Mean absolute error"), say("偏差", "Bias")
    by_source = Table([(say("来源", "Source"), False), (runs, True), (expressed, True), (mae, True), (bias, True)])
    for s in report.sources:
        by_source.rows.append(Row([Cell(site.link(s.source)), _count(s.summary.runs), _count(s.summary.expressed),
                                   _pct(s.summary.mean_abs_error), _pct(s.summary.bias, signed=True)]))
    by_kind = Table([(say("模型", "Model"), False), (say("精度", "Precision"), False), (expressed, True), (mae, True),
                     (bias, True)])
    for k in report.kinds:
        by_kind.rows.append(Row([Cell.text(BLOCK[k.kind.block]), Cell.text(k.kind.precision.upper()),
                                 _count(k.summary.expressed), _pct(k.summary.mean_abs_error),
                                 _pct(k.summary.bias, signed=True)]))
    groups = []
    for s in report.sources:
        table = Table([(say("运行", "Run"), False), (say("实测（秒/步）", "Measured (s/step)"), True),
                       (say("预测（秒/步）", "Predicted (s/step)"), True), (say("误差", "Error"), True),
                       (say("显存", "Memory"), False), (say("假设", "Assumed"), False)])
        for r in (r for r in report.runs if r.source == s.source and r.error is not None):
            fits = say("放得下", "fits") if r.fits else say("报告为放不下", "reported as not fitting")
            table.rows.append(Row([Cell(site.link(r.id, r.name)), _seconds(r.measured_s), _seconds(r.predicted_s),
                                   _pct(r.error, signed=True), Cell.text(fits),
                                   Cell.text(_assumed(r))]))
        if table.rows:
            # An explicit id from the source's slug: a heading id slugged from its title would
            # carry whatever the title holds.
            groups.append((s.source, s.title, site.link(s.source), table))
    reasons: dict[str, list[str]] = {}
    for r in report.runs:
        if r.error is None:
            reasons.setdefault(r.why or say("没有实测步时", "no measured step time"), []).append(r.id)
    missing = Table([(say("原因", "Reason"), False), (runs, True), (say("哪些", "Which"), False)])
    for why, ids in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        missing.rows.append(Row([Cell.text(why), _count(len(ids)),
                                 Cell(Markup(say("、", ", ")).join(site.link(i) for i in ids))]))
    unfit = sum(1 for r in report.runs if r.fits is False)
    inferred = sum(1 for r in report.runs if r.inferred is not None and r.error is not None)
    rest = report.without_inferred
    without = None if rest.mean_abs_error is None or rest.bias is None else \
        {"runs": rest.expressed, "mae": f"{rest.mean_abs_error:.1%}", "bias": f"{rest.bias:+.1%}"}
    return {"statement": statement(report.overall), "inferred": inferred, "without_inferred": without,
            "chart": chart, "by_source": by_source, "by_kind": by_kind, "groups": groups, "missing": missing,
            "overall": report.overall, "unfit": unfit, "worst": [r.id for r in report.worst(5)]}
