"""The parallelism primer (parallelism.md): what data, tensor, pipeline, context and expert
parallelism and the ZeRO stages split, and one worked example whose every figure is the cost
model's, run at build time as the CLI runs it (`estimates.choice.resolve` and `estimate`).

The example is not named in code (no product may be): it is the first scaling study with a
modelled block (specs/cases/), its first modelled layout that splits both tensor and pipeline
(else its first), on the study's first network, in a reference server of the study's GPU and
node size when the knowledge base holds one. The page shows the example under each ZeRO stage,
its bubble with and without the interleaved schedule, and how the step splits between compute
and communication; each variant links to the calculator with its inputs in the address
(calculator.js `restore`), formatted as the calculator formats them, so the two pages show the
same figures (a browser test holds them equal).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlencode

from markupsafe import Markup, escape

from ..estimates.choice import Choice, node_fill
from ..estimates.records import assumption_entities
from ..estimates.report import chosen_outputs
from ..knowledge import Loaded
from ..labels import RECOMPUTE
from ..language import Bilingual, say
from ..model.costs import PARAMETERS, Assumption
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import ComputeNode, ModelledLayout, ScalingStudy
from .context import Site
from .expert_study import BOTTLENECK
from .scaling_model import model_mark
from .table import Cell, Row, Table
from .text import inert, localized

ZERO_STAGES = (0, 1, 2, 3)
ZERO_TEXT = Bilingual(zh={"0": "不分片（纯数据并行）", "1": "ZeRO-1：分片优化器状态", "2": "ZeRO-2：再分片梯度",
                          "3": "ZeRO-3 / FSDP：再分片权重"},
                      en={"0": "no sharding (plain data parallelism)", "1": "ZeRO-1: optimizer states sharded",
                          "2": "ZeRO-2: gradients sharded too", "3": "ZeRO-3 / FSDP: weights sharded too"})
INTERLEAVED_CHUNKS = 2
"""The interleaved schedule's model chunks per stage that the example shows beside plain 1F1B."""
BYTES_PER_PARAMETER = ("weight_bytes_per_parameter", "gradient_bytes_per_parameter", "optimizer_bytes_per_parameter")


def shown_number(value: float | None) -> str:
    """A number as the calculator shows it (calculator.js `fmt`): four significant digits, whole
    and grouped by thousands from 1,000 on."""
    if value is None:
        return "—"
    rounded = float(f"{value:.4g}")
    return f"{round(rounded):,}" if abs(rounded) >= 1000 else f"{rounded:.4g}"


def shown_share(value: float | None) -> str:
    """A share as the calculator shows it (calculator.js `pct`): a percentage with one decimal."""
    return "—" if value is None else f"{value * 100:.1f}%"


@dataclass(frozen=True)
class Example:
    """The worked example: the study it comes from, its layout, and the choice `estimate` is asked."""

    study: Loaded[ScalingStudy]
    layout: ModelledLayout
    network: str
    node: str | None
    choice: Choice


def _node(site: Site, study: ScalingStudy) -> str | None:
    """The first reference server of the study's GPU and node size the model can read, or None."""
    for entity in sorted(site.kb.of_type(ComputeNode), key=lambda e: e.id):
        m = entity.model
        if (m.kind == "server" and m.gpu == study.gpu and m.gpus.value == study.gpus_per_node.value
                and not isinstance(node_fill(entity), str)):
            return entity.id
    return None


def example(site: Site) -> Example | None:
    """The example the page works through, or None when no scaling study has a modelled layout."""
    for entity in sorted(site.kb.of_type(ScalingStudy), key=lambda e: e.id):
        s, m = entity.model, entity.model.modelled
        network = next((r.network for r in s.rows if r.network is not None), None)
        if m is None or network is None:
            continue
        layout = next((lay for lay in m.layouts if lay.tp > 1 and lay.pp > 1), m.layouts[0])
        node = _node(site, s)
        choice = Choice("" if node else s.gpu, int(s.gpus.value), network, workload=m.workload, node=node,
                        gpus_per_node=None if node else int(s.gpus_per_node.value),
                        nics_per_node=None if node else m.nics_per_node, tensor_parallel=layout.tp,
                        pipeline_parallel=layout.pp, zero_stage=layout.zero, micro_batch_size=layout.micro_batch,
                        sequence_length=m.seq, global_batch_size=m.global_batch, recompute=layout.recompute,
                        sequence_parallel=layout.sequence_parallel)
        return Example(entity, layout, network, node, choice)
    return None


