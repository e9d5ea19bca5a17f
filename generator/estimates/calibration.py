"""The cost model against every published run (specs/runs/): the predicted and the measured step
time of each run, the error of each, and the mean absolute error and bias per source and overall.

Error is measured ÷ predicted − 1, as in the issue that set the target: +10 % means the run was
10 % slower than the model said (the model is too optimistic), −10 % that it was faster. A run
the model cannot express (a layout it has no schedule for, a field the source leaves unstated)
is kept in the report with the reason, and counts in no mean. Pure: a validated knowledge base
in, a `Calibration` out; the CLI (`python -m generator calibrate`) prints it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

from ..costmodel import Assumptions, Workload, estimate
from ..costmodel.inputs import Layout, Precision
from ..figure_format import signed_percent
from ..knowledge import KnowledgeBase, Loaded
from ..language import Bilingual, say
from ..model.entities import Architecture, Gpu, Source
from ..model.runs import Run
from .records import assumptions
from .runs import Assumed, Inferred, RunInputs, fastest, measured_step, run_inputs

ASSUMED = Assumed(micro_batch=1, gpus_per_node=8, nics_per_node=8, zero_stage=1, recompute="selective",
                  sequence_parallel=True, flash_attention=True, reference_network=True, fastest_unstated=True)
"""What the suite assumes where a run leaves a field unstated, never where it states one; every
run that takes a value from here lists it (`RunError.assumed`):
- one sequence per micro-batch (Narayanan 2021 Table 1 states none; Megatron-LM's default);
- 8 GPUs and 8 NICs per node: every A100 and H100 SXM run of the suite is on 8-GPU HGX or DGX
  baseboards, rail-optimised with one compute NIC per GPU (llm-foundry states neither);
- ZeRO stage 1, Megatron's distributed optimizer, which NeMo and Megatron-Core turn on by default;
- selective recomputation, Megatron-LM's recommended setting since Korthikanti et al. 2022;
- sequence parallelism wherever tensor parallelism is used (it only acts with t > 1): Korthikanti et
  al. 2022 pair it with selective recomputation, and NeMo's recipes for the suite's Llama and GPT
  layouts turn it on with tensor parallelism; the runs that predate it (Narayanan 2021) or compare
  against it (Korthikanti's baselines) state that they do not use it;
- FlashAttention, where the run does not say (every stack the later runs name uses it; the
  2021-22 Megatron and DeepSpeed runs state that they do not).
- where a multi-node run names no network: the compute network and NIC count of its GPU's
  reference server in specs/nodes/ (DGX A100: 8 × HDR 200G; DGX H100: 8 × NDR 400G), the
  network the HGX boards of the suite's cloud and lab clusters are built with;
- where a run leaves its tensor × pipeline split or its interleaving (whether, or how many chunks
  per stage) unstated (`fastest_unstated`): the value the model itself predicts fastest among those
  its feasibility rules (Megatron-LM's) accept for the run's GPUs, heads, layers, micro-batches and
  any stated data-parallel degree, one that fits in memory before one that does not (`runs.fastest`;
  it never reads the measured figure). These are
  the choices the runs' authors tuned for throughput, and say so. Narayanan et al. 2021 (§1) ask
  "How should parallelism techniques be combined to maximize the training throughput of large
  models given a batch size", report that "sub-optimal combinations of tensor and pipeline model
  parallelism can lead to up to 2× lower throughput", and pick the degrees of Table 1 "using
  heuristics described in §3" (§5.1); they add that they "do not automatically explore the search
  space of parallelism strategies" (§1), so the model's optimum stands in for their tuning, not
  for a search they ran. Llama 3 (§3.3.2): "Through careful tuning of the parallelism
  configuration, hardware, and software, we achieve an overall BF16 Model FLOPs Utilization
  (MFU ...) of 38-43% for the configurations shown in Table 4", with "an interleaved schedule
  (Narayanan et al., 2021) with V pipeline stages on one pipeline rank" and V unstated. Each such
  run lists the choice with every accepted value (`RunError.inferred`), and `Calibration.without_inferred`
  is the error without these runs."""


Block = Literal["dense", "moe"]
Training = Literal["full", "lora"]


class Kind(NamedTuple):
    """A run's block, precision and what it trains (`kind_of`): the groups `Calibration.kinds`
    summarises."""

    block: Block
    precision: Precision
    training: Training = "full"


@dataclass(frozen=True)
class RunError:
    """One run: measured and predicted seconds per step and the error, or why there are none."""

    id: str
    name: str
    source: str
    measured_s: float | None
    predicted_s: float | None
    fits: bool | None
    why: str | None  # None: the run was expressed and estimated
    assumed: tuple[str, ...]
    inferred: Inferred | None = None  # a layout choice the run left unstated, made by the model (in `assumed` too)
    kind: Kind | None = None  # `kind_of` its inputs; None when the run gives the model none
    architecture: str | None = None  # its GPU's architecture (specs/architectures/), where the GPU is known

    @property
    def error(self) -> float | None:
        if self.measured_s is None or self.predicted_s is None:
            return None
        return self.measured_s / self.predicted_s - 1.0


@dataclass(frozen=True)
class Summary:
    """Mean absolute error and mean signed error (bias) of a group of expressed runs."""

    runs: int
    expressed: int
    mean_abs_error: float | None
    bias: float | None


@dataclass(frozen=True)
class SourceSummary:
    source: str
    title: str
    summary: Summary


@dataclass(frozen=True)
class KindSummary:
    kind: Kind
    summary: Summary


@dataclass(frozen=True)
class ArchitectureSummary:
    """The runs on one GPU architecture: the label it is named by, in both languages, and their
    summary (no runs yet: `Summary.runs` 0)."""

    architecture: str
    label_zh: str
    label_en: str
    summary: Summary


@dataclass(frozen=True)
class Calibration:
    """Every run, the summaries by source and overall, `without_inferred`: the summary over the
    runs whose layout needed no inferred choice (`RunError.inferred`), to show what inferring does,
    `kinds`: the summaries by block and precision across sources, so that one source's many
    runs of one kind cannot hide how the model does on another (a source that mixes dense and
    mixture-of-experts rows shows each), and `architectures`: the summary on each GPU architecture
    of the knowledge base, every one listed (the answer on a GPU generation the suite has few or
    no runs of says so)."""

    runs: tuple[RunError, ...]
    sources: tuple[SourceSummary, ...]
    overall: Summary
    without_inferred: Summary
    kinds: tuple[KindSummary, ...] = ()
    architectures: tuple[ArchitectureSummary, ...] = ()

    def worst(self, count: int = 10) -> tuple[RunError, ...]:
        """The expressed runs with the largest absolute error, largest first (ties by id)."""
        expressed = [r for r in self.runs if r.error is not None]
        return tuple(sorted(expressed, key=lambda r: (-abs(r.error or 0.0), r.id))[:count])


def summarise(runs: list[RunError]) -> Summary:
    errors = [r.error for r in runs if r.error is not None]
    if not errors:
        return Summary(len(runs), 0, None, None)
    return Summary(len(runs), len(errors), statistics.fmean(abs(e) for e in errors), statistics.fmean(errors))


@dataclass(frozen=True)
class Prepared:
    """What a run gives the model before any assumption of specs/assumptions/ is read: its
    measured seconds and its inputs, or why it has none (no step time: `unmeasured`; no inputs:
    `inexpressible`). Inputs with open layout fields are completed in `estimated`, under the
    model's assumptions, from the inputs alone."""

    id: str
    name: str
    source: str
    measured_s: float | None
    inputs: RunInputs | None
    unmeasured: str | None
    inexpressible: str | None
    architecture: str | None = None


def architecture_of(kb: KnowledgeBase, gpu_id: str) -> str | None:
    """The architecture of a GPU of the knowledge base (None: no such GPU)."""
    gpu = kb.get(gpu_id, Gpu)
    return None if gpu is None else gpu.model.architecture


def prepare(kb: KnowledgeBase, entity: Loaded[Run], assumed: Assumed = ASSUMED) -> Prepared:
    run = entity.model
    measured = measured_step(kb, entity)
    seconds = None if isinstance(measured, str) else measured.seconds
    inputs = run_inputs(kb, entity, assumed)
    return Prepared(entity.id, run.name, run.source, seconds, None if isinstance(inputs, str) else inputs,
                    measured if isinstance(measured, str) else None, inputs if isinstance(inputs, str) else None,
                    architecture_of(kb, run.gpu))


def block_of(workload: Workload) -> Block:
    """A workload's block: a mixture of experts, or dense."""
    return "moe" if workload.moe is not None else "dense"


def training_of(layout: Layout) -> Training:
    """What a layout trains: every weight, or LoRA's adapters on a frozen base."""
    return "lora" if layout.adapter_rank > 0 else "full"


def kind_of(inputs: RunInputs) -> Kind:
    """What the model has to price, in three words: the block (dense, or a mixture of experts), the
    precision of the linear layers' GEMMs, and whether every weight trains or only LoRA's adapters
    (no weight gradients for the frozen base: a different balance of work)."""
    return Kind(block_of(inputs.workload), inputs.layout.precision, training_of(inputs.layout))


def estimated(run: Prepared, model: Assumptions | str) -> RunError:
    """A prepared run under the model's assumptions (or why there are none)."""
    why = run.unmeasured or (model if isinstance(model, str) else None) or run.inexpressible
    if why is not None or run.inputs is None or isinstance(model, str):
        return RunError(run.id, run.name, run.source, run.measured_s, None, None, why, (),
                        architecture=run.architecture)
    model = run.inputs.under(model)  # what the run states in place of an assumption
    inputs = fastest(run.inputs, model)  # the prepared inputs, not the measured seconds
    if isinstance(inputs, str):
        return RunError(run.id, run.name, run.source, run.measured_s, None, None, inputs, run.inputs.assumed,
                        kind=kind_of(run.inputs), architecture=run.architecture)
    outcome = estimate(inputs.workload, inputs.cluster, inputs.layout, model)
    if outcome.estimate is None:
        return RunError(run.id, run.name, run.source, run.measured_s, None, None, outcome.problems[0].message,
                        inputs.assumed, inputs.choice, kind_of(inputs), run.architecture)
    est = outcome.estimate
    return RunError(run.id, run.name, run.source, run.measured_s, est.step.step_s, est.memory.fits, None,
                    inputs.assumed, inputs.choice, kind_of(inputs), run.architecture)


def run_error(kb: KnowledgeBase, entity: Loaded[Run], assumed: Assumed = ASSUMED) -> RunError:
    return estimated(prepare(kb, entity, assumed), assumptions(kb))


def prepared_runs(kb: KnowledgeBase, assumed: Assumed = ASSUMED) -> tuple[Prepared, ...]:
    """Every run of the knowledge base, in id order, prepared."""
    return tuple(prepare(kb, entity, assumed) for entity in sorted(kb.of_type(Run), key=lambda e: e.id))


def report(kb: KnowledgeBase, runs: tuple[RunError, ...]) -> Calibration:
    """Runs with their summaries by source (titled from the knowledge base) and overall."""
    by_source: dict[str, list[RunError]] = {}
    for r in runs:
        by_source.setdefault(r.source, []).append(r)
    sources = []
    for source_id in sorted(by_source):
        source = kb.get(source_id, Source)
        title = source.model.title if source is not None else source_id
        sources.append(SourceSummary(source_id, title, summarise(by_source[source_id])))
    by_kind: dict[Kind, list[RunError]] = {}
    for r in runs:
        if r.kind is not None:
            by_kind.setdefault(r.kind, []).append(r)
    kinds = tuple(KindSummary(kind, summarise(by_kind[kind])) for kind in sorted(by_kind))
    architectures = tuple(
        ArchitectureSummary(a.id, a.model.label.zh, a.model.label.en or a.model.label.zh,
                            summarise([r for r in runs if r.architecture == a.id]))
        for a in sorted(kb.of_type(Architecture), key=lambda e: e.id))
    return Calibration(runs, tuple(sources), summarise(list(runs)), summarise([r for r in runs if r.inferred is None]),
                       kinds, architectures)


def calibrate(kb: KnowledgeBase, assumed: Assumed = ASSUMED) -> Calibration:
    """Every run of the knowledge base, in id order, with the summaries by source and overall.
    With the default assumptions it is computed once per knowledge base (`kb.memo`): the rule
    calibration-error and the pages of a build both ask, and the answer cannot change."""
    def compute() -> Calibration:
        model = assumptions(kb)
        return report(kb, tuple(estimated(run, model) for run in prepared_runs(kb, assumed)))

    return kb.once("calibration", compute) if assumed is ASSUMED else compute()


def statement(summary: Summary) -> str:
    """The one sentence every estimate carries: on how many runs, how far off on average."""
    if summary.mean_abs_error is None or summary.bias is None:
        return say("还没有可以比对的已发表实测运行。", "There are no published measured runs to compare with yet.")
    mae, bias = f"{summary.mean_abs_error:.1%}", signed_percent(summary.bias)
    return say(f"在 {summary.expressed} 条已发表的实测运行上，模型预测的单步时间平均绝对误差为 "
               f"{mae}，平均偏差 {bias}（正值表示实际比预测慢）。",
               f"On {summary.expressed} published measured runs, the step time the model predicts is off by "
               f"{mae} on average (mean absolute error), with a mean bias of {bias} (positive: slower in "
               "practice than predicted).")


KIND_BLOCK = Bilingual(zh={"dense": "稠密模型", "moe": "混合专家模型"}, en={"dense": "dense", "moe": "mixture-of-experts"})


def kind_statement(kind: Kind, summary: Summary) -> str:
    """The sentence for the runs of one kind (`kind_of`): a dense and a mixture-of-experts answer,
    a BF16 and an FP8 one, or a full and a LoRA one, are not equally well measured, and the overall
    error hides it."""
    what = f"{KIND_BLOCK[kind.block]}{say('、', ', ')}{kind.precision.upper()}" + (
        say("、LoRA 微调", ", LoRA fine-tuning") if kind.training == "lora" else "")
    return _group_statement(summary, (f"与这次同类（{what}）的已发表实测运行还没有，总体误差对它没有直接依据。",
                                      f"No published measured run is of this kind ({what}) yet, so the overall error "
                                      "is no direct evidence for it."),
                            (f"与这次同类（{what}）的已发表实测运行有 {summary.expressed} 条",
                             f"{summary.expressed} published measured runs are of this kind ({what})"))


def architecture_statement(architecture: ArchitectureSummary) -> str:
    """The sentence for the runs on the answer's GPU architecture: the suite measures some GPU
    generations far more than others, and on a generation it has few runs of, the overall error
    says little."""
    summary, name = architecture.summary, say(architecture.label_zh, architecture.label_en)
    return _group_statement(summary, (f"在 {name} 架构的 GPU 上还没有可以比对的已发表实测运行，总体误差对它没有直接依据。",
                                      f"No published measured run on a {name} GPU can be compared yet, so the overall "
                                      "error is no direct evidence for it."),
                            (f"在 {name} 架构的 GPU 上，已发表的实测运行有 {summary.expressed} 条",
                             f"{summary.expressed} published measured runs are on {name} GPUs"))


def _group_statement(summary: Summary, unmeasured: tuple[str, str], measured: tuple[str, str]) -> str:
    """A group's sentence (Chinese, English): `unmeasured` when none of its runs was measured, else
    `measured` (how many runs, of what) with their error and bias."""
    if summary.mean_abs_error is None or summary.bias is None:
        return say(*unmeasured)
    mae, bias = f"{summary.mean_abs_error:.1%}", signed_percent(summary.bias)
    return say(f"{measured[0]}，单步时间的平均绝对误差为 {mae}，平均偏差 {bias}。",
               f"{measured[1]}: on them the step time is off by {mae} on average (mean absolute error), with a mean "
               f"bias of {bias}.")


def _summary_record(summary: Summary) -> dict[str, object]:
    return {"runs": summary.expressed, "mean_abs_error": summary.mean_abs_error, "bias": summary.bias}


def accuracy_record(calibration: Calibration) -> dict[str, object]:
    """The accuracy every answer carries under `accuracy` (`estimate` and `plan --format json`, the
    calculator's data): the overall error, and under `kinds` the error on the runs of each kind
    (`kind_of`: every block with every precision, runs 0 where the suite has none), for
    `for_kind` to pick the answer's own; and under `architectures` the same for each GPU
    architecture of the knowledge base."""
    overall = calibration.overall
    measured = {k.kind: k.summary for k in calibration.kinds}
    kinds = [Kind(block, precision, training) for block in get_args(Block) for precision in get_args(Precision)
             for training in get_args(Training)]
    return {**_summary_record(overall), "error": "measured step time ÷ predicted step time − 1",
            "statement": statement(overall),
            "kinds": [{"block": kind.block, "precision": kind.precision, "training": kind.training,
                       **_summary_record(summary), "statement": kind_statement(kind, summary)}
                      for kind in kinds for summary in [measured.get(kind, Summary(0, 0, None, None))]],
            "architectures": [{"architecture": a.architecture, **_summary_record(a.summary),
                               "statement": architecture_statement(a)} for a in calibration.architectures]}


def for_kind(record: dict[str, object], block: Block, precision: Precision,
             architecture: str | None = None, *, training: Training = "full") -> dict[str, object]:
    """`record` (`accuracy_record`) with `kind`: its entry for the answer's block, precision and
    training (a record that lists no kinds is returned as it is), and with `architecture`: its entry
    for the architecture of the answer's GPU, where one is given and listed."""
    kinds = record.get("kinds")
    if not isinstance(kinds, list):
        return record
    out = {**record, "kind": next(k for k in kinds if k["block"] == block and k["precision"] == precision
                                  and k["training"] == training)}
    listed = record.get("architectures")
    if architecture is not None and isinstance(listed, list):
        found = [a for a in listed if a["architecture"] == architecture]
        if found:
            out["architecture"] = found[0]
    return out
