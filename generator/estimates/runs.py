"""A measured training run (specs/runs/) as the cost model's inputs, and its measured figure as a
step time in seconds: the two sides a calibration compares. Pure functions of a validated
`KnowledgeBase`; each returns its record or a one-line reason why the run cannot be expressed.

The model's `Layout` does not yet hold context parallelism, interleaved pipelines, uneven stages
or hybrid sharding: a run that needs one of them is refused with the reason (`beyond_layout`),
and the layout fields the model does not read travel in `Extras`, so that a model that learns
them can be handed them. A field the run leaves unstated is never filled in silently: the caller
may name a value for it (`Assumed`), and the record lists every field so filled. A layout choice
the run's authors tuned for throughput (tensor × pipeline parallel, interleaving) the caller may
instead leave to the model (`Assumed.fastest_unstated`): the inputs then carry the candidates
(`Open`), and `fastest` takes the one the model predicts fastest, from the inputs alone.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..costmodel import Assumptions, estimate, parameters_from_shape
from ..costmodel.feasibility import input_problems
from ..costmodel.inputs import Cluster, GpuSpec, Layout, Node, Recompute, Workload
from ..knowledge import KnowledgeBase, Loaded
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import ComputeNode, Gpu, Network
from ..model.runs import Convention, ExpertRouting, Measured, PipelineSchedule, Run, RunLayout, RunPrecision, RunShape
from .records import (
    EP_OVERLAP,
    EXPERT_IMBALANCE,
    TP_OVERLAP,
    assumption_value,
    gpu,
    moe_record,
    network_port,
    scale_up,
    with_defaults,
    workload,
)

OPTIMIZER_STATE_BYTES = {"fp32": None, "bf16": 6.0}
"""Bytes a parameter of the optimizer states a run states (`RunLayout.optimizer_states`): in BF16
the parameter copy and Adam's two moments take 2 bytes each (Apex DistributedFusedAdam keeps its
params_shard, exp_avg_shard and exp_avg_sq_shard in the optimizer dtype); in FP32 (None) the
knowledge base's optimizer_bytes_per_parameter stands (12: ZeRO §3.1's mixed-precision Adam)."""

PARAMETER_TOLERANCE = 0.03
"""How far a run's published parameter count may lie from its shape's count: published counts
are labels rounded to two digits (1.7B) as often as exact counts."""

_FOR_THE_COUNT = ("kv_heads", "ffn_hidden_size", "vocabulary_size", "mlp", "norm", "tied_embeddings",
                  "linear_biases")


def heads_split(shape: RunShape) -> bool:
    """Whether the shape can exist: heads split the width, key/value heads the heads."""
    kv = shape.kv_heads or shape.attention_heads
    return not (shape.hidden_size % shape.attention_heads or shape.attention_heads % kv)


def shape_workload(name: str, shape: RunShape) -> Workload | str:
    """An inline shape as the model's workload. The block's widths and vocabulary must be stated;
    a flag the run leaves out (norm, tied embeddings, biases) takes the model's default, the GPT
    block, which only moves the parameter count; Ψ is the published count, else the shape's."""
    missing = [f for f in _FOR_THE_COUNT[:4] if getattr(shape, f) is None]
    if missing:
        return f"the shape states no {', '.join(missing)}"
    if not heads_split(shape):
        return "the shape's heads do not split its width"
    assert shape.vocabulary_size is not None
    base = Workload(name, 0.0, shape.layers, shape.hidden_size, shape.attention_heads, shape.vocabulary_size,
                    ffn_hidden_size=shape.ffn_hidden_size, kv_heads=shape.kv_heads,
                    gated_mlp=shape.mlp in ("swiglu", "geglu"), position_embeddings=shape.position_embeddings or 0,
                    dropout=shape.dropout is not False, moe=moe_record(shape.moe))
    w = replace(base, norm=shape.norm or base.norm,
                tied_embeddings=base.tied_embeddings if shape.tied_embeddings is None else shape.tied_embeddings,
                linear_biases=base.linear_biases if shape.linear_biases is None else shape.linear_biases)
    return replace(w, parameter_count=float(shape.parameters) if shape.parameters is not None
                   else parameters_from_shape(w))


