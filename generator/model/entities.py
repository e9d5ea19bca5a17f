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
VendorRef = Annotated[Slug, Ref("vendors")]
ArchitectureRef = Annotated[Slug, Ref("architectures")]
FormFactorRef = Annotated[Slug, Ref("form-factors")]
ScaleUpFamilyRef = Annotated[Slug, Ref("scale-up-families")]
NetworkFamilyRef = Annotated[Slug, Ref("network-families")]
PrecisionRef = Annotated[Slug, Ref("precisions")]
NicRef = Annotated[Slug, Ref("nics")]
InterconnectRef = Annotated[Slug, Ref("interconnects")]
NetworkRef = Annotated[Slug, Ref("networks")]
ClaimRef = Annotated[Slug, Ref("claims")]
AnyRef = Annotated[Slug, Ref("gpus", "interconnects", "networks", "topologies", "layers", "nodes", "nics")]
PickRef = Annotated[Slug, Ref("gpus", "interconnects", "networks", "topologies", "nodes")]
TableRef = Annotated[Slug, Ref("tiers")]


class Source(Identified):
    title: Annotated[str, Field(min_length=1, max_length=300)]
    publisher: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Literal["datasheet", "standard", "documentation", "paper", "measurement", "article", "estimate"]
    url: Annotated[str, Field(min_length=1, max_length=500)] | None = None  # only articles may lack one
    # When this project last opened the document; absent when it is cited from the publisher's
    # catalogue but could not be opened from the build environment (the sources page says so).
    retrieved: dt.date | None = None
    published: dt.date | None = None
    # One document published in several revisions (a datasheet re-issued with new figures): the
    # sources citing its revisions share `document` and differ in `revision`; a GPU row never
    # mixes two revisions of one document (rule sources-one-revision).
    document: Slug | None = None
    revision: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    note: QuotedText | None = None  # what the document says, as evidence


# --- Vocabularies ----------------------------------------------------------------------------
# The closed lists of the knowledge base (vendors, architectures, ...) are data: one file per
# value, so that a GPU from a new vendor needs YAML only. The generator names none of the values;
# what a page or rule needs to know about a value is a field here (e.g. a form factor's mounting).

class VocabularyValue(Entity):
    label: Text  # how pages name the value (Chinese; `en` optional)
    source: SourceRef  # where the value (the name, the property below) is documented
    note: Text | None = None


class Vendor(VocabularyValue):
    pass


class Architecture(VocabularyValue):
    vendor: VendorRef
    released: Annotated[int, Field(ge=1990, le=2100)]  # year announced: pages list older first


class FormFactor(VocabularyValue):
    # module: mounted on a baseboard (SXM, OAM), the scale-up link runs through the board;
    # card: a PCIe slot card, which reaches a scale-up link only through a bridge, if at all.
    mounting: Literal["module", "card"]


class ScaleUpFamily(VocabularyValue):
    vendor: VendorRef | None = None  # none for an open standard


class NetworkFamily(VocabularyValue):
    pass


class Precision(VocabularyValue):
    bits: Annotated[int, Field(ge=1, le=64)]  # columns go widest first
    # The precision the per-watt, per-byte and per-dollar ratios compare GPUs at (one value).
    reference: bool = False


# --- GPUs -----------------------------------------------------------------------------------

class Memory(Strict):
    type: Annotated[str, Field(min_length=1, max_length=40)]  # as the datasheet writes it
    capacity: DataSize
    bandwidth: DataRate | None = None  # None: not published, or the sources disagree
    bus_width: DataSize | None = None  # bits; with pin_rate it derives bandwidth
    pin_rate: DataRate | None = None


class Unsupported(Strict):
    """The GPU has no tensor path for this precision (pages show "—"), and where that is said."""

    source: SourceRef
    note: Text | None = None


class TensorPrecision(Keyed):
    """Tensor-core throughput at one precision (`key` names a value of specs/precisions/).
    Exactly one of `dense` and `unsupported`; a precision not listed is not known, not absent."""

    key: PrecisionRef
    dense: Compute | None = None
    sparse: Compute | None = None  # 2:4 structured sparsity, only where the vendor prints it
    dense_half_accumulate: Compute | None = None  # GeForce prints a faster rate with 16-bit accumulate
    unsupported: Unsupported | None = None