def _workload_name(site: Site, workload_id: str | None) -> str | None:
    entity = site.kb.get(workload_id or "", WorkloadSpec)
    return None if entity is None else entity.model.name


def calculator_query(choice: Choice) -> str:
    """The calculator's address for a choice: every input calculator.js reads from the query
    string (its FIELDS), the GPU fields left out when a node fills them."""
    flag = {True: "1", False: "0"}
    pairs: list[tuple[str, object]] = [("workload", choice.workload or "")]
    if choice.node:
        pairs.append(("node", choice.node))
    else:
        pairs += [("gpu", choice.gpu), ("gpus_per_node", choice.gpus_per_node or ""),
                  ("nics_per_node", choice.nics_per_node or "")]
    pairs += [("gpus", choice.gpus), ("network", choice.network), ("tp", choice.tensor_parallel),
              ("pp", choice.pipeline_parallel), ("zero", choice.zero_stage), ("micro_batch", choice.micro_batch_size),
              ("seq", choice.sequence_length), ("global_batch", choice.global_batch_size),
              ("recompute", choice.recompute), ("sequence_parallel", flag[choice.sequence_parallel]),
              ("flash_attention", flag[choice.flash_attention]), ("attention_kernel", choice.attention_kernel),
              ("virtual_pipeline", choice.virtual_pipeline), ("cp", choice.context_parallel),
              ("shard_group", choice.shard_group), ("tp_overlap", f"{choice.tp_overlap:g}"),
              ("fp32_gradients", flag[choice.fp32_gradients]), ("ep", choice.expert_parallel),
              ("ep_overlap", f"{choice.ep_overlap:g}"), ("adapter_rank", choice.adapter_rank),
              ("base_bits", choice.base_bits)]
    return "../calculator/?" + urlencode(pairs)


def _get(out: dict[str, object] | None, *path: str) -> float | None:
    value: object = out
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _figure(value: float | None, shown: str, key: str, unit: str = "", mark: bool = True) -> Markup:
    """A model figure in a span the browser test reads (`data-figure`), its unit, the model mark."""
    if value is None:
        return Markup(say('<span class="fig-none" title="无法估算">—</span>',
                          '<span class="fig-none" title="cannot be estimated">—</span>'))
    tail = Markup(" {}").format(unit) if unit else Markup("")
    if mark:
        tail += Markup(" ") + model_mark()
    return Markup('<span data-figure="{}" data-value="{}">{}</span>').format(key, repr(value), shown) + tail


def _calc_link(choice: Choice, text: str, key: str) -> Markup:
    return Markup('<a class="calc-open" data-calc="{}" href="{}">{}</a>').format(key, calculator_query(choice), text)


def zero_table(site: Site, ex: Example) -> Table:
    """The example under each ZeRO stage: model states, activations and the total per GPU."""
    t = Table([(say("ZeRO 阶段", "ZeRO stage"), False), (say("权重", "Weights"), True), (say("梯度", "Gradients"), True),
               (say("优化器状态", "Optimizer states"), True), (say("模型状态合计", "Model states total"), True),
               (say("激活", "Activations"), True), (say("每卡合计", "Total per GPU"), True), (say("放得下", "Fits"), False),
               (say("在计算器中", "In the calculator"), False)],
              caption=say("每块 GPU 的显存（GB = 10⁹ 字节）", "Memory per GPU (GB = 10⁹ bytes)"))
    for stage in ZERO_STAGES:
        choice = replace(ex.choice, zero_stage=stage)
        out, why = chosen_outputs(site.kb, choice)
        cells = [Cell.text(ZERO_TEXT[str(stage)])]
        for name in ("weights_gb", "gradients_gb", "optimizer_gb", "model_states_gb", "activations_gb", "total_gb"):
            value = _get(out, "memory_per_gpu_gb", name)
            cells.append(Cell(_figure(value, shown_number(value), f"zero{stage}.{name}"),
                              "" if value is None else repr(value), numeric=True))
        fits = None if out is None else out.get("fits")
        cells.append(Cell(Markup('<span data-figure="zero{}.fits" data-value="{}">{}</span>').format(
            stage, str(fits).lower(), say("是", "yes") if fits else say("否", "no")) if isinstance(fits, bool) else inert("—")))
        cells.append(Cell(_calc_link(choice, say("打开", "Open"), f"zero{stage}") if out is not None else inert(why)))
        t.rows.append(Row(cells, anchor=f"zero-{stage}"))
    return t


