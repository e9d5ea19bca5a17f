"""The calculator page and its data: data/costmodel.json holds the cost model's resolved inputs
(from `estimates.export`, built on the one adapter that reads entities for the model), each with
the address of the page row it came from; the page's own script (docs/assets/javascripts/
calculator.js, computing with costmodel.js) reads it in the browser. Without JavaScript the page
says what it needs and how to get the same numbers from the command line. The data's words
(market names and rulings, assumption and link names) are in the language of the render: each
language's site has its own copy beside its page (en/data/costmodel.json), and the scripts pick
their own words by the page's language."""

from __future__ import annotations

from .. import strict_json
from ..estimates.calibration import accuracy_record, architecture_of, statement
from ..estimates.choice import Choice
from ..estimates.export import export
from ..estimates.records import assumption_entities
from ..estimates.records import workloads as workload_entities
from ..knowledge import KnowledgeBase
from ..language import say
from ..model.costs import PARAMETERS
from ..model.entities import ComputeNode, Gpu, Network
from ..model.markets import Market
from ..planner.availability import standing
from ..planner.plan import (
    GENERIC_GPUS_PER_NODE,
    LORA_RANK,
    MAX_GPUS,
    MIN_GLOBAL_BATCH,
    NETWORK_SLACK,
    SEQUENCE_LENGTH,
    Plan,
    Request,
    module_gpu,
    plan,
    power_w,
)
from .context import Site
from .leafview import answers
from .text import localized

DATA = "data/costmodel.json"


def _linked(site: Site, record: object) -> dict[str, object]:
    """A record with `href`, the page address (from the site's root) of the entity it names, and
    `label`, its name as the pages show it."""
    assert isinstance(record, dict)
    entity_id = record.get("id")
    if not isinstance(entity_id, str):
        return dict(record)
    return {**record, "href": site.href(entity_id), "label": site.name(entity_id)}


def _records(value: object) -> list[object]:
    assert isinstance(value, list)
    return value


def data(site: Site) -> dict[str, object]:
    exported = export(site.kb)
    out: dict[str, object] = dict(exported)
    for key in ("workloads", "networks"):
        out[key] = [_linked(site, r) for r in _records(exported[key])]
    gpus = []
    for record in _records(exported["gpus"]):
        gpu = _linked(site, record)
        links = gpu["scale_up"]
        assert isinstance(links, dict)
        # the architecture picks the answer's row of the accuracy by GPU generation (accuracy.architectures)
        gpus.append({**gpu, "scale_up": {size: _linked(site, link) for size, link in links.items()},
                     "architecture": architecture_of(site.kb, str(gpu["id"]))})
    out["gpus"] = gpus
    nodes = []
    for record in _records(exported["nodes"]):
        node = _linked(site, record)
        link = node.get("scale_up")
        nodes.append({**node, "scale_up": _linked(site, link)} if link is not None else node)
    out["nodes"] = nodes
    assumptions = exported["assumptions"]
    assert isinstance(assumptions, dict)
    ids = assumptions.get("ids")
    if isinstance(ids, dict):
        names = {e.model.parameter: localized(e.model.name) for e in assumption_entities(site.kb)}
        values = assumptions.get("values")
        shown = {} if not isinstance(values, dict) else {
            name: PARAMETERS[name].shown(value) for name, value in values.items() if name in PARAMETERS}
        out["assumptions"] = {**assumptions, "hrefs": {name: site.href(i) for name, i in ids.items()},
                              "labels": {name: names.get(name, i) for name, i in ids.items()},
                              "shown": shown}
    defaults = out["defaults"]
    assert isinstance(defaults, dict)
    out["defaults"] = {**defaults, **planned_defaults(site)}
    out["planner"] = planner_data(site.kb)
    out["accuracy"] = accuracy_record(site.calibration)  # the script states the error of the answer's kind
    return out