def shape_parameters(shape: RunShape) -> float | None:
    """The count the shape gives, when it states every field the count depends on (else None)."""
    if any(getattr(shape, f) is None for f in _FOR_THE_COUNT) or not heads_split(shape):
        return None
    w = shape_workload("shape", shape.model_copy(update={"parameters": None}))
    return None if isinstance(w, str) else w.parameter_count


def run_workload(kb: KnowledgeBase, run: Run) -> Workload | str:
    """The run's model: its workload entity, or its inline shape."""
    if run.workload is not None:
        spec = kb.get(run.workload, WorkloadSpec)
        return f"unknown workload {run.workload!r}" if spec is None else workload(spec.model)
    if run.shape is None:
        return "the run names neither a workload nor a shape"
    return shape_workload(run.name, run.shape)


@dataclass(frozen=True)
class Assumed:
    """Values a caller chooses for fields a run leaves unstated (None: assume nothing). A value
    here never overrides what the run states."""

    micro_batch: int | None = None
    zero_stage: int | None = None
    recompute: Recompute | None = None
    sequence_parallel: bool | None = None
    precision: RunPrecision | None = None
    gpus_per_node: int | None = None
    nics_per_node: int | None = None
    flash_attention: bool | None = None
    expert_routing: ExpertRouting | None = None
    reference_network: bool = False
    """A multi-node run that names neither network nor NICs takes the compute network and NIC
    count of its GPU's reference server (`reference_node`), and lists both as assumed."""
    fastest_unstated: bool = False
    """Tensor and pipeline parallel degrees and interleaving that the run leaves unstated are left
    open (`Open`), for `fastest` to take the values the model predicts fastest."""


def reference_node(kb: KnowledgeBase, gpu_id: str) -> tuple[str, Network, int] | None:
    """The vendor's reference server for a GPU (a `server` node of specs/nodes/ holding that
    GPU, the GPU vendor's own first, then by id) with its GPU-to-GPU network and NIC count: the
    network an 8-GPU HGX or DGX board of that GPU is built and sold with."""
    spec = kb.get(gpu_id, Gpu)
    vendor = None if spec is None else spec.model.vendor
    candidates = sorted((n for n in kb.of_type(ComputeNode) if n.model.kind == "server" and n.model.gpu == gpu_id),
                        key=lambda n: (n.model.vendor != vendor, n.id))
    for node in candidates:
        for nic in node.model.nics:
            network = kb.get(nic.network or "", Network)
            if nic.role == "scale_out" and network is not None:
                return node.id, network.model, nic.count.value * (nic.ports.value if nic.ports else 1)
    return None


@dataclass(frozen=True)
class Extras:
    """The run's layout fields that the model's `Layout` does not hold."""

    data_parallel: int
    context_parallel: int
    virtual_pipeline: int | str
    shard_group: int | None
    flash_attention: bool | None
    fp32_gradients: bool | None
    precision: RunPrecision
    pipeline_schedule: PipelineSchedule | None = None
    expert_routing: ExpertRouting | None = None


OPENABLE = ("tensor_parallel", "pipeline_parallel", "virtual_pipeline")
"""The layout fields `Assumed.fastest_unstated` may leave open, in the order `Open` lists them."""


@dataclass(frozen=True)
class Open:
    """Layout fields a run leaves unstated and the caller leaves to the model: their names (of
    `OPENABLE`, in its order) and the candidate values, each a tuple in that order. Every
    combination the run's stated fields allow is a candidate; whether the model accepts it is
    `estimate`'s to say, not this list's."""

    fields: tuple[str, ...]
    candidates: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Inferred:
    """What `fastest` took for the open fields: the values, and every candidate the model accepted."""

    fields: tuple[str, ...]
    chosen: tuple[int, ...]
    accepted: tuple[tuple[int, ...], ...]

    @staticmethod
    def values(v: tuple[int, ...]) -> str:
        """One candidate as written: its values joined by ×, in the fields' order."""
        return "×".join(map(str, v))

    def __str__(self) -> str:
        return (f"{'×'.join(self.fields)}={self.values(self.chosen)} "
                f"(fastest of {', '.join(map(self.values, self.accepted))})")


