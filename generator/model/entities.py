"""The entity types of the knowledge base, one per spec folder (DESIGN.md section 4).

Each class documents what its file holds; derived figures (totals, ratios, speed-ups) are not
fields here: `generator.derive` computes them, and a field with the same name is a *stated*
figure that the validator compares with the derived one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .common import (
    NOT_VANISHING,
    NUMBER_OUT,
    Allows,
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
    Plausible,
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
WorkloadRef = Annotated[Slug, Ref("workloads")]
NodeRef = Annotated[Slug, Ref("nodes")]


SourceKind = Literal["datasheet", "standard", "documentation", "paper", "press", "patch", "measurement", "article",
                     "estimate", "regulation"]
# Who published the document: the kind must fit it (rule sources-kind-publisher). A kernel patch
# is the project's word, not the vendor's datasheet; a roadmap post is the body's press text.
PublisherRole = Literal["vendor", "standards_body", "project", "academic", "press", "third_party", "author",
                        "regulator"]


Publisher = Annotated[str, Field(min_length=1, max_length=120)] | Text
"""Who published a document: a name as it is written in either language ("NVIDIA"), or a
description in both ({zh: 本项目, en: this project}), which each edition shows in its own."""


def publisher_name(publisher: str | Text) -> str:
    """The publisher as the language being written shows it."""
    return publisher if isinstance(publisher, str) else publisher.shown()


class SourceCopy(Strict):
    """A secondary copy through which a document was read when its publisher's page could not
    be: a mirror, a reprint, a forum quote. Its figures rest on the copy, and the site says so."""

    url: Annotated[str, Field(min_length=1, max_length=500)]
    publisher: Publisher
    retrieved: dt.date  # when this project read the copy


class Source(Identified):
    title: Annotated[str, Field(min_length=1, max_length=300)]
    publisher: Publisher
    publisher_role: PublisherRole
    kind: SourceKind
    url: Annotated[str, Field(min_length=1, max_length=500)] | None = None  # only articles may lack one
    # When this project read the document at `url` itself (in this project's build environment:
    # the stored copy of that address in the project's document archive, opened through its search
    # tools). Absent when it was only read through `via`, or not read at all (cited from the
    # publisher's catalogue): a figure resting on it then shows that instead of a date.
    retrieved: dt.date | None = None
    via: SourceCopy | None = None
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
    # The share of the dense 16-bit tensor peak that FlashAttention-2's attention kernel reaches on
    # this architecture, as its authors publish it (the cost model runs the attention core at it).
    # 1-100 %: no kernel does better than the peak, and a published figure below 1 % is a typo.
    flash_attention_2: Annotated[Ratio, Allows((), ()), Plausible(1, 100, "%")] | None = None  # None: not published
    # How much faster cuDNN's fused (flash) attention runs a training step's attention than
    # FlashAttention-2 on this architecture, forward and backward together, as NVIDIA measured it
    # (Transformer Engine picks cuDNN first on Hopper and Blackwell). 1-4 x: a kernel the vendor
    # ships as its first choice is not slower, and a figure past 4 x is a misreading.
    cudnn_attention_speedup: Annotated[Ratio, Allows((), ()), Plausible(1, 4, "x")] | None = None  # None: not published


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

# Plausible ranges (a warning outside, see Plausible) are set with room above every part that is
# announced as of 2026, and so that the figure of a whole node or rack, typed into a per-GPU field,
# lands above them: the slip they are there to catch, with a unit off by 1000 or 8.

class Memory(Strict):
    # As the datasheet writes it. None: not published (a GPU whose vendor prints no memory
    # figure, e.g. one sold in several bins under one name: pages show it as not entered).
    type: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    # 1 GB: small cards; the largest announced package (Rubin Ultra) is to carry 1 TB of HBM4e,
    # so 4 TB leaves four times that; a GB300 NVL72 rack's 20 TB lands above.
    # None: not published; the cost model and the calculator cannot use such a GPU (they say why).
    capacity: Annotated[DataSize, Allows((), ("per_gpu",)), Plausible(1, 4096, "GB")] | None = None
    # A shared bus, not a duplex link: aggregate only. 50 GB/s: below any discrete GPU; Rubin's
    # HBM4 is announced near 22 TB/s, so 100 TB/s leaves 4x; a rack's 576 TB/s lands above.
    # None: not published, or the sources disagree (the page shows it as not entered).
    bandwidth: Annotated[DataRate, Allows(("aggregate",), ("per_gpu",)), Plausible(50, 100_000, "GB/s")] | None = None
    # bits; with pin_rate it derives bandwidth. 32 bits: one narrow GDDR channel; HBM4 stacks are
    # 2048 bits wide, so 32768 bits is sixteen of them.
    bus_width: Annotated[DataSize, Allows((), ("per_gpu",)), Plausible(32, 32768, "bit")] | None = None
    # The signalling rate of one data pin (per direction, as datasheets print it): HBM2 runs
    # about 2 Gb/s, GDDR7 about 30; 100 Gb/s leaves room; a whole bus's rate lands above.
    pin_rate: Annotated[DataRate, Allows(("per_direction",), ("per_pin",)), Plausible(0.5, 100, "Gb/s")] | None = None


# Tensor rates, any precision, per GPU: 1 TFLOPS is below any tensor unit in this scope; the
# highest announced per-GPU rate of any precision is Rubin Ultra's 100 PFLOPS of FP4 per package
# (GB300: 1,440 PFLOPS of sparse FP4 per 72-GPU rack, 20 per GPU), so a per-GPU rate of any
# precision, dense or sparse, sits below the bound; a rack's figure lands above it.
TensorRate = Annotated[Compute, Allows((), ("per_gpu",)), Plausible(1, 100_000, "TFLOPS")]


class Unsupported(Strict):
    """The GPU has no tensor path for this precision (pages show "—"), and where that is said."""

    source: SourceRef
    note: Text | None = None


class TensorPrecision(Keyed):
    """Tensor-core throughput at one precision (`key` names a value of specs/precisions/).
    Exactly one of `dense` and `unsupported`; a precision not listed is not known, not absent."""

    key: PrecisionRef
    dense: TensorRate | None = None
    sparse: TensorRate | None = None  # 2:4 structured sparsity, only where the vendor prints it
    dense_half_accumulate: TensorRate | None = None  # GeForce prints a faster rate with 16-bit accumulate
    unsupported: Unsupported | None = None


class GpuCompute(Strict):
    # Non-tensor FP32: B300 is at 75 TFLOPS, AMD's MI355X about twice that; 2 PFLOPS leaves
    # 10x; a GB300 NVL72 rack's FP32 (3 PFLOPS) lands above.
    # None: not published (the page says "未录入").
    fp32: Annotated[Compute, Allows((), ("per_gpu",)), Plausible(0.1, 2000, "TFLOPS")] | None = None
    tensor: list[TensorPrecision]
    sm_count: Count | None = None
    fp32_cores_per_sm: Count | None = None
    # GPUs boost between 1 and 3 GHz; the bounds catch a clock written in kHz or GHz as MHz.
    boost_clock: Annotated[Frequency, Allows((), ("per_gpu",)), Plausible(100, 10_000, "MHz")] | None = None


class ScaleUp(Strict):
    """The GPU's scale-up link (NVLink, Infinity Fabric, HCCS, ...): links × per-link rate."""

    family: ScaleUpFamilyRef
    interconnect: Annotated[Slug, Ref("interconnects")] | None = None  # the generation, if one is in specs
    links: Count | None = None  # None: the vendor states only the total
    # One link, either direction convention (as for an NVLink generation's per-link rate): 1 GB/s
    # to 1 TB/s; a GPU's total over all its links lands above. Only when no interconnect gives it.
    per_link: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_link",)),
                        Plausible(1, 1000, "GB/s")] | None = None
    # Per GPU, all links, in either direction convention (its `direction` says which). 10 GB/s:
    # below a two-card bridge; NVLink 6 is announced at 3.6 TB/s per GPU, so 20 TB/s leaves 5x;
    # a rack's 130 TB/s lands above.
    # None: not published.
    bandwidth: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_gpu",)),
                         Plausible(10, 20_000, "GB/s")] | None = None
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
    # Board or module power of one GPU. 10 W: below any accelerator card; B300 is rated 1.4 kW and
    # Rubin is estimated near 2 kW, so 5 kW leaves room for a four-die package; a node's power
    # (DGX: over 10 kW) or a rack's (GB300 NVL72: about 120 kW) lands above.
    power: Annotated[Power, Allows((), ("per_gpu",)), Plausible(10, 5000, "W")] | None = None  # None: not published
    scale_up: ScaleUp | None  # required key: write `scale_up: null` for none
    # None: no PCIe host link (a superchip GPU reaches its CPU over NVLink-C2C) or not published.
    pcie: Annotated[Slug, Ref("interconnects")] | None = None
    # One card: from a $50 board to 200,000 USD, over four times a data-centre GPU's list price;
    # a server's or a rack's price (millions) lands above.
    price: Annotated[PriceFigure, Allows((), ("per_gpu",)), Plausible(50, 200_000, "USD")] | None = None
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
    # Per lane, each direction: PCIe 1.0 ran 2.5 GT/s, 7.0 runs 128 and 8.0 targets 256;
    # 512 GT/s leaves one more doubling.
    transfer_rate: Annotated[TransferRate, Allows(("per_direction",), ("per_lane",)), Plausible(2.5, 512, "GT/s")]
    lanes: Count
    encoding: Encoding
    # The whole link (x1 to x16), its direction named by the field. From an x1 1.0 link
    # (250 MB/s each way) to an x16 link at 512 GT/s (about 1 TB/s each way), with room.
    per_direction: Annotated[DataRate, Allows(("per_direction",), ("per_link",)),
                             Plausible(0.1, 2048, "GB/s")] | None = None
    bidirectional: Annotated[DataRate, Allows(("bidirectional",), ("per_link",)),
                             Plausible(0.2, 4096, "GB/s")] | None = None
    summary: Text


