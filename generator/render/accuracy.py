"""The cost model against every published run of specs/runs/: the accuracy page (the scatter of
predicted against measured step time, the error by source, kind and architecture, and the reason
for each run the model cannot express), and for each source's page of runs (runs.py) its error
by GPU and precision and its runs' measured and predicted step times (`predictions`). The
numbers are `estimates.calibration`'s, the same ones `python -m generator calibrate` prints."""

from __future__ import annotations

import re
from dataclasses import fields

from markupsafe import Markup

from ..estimates.calibration import ASSUMED as SUITE_ASSUMED
from ..estimates.calibration import Calibration, RunError, statement, summarise
from ..estimates.runs import Assumed, Inferred
from ..figure_format import percent, signed_percent
from ..labels import BLOCK, METRIC, RECOMPUTE, TRAINING
from ..language import Bilingual, current, say
from ..model.runs import Run
from ..units import fmt_number
from .context import Site, run_page_link
from .escape import inert
from .names import short_names
from .scatter import accuracy_chart
from .table import Cell, Row, Table
from .text import marked

# The fields `estimates.calibration.ASSUMED` may fill in, as the page names them.
ASSUMED = Bilingual(
    zh={"micro_batch": "微批", "gpus_per_node": "每节点 GPU 数", "nics_per_node": "每节点网卡数",
        "zero_stage": "ZeRO 阶段", "recompute": "重计算", "sequence_parallel": "序列并行", "precision": "精度",
        "flash_attention": "FlashAttention", "network": "网络（取该 GPU 参考服务器的计算网络）"},
    en={"micro_batch": "micro-batch", "gpus_per_node": "GPUs per node", "nics_per_node": "NICs per node",
        "zero_stage": "ZeRO stage", "recompute": "recomputation", "sequence_parallel": "sequence parallelism",
        "precision": "precision", "flash_attention": "FlashAttention",
        "network": "network (the compute network of the GPU's reference server)"})
# Why the suite assumes what it does where a run is silent (`estimates.calibration.ASSUMED`, whose
# docstring holds the sources), by the field of `Assumed`: the runs index shows each with its value.
ASSUMED_WHY = Bilingual(
    zh={"micro_batch": "Megatron-LM 的默认值；Narayanan 等人的表 1 没有写明微批。",
        "gpus_per_node": "套件里的 SXM 运行都在厂商的参考基板上；llm-foundry 没有写明。",
        "nics_per_node": "参考基板按轨道接线，每块 GPU 配一张计算网卡；llm-foundry 没有写明。",
        "zero_stage": "即 Megatron 的分布式优化器，NeMo 与 Megatron-Core 默认开启。",
        "recompute": "Korthikanti 等人的论文之后，Megatron-LM 推荐的设置。",
        "sequence_parallel": "只在有张量并行时起作用。Korthikanti 等人把它与选择性重计算配套使用，NeMo 的配方在有张量并行时开启它；"
                             "早于它的运行（Narayanan 等人）和作为对照的运行都写明了不用。",
        "flash_attention": "后来的运行所用的框架都用它；早期的 Megatron 与 DeepSpeed 运行写明了不用。",
        "reference_network": "多节点运行既没写网络也没写网卡数时采用：套件里云上与实验室集群的基板就是这样组网的。",
        "fastest_unstated": "作者为吞吐调过这些选择（Narayanan 等人与 Llama 3 的论文都这样说），"
                            "模型的最优值代替他们的调优；它只读输入和模型，从不读实测数字。这样的运行列出全部可行取值，"
                            "精度页也给出不计它们时的误差。"},
    en={"micro_batch": "Megatron-LM's default; Narayanan et al.'s Table 1 states no micro-batch.",
        "gpus_per_node": "Every SXM run of the suite is on the vendors' reference baseboards; llm-foundry does not say.",
        "nics_per_node": "The reference baseboards are rail-optimised, one compute NIC per GPU; llm-foundry does not say.",
        "zero_stage": "Megatron's distributed optimizer, which NeMo and Megatron-Core turn on by default.",
        "recompute": "Megatron-LM's recommended setting since Korthikanti et al.'s paper.",
        "sequence_parallel": "It only acts with tensor parallelism. Korthikanti et al. pair it with selective recomputation, "
                             "and NeMo's recipes turn it on with tensor parallelism; the runs that predate it (Narayanan et "
                             "al.) or serve as baselines state that they do not use it.",
        "flash_attention": "Every stack the later runs name uses it; the early Megatron and DeepSpeed runs state that they do not.",
        "reference_network": "Taken when a multi-node run names neither network nor NICs per node: the baseboards of the "
                             "suite's cloud and lab clusters are built that way.",
        "fastest_unstated": "The authors tuned these choices for throughput (Narayanan et al. and the Llama 3 paper say "
                            "so), and the model's optimum stands in for their tuning; it reads the inputs and the model, "
                            "never the measured figure. Such runs list every feasible choice, and the accuracy page also "
                            "gives the error without them."})