@dataclass(frozen=True)
class RunInputs:
    """A run as the model's inputs; `assumed` names each field taken from `Assumed`, and each
    choice the model made (`Inferred`, as text). While `open` is set, the layout's open fields hold
    placeholders: `fastest` fills them."""

    workload: Workload
    cluster: Cluster
    layout: Layout
    extras: Extras
    assumed: tuple[str, ...]
    ids: dict[str, str]
    open: Open | None = None
    choice: Inferred | None = None
    defaults: tuple[str, ...] = ()  # the layout-default assumptions the layout took (records.LAYOUT_DEFAULTS)
    optimizer_bytes: float | None = None  # the optimizer-state bytes a parameter the run states

    def under(self, model: Assumptions) -> Assumptions:
        """The model's assumptions with what the run itself states in place of an assumption: the
        bytes of its optimizer states (`optimizer_states`), where it states them."""
        return model if self.optimizer_bytes is None else replace(model, optimizer_bytes_per_parameter=self.optimizer_bytes)


def _filled(run: Run, assumed: Assumed, experts: bool) -> tuple[Assumed, tuple[str, ...]]:
    """The fields the model needs as the run states them, the unstated ones from `assumed`, and
    the names of those taken from it (`experts`: the model is a mixture of experts)."""
    lay = run.layout
    # Where a setting has nothing to act on, it is not unstated: ZeRO without a data-parallel
    # group to shard over, sequence parallelism without a tensor-parallel group, routing without
    # experts.
    zero = 0 if lay.zero_stage is None and lay.data_parallel == 1 else lay.zero_stage
    sequence = False if lay.sequence_parallel is None and lay.tensor_parallel == 1 else lay.sequence_parallel
    routing: ExpertRouting | None = "balanced" if lay.expert_routing is None and not experts else lay.expert_routing
    own = Assumed(lay.micro_batch, zero, lay.recompute, sequence, lay.precision, run.gpus_per_node, run.nics_per_node,
                  lay.flash_attention, routing)
    taken = tuple(f.name for f in fields(Assumed)
                  if getattr(own, f.name) is None and getattr(assumed, f.name) is not None)
    return replace(own, **{name: getattr(assumed, name) for name in taken}), taken


def beyond_layout(run: Run, open_chunks: bool = False) -> str | None:
    """What the model's `Layout` cannot express about the run's layout, or None. Interleaving,
    uneven stages, context parallelism and hybrid sharding it has (`costmodel.inputs.Layout`); an
    interleaved schedule whose chunks the source does not give it has not, unless the chunks are
    left to the model (`open_chunks`)."""
    lay = run.layout
    pp = lay.pipeline_parallel or 1
    if lay.context_parallel is None:
        return "the run states no context parallel degree"
    if pp > 1 and isinstance(lay.virtual_pipeline, str) and not open_chunks:
        return ("interleaving unstated" if lay.virtual_pipeline == "unstated"
                else "interleaved pipeline, chunks unstated") + ": the schedule's bubble depends on them"
    return None


def _cluster(kb: KnowledgeBase, run: Run, spec: Gpu, chip: GpuSpec, gpus_per_node: int,
             nics: int | None, network: Network | None) -> Cluster | str:
    per_node = min(gpus_per_node, run.gpus)
    if run.gpus % per_node:
        return f"{run.gpus} GPUs do not fill whole nodes of {per_node}"
    link = scale_up(kb, spec, per_node)
    if isinstance(link, str):
        return link
    nodes = run.gpus // per_node
    port, ports = 0.0, 0  # one node: no network to cross
    if nodes > 1:
        if network is None:
            return "the run spans nodes but names no network"
        if nics is None:
            return "the run spans nodes but states no NICs per node"
        rate = network_port(network)
        if isinstance(rate, str):
            return rate
        port, ports = rate, nics
    return Cluster(Node(f"{per_node} × {spec.name}", chip, per_node, link.bytes_per_s, ports, port), nodes)


