"""The planner: for a reader's model, GPU count, market and goal, every node and network of the
knowledge base that can be bought in that market, each with the layout the cost model finds
fastest at the reader's own point, ranked by step time (at one GPU count, time to train).

Candidates. Every node of specs/nodes/ (its GPU, GPUs per node and scale-out NICs as built), and,
for a GPU no node is built on, a generic server of up to 8 of it with one NIC per GPU (the
rail-optimised build every current HGX/OAM board ships in); only what can be bought at the count
(a rack whole, a module GPU on boards of 8). Across nodes, each RDMA network whose port rate the
node's NICs reach: a faster network than its NICs adds nothing, and networks of one port rate are
equal in the model, so one stands for the others (the first by id; the rest are named).
Per candidate, the slowest network within `NETWORK_SLACK` of the fastest one's step time is kept:
the guide does not sell bandwidth the step does not use.

Answers. The options are the best candidate of each GPU family (variants of one chip), ranked; the
first is the answer. Every other candidate is excluded with its reason: not buyable in the market
(the ruling and its source), does not fit, cannot be placed, or slower than its family's best by
N %. When nothing fits, `fewest_gpus` is the smallest count at which some buyable candidate fits.
Pure: a validated knowledge base in, records out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

from ..costmodel.inputs import Layout
from ..costmodel.result import Estimate
from ..estimates.choice import Choice, Resolved, node_fill, resolve, workload_of
from ..estimates.records import gpus as gpu_entities
from ..estimates.records import network_port, networks
from ..knowledge import KnowledgeBase, Loaded
from ..model.entities import ComputeNode, FormFactor, Gpu
from ..model.markets import Market
from .availability import Standing, market, standing
from .search import Searched, StepShape, memory_inputs, search

Goal = Literal["pretrain", "finetune", "lora"]
GOALS: tuple[Goal, ...] = ("pretrain", "finetune", "lora")

GENERIC_GPUS_PER_NODE = 8
NETWORK_SLACK = 0.05
"""A slower network is kept when the step is at most this much slower than on the fastest one."""

SEQUENCE_LENGTH = 4096
MIN_GLOBAL_BATCH: dict[Goal, int] = {"pretrain": 512, "finetune": 128, "lora": 128}
"""The step the planner sizes, unless the reader gives one: 4096-token sequences (Llama 2's and
Llama 3's pre-training context), at least 512 of them a step for pre-training (about 2 M tokens;
Llama 2 trained on 4 M) and 128 for fine-tuning (Alpaca's recipe used 128 sequences a step)."""

LORA_RANK = 16
"""The adapters' rank for `--goal lora` unless the reader gives one: the LoRA paper found ranks of
4 to 8 enough on GPT-3 (Hu et al. 2021, §7.2); 16 on every linear layer is a common choice today."""

MAX_GPUS = 131_072
"""The largest cluster the fewest-GPUs search tries (no GPU count in the knowledge base's runs
comes near it)."""


@dataclass(frozen=True)
class Request:
    """What the reader asks: the model (`model` carries the workload id, `params` or shape, and any
    layout fields the reader fixed), the GPU count, the market and the goal, the tokens to train
    and whether parts that need an export licence may be counted on."""

    model: Choice
    gpus: int
    market: str
    goal: Goal = "pretrain"
    tokens: float | None = None
    licensed: bool = False
    sequence_length: int | None = None
    global_batch: int | None = None
    lora_rank: int = LORA_RANK
    base_bits: int = 16
    expert_parallel: int | None = None  # fixed by the reader (`--ep`); None: the search tries every size


@dataclass(frozen=True)
class Candidate:
    """A buildable cluster: a node of the knowledge base (`node`), or a generic server of the GPU;
    the network (None on one node) and the others of the same port rate."""

    gpu: str
    node: str | None
    network: str | None
    equivalent_networks: tuple[str, ...]
    family: str

    @property
    def id(self) -> str:
        base = self.node or f"{self.gpu}-server"
        return base if self.network is None else f"{base}+{self.network}"


@dataclass(frozen=True)
class Option:
    candidate: Candidate
    resolved: Resolved
    layout: Layout
    estimate: Estimate
    standing: Standing | None
    power_w: float | None
    networks_tried: tuple[tuple[str, float], ...] = ()  # (network, step seconds), fastest network first

    @property
    def fits(self) -> bool:
        return self.estimate.memory.fits

    @property
    def gpus(self) -> int:
        return self.resolved.cluster.node_count * self.resolved.cluster.node.gpus_per_node


@dataclass(frozen=True)
class Excluded:
    """A candidate left out: `why` in English (the JSON's), `why_zh` in Chinese (the text's); where
    a market excluded it, the part's `status`, the ruling (`ruling`: its key; None with a status:
    the market's default) and its `source`."""

    id: str
    why: str
    why_zh: str
    source: str | None = None
    ruling: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class Plan:
    request: Request
    market_name: str
    options: tuple[Option, ...]  # the best of each GPU family that fits, best first
    excluded: tuple[Excluded, ...]
    fewest: tuple[int, Option] | None  # when nothing fits: the fewest GPUs at which something does
    workload_note: str
    closest: Option | None = None  # when nothing fits: the build that comes nearest (memory ÷ usable)


class PlanError(ValueError):
    """A request the planner cannot answer at all (unknown market or workload): one line."""


def step_shape(request: Request) -> StepShape:
    batch = request.global_batch or MIN_GLOBAL_BATCH[request.goal]
    base = goal_layout(request)
    return StepShape(request.sequence_length or SEQUENCE_LENGTH, batch, request.model.micro_batch_size, base,
                     request.expert_parallel)


def goal_layout(request: Request) -> Layout | None:
    """The layout fields the goal sets: LoRA's adapters and the frozen base's bits (none for full
    training and full fine-tuning)."""
    if request.goal != "lora":
        return None
    return Layout(1, 1, 0, 1, 1, 1, adapter_rank=request.lora_rank, base_bits=request.base_bits)


def _node_port(entity: Loaded[ComputeNode]) -> float | None:
    fill = node_fill(entity)
    return None if isinstance(fill, str) else fill.port_bytes_per_s


def _networks_by_rate(kb: KnowledgeBase) -> list[tuple[float, list[str]]]:
    """The RDMA networks grouped by per-direction port rate, fastest first; ids sorted within a
    rate. A network without RDMA (TCP/IP sockets) is left out: the model prices collectives as
    NCCL moves them over InfiniBand or RoCE, and says nothing of a kernel network stack's costs."""
    rates: dict[float, list[str]] = {}
    for entity in networks(kb):
        rate = network_port(entity.model)
        if isinstance(rate, float) and entity.model.rdma != "none":
            rates.setdefault(rate, []).append(entity.id)
    return sorted(((r, sorted(ids)) for r, ids in rates.items()), reverse=True)


def _reachable(by_rate: list[tuple[float, list[str]]], nic_rate: float | None) -> list[tuple[float, list[str]]]:
    """The networks worth trying for NICs of `nic_rate` (None: one NIC per GPU at the network's own
    rate), fastest first: those at or below the NICs' rate, and the slowest that is faster (a port
    runs at the slower of its NIC and its network, so a faster one still would add nothing)."""
    if nic_rate is None:
        return by_rate
    below = [(r, ids) for r, ids in by_rate if r <= nic_rate * (1 + 1e-9)]
    above = [(r, ids) for r, ids in by_rate if r > nic_rate * (1 + 1e-9)]
    return ([above[-1]] if above and not any(abs(r - nic_rate) <= nic_rate * 1e-9 for r, _ in below) else []) + below


@dataclass(frozen=True)
class Build:
    """How a candidate is put together at a GPU count: a node of the knowledge base (`node`), used
    whole (a rack larger than the count comes `blocked`: racks are sold whole); or a server of
    `per_node` GPUs of `gpu` (a smaller build of a server's GPU, or a generic one for a GPU no node
    is built on). `nic_rate` is the node's NIC port rate (None: one NIC per GPU at the network's
    rate); `blocked` says why the build cannot be bought at this count."""

    gpu: str
    node: str | None
    per_node: int
    nic_rate: float | None
    blocked: tuple[str, str] | None = None  # why it cannot be bought at this count (English, Chinese)

    @property
    def part(self) -> str:
        """The id whose market standing this build has."""
        return self.node or self.gpu


def module_gpu(kb: KnowledgeBase, gpu_id: str) -> bool:
    """Whether the GPU is a module (SXM, OAM, superchip) that ships on a baseboard, not a card."""
    entity = kb.get(gpu_id, Gpu)
    factor = None if entity is None else kb.get(entity.model.form_factor, FormFactor)
    return factor is not None and factor.model.mounting == "module"


def _builds(kb: KnowledgeBase, gpus: int) -> Iterator[Build]:
    """Every build at `gpus` GPUs: each node; for a count below a node's size, a smaller server of
    the node's GPU (once per GPU); a generic server for a GPU no node is built on. What cannot be
    bought at that count comes `blocked`: a rack is sold whole, and a module GPU (SXM, OAM) comes
    on a baseboard of 8, so fewer than 8 of it means buying the board."""
    built: set[str] = set()
    small: set[str] = set()
    board = GENERIC_GPUS_PER_NODE

    def by_board(gpu: str) -> tuple[str, str] | None:
        if gpus % board == 0 or not module_gpu(kb, gpu):
            return None
        return (f"a module GPU ships on a baseboard of {board}: {gpus} GPUs is not a whole number of boards",
                f"模块形态的 GPU 装在 {board} 卡基板上出售，{gpus} 块不是整数块基板")

    for entity in kb.of_type(ComputeNode):
        m = entity.model
        built.add(m.gpu)
        size = m.gpus.value
        if gpus >= size:
            yield Build(m.gpu, entity.id, size, _node_port(entity))
        elif m.kind == "rack":
            yield Build(m.gpu, entity.id, gpus, None,
                        blocked=(f"a rack is bought whole: {size} GPUs, not {gpus}", f"机柜整柜出售：{size} 块，不是 {gpus} 块"))
        elif m.gpu not in small:
            small.add(m.gpu)
            yield Build(m.gpu, None, gpus, None, blocked=by_board(m.gpu))
    for chip in gpu_entities(kb):
        if chip.id not in built:
            yield Build(chip.id, None, min(board, gpus), None, blocked=by_board(chip.id))


def power_w(kb: KnowledgeBase, gpu_id: str) -> float | None:
    entity = kb.get(gpu_id, Gpu)
    power = None if entity is None else entity.model.power
    return None if power is None else float(power.value) * (1000.0 if power.unit == "kW" else 1.0)


def _resolve(kb: KnowledgeBase, request: Request, build: Build, network: str, gpus: int) -> Resolved | str:
    """A node as built, or a server of `build.per_node` GPUs with one NIC per GPU (a blocked build
    is never resolved)."""
    whole = build.node is not None
    choice = replace(request.model, gpu="" if whole else build.gpu, node=build.node,
                     network=network, gpus=gpus, gpus_per_node=None if whole else build.per_node, nics_per_node=None)
    return resolve(kb, choice)


Memory = dict[tuple[object, ...], Searched]
"""The last layout search of each `search.memory_inputs`: what it settled on memory, which a build
on each network and servers of GPUs with the same memory share, and the floors of its steps, which
the same build on the next, slower network uses (`_candidates_at` tries a build's networks in turn,
fastest first)."""


@dataclass
class Evaluated:
    """What plans of one request's model and step share in other markets or with licences
    (`plan(..., evaluated=)`): the estimates of builds, by (GPU, node, GPUs per node, network,
    GPUs), since the market and the licence decide which builds are asked for, never what they
    estimate; and the last layout search of each memory's inputs (`Memory`)."""

    estimates: dict[tuple[str, str | None, int, str, int], tuple[Resolved, Layout, Estimate] | str] = \
        field(default_factory=dict)
    memory: Memory = field(default_factory=dict)


def _evaluate(kb: KnowledgeBase, request: Request, build: Build, network: str, gpus: int,
              shape: StepShape, evaluated: Evaluated | None, memory: Memory) -> tuple[Resolved, Layout, Estimate] | str:
    """A build on a network; its layout search starts from what `memory` holds for the same
    memory inputs, and leaves itself there."""
    key = (build.gpu, build.node, build.per_node, network, gpus)
    if evaluated is not None and key in evaluated.estimates:
        return evaluated.estimates[key]
    found = _evaluate_afresh(kb, request, build, network, gpus, shape, memory)
    if evaluated is not None:
        evaluated.estimates[key] = found
    return found


def _evaluate_afresh(kb: KnowledgeBase, request: Request, build: Build, network: str, gpus: int,
                     shape: StepShape, memory: Memory) -> tuple[Resolved, Layout, Estimate] | str:
    resolved = _resolve(kb, request, build, network, gpus)
    if isinstance(resolved, str):
        return resolved
    inputs = memory_inputs(resolved.workload, resolved.cluster, resolved.assumptions, shape)
    last = memory.get(inputs)
    found = search(resolved.workload, resolved.cluster, resolved.assumptions, shape,
                   None if last is None else last.settled, None if last is None else last.floors)
    memory[inputs] = found
    if found.layout is None or found.estimate is None:
        return found.why
    return replace(resolved, layout=found.layout), found.layout, found.estimate


Found = tuple[Resolved, Layout, Estimate]


@dataclass(frozen=True)
class Blocked:
    """A build that cannot be bought at the count asked (not a failed estimate)."""

    why: str
    why_zh: str


def _candidates_at(kb: KnowledgeBase, request: Request, gpus: int, shape: StepShape,
                   allowed: dict[str, Standing | None], evaluated: Evaluated | None = None) -> Iterator[tuple[Candidate, Found | Blocked | str, tuple[tuple[str, float], ...]]]:
    """Every build that `allowed` admits (by GPU or node id) at `gpus` GPUs, with the network
    chosen as the module says, or why it cannot be estimated; and the networks tried, each with
    its step time (fastest network first)."""
    by_rate = _networks_by_rate(kb)
    if not by_rate:
        return
    # what each build's searches settled, for the next network and server, and the next market
    memory: Memory = {} if evaluated is None else evaluated.memory
    for build in _builds(kb, gpus):
        if build.part not in allowed:
            continue
        entity = kb.get(build.gpu, Gpu)
        family = entity.model.family if entity is not None else build.gpu
        if build.blocked is not None:
            yield Candidate(build.gpu, build.node, None, (), family), \
                Blocked(*build.blocked), ()
            continue
        if gpus <= build.per_node:
            # One server or rack: no network. The estimate still names one (it reads no figure of it).
            yield (Candidate(build.gpu, build.node, None, (), family),
                   _evaluate(kb, request, build, by_rate[0][1][0], gpus, shape, evaluated, memory), ())
            continue
        kept: tuple[Candidate, Found | str] | None = None
        tried: list[tuple[str, float]] = []
        fastest: float | None = None
        for _rate, ids in _reachable(by_rate, build.nic_rate):  # fastest first
            found = _evaluate(kb, request, build, ids[0], gpus, shape, evaluated, memory)
            candidate = Candidate(build.gpu, build.node, ids[0], tuple(ids[1:]), family)
            if isinstance(found, str):
                kept = kept or (candidate, found)
                break  # a slower network cannot place what a faster one could not
            step = found[2].step.step_s
            tried.append((ids[0], step))
            fastest = step if fastest is None else fastest
            if not found[2].memory.fits:
                kept = kept or (candidate, found)
                break
            if step > fastest * (1 + NETWORK_SLACK):
                break
            kept = (candidate, found)
        if kept is not None:
            yield kept[0], kept[1], tuple(tried)


def _market_filter(kb: KnowledgeBase, entry: Loaded[Market], licensed: bool) -> tuple[
        dict[str, Standing | None], list[Excluded]]:
    """The parts (GPU or node ids, as the builds name them) the market admits, and the others."""
    allowed: dict[str, Standing | None] = {}
    out: list[Excluded] = []
    titles = {r.key: r.title.zh for r in entry.model.rulings}
    for part in dict.fromkeys(b.part for count in (1, GENERIC_GPUS_PER_NODE, MAX_GPUS) for b in _builds(kb, count)):
        found = standing(kb, entry, part)
        if found is None:
            out.append(Excluded(part, f"market {entry.id!r} states nothing about it", "这个市场没有写明它的状态"))
        elif found.buyable or (licensed and found.status == "licence-required"):
            allowed[part] = found
        else:
            en, zh = _exclusion_text(entry, found, titles)
            out.append(Excluded(part, en, zh, found.source, found.ruling, found.status))
    return allowed, out


STATUS_WHY = {"licence-required": "needs an export licence (pass --licensed to consider it)",
              "barred": "cannot be bought", "end-of-life": "is no longer sold", "available": "is available"}
STATUS_WHY_ZH = {"licence-required": "需要出口许可（加 --licensed 才考虑）", "barred": "买不到",
                 "end-of-life": "已停售", "available": "可以购买"}


def _exclusion_text(entry: Loaded[Market], found: Standing, titles: dict[str, str]) -> tuple[str, str]:
    rule = titles[found.ruling] if found.ruling is not None else "the market's default"
    rule_zh = titles[found.ruling] if found.ruling is not None else "本市场的默认状态"
    since = f" since {found.since.isoformat()}" if found.since is not None else ""
    since_zh = f"，自 {found.since.isoformat()} 起" if found.since is not None else ""
    via = f" (its GPU {found.via})" if found.via is not None else ""
    via_zh = f"（随所用 GPU {found.via}）" if found.via is not None else ""
    return (f"{STATUS_WHY[found.status]} in {entry.id}{since}{via}: {rule}",
            f"{STATUS_WHY_ZH[found.status]}{via_zh}{since_zh}：{rule_zh}")


def plan(kb: KnowledgeBase, request: Request, evaluated: Evaluated | None = None) -> Plan:
    """The planner's answer. `evaluated` (optional, empty at first) keeps the estimates of builds
    and what their searches settled on memory, for plans of the same model, GPU count, goal and
    step in other markets or with licences."""
    entry = market(kb, request.market)
    if entry is None:
        known = ", ".join(m.id for m in kb.of_type(Market)) or "none"
        raise PlanError(f"unknown market {request.market!r}; choose one of: {known}")
    if request.goal not in GOALS:
        raise PlanError(f"unknown goal {request.goal!r}; choose one of: {', '.join(GOALS)}")
    model = workload_of(kb, request.model)
    if isinstance(model, str):
        raise PlanError(model)  # an unknown workload or a count no published shape comes near
    shape = step_shape(request)
    allowed, excluded = _market_filter(kb, entry, request.licensed)
    fitting: list[Option] = []
    short: list[Option] = []
    note = ""
    for candidate, found, tried in _candidates_at(kb, request, request.gpus, shape, allowed, evaluated):
        if isinstance(found, Blocked):
            excluded.append(Excluded(candidate.id, found.why, found.why_zh))
            continue
        if isinstance(found, str):
            excluded.append(Excluded(candidate.id, f"cannot be estimated at {request.gpus} GPUs: {found}",
                                     f"{request.gpus} 块 GPU 时无法估算：{found}"))
            continue
        resolved, layout, est = found
        note = resolved.workload_note
        option = Option(candidate, resolved, layout, est, allowed.get(candidate.node or candidate.gpu),
                        power_w(kb, candidate.gpu), tried)
        if option.fits:
            fitting.append(option)
        else:
            short.append(option)
            m = est.memory
            need, have = m.total_bytes / 1e9, m.usable_bytes / 1e9
            excluded.append(Excluded(candidate.id, f"does not fit: {need:.1f} GB per GPU of {have:.1f} GB usable "
                                                   "at its best layout",
                                     f"放不下：最省显存的布局每卡也要 {need:.1f} GB，只有 {have:.1f} GB 可用"))
    options, slower = _best_per_family(fitting)
    excluded += slower
    fewest = None if options else fewest_gpus(kb, request, shape, allowed, evaluated)
    closest = None if options or not short else min(
        short, key=lambda o: (o.estimate.memory.total_bytes / o.estimate.memory.usable_bytes, o.candidate.id))
    return Plan(request, entry.model.name.zh, tuple(options), tuple(excluded), fewest, note, closest)


def ladder(low: int, high: int) -> list[int]:
    """The GPU counts a range is planned at: its ends and the doublings of the low end between."""
    counts, count = [], low
    while count < high:
        counts.append(count)
        count *= 2
    return counts + [high]


def plan_range(kb: KnowledgeBase, request: Request, high: int) -> tuple[Plan, list[Plan]]:
    """A plan at each count of `ladder(request.gpus, high)`, and the one whose answer trains each
    token in the fewest GPU-hours (the most tokens per second per GPU; ties: fewer GPUs). When no
    count fits, the plan at the largest count, which says how many GPUs would."""
    plans = [plan(kb, replace(request, gpus=count)) for count in ladder(request.gpus, high)]
    fitting = [p for p in plans if p.options]
    if not fitting:
        return plans[-1], plans
    best = max(fitting, key=lambda p: (p.options[0].estimate.step.tokens_per_s / p.options[0].gpus, -p.request.gpus))
    return best, plans


def _best_per_family(fitting: list[Option]) -> tuple[list[Option], list[Excluded]]:
    """The fastest option of each GPU family, fastest first (ties: by id), and the rest, each
    excluded as slower than its family's best by N %."""
    ordered = sorted(fitting, key=lambda o: (o.estimate.step.step_s, o.candidate.id))
    best: dict[str, Option] = {}
    slower: list[Excluded] = []
    for option in ordered:
        family = option.candidate.family
        if family not in best:
            best[family] = option
            continue
        lead = best[family]
        pct = (option.estimate.step.step_s / lead.estimate.step.step_s - 1) * 100
        slower.append(Excluded(option.candidate.id, f"slower than {lead.candidate.id} by {pct:.0f} %",
                               f"比同系列的 {lead.candidate.id} 慢 {pct:.0f}%"))
    return list(best.values()), slower


def fewest_gpus(kb: KnowledgeBase, request: Request, shape: StepShape,
                allowed: dict[str, Standing | None], evaluated: Evaluated | None = None) -> tuple[int, Option] | None:
    """The smallest GPU count, above the reader's, at which some admitted build fits: each count up
    to a server of 8, then whole servers, doubling until one fits and halving the gap back down to
    a server."""
    def fits_at(gpus: int) -> Option | None:
        found = [Option(c, f[0], f[1], f[2], allowed.get(c.node or c.gpu), power_w(kb, c.gpu), tried)
                 for c, f, tried in _candidates_at(kb, request, gpus, shape, allowed, evaluated)
                 if isinstance(f, tuple)]
        ok = [o for o in found if o.fits]
        return min(ok, key=lambda o: (o.estimate.step.step_s, o.candidate.id)) if ok else None

    for count in range(request.gpus + 1, GENERIC_GPUS_PER_NODE + 1):
        small = fits_at(count)
        if small is not None:
            return count, small
    low = max(request.gpus, GENERIC_GPUS_PER_NODE)
    high = -(-low * 2 // GENERIC_GPUS_PER_NODE) * GENERIC_GPUS_PER_NODE
    found = fits_at(high)
    while found is None and high < MAX_GPUS:
        low, high = high, high * 2
        found = fits_at(high)
    if found is None:
        return None
    # Between the last count that failed and the first that fits, in whole 8-GPU nodes.
    while high - low > GENERIC_GPUS_PER_NODE:
        mid = (low + high) // 2 // GENERIC_GPUS_PER_NODE * GENERIC_GPUS_PER_NODE
        if mid <= low:
            break
        at_mid = fits_at(mid)
        if at_mid is not None:
            high, found = mid, at_mid
        else:
            low = mid
    return high, found


def time_to_train_s(option: Option, tokens: float) -> float:
    return tokens / option.estimate.step.tokens_per_s


def gpu_hours(option: Option, tokens: float) -> float:
    return option.gpus * time_to_train_s(option, tokens) / 3600.0


def energy_kwh(option: Option, tokens: float) -> float | None:
    """The GPUs' board power over the training time (CPUs, NICs, switches and cooling not counted)."""
    if option.power_w is None:
        return None
    return option.power_w * option.gpus * time_to_train_s(option, tokens) / 3.6e6


__all__ = ["GOALS", "Candidate", "Excluded", "Goal", "Option", "Plan", "PlanError", "Request", "energy_kwh",
           "fewest_gpus", "gpu_hours", "ladder", "plan", "plan_range", "time_to_train_s"]