def _assumed_value(name: str, value: object) -> str:
    """What `Assumed` holds for a field, in words: the number, the ZeRO stage, the setting."""
    if name == "zero_stage":
        return f"ZeRO-{value}"
    if name == "recompute":
        return RECOMPUTE[str(value)]
    if name == "sequence_parallel":
        return say("有张量并行时开启", "on wherever tensor parallelism is used")
    if name == "flash_attention":
        return say("使用", "used")
    if name == "reference_network":
        return say("这块 GPU 的参考服务器（整机数据里厂商自己的那台）的计算网络和网卡数",
                   "the compute network and NIC count of the GPU's reference server (the vendor's own, among the servers)")
    if name == "fastest_unstated":
        return say("模型在框架接受的取值中预测最快的一个", "the model's fastest prediction among the values the framework accepts")
    return str(value)


def assumptions(assumed: Assumed = SUITE_ASSUMED) -> Table:
    """What the suite fills in where a run is silent, one row per field it sets: the field as
    the runs pages name it, the value and why (a field without a reason is a KeyError)."""
    table = Table([(say("来源没有写明的字段", "Field the source leaves unstated"), False), (say("计算时取", "Taken as"), False),
                   (say("依据", "Why"), False)])
    for f in fields(assumed):
        value = getattr(assumed, f.name)
        if value is None or value is False:  # assumes nothing there
            continue
        label = {"reference_network": say("节点间网络与每节点网卡数", "inter-node network and NICs per node"),
                 "fastest_unstated": say("张量 × 流水线切分、交错块数", "tensor × pipeline split, interleaved chunks")
                 }.get(f.name) or ASSUMED[f.name]
        table.rows.append(Row([Cell.text(label), Cell.text(_assumed_value(f.name, value)), Cell.text(ASSUMED_WHY[f.name])]))
    return table


# The layout fields the model may choose where a run leaves them unstated (`runs.OPENABLE`).
CHOSEN = Bilingual(zh={"tensor_parallel": "张量并行", "pipeline_parallel": "流水线并行", "virtual_pipeline": "交错块数"},
                   en={"tensor_parallel": "tensor parallel", "pipeline_parallel": "pipeline parallel",
                       "virtual_pipeline": "interleaved chunks"})
# labels.BLOCK_ZH with its English, for this page.


# The run fields a reason for not expressing a run may name (`estimates.runs`), as the page names them.
FIELD = Bilingual(
    zh={"tensor_parallel": "张量并行度", "pipeline_parallel": "流水线并行度", "context_parallel": "上下文并行度",
        "global_batch": "全局批", "expert_parallel": "专家并行度", "expert_routing": "专家路由方式",
        "kv_heads": "键值头数", "ffn_hidden_size": "FFN 宽度", "vocabulary_size": "词表大小", "mlp": "MLP 类型",
        **ASSUMED.zh},
    en={"tensor_parallel": "tensor-parallel degree", "pipeline_parallel": "pipeline-parallel degree",
        "context_parallel": "context-parallel degree", "global_batch": "global batch",
        "expert_parallel": "expert-parallel degree", "expert_routing": "expert routing", "kv_heads": "key-value heads",
        "ffn_hidden_size": "FFN width", "vocabulary_size": "vocabulary size", "mlp": "MLP type", **ASSUMED.en})