def _opened(run: Run, assumed: Assumed) -> tuple[str, ...]:
    """The layout fields (of `OPENABLE`) the run leaves unstated and the caller leaves to the
    model. Chunks are open where the run does not say how many and its pipeline, stated or open,
    may have more than one stage."""
    if not assumed.fastest_unstated:
        return ()
    lay = run.layout
    chunks = isinstance(lay.virtual_pipeline, str) and lay.pipeline_parallel != 1
    return tuple(name for name, unstated in zip(OPENABLE, (lay.tensor_parallel is None, lay.pipeline_parallel is None,
                                                           chunks), strict=True) if unstated)


def _candidates(run: Run, opened: tuple[str, ...], gpus_per_node: int, layers: int) -> Open:
    """Every value of the open fields with what the run states held fixed: tensor parallel 1 to
    a node's GPUs; pipeline parallel, the divisors of the GPUs the tensor and context groups leave
    (exactly the one that keeps a stated data-parallel degree); chunks 1 (2 where the run says it
    interleaves) to the layers. Which of them the framework accepts is `estimate`'s to say."""
    lay = run.layout
    cp, dp = lay.context_parallel or 1, lay.data_parallel

    def stages(t: int) -> tuple[int, ...]:
        if "pipeline_parallel" not in opened:
            return (lay.pipeline_parallel or 1,)
        if dp is not None:
            return (run.gpus // (t * cp * dp),) if run.gpus % (t * cp * dp) == 0 else ()
        share = run.gpus // (t * cp)
        return tuple(p for p in range(1, share + 1) if share % p == 0)

    tensor = range(1, gpus_per_node + 1) if "tensor_parallel" in opened else (lay.tensor_parallel or 1,)
    first = 2 if lay.virtual_pipeline == "interleaved" else 1
    chunks = range(first, layers + 1) if "virtual_pipeline" in opened else (1,)
    rows = (dict(zip(OPENABLE, (t, p, v), strict=True)) for t in tensor for p in stages(t) for v in chunks)
    return Open(opened, tuple(tuple(row[name] for name in opened) for row in rows))


def run_inputs(kb: KnowledgeBase, entity: Loaded[Run], assumed: Assumed = Assumed()) -> RunInputs | str:
    """The model's inputs for a run, or why it has none: a field it needs is unstated (and not
    assumed), the hardware lacks a figure, or the layout is beyond the model (`beyond_layout`).
    Fields left to the model (`Assumed.fastest_unstated`) come back open: see `fastest`."""
    run, lay = entity.model, entity.model.layout
    model = run_workload(kb, run)
    if isinstance(model, str):
        return model
    experts = model.moe is not None
    got, taken = _filled(run, assumed, experts)
    opened = _opened(run, assumed)
    tp, pp, cp, batch = lay.tensor_parallel, lay.pipeline_parallel, lay.context_parallel, lay.global_batch
    ep = lay.expert_parallel if experts else 1
    unstated = [name for name, value in (("tensor_parallel", tp), ("pipeline_parallel", pp), ("context_parallel", cp),
                                         ("global_batch", batch), ("expert_parallel", ep),
                                         *((f.name, getattr(got, f.name)) for f in fields(Assumed)))
                if value is None and name != "nics_per_node" and name not in opened]
    if unstated:
        return f"the run states no {', '.join(unstated)}"
    tp, pp = tp or 1, pp or 1  # placeholders where open
    assert cp is not None and batch is not None and got.gpus_per_node is not None
    assert got.zero_stage is not None and got.micro_batch is not None and got.recompute is not None
    assert got.precision is not None and ep is not None
    beyond = beyond_layout(run, open_chunks="virtual_pipeline" in opened)
    if beyond is not None:
        return beyond
    spec = kb.get(run.gpu, Gpu)
    if spec is None:
        return f"unknown GPU {run.gpu!r}"
    chip = gpu(kb, spec.model)
    if isinstance(chip, str):
        return chip
    stated = kb.get(run.network or "", Network)
    network, nics = (None if stated is None else stated.model), got.nics_per_node
    # A run that states its NICs has described a network (BLOOM's Omni-Path), which the
    # knowledge base may lack: a reference server's network would replace it, not fill a gap.
    if network is None and assumed.reference_network and run.nics_per_node is None and run.gpus > got.gpus_per_node:
        reference = reference_node(kb, run.gpu)
        if reference is not None:
            network, nics = reference[1], reference[2]
            taken = (*(name for name in taken if name != "nics_per_node"), "network", "nics_per_node")
    cluster = _cluster(kb, run, spec.model, chip, got.gpus_per_node, nics, network)
    if isinstance(cluster, str):
        return cluster
    chunks = lay.virtual_pipeline if isinstance(lay.virtual_pipeline, int) else 1  # str: refused above, or open
    layout = Layout(tp, pp, got.zero_stage, got.micro_batch, lay.sequence_length, batch, got.recompute,
                    bool(got.sequence_parallel), "fp8" if got.precision == "fp8" else "bf16",
                    flash_attention=bool(got.flash_attention),
                    virtual_pipeline=chunks if pp > 1 or "pipeline_parallel" in opened else 1,
                    fp32_gradients=bool(lay.fp32_gradients), context_parallel=lay.context_parallel or 1,
                    shard_group=lay.shard_group or 0, attention_kernel=lay.attention_kernel or "flash-attention-2",
                    zero_gather=lay.zero_gather or "layer", expert_parallel=ep,
                    expert_tensor_parallel=(lay.expert_tensor_parallel or 1) if experts else 1,
                    recompute_layers=lay.recompute_layers or 0,
                    pp_scatter_gather=lay.pipeline_scatter_gather is not False, adapter_rank=lay.lora_rank or 0,
                    fp8_param_gather=bool(lay.fp8_param_gather))
    defaults = _layout_defaults(lay, got, experts)
    layout = with_defaults(layout, {name: value for name in defaults
                                    if (value := assumption_value(kb, name)) is not None})
    extras = Extras(lay.data_parallel or run.gpus // (tp * pp * cp), cp,
                    lay.virtual_pipeline, lay.shard_group, lay.flash_attention, lay.fp32_gradients, got.precision,
                    lay.pipeline_schedule, got.expert_routing if experts else None)
    ids = {"run": entity.id, "gpu": run.gpu}
    if run.workload is not None:
        ids["workload"] = run.workload
    if network is not None and cluster.node_count > 1:
        ids["network"] = network.id
    found = _candidates(run, opened, cluster.node.gpus_per_node, model.layers) if opened else None
    return RunInputs(model, cluster, layout, extras, taken, ids, found, defaults=defaults,
                     optimizer_bytes=OPTIMIZER_STATE_BYTES[lay.optimizer_states or "fp32"])


def fastest(inputs: RunInputs, model: Assumptions) -> RunInputs | str:
    """The inputs with their open fields at the candidate the model predicts fastest, or why no
    candidate can be estimated. Among the candidates `estimate` accepts (the framework's rules
    are its `check`'s), the smallest step time wins, a layout that fits in memory before one that
    does not (the run was made, so it fit), the first candidate on a tie. The choice is listed in
    `assumed` with every accepted value. It reads the inputs and the model, never a measured
    figure. Inputs with nothing open come back unchanged."""
    if inputs.open is None:
        return inputs
    names = inputs.open.fields
    timed: list[tuple[bool, float, tuple[int, ...], Layout]] = []
    refused: list[str] = []
    # The candidates differ only in their placement, so the inputs' domains are checked once.
    checked = not input_problems(inputs.workload, inputs.cluster, inputs.layout, model)
    for values in inputs.open.candidates:
        row = {"tensor_parallel": inputs.layout.tensor_parallel, "pipeline_parallel": inputs.layout.pipeline_parallel,
               "virtual_pipeline": inputs.layout.virtual_pipeline, **dict(zip(names, values, strict=True))}
        layout = replace(inputs.layout, tensor_parallel=row["tensor_parallel"], pipeline_parallel=row["pipeline_parallel"],
                         virtual_pipeline=row["virtual_pipeline"])
        got = estimate(inputs.workload, inputs.cluster, layout, model, inputs_checked=checked)
        if got.estimate is None:
            refused.append(got.problems[0].message)
        else:
            timed.append((not got.estimate.memory.fits, got.estimate.step.step_s, values, layout))
    if not timed:
        first = f", the first because {refused[0]}" if refused else ""
        return (f"the run leaves {'×'.join(names)} unstated and the model accepts none of the "
                f"{len(inputs.open.candidates)} candidates{first}")
    _, _, chosen, layout = min(timed, key=lambda t: (t[0], t[1]))
    choice = Inferred(names, chosen, tuple(row[2] for row in timed))
    gpus = inputs.cluster.node_count * inputs.cluster.node.gpus_per_node
    extras = replace(inputs.extras, data_parallel=gpus // (layout.tensor_parallel * layout.pipeline_parallel
                                                            * layout.context_parallel),
                     virtual_pipeline=layout.virtual_pipeline if "virtual_pipeline" in names
                     else inputs.extras.virtual_pipeline)
    return replace(inputs, layout=layout, extras=extras, assumed=(*inputs.assumed, str(choice)), open=None,
                   choice=choice)


