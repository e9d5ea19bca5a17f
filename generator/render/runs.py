"""The measured training runs: an index page (runs.md) of the sources that measured them, and a
page per source (`run_page`) with every run of specs/runs/ it measured, one row each (anchored by
id) with its GPUs, layout, batch and one column per measured metric and FLOP convention (the
convention heads the column). What a run leaves unstated is shown as "?"; its note is in its spec
file and in the downloads.

Compact by design: a benchmark sweep gives hundreds of rows, so a row holds plain text and
numbers, and its name links to its spec file; and a page per source, because one page of all the
runs grew with every table read and outgrew the page-size budget of DESIGN.md section 8."""

from __future__ import annotations

from typing import get_args

from markupsafe import Markup

from ..knowledge import Loaded
from ..labels import CONVENTION, METRIC, ROUTING, SCHEDULE
from ..language import say
from ..model.entities import Source
from ..model.runs import Convention, Measured, Metric, Run, RunLayout
from ..units import fmt_number
from .accuracy import assumptions, predictions
from .context import Site, run_page, run_page_link
from .names import short_names
from .table import Cell, Row, Table

UNSTATED = "?"
METRICS: tuple[Metric, ...] = get_args(Metric)

FOLD_ROWS = 40
"""A source with more runs than this shows its two run-by-run tables folded (`<details>`), under
the summary that opens its page. The browser then neither styles nor lays out their rows until the
reader opens them. Measured with Lighthouse (mobile preset, 4× CPU slowdown), three runs each:
MosaicML's page of 216 runs scored 0.81-0.90 with its tables open and 0.99 folded, and a page of
76 runs 0.92-0.94 open; pages of 24 runs or fewer score 0.95 or more open. Folded rows stay in the
HTML: the search, a link to a row (tables.js opens its fold) and printing still reach them."""

def layout_label(lay: RunLayout) -> Markup:
    """`8·35·8` (TP·PP·DP), then what else the layout states: context parallelism, interleaving,
    the ZeRO stage (and ZeRO-3's per-tensor synchronous gathers), BF16 optimizer states, the
    tensor-parallel communication overlap, LoRA's adapter rank, expert parallelism, the pipeline schedule and how
    tokens were routed to experts. Built from numbers and fixed words only, so it is safe markup
    as it is."""
    degrees = (lay.tensor_parallel, lay.pipeline_parallel, lay.data_parallel)
    parts = ["·".join(UNSTATED if d is None else str(d) for d in degrees)]
    if lay.context_parallel != 1:
        parts.append(f"CP {UNSTATED if lay.context_parallel is None else lay.context_parallel}")
    if isinstance(lay.virtual_pipeline, int) and lay.virtual_pipeline > 1:
        parts.append(say(f"交错 {lay.virtual_pipeline} 块", f"interleaved, {lay.virtual_pipeline} chunks"))
    elif lay.virtual_pipeline == "interleaved":
        parts.append(say("交错", "interleaved"))
    if lay.recompute_layers is not None:
        parts.append(say(f"每块重计算 {lay.recompute_layers} 层", f"{lay.recompute_layers} layers a chunk recomputed"))
    if lay.zero_stage:
        parts.append(f"ZeRO-{lay.zero_stage}" + (say("（逐张量同步收集）", " (per-tensor synchronous gathers)")
                                                 if lay.zero_gather == "tensor-sync" else ""))
    if lay.optimizer_states == "bf16":
        parts.append(say("BF16 优化器状态", "BF16 optimizer states"))
    if lay.tp_comm_overlap:
        parts.append(say("张量并行通信重叠", "TP communication overlapped"))
    if lay.fp8_param_gather:
        parts.append(say("FP8 权重收集", "FP8 weight gathers"))
    if lay.lora_rank is not None:
        parts.append(say(f"LoRA 秩 {lay.lora_rank}", f"LoRA rank {lay.lora_rank}"))
    if lay.expert_parallel is not None:
        parts.append(f"EP {lay.expert_parallel}")
    if lay.expert_tensor_parallel not in (None, 1):
        parts.append(f"ETP {lay.expert_tensor_parallel}")
    if lay.pipeline_schedule is not None:
        parts.append(SCHEDULE[lay.pipeline_schedule])
    if lay.expert_routing is not None:
        parts.append(ROUTING[lay.expert_routing])
    return Markup(say("，", ", ").join(parts))


def _number(value: float) -> Cell:
    # Digits, separators and a point: nothing Markdown or HTML reads. No `data-sort`: the
    # tables script parses a plain number from the text (docs/assets/javascripts/tables.js).
    return Cell(Markup(fmt_number(value)), numeric=True)


def _name(site: Site, entity: Loaded[Run]) -> Cell:
    spec = site.spec(entity.id)
    if spec is None:
        return Cell.text(entity.model.name)
    return Cell(Markup('<a href="{}">{}</a>').format(spec.href, entity.model.name))


Column = tuple[Metric, Convention | None]


def _restates(run: Run, m: Measured) -> bool:
    """A per-GPU token rate that is the job's rate ÷ GPUs (rounded or cut to the digits printed):
    the same figure again."""
    job = next((j.value for j in run.measured if j.metric == "tokens_per_s"), None)
    return m.metric == "tokens_per_s_per_gpu" and job is not None and abs(job / run.gpus - m.value) < 1.0


