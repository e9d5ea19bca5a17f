"""The entity types of the knowledge base, one per spec folder (DESIGN.md section 4).

Each class documents what its file holds; derived figures (totals, ratios, speed-ups) are not
fields here: `generator.derive` computes them, and a field with the same name is a *stated*
figure that the validator compares with the derived one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from .common import (
    NUMBER_OUT,
    Compute,
    Count,
    DataRate,
    DataSize,
    Entity,
    FigureRef,
    Frequency,
    Identified,
    Keyed,
    LatencyFigure,
    Power,
    PriceFigure,
    QuotedText,
    Range,
    Ratio,
    Ref,
    Slug,
    SourceRef,
    Strict,
    Text,
    TokenRate,
    TransferRate,
    UnitSymbol,
)

GpuRef = Annotated[Slug, Ref("gpus")]
InterconnectRef = Annotated[Slug, Ref("interconnects")]
NetworkRef = Annotated[Slug, Ref("networks")]
ClaimRef = Annotated[Slug, Ref("claims")]
AnyRef = Annotated[Slug, Ref("gpus", "interconnects", "networks", "topologies", "layers")]
PickRef = Annotated[Slug, Ref("gpus", "interconnects", "networks", "topologies")]
TableRef = Annotated[Slug, Ref("tiers")]
WorkloadRef = Annotated[Slug, Ref("workloads")]


class Source(Identified):
    title: Annotated[str, Field(min_length=1, max_length=300)]
    publisher: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Literal["datasheet", "standard", "documentation", "paper", "measurement", "article", "estimate"]
    url: Annotated[str, Field(min_length=1, max_length=500)] | None = None  # only articles may lack one
    # When this project last opened the document; absent when it is cited from the publisher's
    # catalogue but could not be opened from the build environment (the sources page says so).
    retrieved: dt.date | None = None
    published: dt.date | None = None
    note: QuotedText | None = None  # what the document says, as evidence


# --- GPUs -----------------------------------------------------------------------------------

class Memory(Strict):
    type: Literal["HBM2", "HBM2e", "HBM3", "HBM3e", "GDDR6X"]
    capacity: DataSize
    bandwidth: DataRate
    bus_width: DataSize | None = None  # bits; with pin_rate it derives bandwidth
    pin_rate: DataRate | None = None


class GpuCompute(Strict):
    fp32: Compute  # non-tensor FP32
    tensor_bf16_dense: Compute
    tensor_fp16_dense: Compute  # FP16 inputs, FP32 accumulate
    tensor_fp16_fp16acc_dense: Compute | None = None  # GeForce: FP16 accumulate runs faster
    tensor_bf16_sparse: Compute | None = None  # 2:4 structured sparsity, as datasheets print
    sm_count: Count | None = None
    fp32_cores_per_sm: Count | None = None
    boost_clock: Frequency | None = None


class GpuNvlink(Strict):
    interconnect: Annotated[Slug, Ref("interconnects")]
    links: Count
    bandwidth: DataRate  # per GPU, all links
    bridge: bool = False  # PCIe cards reach NVLink only through a bridge
    bridge_gpus: Annotated[int, Field(ge=2, le=8)] | None = None


class Gpu(Entity):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    family: Slug  # variants of one chip (e.g. v100) share a family
    vendor: Literal["nvidia", "amd"]
    architecture: Literal["volta", "ampere", "hopper", "blackwell", "ada-lovelace"]
    form_factor: Literal["sxm", "pcie"]
    memory: Memory
    compute: GpuCompute
    power: Power
    nvlink: GpuNvlink | None  # required key: write `nvlink: null` for none
    pcie: Annotated[Slug, Ref("interconnects")]
    price: PriceFigure | None = None
    summary: Text


# --- Intra-node links -------------------------------------------------------------------------

class Encoding(Strict):
    name: Annotated[str, Field(min_length=1, max_length=80)]
    payload_bits: Annotated[int, Field(ge=1, le=4096)]
    total_bits: Annotated[int, Field(ge=1, le=4096)]
    source: SourceRef


class Pcie(Entity):
    type: Literal["pcie"]
    name: Annotated[str, Field(min_length=1, max_length=120)]
    generation: Literal["3.0", "4.0", "5.0", "6.0"]
    transfer_rate: TransferRate  # per lane
    lanes: Count
    encoding: Encoding
    per_direction: DataRate | None = None
    bidirectional: DataRate | None = None
    summary: Text


class Nvlink(Entity):
    type: Literal["nvlink"]
    name: Annotated[str, Field(min_length=1, max_length=120)]
    generation: Annotated[int, Field(ge=1, le=10)]
    links_per_gpu: Count
    per_link: DataRate
    total: DataRate | None = None  # per GPU; derived from links x per-link rate
    summary: Text


class Nvswitch(Entity):
    type: Literal["nvswitch"]
    name: Annotated[str, Field(min_length=1, max_length=120)]
    generation: Annotated[int, Field(ge=1, le=10)]
    nvlink: Annotated[Slug, Ref("interconnects")]
    gpus: Count  # GPUs in one all-to-all NVLink domain
    switches: Count | None = None
    per_gpu: DataRate
    summary: Text


Interconnect = Annotated[Pcie | Nvlink | Nvswitch, Field(discriminator="type")]


# --- Networks, layers, topologies --------------------------------------------------------------

class Network(Entity):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    fabric: Literal["infiniband", "ethernet"]
    rdma: Literal["native", "rocev2", "none"]
    lanes: Count
    lane_rate: DataRate
    port_rate: DataRate
    latency: LatencyFigure | None = None
    summary: Text


class Layer(Entity):
    order: Annotated[int, Field(ge=1, le=9)]
    name: Text
    connects: Text
    technologies: list[AnyRef]
    summary: Text


class Topology(Entity):
    name: Text
    summary: Text
    strengths: list[Text]
    weaknesses: list[Text]
    sources: list[SourceRef]


# --- Tables, advice, cases, pitfalls -----------------------------------------------------------

class TierRow(Strict):
    gpus: Range
    picks: list[PickRef]  # empty: the source gives no advice for this range
    said: Annotated[str, Field(max_length=80)] | None = None  # the range as the article wrote it
    note: Text | None = None


class TierTable(Entity):
    title: Text
    subject: Literal["network", "topology", "intra_node"]
    source: SourceRef
    rows: list[TierRow]
    note: Text | None = None


class Conflict(Strict):
    """An acknowledged disagreement between advice and a tier table, kept as the article's advice."""

    table: TableRef
    note: Text


