"""Every leaf of the selection tree against the cost model, at its branch's hardest points.

A leaf is reached for a range of model sizes and GPU counts. Its advice has to hold where it is
hardest to follow: the largest published workload of its model-size range, on the smallest and on
the largest GPU count of its range (the smallest has the least memory in total, the largest the
most communication). At each point a layout search over tensor parallel (within a node), pipeline
parallel, ZeRO stage and recomputation finds the fastest layout that fits in memory; where none
fits, the layout that comes closest is kept, so that the estimate shows why.

The rules (generator/rules/tree_model.py), `recommend` and the tree export all read these
results, so the site, the command and the checks give one answer. Pure: a validated knowledge
base in, records out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..costmodel.inputs import Assumptions, Cluster, Layout, Node, Workload
from ..costmodel.result import Estimate
from ..estimates.choice import Resolved
from ..estimates.records import assumptions, gpu, leaf_threshold, network_port, scale_up, sound, workload, workloads
from ..knowledge import KnowledgeBase, Loaded
from ..model.common import Range
from ..model.costs import Workload as WorkloadSpec
from ..model.entities import Gpu, Network
from ..model.selection import Leaf, Selection
from ..planner.search import StepShape, fastest_layout
from .tree import leaf_paths, range_on_path, variables

# The tree's variables the checks read (by id, as the flowchart and tree rules do).
MODEL_SIZE = "model-size"
GPUS = "gpus"
BILLION = 1e9

# The layout search's fixed inputs: the shape of a training step, not a choice a leaf makes. A
# 4096-token sequence is the pre-training context of Llama 2 and of Llama 3's main stage; the
# global batch is at least 512 such sequences (about 2 M tokens), rounded up to a multiple of the
# data-parallel size so that every replica gets whole micro-batches.
GPUS_PER_NODE = 8  # the HGX/DGX/OAM baseboard every current training GPU of the specs ships on
SEQUENCE_LENGTH = 4096
MIN_GLOBAL_BATCH = 512
MICRO_BATCH = 1
STEP = StepShape(SEQUENCE_LENGTH, MIN_GLOBAL_BATCH, MICRO_BATCH)


@dataclass(frozen=True)
class Point:
    """One hardest point of a branch: a workload on a GPU count, and the layout the search kept
    (the fastest that fits; else the one needing the least memory). `estimate` is None only when
    no layout can be placed at all (`why` says so)."""

    workload_id: str
    workload_name: str
    gpus: int
    gpus_per_node: int
    layout: Layout | None
    estimate: Estimate | None
    why: str
    resolved: Resolved | None = None  # the model's inputs at this point (what `estimate` would take)

    @property
    def fits(self) -> bool:
        return self.estimate is not None and self.estimate.memory.fits

    @property
    def comm_share(self) -> float | None:
        return None if self.estimate is None else self.estimate.step.comm_share

    def label(self) -> str:
        return f"{self.workload_name} on {self.gpus} GPU{'s' if self.gpus > 1 else ''}"


@dataclass(frozen=True)
class LeafCheck:
    """A leaf's points, the threshold it is judged against, or why the model cannot judge it."""

    leaf: Leaf
    points: tuple[Point, ...]
    threshold: float | None
    unchecked: str  # non-empty: the knowledge base lacks what the model needs for this leaf
    # The gap is one another rule already reports (the model's assumptions are missing, a pick
    # names no entity): the tree rules then say nothing more about the leaf.
    reported_elsewhere: bool = False

    @property
    def fits(self) -> bool:
        return all(p.fits for p in self.points)

    @property
    def max_comm_share(self) -> float | None:
        point = self.loudest()
        return None if point is None else point.comm_share

    @property
    def over_threshold(self) -> bool:
        share = self.max_comm_share
        return share is not None and self.threshold is not None and share > self.threshold

    def loudest(self) -> Point | None:
        """The fitting point with the largest communication share (ties: the larger count)."""
        fitting = [p for p in self.points if p.fits]
        return max(reversed(fitting), key=lambda p: p.comm_share or 0.0) if fitting else None

    def hardest(self) -> Point | None:
        """The point the leaf's recommendation is shown at: where some point fits, the fitting one
        with the largest communication share (the smaller counts that do not fit are what the
        leaf's `needs` is about); where none fits, the first, whose estimate shows why."""
        return self.loudest() or (self.points[0] if self.points else None)

    @property
    def any_fits(self) -> bool:
        return any(p.fits for p in self.points)


def check_tree(kb: KnowledgeBase, sel: Selection) -> dict[str, LeafCheck]:
    """Every reachable leaf's check, by leaf id; computed once per knowledge base and tree (the
    rules, `recommend` and the pages all ask)."""
    key = f"leafcheck:{sel.id}"
    kept = kb.memo.get(key)
    if isinstance(kept, tuple) and kept[0] is sel:
        return dict(kept[1])
    found = compute_checks(kb, sel)
    kb.memo[key] = (sel, found)
    return dict(found)