STEP_FIGURES = (("step_time_s", ("step_time_s",), "s"), ("microbatches", ("microbatches",), ""),
                ("bubble", ("time_s", "bubble"), "s"), ("tensor_parallel", ("time_s", "tensor_parallel"), "s"),
                ("dp_exposed", ("time_s", "dp_exposed"), "s"), ("activations_gb", ("memory_per_gpu_gb", "activations_gb"), "GB"))
"""The step's figures the page shows: name, where `estimate`'s JSON holds it, the unit after it
(`s` is written 秒 on the Chinese page: `_unit`)."""


def _unit(unit: str) -> str:
    return say("秒", "s") if unit == "s" else unit
SHARES = ("bubble", "tensor_parallel", "dp_exposed")


def step_figures(site: Site, choice: Choice, key: str) -> dict[str, Markup] | str:
    """The step of one variant: its time, micro-batches, bubble, tensor- and data-parallel
    communication (seconds and shares of the step), each shown as the calculator shows it, and
    a generated sentence on which communication weighs more; or why the model cannot say."""
    out, why = chosen_outputs(site.kb, choice)
    step = _get(out, "step_time_s")
    if out is None or step is None:
        return why
    if out.get("fits") is not True:  # the calculator times no step that does not fit: neither does the page
        total, usable = _get(out, "memory_per_gpu_gb", "total_gb"), _get(out, "memory_per_gpu_gb", "usable_gb")
        return say(f"这个布局每块 GPU 需要 {shown_number(total)} GB，超出可用的 {shown_number(usable)} GB，放不下",
                   f"this layout needs {shown_number(total)} GB per GPU, more than the {shown_number(usable)} GB "
                   "usable: it does not fit")
    shown = {name: _figure(_get(out, *path), shown_number(_get(out, *path)), f"{key}.{name}", _unit(unit),
                           mark=name != "microbatches")  # a count of the layout's, not an estimate
             for name, path, unit in STEP_FIGURES}
    for name in SHARES:
        part = _get(out, "time_s", name)
        share = None if part is None else part / step
        shown[f"{name}_share"] = _figure(share, shown_share(share), f"{key}.{name}_share")
    comm = _get(out, "comm_share")
    shown["comm_share"] = _figure(comm, shown_share(comm), f"{key}.comm_share")
    shown["link"] = _calc_link(choice, say("在计算器中打开这一布局", "Open this layout in the calculator"), key)
    shown["verdict"] = verdict(out)
    return shown


def verdict(out: dict[str, object]) -> Markup:
    """Which of the two communications weighs more in this step, and the model's bottleneck."""
    tp, dp = _get(out, "time_s", "tensor_parallel") or 0.0, _get(out, "time_s", "dp_exposed") or 0.0
    first = (say("张量并行的通信比数据并行未被掩盖的通信多：这个布局下，机内互连的带宽比节点间网络更影响每步时间。",
                 "Tensor-parallel communication exceeds the exposed data-parallel communication: in this layout the "
                 "intra-node interconnect's bandwidth matters more to the step time than the inter-node network's. ")
             if tp > dp else
             say("数据并行未被掩盖的通信不少于张量并行的通信：这个布局下，节点间网络的带宽更影响每步时间。",
                 "Exposed data-parallel communication is at least the tensor-parallel communication: in this layout "
                 "the inter-node network's bandwidth matters more to the step time. "))
    bottleneck = BOTTLENECK.get(str(out.get("bottleneck")), "—")
    return inert(first + say("成本模型判定的瓶颈是", "The cost model's bottleneck is ") + bottleneck + say("。", "."))