class Advice(Strict):
    layer: Literal["gpu", "intra_node", "network", "topology", "rdma"]
    model: Literal["small", "medium", "large"] | None = None
    gpus: Range | None = None
    picks: list[PickRef]
    said: QuotedText
    conflict: Conflict | None = None


class Recommendation(Entity):
    title: Text
    source: SourceRef
    items: list[Advice]


class ScalingRow(Keyed):
    label: Text
    network: NetworkRef | None  # null: the no-communication ideal
    single_gpu: TokenRate
    cluster: TokenRate
    speedup: Ratio
    comm_share: Ratio


Whole = Annotated[int, Field(ge=1, le=1_000_000)]


class ModelledLayout(Keyed):
    """One parallel layout the cost model is run with for a scaling study (the CLI's layout flags)."""

    label: Text
    tp: Whole
    pp: Whole
    zero: Literal[0, 1, 2, 3]
    micro_batch: Whole = 1
    recompute: Literal["none", "selective", "full"] = "selective"
    sequence_parallel: bool = False


class ScalingModel(Strict):
    """What the cost model predicts for a study's cluster: the published workload it stands for
    (`why` says why that one), the settings the article leaves open, stated here, and two or three
    layouts. Each row with a network is estimated once per layout."""

    workload: WorkloadRef
    why: Text
    nics_per_node: Whole
    seq: Whole
    global_batch: Whole
    layouts: Annotated[list[ModelledLayout], Field(min_length=1, max_length=3)]
    note: Text | None = None


class ScalingStudy(Entity):
    type: Literal["scaling_study"]
    title: Text
    source: SourceRef
    workload: Text
    gpu: GpuRef
    nodes: Count
    gpus_per_node: Count
    gpus: Count
    rows: list[ScalingRow]
    caveats: list[Text]
    modelled: ScalingModel | None = None


class FieldSetup(Strict):
    gpu: GpuRef | None = None
    gpus: Annotated[int, Field(ge=1, le=1000000)] | None = None
    interconnect: InterconnectRef | None = None
    network: NetworkRef | None = None


class FieldReport(Entity):
    type: Literal["field_report"]
    title: Text
    source: SourceRef
    setup: FieldSetup
    observation: QuotedText
    lesson: Text
    claims: list[ClaimRef]


Case = Annotated[ScalingStudy | FieldReport, Field(discriminator="type")]


class Command(Strict):
    command: Annotated[str, Field(min_length=1, max_length=200)]
    purpose: Text


class Pitfall(Entity):
    title: Text
    severity: Literal["danger", "warning", "tip", "info"]
    origin: Literal["article", "editorial"]
    source: SourceRef
    body: Text
    concerns: list[AnyRef]
    commands: list[Command] = []


# --- Claims --------------------------------------------------------------------------------------

class RatioExpr(Strict):
    ratio: Annotated[list[FigureRef], Field(min_length=2, max_length=2)]


Expr = FigureRef | RatioExpr


class StatedValue(Strict):
    value: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NUMBER_OUT]
    unit: UnitSymbol


class StatedRange(Strict):
    low: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NUMBER_OUT]
    high: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NUMBER_OUT]
    unit: UnitSymbol


class StatedBound(Strict):
    bound: Literal["below", "above"]
    value: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NUMBER_OUT]
    unit: UnitSymbol


class ValueCheck(Strict):
    kind: Literal["value"]
    actual: Expr
    stated: StatedValue


class RangeCheck(Strict):
    kind: Literal["range"]
    low: Expr
    high: Expr
    stated: StatedRange


class BoundCheck(Strict):
    kind: Literal["bound"]
    actual: Expr
    stated: StatedBound


class UnverifiableCheck(Strict):
    kind: Literal["unverifiable"]


Check = Annotated[ValueCheck | RangeCheck | BoundCheck | UnverifiableCheck, Field(discriminator="kind")]
Verdict = Literal["confirmed", "approximate", "corrected", "unsupported"]


class Claim(Entity):
    source: SourceRef  # the article that makes the claim
    said: QuotedText  # the statement, paraphrased
    check: Check
    tolerance_pct: Annotated[float, Field(gt=0, le=50), NUMBER_OUT] = 2.0  # within: confirmed
    approximate_pct: Annotated[float, Field(gt=0, le=100), NUMBER_OUT] = 10.0  # within: approximate
    verdict: Verdict
    why: Text
