"""The calculator page and its data: data/costmodel.json holds the cost model's resolved inputs
(from `estimates.export`, built on the one adapter that reads entities for the model), each with
the address of the page row it came from; the page's own script (docs/assets/javascripts/
calculator.js, computing with costmodel.js) reads it in the browser. Without JavaScript the page
says what it needs and how to get the same numbers from the command line."""

from __future__ import annotations

import json

from ..estimates.calibration import statement
from ..estimates.export import export
from ..estimates.records import assumption_entities
from .context import Site
from .text import zh

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
        gpus.append({**gpu, "scale_up": {size: _linked(site, link) for size, link in links.items()}})
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
        names = {e.model.parameter: zh(e.model.name) for e in assumption_entities(site.kb)}
        out["assumptions"] = {**assumptions, "hrefs": {name: site.href(i) for name, i in ids.items()},
                              "labels": {name: names.get(name, i) for name, i in ids.items()}}
    return out


def data_files(site: Site) -> dict[str, str]:
    return {DATA: json.dumps(data(site), ensure_ascii=False, sort_keys=True, indent=1) + "\n"}


def calculator(site: Site) -> dict[str, object]:
    exported = export(site.kb)
    counts = {key: len(_records(exported[key])) for key in ("workloads", "gpus", "networks", "nodes")}
    return {"data": DATA, "counts": counts, "accuracy": statement(site.calibration.overall)}