def _fields(listed: str) -> str:
    return say("、", ", ").join(FIELD.get(f, f) for f in listed.split(", "))


# Why `estimates.runs` could not express a run, as the page says it: the reasons are written once,
# in English, for `calibrate`'s output; the most specific pattern first. A reason no pattern knows
# (a refusal of the cost model itself) is shown as written (`_reason`).
REASONS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"the run states no global batch, so its rate gives no step time"),
     "运行没有写明全局批，吞吐换算不出单步时间", "the run states no global batch, so its rate gives no step time"),
    (re.compile(r"the run spans nodes but names no network"),
     "运行跨节点，但没有写明节点间网络", "the run spans nodes but names no network"),
    (re.compile(r"the run spans nodes but states no NICs per node"),
     "运行跨节点，但没有写明每节点网卡数", "the run spans nodes but states no NICs per node"),
    (re.compile(r"a utilisation needs the precision its peak is taken at; the run states none"),
     "利用率要按所用精度的峰值换算，而运行没有写明精度",
     "a utilisation needs the precision its peak is taken at; the run states none"),
    (re.compile(r"the run states no context parallel degree"),
     "运行没有写明上下文并行度", "the run states no context-parallel degree"),
    (re.compile(r"interleaving unstated: the schedule's bubble depends on them"),
     "运行没有写明流水线是否交错，而调度的气泡取决于此",
     "the run does not state whether its pipeline is interleaved, and the schedule's bubble depends on it"),
    (re.compile(r"interleaved pipeline, chunks unstated: the schedule's bubble depends on them"),
     "流水线是交错的，但没有写明每级分几块，而调度的气泡取决于此",
     "the pipeline is interleaved but the chunks per stage are unstated, and the schedule's bubble depends on them"),
    (re.compile(r"(?P<gpus>\d+) GPUs do not fill whole nodes of (?P<per_node>\d+)"),
     "{gpus} 张 GPU 凑不成每节点 {per_node} 张的整节点", "{gpus} GPUs do not fill whole nodes of {per_node}"),
    (re.compile(r"the shape's heads do not split its width"),
     "模型形状的宽度不能被头数整除", "the shape's width is not a multiple of its heads"),
    (re.compile(r"the run names neither a workload nor a shape"),
     "运行既没有指明负载，也没有给出模型形状", "the run names neither a workload nor a shape"),
    (re.compile(r"no measured figure gives a step time \(only peak memory\)"),
     "没有哪个实测数字换算得出单步时间（只有峰值显存）", "no measured figure gives a step time (only peak memory)"),
    (re.compile(r"(?P<metric>\w+) names no FLOP convention"),
     "{metric} 没有写明 FLOP 的计法", "{metric} names no FLOP convention"),
    (re.compile(r"the run states no (?P<fields>[\w, ]+)"),
     "运行没有写明{fields}", "the run states no {fields}"),
    (re.compile(r"the shape states no (?P<fields>[\w, ]+)"),
     "模型形状没有写明{fields}", "the shape states no {fields}"),
]


def _reason(why: str) -> Markup:
    """A reason in the page's language; one no pattern knows stays as written, marked English."""
    for pattern, zh, en in REASONS:
        found = pattern.fullmatch(why)
        if found is None:
            continue
        words = found.groupdict()
        if "metric" in words:
            words["metric"] = METRIC.get(words["metric"], words["metric"])
        if "fields" in words:
            words["fields"] = _fields(words["fields"])
        return Markup.escape(say(zh, en).format(**words))
    return Markup.escape(why) if current() == "en" else Markup('<span lang="en">{}</span>').format(why)