def _layout_defaults(lay: RunLayout, got: Assumed, experts: bool) -> tuple[str, ...]:
    """The layout-default assumptions (`records.LAYOUT_DEFAULTS`) a run takes from the knowledge
    base; elsewhere the layout keeps its own default (nothing hidden, balanced routing):
    - the expert all-to-all share hidden behind compute, under DualPipe, whose forward and
      backward chunk pairs are built to hide it (DeepSeek-V3 report §3.2.1), not under a schedule
      that does not claim to (or an unstated one);
    - the busiest GPU's routed tokens ÷ the mean, where the router learned its own routing (1
      where the run forced balanced routing);
    - the tensor-parallel communication share hidden behind compute, where the run's framework
      overlapped it (not where the source is silent). Megatron-Core's overlap acts only with
      sequence parallelism (Megatron-Bridge turns it off without it), so a run without it hides
      nothing."""
    return tuple(name for name, taken in ((EP_OVERLAP, experts and lay.pipeline_schedule == "dualpipe"),
                                          (EXPERT_IMBALANCE, experts and got.expert_routing == "learned"),
                                          (TP_OVERLAP, bool(lay.tp_comm_overlap and got.sequence_parallel)))
                 if taken)


# --- The measured side ------------------------------------------------------------------------

# Which figure gives the step time, most direct first: a time, then a token rate (exact given the
# batch), then FLOP figures, which also need their convention (and a utilisation the peak).
PREFERENCE = ("step_time_s", "tokens_per_s", "tokens_per_s_per_gpu", "gpu_hours_per_trillion_tokens", "tflops_per_gpu",
              "pflops_total", "mfu_pct", "hfu_pct")