def fit_figures(site: Site, choice: Choice, key: str) -> dict[str, Markup]:
    """A variant that does not fit: its activations and total per GPU, and its calculator link."""
    out, _why = chosen_outputs(site.kb, choice)
    shown = {name: _figure(_get(out, "memory_per_gpu_gb", name), shown_number(_get(out, "memory_per_gpu_gb", name)),
                           f"{key}.{name}", "GB") for name in ("activations_gb", "total_gb", "usable_gb")}
    fits = None if out is None else out.get("fits")
    shown["fits"] = Markup('<span data-figure="{}.fits" data-value="{}">{}</span>').format(
        key, str(fits).lower(), say("放得下", "it fits") if fits else say("放不下", "it does not fit"))
    shown["link"] = _calc_link(choice, say("在计算器中打开", "open in the calculator"), key)
    return shown


def interleaved_figures(site: Site, choice: Choice) -> dict[str, object]:
    """The interleaved schedule on the example: at the example's ZeRO stage when it fits there;
    else what does not fit (its memory) and the lowest higher stage at which it fits, with its step."""
    tight: dict[str, Markup] | None = None
    for stage in range(choice.zero_stage, max(ZERO_STAGES) + 1):
        variant = replace(choice, zero_stage=stage)
        out, _why = chosen_outputs(site.kb, variant)
        if out is not None and out.get("fits") is True:
            return {"tight": tight, "zero": stage, "step": step_figures(site, variant, "interleaved")}
        if tight is None:
            tight = fit_figures(site, variant, "interleaved-nofit")
    return {"tight": tight, "zero": None, "step": None}


def primer(site: Site) -> dict[str, object]:
    """The page's context: the worked example (None without one) and the assumptions it names."""
    ex = example(site)
    assumptions: dict[str, Loaded[Assumption]] = {e.model.parameter: e for e in assumption_entities(site.kb)}

    def named(parameter: str) -> Markup:
        entity = assumptions.get(parameter)
        if entity is None:
            return inert(say(PARAMETERS[parameter].zh, parameter.replace("_", " ")))
        return site.link(entity.id, localized(entity.model.name)) + Markup(say("（{}）", " ({})")).format(
            PARAMETERS[parameter].shown(entity.model.value))

    context: dict[str, object] = {"bytes": [named(p) for p in BYTES_PER_PARAMETER], "overlap": named("dp_overlap_fraction"),
                                  "example": None}
    if ex is None:
        return context
    s, c = ex.study.model, ex.choice
    data_parallel = c.gpus // (c.tensor_parallel * c.pipeline_parallel)
    interleaved = replace(c, virtual_pipeline=INTERLEAVED_CHUNKS) if c.pipeline_parallel > 1 else None
    where = (site.link(ex.node) if ex.node else
             Markup("{} × {}").format(c.gpus_per_node, site.link(s.gpu)))
    context["example"] = {
        "study": site.link(ex.study.id, localized(s.title)), "workload": site.link(c.workload, _workload_name(site, c.workload)), "where": where,
        "network": site.link(ex.network), "gpus": c.gpus, "per_node": int(s.gpus_per_node.value),
        "nodes": c.gpus // int(s.gpus_per_node.value), "tp": c.tensor_parallel, "pp": c.pipeline_parallel,
        "dp": data_parallel, "zero": c.zero_stage, "micro_batch": c.micro_batch_size, "seq": c.sequence_length,
        "global_batch": c.global_batch_size, "recompute": RECOMPUTE[c.recompute],
        "zero_table": zero_table(site, ex), "plain": step_figures(site, c, "plain"),
        "chunks": INTERLEAVED_CHUNKS,
        "interleaved": None if interleaved is None else interleaved_figures(site, interleaved),
        "link": Markup(escape(calculator_query(c))),
    }
    return context