class Nvlink(Entity):
    type: Literal["nvlink"]
    name: Annotated[str, Field(min_length=1, max_length=120)]
    generation: Annotated[int, Field(ge=1, le=10)]
    links_per_gpu: Count
    # One link, either direction convention: NVLink 1 ran 20 GB/s each way, NVLink 6 about 100;
    # 1 TB/s leaves room; a GPU's total over all its links (1.8 TB/s and up) lands above.
    per_link: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_link",)),
                        Plausible(1, 1000, "GB/s")]
    # Per GPU; derived from links x per-link rate. Bounds as for a GPU's NVLink bandwidth.
    total: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_gpu",)),
                     Plausible(10, 20_000, "GB/s")] | None = None
    summary: Text


class Nvswitch(Entity):
    type: Literal["nvswitch"]
    name: Annotated[str, Field(min_length=1, max_length=120)]
    generation: Annotated[int, Field(ge=1, le=10)]
    nvlink: Annotated[Slug, Ref("interconnects")]
    gpus: Count  # GPUs in one all-to-all NVLink domain
    switches: Count | None = None
    # What each GPU reaches the switch with; bounds as for a GPU's NVLink bandwidth (a domain's
    # total, 130 TB/s for 72 GPUs, lands above).
    per_gpu: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_gpu",)),
                       Plausible(10, 20_000, "GB/s")]
    summary: Text