def _choice(c: Inferred) -> str:
    fields = " × ".join(CHOSEN.get(f, f) for f in c.fields)
    accepted = say("、", ", ").join(map(c.values, c.accepted))
    return say(f"{fields} = {c.values(c.chosen)}"
               f"（来源未写明，取模型在 {len(c.accepted)} 种可行取值中预测最快的：{accepted}）",
               f"{fields} = {c.values(c.chosen)} (unstated by the source: the model's fastest prediction "
               f"among {len(c.accepted)} feasible choices: {accepted})")


def _assumed(r: RunError, common: list[str]) -> str:
    """The assumed fields as the page names them, but those every run of its source assumes
    (`common`, said once above the source's table), and the model's choice in words."""
    chosen = None if r.inferred is None else str(r.inferred)
    names = [ASSUMED.get(n, n) for n in r.assumed if n != chosen and n not in common]
    return say("、", ", ").join([*names, *([] if r.inferred is None else [_choice(r.inferred)])])


def _common(runs: list[RunError]) -> list[str]:
    """The assumed fields every one of these runs shares, in the order the first lists them (a
    model's choice is its own, never shared)."""
    return [n for n in (runs[0].assumed if runs else ()) if all(n in r.assumed for r in runs)
            and not any(n == str(r.inferred) for r in runs if r.inferred)]


# The figures below are the generator's own numerals (digits, sign, point, %), so they go in as
# they are, as on the runs page; the column sorts on the shown value (tables.js "figure").
def _pct(value: float | None, signed: bool = False) -> Cell:
    if value is None:
        return Cell.text("—")
    return Cell(Markup(percent(value, signed)), numeric=True)


def _seconds(value: float | None) -> Cell:
    if value is None:
        return Cell.text("—")
    return Cell(Markup(fmt_number(value, 4)), numeric=True)


def _count(value: int) -> Cell:
    return Cell(Markup(str(value)), numeric=True)


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
        by_source.rows.append(Row([Cell(run_page_link(s.source, s.title)), _count(s.summary.runs), _count(s.summary.expressed),
                                   _pct(s.summary.mean_abs_error), _pct(s.summary.bias, signed=True)]))
    by_kind = Table([(say("模型", "Model"), False), (say("精度", "Precision"), False), (say("训练", "Training"), False),
                     (expressed, True), (mae, True), (bias, True)])
    for k in report.kinds:
        by_kind.rows.append(Row([Cell.text(BLOCK[k.kind.block]), Cell.text(k.kind.precision.upper()),
                                 Cell.text(TRAINING[k.kind.training]),
                                 _count(k.summary.expressed), _pct(k.summary.mean_abs_error),
                                 _pct(k.summary.bias, signed=True)]))
    by_architecture = Table([(say("GPU 架构", "GPU architecture"), False), (runs, True), (expressed, True), (mae, True),
                             (bias, True)])
    for a in report.architectures:
        by_architecture.rows.append(Row([Cell(site.link(a.architecture)), _count(a.summary.runs),
                                         _count(a.summary.expressed), _pct(a.summary.mean_abs_error),
                                         _pct(a.summary.bias, signed=True)]))
    reasons: dict[str, list[str]] = {}
    for r in report.runs:
        if r.error is None:
            reasons.setdefault(r.why or say("没有实测步时", "no measured step time"), []).append(r.id)
    missing = Table([(say("原因", "Reason"), False), (runs, True), (say("哪些", "Which"), False)])
    for why, ids in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        missing.rows.append(Row([Cell(_reason(why)), _count(len(ids)),
                                 Cell(Markup(say("、", ", ")).join(site.link(i) for i in ids))]))
    return {**_counts(report), "statement": statement(report.overall), "chart": chart, "by_source": by_source,
            "by_kind": by_kind, "by_architecture": by_architecture, "missing": missing, "overall": report.overall,
            "worst": [r.id for r in report.worst(5)]}