def compute_checks(kb: KnowledgeBase, sel: Selection) -> dict[str, LeafCheck]:
    """Every reachable leaf's check, computed afresh (`check_tree` keeps the result)."""
    paths = leaf_paths(sel)
    known = variables(sel)
    sizes = known.get(MODEL_SIZE)
    counts = known.get(GPUS)
    found: dict[str, LeafCheck] = {}
    for leaf in sel.leaves:
        path = paths.get(leaf.id)
        if path is None or leaf.id in found:
            continue
        size = range_on_path(path, MODEL_SIZE, (sizes.min or 0) if sizes else 0)
        gpus = range_on_path(path, GPUS, (counts.min or 1) if counts else 1)
        found[leaf.id] = check_leaf(kb, leaf, size, gpus, counts.check_max if counts else None)
    return found


def check_leaf(kb: KnowledgeBase, leaf: Leaf, size: Range, gpus: Range, gpus_cap: int | None) -> LeafCheck:
    threshold_entity = leaf_threshold(kb)
    threshold = None if threshold_entity is None else threshold_entity.model.value
    wanted = assumptions(kb)
    if isinstance(wanted, str):
        return LeafCheck(leaf, (), threshold, wanted, reported_elsewhere=True)  # model-* rules
    spec = hardest_workload(kb, size)
    if spec is None:
        return LeafCheck(leaf, (), threshold, f"no workload in specs/workloads/ lies in the branch's {size.label()}B")
    gpu_entity = kb.get(leaf.picks.gpu, Gpu)
    if gpu_entity is None:
        return LeafCheck(leaf, (), threshold, f"unknown GPU {leaf.picks.gpu!r}", reported_elsewhere=True)  # refs-*
    chip = gpu(kb, gpu_entity.model)
    if isinstance(chip, str):
        return LeafCheck(leaf, (), threshold, chip)
    port = 0.0
    if leaf.picks.network is not None:
        network = kb.get(leaf.picks.network, Network)
        rate = "unknown network" if network is None else network_port(network.model)
        if isinstance(rate, str):
            return LeafCheck(leaf, (), threshold, rate, reported_elsewhere=network is None)
        port = rate
    points = []
    for count in gpu_counts(gpus, gpus_cap):
        per_node = min(GPUS_PER_NODE, count)
        link = scale_up(kb, gpu_entity.model, per_node)
        if isinstance(link, str):
            return LeafCheck(leaf, (), threshold, link)
        nics = per_node if leaf.picks.network is not None else 0  # rail-optimised: one NIC per GPU
        node = Node(f"{per_node} × {gpu_entity.model.name}", chip, per_node, link.bytes_per_s, nics, port)
        cluster = Cluster(node, count // per_node)
        model = workload(spec.model)
        layout, result, why = search(model, cluster, wanted)
        ids = {"workload": spec.id, "gpu": gpu_entity.id, "scale_up": link.entity_id}
        if leaf.picks.network is not None:
            ids["network"] = leaf.picks.network
        if layout is None:
            # Not even the plainest layout (t = p = 1) can be estimated: an input is outside the
            # model's domain (a zero rate, an inconsistent shape), which the model and arithmetic
            # rules report; the leaf is not judged on it.
            return LeafCheck(leaf, (), threshold, why)
        resolved = Resolved(model, cluster, layout, wanted, ids)
        points.append(Point(spec.id, spec.model.name, count, per_node, layout, result, why, resolved))
    return LeafCheck(leaf, tuple(points), threshold, "")


def hardest_workload(kb: KnowledgeBase, size: Range) -> Loaded[WorkloadSpec] | None:
    """The largest sound published workload whose parameter count lies in the branch's range
    (billions, half-open [min, max))."""
    inside = [w for w in workloads(kb) if sound(w.model) and size.min * BILLION <= w.model.parameters
              and (size.max is None or w.model.parameters < size.max * BILLION)]
    return max(inside, key=lambda w: (w.model.parameters, w.id)) if inside else None


def gpu_counts(gpus: Range, cap: int | None) -> tuple[int, ...]:
    """The smallest and the largest GPU count of a branch that a cluster can have: counts within a
    node as they are, larger ones as whole nodes (rounded up at the low end, down at the high end).
    An open-ended branch ends at the tree's `check_max`, or is checked at its start alone."""
    low = max(gpus.min, 1)
    high = gpus.max - 1 if gpus.max is not None else max(cap or low, low)
    counts = []
    for count, up in ((low, True), (high, False)):
        if count > GPUS_PER_NODE:
            nodes = -(-count // GPUS_PER_NODE) if up else count // GPUS_PER_NODE
            count = max(nodes, 1) * GPUS_PER_NODE
        if count not in counts:
            counts.append(count)
    return tuple(counts)


def search(workload: Workload, cluster: Cluster, assumptions: Assumptions) -> tuple[Layout | None, Estimate | None, str]:
    """The planner's layout search (planner/search.py) at the tree's fixed step shape."""
    return fastest_layout(workload, cluster, assumptions, STEP)