def planner_data(kb: KnowledgeBase) -> dict[str, object]:
    """What the browser's planner (costmodel.js `plan`) needs beyond the model's inputs: each
    market's standing of every GPU and node (status, ruling, source), each GPU's family, form
    (module or card) and board power, each node's kind, which networks carry RDMA, and the
    planner's constants, all as planner/ reads them."""
    parts = [g.id for g in kb.of_type(Gpu)] + [n.id for n in kb.of_type(ComputeNode)]
    markets = []
    for entry in kb.of_type(Market):
        standings = {}
        titles = {r.key: r.title.shown() for r in entry.model.rulings}
        default = say("本市场的默认状态", "this market's default status")
        for part in parts:
            found = standing(kb, entry, part)
            if found is not None:
                standings[part] = {"status": found.status, "ruling": found.ruling, "source": found.source,
                                   "title": titles.get(found.ruling or "", default)}
        markets.append({"id": entry.id, "name": entry.model.name.shown(), "standings": standings})
    return {
        "markets": markets,
        "gpus": {g.id: {"family": g.model.family, "module": module_gpu(kb, g.id), "power_w": power_w(kb, g.id)}
                 for g in kb.of_type(Gpu)},
        "nodes": {n.id: {"kind": n.model.kind} for n in kb.of_type(ComputeNode)},
        "rdma": {n.id: n.model.rdma != "none" for n in kb.of_type(Network)},
        "constants": {"board": GENERIC_GPUS_PER_NODE, "network_slack": NETWORK_SLACK,
                      "sequence_length": SEQUENCE_LENGTH, "min_global_batch": dict(MIN_GLOBAL_BATCH),
                      "lora_rank": LORA_RANK, "max_gpus": MAX_GPUS},
    }


DEFAULT_GPUS = 64
"""The cluster the calculator opens on: a few racks' worth, where the network already matters."""


def planned_defaults(site: Site) -> dict[str, object]:
    """What the calculator opens on: the planner's answer on `DEFAULT_GPUS` GPUs in the first
    market that sells everything it does not name (the GPU, the network and the layout it found),
    not the alphabetically first GPU and network. The flowchart's own answer where one of its
    examples asks for pre-training on that many GPUs there (the largest such model; the planner
    has answered it for the flowchart already), else the planner's answer for the middle
    published workload. Empty when the knowledge base has no such market or nothing fits there."""
    return site.once("calculator-defaults", lambda: _defaults(site))


def _defaults(site: Site) -> dict[str, object]:
    found: dict[str, object] = {}
    market = next((m for m in site.kb.of_type(Market) if m.model.default is not None
                   and m.model.default.status == "available"), None)
    shapes = sorted(workload_entities(site.kb), key=lambda w: (w.model.parameters, w.id))
    if market is not None and shapes:
        answer = _flowchart_answer(site, market.id)
        if answer is None:
            middle = shapes[len(shapes) // 2]
            answer = plan(site.kb, Request(Choice("", 0, "", middle.id), DEFAULT_GPUS, market.id))
        if answer.options:
            best = answer.options[0]
            lay, node = best.layout, best.resolved.cluster.node
            found = {"workload": answer.request.model.workload, "gpu": best.candidate.gpu,
                     "network": best.resolved.ids.get("network"),
                     "gpus": DEFAULT_GPUS, "gpus_per_node": node.gpus_per_node, "nics_per_node": node.nics_per_node,
                     "tensor_parallel": lay.tensor_parallel, "pipeline_parallel": lay.pipeline_parallel,
                     "zero_stage": lay.zero_stage, "recompute": lay.recompute, "recompute_layers": lay.recompute_layers,
                     "sequence_parallel": lay.sequence_parallel, "global_batch_size": lay.global_batch_size,
                     "sequence_length": lay.sequence_length}
    return found


def _flowchart_answer(site: Site, market: str) -> Plan | None:
    """The flowchart's answer for pre-training on `DEFAULT_GPUS` GPUs in `market` (without
    licences), for the largest model any of its examples asks that for; None if none does."""
    asked = [(answer.workload.model.parameters, answer.workload.id, plan_) for answer in answers(site).values()
             if answer.gpus == DEFAULT_GPUS and answer.goal == "pretrain" and answer.workload is not None
             for view, plan_ in answer.plans if view.market == market and not view.licensed and isinstance(plan_, Plan)]
    return max(asked, key=lambda a: (a[0], a[1]))[2] if asked else None


def data_files(site: Site) -> dict[str, str]:
    return {DATA: strict_json.dumps(data(site), DATA, ensure_ascii=False, sort_keys=True, indent=1) + "\n"}


def calculator(site: Site) -> dict[str, object]:
    exported = export(site.kb)
    counts = {key: len(_records(exported[key])) for key in ("workloads", "gpus", "networks", "nodes")}
    return {"data": DATA, "counts": counts, "accuracy": statement(site.calibration.overall)}