TRILLION = 1e12
SECONDS_PER_HOUR = 3600.0

FLOPS_PER_STEP = {
    "narayanan_eq3": "96·B·s·l·h²·(1 + s/6h + V/16lh)",
    "korthikanti_eq7_model": "72·B·s·l·h²·(1 + s/6h + V/12hl)",
    "korthikanti_eq8_hardware": "72·B·s·l·h²·(1 + s/3h + V/12hl)",
    "per_token_6n_attention": "B·s·(6N + 12·l·h·s)",
    "per_token_8n_attention": "B·s·(8N + 16·l·h·s)",
}


def flops_per_step(convention: Convention, model: Workload, batch: int, seq: int) -> float | None:
    """FLOPs of one step of B = `batch` sequences under a convention (None: `unstated`)."""
    b, s, n = float(batch), float(seq), model.parameter_count
    depth, h, v = float(model.layers), float(model.hidden_size), float(model.vocabulary_size)
    gemm = b * s * depth * h * h
    if convention == "narayanan_eq3":
        return 96.0 * gemm * (1.0 + s / (6.0 * h) + v / (16.0 * depth * h))
    if convention == "korthikanti_eq7_model":
        return 72.0 * gemm * (1.0 + s / (6.0 * h) + v / (12.0 * h * depth))
    if convention == "korthikanti_eq8_hardware":
        return 72.0 * gemm * (1.0 + s / (3.0 * h) + v / (12.0 * h * depth))
    if convention == "per_token_6n_attention":
        return b * s * (6.0 * n + 12.0 * depth * h * s)
    if convention == "per_token_8n_attention":
        return b * s * (8.0 * n + 16.0 * depth * h * s)
    return None