Interconnect = Annotated[Pcie | Nvlink | Nvswitch, Field(discriminator="type")]


# --- Networks, layers, topologies --------------------------------------------------------------

class Network(Entity):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    fabric: NetworkFamilyRef
    rdma: Literal["native", "rocev2", "none"]
    lanes: Count
    # Serial lanes are quoted per direction: 10 to 200 Gb/s today (IEEE 802.3dj), 400 in
    # development; 800 Gb/s leaves room.
    lane_rate: Annotated[DataRate, Allows(("per_direction",), ("per_lane",)), Plausible(1, 800, "Gb/s")]
    # 1 Gb/s Ethernet up to 1.6 Tb/s ports (802.3dj), 3.2 in development, and twice that when
    # quoted bidirectional: 6.4 Tb/s; a switch's total (51.2 Tb/s) lands above.
    port_rate: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_port",)),
                         Plausible(1, 6400, "Gb/s")]
    # A hop (switch or port) or one link end to end: 10 ns is below any switch; 1 ms is far above
    # an RDMA round trip and catches a figure in ms or s typed as us.
    latency: Annotated[LatencyFigure, Allows((), ("per_port", "per_switch", "per_link")),
                       Plausible(10, 1_000_000, "ns")] | None = None
    summary: Text


class NicMode(Keyed):
    """One way the NIC can be run (key e.g. `ib`, `eth`): an Ethernet mode may split the ports."""

    family: NetworkFamilyRef
    ports: Count
    # Per port; bounds as a network's port rate (1 Gb/s Ethernet to 6.4 Tb/s quoted both ways).
    port_rate: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_port",)),
                         Plausible(1, 6400, "Gb/s")]
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
    # Per port; bounds as a network's port rate. Rule node-port-direction wants per_direction.
    port_rate: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_port",)),
                         Plausible(1, 6400, "Gb/s")]
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
    # Per node, as the source states it: from one 1 Gb/s port to a 72-GPU rack with 800 Gb/s per
    # GPU (57.6 Tb/s) and room above; a whole cluster's bisection lands above.
    scale_out: Annotated[DataRate, Allows(("per_direction", "bidirectional"), ("per_node",)),
                         Plausible(1, 200_000, "Gb/s")] | None = None
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
    claim: ClaimRef  # the article's bands are a claim with a verdict
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
    claim: ClaimRef  # the article's recommendation is a claim with a verdict
    conflict: Conflict | None = None