def _counts(report: Calibration) -> dict[str, object]:
    """What the page says of the suite as a whole: how many runs the model reports as not fitting
    though they ran, how many took a layout choice the model made, and the error without those."""
    rest = report.without_inferred
    without = None if rest.mean_abs_error is None or rest.bias is None else \
        {"runs": rest.expressed, "mae": f"{rest.mean_abs_error:.1%}", "bias": signed_percent(rest.bias)}
    return {"unfit": sum(1 for r in report.runs if r.fits is False),
            "inferred": sum(1 for r in report.runs if r.inferred is not None and r.error is not None),
            "without_inferred": without}


def predictions(site: Site) -> dict[str, dict[str, object]]:
    """Each source's runs against the model, for the source's page of runs (runs.py): the one
    sentence of its error, its error on each GPU and precision (`_by_gpu_and_precision`), the
    assumptions every run of it takes, and a table of every expressed run's measured and
    predicted step time."""
    report: Calibration = site.calibration
    found: dict[str, dict[str, object]] = {}
    for s in report.sources:
        table = Table([(say("运行", "Run"), False), (say("实测（秒/步）", "Measured (s/step)"), True),
                       (say("预测（秒/步）", "Predicted (s/step)"), True), (say("误差", "Error"), True),
                       (say("其余假设", "Other assumptions"), False)])
        expressed_runs = [r for r in report.runs if r.source == s.source and r.error is not None]
        common = _common(expressed_runs)
        for r in expressed_runs:
            # Only the few runs the model reports as not fitting are marked; a column saying
            # "fits" on every other row said nothing. The name links to the run's row above.
            link = Markup('<a href="#{}">{}</a>').format(r.id, marked(inert(r.name), r.name))
            name = link if r.fits is not False else link + say("（报告为放不下）", " (reported as not fitting)")
            table.rows.append(Row([Cell(name), _seconds(r.measured_s), _seconds(r.predicted_s),
                                   _pct(r.error, signed=True), Cell.text(_assumed(r, common))]))
        other = any(row.cells[-1].html for row in table.rows)  # the "Other assumptions" column is shown
        if table.rows and not other:
            # every assumption of these runs is said above the table: no empty column
            table = Table(table.headers[:-1], [Row(row.cells[:-1], row.anchor, row.spec) for row in table.rows])
        found[s.source] = {"statement": statement(s.summary), "predicted": table if table.rows else None,
                           "by_group": _by_gpu_and_precision(site, expressed_runs),
                           "other": other,
                           "shared": say("、", ", ").join(ASSUMED.get(n, n) for n in common),
                           "inferred": sum(1 for r in expressed_runs if r.inferred is not None),
                           "unfit": sum(1 for r in expressed_runs if r.fits is False)}
    return found


def _by_gpu_and_precision(site: Site, runs: list[RunError]) -> Table | None:
    """The error on these runs for each GPU and precision among them, the GPUs in the knowledge
    base's order: what a planner looks for first on a source's page (how the model does on the
    GPU they plan for), and the table that opens the page in place of the long ones. None where
    the runs are of one GPU and one precision: the sentence above it says it all."""
    order = {e.id: i for i, e in enumerate(site.kb.of_kind("gpus"))}
    groups: dict[tuple[str, str], list[RunError]] = {}
    for r in runs:
        run = site.kb.get(r.id, Run)
        if run is not None and r.kind is not None:
            groups.setdefault((run.model.gpu, r.kind.precision), []).append(r)
    if len(groups) < 2:
        return None
    table = Table([("GPU", False), (say("精度", "Precision"), False), (say("运行", "Runs"), True),
                   (say("平均绝对误差", "Mean absolute error"), True), (say("偏差", "Bias"), True)])
    names = short_names(site.kb, {site.kb.label_of(gpu) for gpu, _precision in groups})  # a phone's width
    for (gpu, precision), members in sorted(groups.items(), key=lambda g: (order.get(g[0][0], len(order)), g[0])):
        summary = summarise(members)
        table.rows.append(Row([Cell(site.link(gpu, names[site.kb.label_of(gpu)])), Cell.text(precision.upper()),
                               _count(summary.expressed),
                               _pct(summary.mean_abs_error), _pct(summary.bias, signed=True)]))
    return table