def _columns(runs: list[Loaded[Run]]) -> list[Column]:
    """One column per metric and convention measured in these runs, in vocabulary order (a figure
    that only restates another is left to the downloads)."""
    seen = {(m.metric, m.convention) for run in runs for m in run.model.measured if not _restates(run.model, m)}
    conventions: tuple[Convention | None, ...] = (None, *get_args(Convention))
    return [(metric, c) for metric in METRICS for c in conventions if (metric, c) in seen]


def _table(site: Site, runs: list[Loaded[Run]]) -> Table:
    columns = _columns(runs)
    # A column that would repeat one value down the whole table is said once, above it.
    with_gpu = len({r.model.gpu for r in runs}) > 1
    with_network = len({r.model.network for r in runs}) > 1
    # Short names in the cells (names.py): the full ones head the source's section, linked.
    gpu_names = short_names(site.kb, {site.kb.label_of(r.model.gpu) for r in runs})
    network_names = short_names(site.kb, {site.kb.label_of(r.model.network) for r in runs if r.model.network})
    headers = [(say("记录", "Run"), False), *([("GPU", False)] if with_gpu else []), (say("GPU 数", "GPUs"), True),
               *([(say("网络", "Network"), False)] if with_network else []), ("TP·PP·DP", False),
               (say("全局批 × 序列长度", "Global batch × sequence length"), False)]
    headers += [(METRIC[metric] + (say("，", ", ") + CONVENTION[c] if c else ""), True) for metric, c in columns]
    table = Table(headers)
    for entity in runs:
        run, lay = entity.model, entity.model.layout
        figures = {(m.metric, m.convention): m.value for m in run.measured}
        batch = UNSTATED if lay.global_batch is None else str(lay.global_batch)
        network = network_names[site.kb.label_of(run.network)] if run.network else UNSTATED
        cells = [_name(site, entity), *([Cell.text(gpu_names[site.kb.label_of(run.gpu)])] if with_gpu else []),
                 _number(run.gpus), *([Cell.text(network)] if with_network else []),
                 Cell(layout_label(lay)), Cell(Markup(f"{batch} × {lay.sequence_length}"))]
        cells += [_number(figures[column]) if column in figures else Cell(Markup()) for column in columns]
        table.rows.append(Row(cells, anchor=entity.id))
    return table


def section_anchor(source_id: str) -> str:
    """A source's row on the runs index (links to where its runs used to start land there)."""
    return f"from-{source_id}"


def _by_source(site: Site) -> list[tuple[Loaded[Source], list[Loaded[Run]]]]:
    """The sources that measured runs, in the knowledge base's order, each with its runs."""
    by_source: dict[str, list[Loaded[Run]]] = {}
    for entity in site.kb.of_type(Run):
        by_source.setdefault(entity.model.source, []).append(entity)
    return [(source, by_source[source.id]) for source in site.kb.of_type(Source) if source.id in by_source]


def _links(site: Site, ids: list[str]) -> Markup:
    return Markup(say("、", ", ")).join(site.link(i) for i in ids)


def _hardware(site: Site, entries: list[Loaded[Run]]) -> tuple[Markup, Markup]:
    """Links to the GPUs and to the networks (empty where no run names one) these runs used."""
    return (_links(site, sorted({e.model.gpu for e in entries})),
            _links(site, sorted({e.model.network for e in entries if e.model.network})))


def runs(site: Site) -> dict[str, object]:
    """The index: what a run records, how its FLOPs are counted, what the model assumes where a
    run is silent, and one row per source."""
    index = Table([(say("来源", "Source"), False), (say("记录", "Runs"), True), ("GPU", False),
                   (say("网络", "Network"), False)])
    measured = _by_source(site)
    for source, entries in measured:
        gpus, networks = _hardware(site, entries)
        index.rows.append(Row([Cell(run_page_link(source.id, source.model.title)), _number(len(entries)),
                               Cell(gpus), Cell(networks) if networks else Cell.text(UNSTATED)],
                              anchor=section_anchor(source.id)))
    return {"index": index, "total": sum(len(entries) for _source, entries in measured),
            "unstated": UNSTATED, "conventions": [(CONVENTION[k], k) for k in CONVENTION],
            "assumptions": assumptions()}


def _folds(count: int) -> dict[str, str] | None:
    """The summary lines of a source's two folded tables (`FOLD_ROWS`), or None: not folded."""
    if count <= FOLD_ROWS:
        return None
    return {"runs": say(f"全部 {count} 条记录", f"All {count} runs"),
            "predicted": say(f"逐条预测：{count} 条", f"Run by run: {count} predictions")}


def source_pages(site: Site) -> dict[str, dict[str, object]]:
    """Each source's page of runs (`run_page`.md) and what its template shows: the runs as the
    source published them, then the model's predictions for them (accuracy.predictions)."""
    pages = {}
    predicted = predictions(site)
    for source, entries in _by_source(site):
        configs = sorted({e.model.config_source for e in entries if e.model.config_source})
        gpus, networks = _hardware(site, entries)
        pages[f"{run_page(source.id)}.md"] = {
            "title": source.model.title, "source": site.link(source.id), "count": len(entries),
            "runs": _table(site, entries), "unstated": UNSTATED,
            "configs": Markup(say(
                "来源没有印出的配置（微批、交错块数等）取自：{}，哪些字段见各条记录的说明。",
                "What the source does not print (micro-batch, interleaved chunks and so on) is "
                "taken from {}; each run's note says which fields.")).format(_links(site, configs)) if configs else Markup(),
            "gpus": gpus, "networks": networks, "folds": _folds(len(entries)),
            **predicted[source.id]}
    return pages