class Recommendation(Entity):
    title: Text
    source: SourceRef
    items: list[Advice]


class ScalingRow(Keyed):
    label: Text
    network: NetworkRef | None  # null: the no-communication ideal
    # Training throughput of one GPU: from a huge model (under 1 tok/s) to a tiny one (a million).
    single_gpu: Annotated[TokenRate, Allows((), ("per_gpu",)), Plausible(0.1, 10_000_000, "tok/s")]
    # The whole cluster: up to 100,000 GPUs at the single-GPU bound (the schema's cap on a written
    # value binds first).
    cluster: Annotated[TokenRate, Allows((), ("per_system",)), Plausible(1, 1e12, "tok/s")]
    # Over one GPU: below 1 when scaling out loses; at most the GPU count (a million, with room).
    speedup: Annotated[Ratio, Allows((), ()), Plausible(0.01, 1_000_000, "x")]
    # A share of step time: 0-100 %; 72 written as x (not %) lands above.
    comm_share: Annotated[Ratio, Allows((), ()), Plausible(0, 100, "%")]


Whole = Annotated[int, Field(ge=1, le=1_000_000)]


class ModelledLayout(Keyed):
    """One parallel layout the cost model is run with for a scaling study (the CLI's layout flags)."""

    label: Text
    tp: Whole
    pp: Whole
    zero: Literal[0, 1, 2, 3]
    micro_batch: Whole = 1
    recompute: Literal["none", "selective", "full"] = "none"
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


class ExpertLayout(Keyed):
    """One layout of an expert study: tensor, pipeline and expert parallel, ZeRO, micro-batch and
    recomputation, and whether the all-to-all hides behind compute as the `moe-all-to-all-overlap`
    assumption says (DualPipe-style scheduling) or not at all."""

    label: Text
    tp: Whole
    pp: Whole
    ep: Whole
    zero: Literal[0, 1, 2]
    micro_batch: Whole = 1
    recompute: Literal["none", "selective", "full"] = "none"
    overlap: bool = False