class GpuCompute(Strict):
    fp32: Compute | None = None  # non-tensor FP32; None: not published (the page says "未录入")
    tensor: list[TensorPrecision]
    sm_count: Count | None = None
    fp32_cores_per_sm: Count | None = None
    boost_clock: Frequency | None = None


class ScaleUp(Strict):
    """The GPU's scale-up link (NVLink, Infinity Fabric, HCCS, ...): links × per-link rate."""

    family: ScaleUpFamilyRef
    interconnect: Annotated[Slug, Ref("interconnects")] | None = None  # the generation, if one is in specs
    links: Count | None = None  # None: the vendor states only the total
    per_link: DataRate | None = None  # when no interconnect entity gives it
    bandwidth: DataRate | None = None  # per GPU, all links; its `direction` says which; None: not published
    domain: Count | None = None  # GPUs one scale-up domain joins (8 in HGX, 72 in NVL72)
    bridge: bool = False  # a card reaches its scale-up link only through a bridge
    bridge_gpus: Annotated[int, Field(ge=2, le=8)] | None = None


class Gpu(Entity):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    family: Slug  # variants of one chip (e.g. v100) share a family
    vendor: VendorRef
    architecture: ArchitectureRef
    form_factor: FormFactorRef
    memory: Memory
    compute: GpuCompute
    power: Power | None = None  # None: not published
    scale_up: ScaleUp | None  # required key: write `scale_up: null` for none
    pcie: Annotated[Slug, Ref("interconnects")] | None = None  # None: no PCIe host link (NVLink-C2C to the CPU) or not published
    price: PriceFigure | None = None
    summary: Text
    # The GPU this one is a restricted version of: same chip, sold (e.g. under export rules) with a
    # lower scale-up link or compute rate. The GPU page sets the two side by side.
    variant_of: GpuRef | None = None


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
    fabric: NetworkFamilyRef
    rdma: Literal["native", "rocev2", "none"]
    lanes: Count
    lane_rate: DataRate
    port_rate: DataRate
    latency: LatencyFigure | None = None
    summary: Text


class NicMode(Keyed):
    """One way the NIC can be run (key e.g. `ib`, `eth`): an Ethernet mode may split the ports."""

    family: NetworkFamilyRef
    ports: Count
    port_rate: DataRate  # per port
    network: NetworkRef | None = None  # the network entity this mode speaks, if in specs


class Nic(Entity):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    vendor: VendorRef
    host: Annotated[Slug, Ref("interconnects")] | None = None  # host interface, e.g. pcie-5-x16
    modes: Annotated[list[NicMode], Field(min_length=1)]
    summary: Text


# --- Nodes: reference servers and racks ----------------------------------------------------------

class NodeScaleUp(Strict):
    family: ScaleUpFamilyRef
    fabric: Annotated[Slug, Ref("interconnects")] | None = None  # e.g. the NVSwitch generation
    domain: Count  # GPUs in one scale-up domain


class NodeNic(Keyed):
    """A group of identical NICs (key e.g. `compute`, `storage`)."""

    role: Literal["scale_out", "storage", "management"]  # scale_out: the GPU-to-GPU fabric between nodes
    nic: NicRef | None = None
    count: Count  # NICs in the node
    ports: Count | None = None  # ports used per NIC; absent: one
    port_rate: DataRate  # per port
    network: NetworkRef | None = None


class ComputeNode(Entity):
    """A reference server or rack: GPUs per node, scale-up fabric, NICs × port rate. Scale-out
    bandwidth per node and per GPU is derived (`scale_out`, `scale_out_per_gpu`); a stated
    `scale_out` is checked against it."""

    name: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Literal["server", "rack"]
    vendor: VendorRef
    gpu: GpuRef
    gpus: Count  # per node
    scale_up: NodeScaleUp | None
    nics: list[NodeNic]
    scale_out: DataRate | None = None  # per node, as the source states it
    sources: list[SourceRef] = []
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