@dataclass(frozen=True)
class MeasuredStep:
    """The step time a run's figure gives, the figure it came from and the formula used."""

    seconds: float
    figure: Measured
    formula: str


def _peak(kb: KnowledgeBase, run: Run) -> float | str:
    """The dense rate a utilisation is relative to: at the run's precision (FP8 or 16-bit)."""
    spec = kb.get(run.gpu, Gpu)
    chip = None if spec is None else gpu(kb, spec.model)
    if chip is None or isinstance(chip, str):
        return chip or f"unknown GPU {run.gpu!r}"
    if run.layout.precision is None:
        return "a utilisation needs the precision its peak is taken at; the run states none"
    if run.layout.precision == "fp8":
        return chip.dense_fp8_flop_per_s or f"{chip.name} has no dense FP8 rate"
    return chip.dense_bf16_flop_per_s


def _step(kb: KnowledgeBase, run: Run, figure: Measured) -> MeasuredStep | str:
    lay, x = run.layout, figure.value
    if figure.metric == "step_time_s":
        return MeasuredStep(x, figure, "step time as published")
    if lay.global_batch is None:
        return "the run states no global batch, so its rate gives no step time"
    tokens = float(lay.global_batch * lay.sequence_length)
    if figure.metric == "tokens_per_s":
        return MeasuredStep(tokens / x, figure, "B·s ÷ tokens/s")
    if figure.metric == "tokens_per_s_per_gpu":
        return MeasuredStep(tokens / (run.gpus * x), figure, "B·s ÷ (GPUs × tokens/s per GPU)")
    if figure.metric == "gpu_hours_per_trillion_tokens":
        # A step of B·s tokens costs B·s ÷ 10¹² of the GPU-hours a trillion tokens cost, shared by the GPUs.
        return MeasuredStep(x * SECONDS_PER_HOUR * tokens / (TRILLION * run.gpus), figure,
                            "GPU-hours per 10¹² tokens × 3600 × B·s ÷ (10¹² × GPUs)")
    if figure.convention is None or figure.convention == "unstated":
        return f"{figure.metric} names no FLOP convention"
    model = run_workload(kb, run)
    if isinstance(model, str):
        return model
    flops = flops_per_step(figure.convention, model, lay.global_batch, lay.sequence_length)
    assert flops is not None
    count = FLOPS_PER_STEP[figure.convention]
    if figure.metric == "tflops_per_gpu":
        return MeasuredStep(flops / (run.gpus * x * 1e12), figure, f"{count} ÷ (GPUs × TFLOP/s per GPU)")
    if figure.metric == "pflops_total":
        return MeasuredStep(flops / (x * 1e15), figure, f"{count} ÷ PFLOP/s of the job")
    peak = _peak(kb, run)
    if isinstance(peak, str):
        return peak
    return MeasuredStep(flops / (run.gpus * x / 100.0 * peak), figure, f"{count} ÷ (GPUs × utilisation × dense peak)")


def measured_step(kb: KnowledgeBase, entity: Loaded[Run]) -> MeasuredStep | str:
    """The run's step time from its most direct usable figure (`PREFERENCE`), or why none gives one."""
    figures = sorted((m for m in entity.model.measured if m.metric in PREFERENCE), key=lambda m: PREFERENCE.index(m.metric))
    reasons = []
    for figure in figures:
        step = _step(kb, entity.model, figure)
        if not isinstance(step, str):
            return step
        reasons.append(step)
    return reasons[0] if reasons else "no measured figure gives a step time (only peak memory)"