class ExpertRow(Keyed):
    """One hardware row of an expert study on a network: a node of specs/nodes/ (its GPU, GPUs
    and ports; a port runs at the slower of the node's NIC and the network), or a GPU with 8 to a
    node and `nics_per_node` ports of the network's rate (a node the knowledge base does not hold,
    e.g. one NIC port per GPU where the reference server cables two)."""

    label: Text
    node: NodeRef | None = None
    gpu: GpuRef | None = None
    nics_per_node: Whole | None = None
    network: NetworkRef

    @model_validator(mode="after")
    def _one_kind(self) -> ExpertRow:
        if (self.node is None) == (self.gpu is None):
            raise ValueError("name either a node or a GPU")
        if self.node is not None and self.nics_per_node is not None:
            raise ValueError("a node states its own ports: nics_per_node goes with a GPU")
        return self


class ExpertStudy(Entity):
    """What a mixture-of-experts model's all-to-all costs on different hardware: the cost model run
    for each layout on each row, at one GPU count, sequence, batch and precision. The page shows
    the model's numbers only; `why` says what the comparison is meant to show."""

    type: Literal["expert_study"]
    title: Text
    workload: WorkloadRef
    why: Text
    gpus: Whole
    seq: Whole
    global_batch: Whole
    precision: Literal["bf16", "fp8"] = "bf16"
    layouts: Annotated[list[ExpertLayout], Field(min_length=1, max_length=4)]
    rows: Annotated[list[ExpertRow], Field(min_length=2, max_length=8)]


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


Case = Annotated[ScalingStudy | FieldReport | ExpertStudy, Field(discriminator="type")]


class Command(Strict):
    command: Annotated[str, Field(min_length=1, max_length=200)]
    purpose: Text


class Restatement(Strict):
    """A pitfall that restates an article's claim says so, and how: `asserts` states it as fact
    (allowed only while the claim's verdict is confirmed or approximate); `qualifies` reports it
    as the article's word and gives the verdict in its text (rule pitfalls-assert-rejected)."""

    claim: ClaimRef
    stance: Literal["asserts", "qualifies"]


class Pitfall(Entity):
    title: Text
    severity: Literal["danger", "warning", "tip", "info"]
    origin: Literal["article", "editorial"]
    source: SourceRef
    body: Text
    concerns: list[AnyRef]
    restates: list[Restatement] = []  # an article's pitfall restates at least one claim
    commands: list[Command] = []


# --- Claims --------------------------------------------------------------------------------------

class RatioExpr(Strict):
    ratio: Annotated[list[FigureRef], Field(min_length=2, max_length=2)]


Expr = FigureRef | RatioExpr


class StatedValue(Strict):
    value: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NOT_VANISHING, NUMBER_OUT]
    unit: UnitSymbol


class StatedRange(Strict):
    low: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NOT_VANISHING, NUMBER_OUT]
    high: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NOT_VANISHING, NUMBER_OUT]
    unit: UnitSymbol


class StatedBound(Strict):
    bound: Literal["below", "above"]
    value: Annotated[float, Field(allow_inf_nan=False, ge=0, le=1e7), NOT_VANISHING, NUMBER_OUT]
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


class AssessedCheck(Strict):
    """A statement no figure can decide (advice, a rule of thumb, a qualitative comparison),
    judged against the documents in `evidence`: the verdict is the editor's, but what it rests
    on (independent documents or only the article) is worked out from their kinds."""

    kind: Literal["assessed"]
    evidence: Annotated[list[SourceRef], Field(min_length=1, max_length=12)]


ClaimCheck = Annotated[ValueCheck | RangeCheck | BoundCheck | UnverifiableCheck | AssessedCheck,
                  Field(discriminator="kind")]
Verdict = Literal["confirmed", "approximate", "corrected", "unsupported"]
# What a verdict was checked against: data independent of the article, only the article's own
# numbers (self-consistency), or nothing (rule claims-basis recomputes it).
Basis = Literal["independent", "self_consistent", "unverifiable"]


class Claim(Entity):
    source: SourceRef  # the article that makes the claim
    said: QuotedText  # the statement, paraphrased
    check: ClaimCheck
    tolerance_pct: Annotated[float, Field(gt=0, le=50), NUMBER_OUT] = 2.0  # within: confirmed
    approximate_pct: Annotated[float, Field(gt=0, le=100), NUMBER_OUT] = 10.0  # within: approximate
    verdict: Verdict
    basis: Basis
    why: Text
