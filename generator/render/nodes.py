"""Context of the nodes page: reference servers and racks, the NIC groups in them, and the NICs."""

from __future__ import annotations

from ..labels import NIC_ROLE, NODE_KIND
from ..language import current, say
from ..model.entities import ComputeNode, Gpu, Nic
from .context import Site
from .hardware import verified
from .names import RowNamer, note_anchor, row_names
from .table import Cell, Row, Table
from .text import chinese, inert, localized


def nodes(site: Site) -> dict[str, object]:
    """Reference servers and racks: per GPU, the scale-up bandwidth beside its share of the
    scale-out NICs, and their ratio, both per direction (what decides how a job splits). The
    comparison page lays out the same table."""
    return site.once(f"nodes:{current()}", lambda: _nodes(site))


def _nodes(site: Site) -> dict[str, object]:
    # The GPU, how many, and the ratio that decides how a job splits lead; the two bandwidths
    # behind the ratio follow.
    table = Table([(say("名称", "Name"), False), ("GPU", False), (say("每节点 GPU", "GPUs per node"), True),
                   ("Scale-up ÷ scale-out", True),
                   (say("每 GPU scale-up（单向）", "Scale-up per GPU (per direction)"), True),
                   (say("每 GPU scale-out（单向）", "Scale-out per GPU (per direction)"), True),
                   (say("Scale-up 域", "Scale-up domain"), False),
                   (say("每节点 scale-out（单向）", "Scale-out per node (per direction)"), True),
                   (say("类型", "Type"), False), (say("核对日期", "Checked"), False)])
    entities, cards = site.kb.of_type(ComputeNode), site.kb.of_type(Nic)
    names, nic_names = row_names(site.kb, entities), row_names(site.kb, cards)
    gpu_names = row_names(site.kb, site.kb.of_type(Gpu))
    gpus = [g for g in site.kb.of_type(Gpu) if any(e.model.gpu == g.id for e in entities)]
    scale_up = site.column_units(gpus, "scale_up.bandwidth")["scale_up.bandwidth"]
    nic_rows = []
    for e in entities:
        m, r = e.model, e.id + "#"
        if m.scale_up is not None:
            family, size = site.kb.label_of(m.scale_up.family), m.scale_up.domain.value
            domain = Cell(inert(say(f"{family}，{size} 卡一域", f"{family}, {size} GPUs per domain")),
                          str(m.scale_up.domain.value), True)
        else:
            domain = Cell.text(say("无", "none"))
        gpu = gpu_names(m.gpu, href=f"../{site.href(m.gpu)}") if site.kb.get(m.gpu) else Cell(site.link(m.gpu))
        table.rows.append(Row([names(e.id), gpu, site.cell(r + "gpus"),
                               site.cell(r + "scale_up_to_scale_out", show_direction=False),
                               site.cell(f"{m.gpu}#scale_up.bandwidth", unit=scale_up, direction="per_direction",
                                         show_direction=True),
                               site.cell(r + "scale_out_per_gpu", unit="GB/s", show_direction=True), domain,
                               site.cell(r + "scale_out", unit="Gb/s", show_direction=True),
                               Cell.text(NODE_KIND[m.kind]), verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        for group in m.nics:
            nic = nic_names(group.nic, href=f"#{group.nic}") if group.nic else Cell.text("—")
            ports = group.ports.value if group.ports else 1
            nic_rows.append(Row([names(e.id, href=f"#{e.id}"), Cell.text(NIC_ROLE[group.role]), nic,
                                 site.cell(f"{r}nics.{group.key}.count"), Cell.text(str(ports)),
                                 site.cell(f"{r}nics.{group.key}.port_rate", unit="Gb/s", show_direction=True),
                                 Cell(site.link(group.network)) if group.network else Cell.text("—")]))
    groups = Table([(say("节点", "Node"), False), (say("用途", "Role"), False), (say("网卡", "NIC"), False),
                    (say("网卡数", "NICs"), True), (say("每卡端口", "Ports per NIC"), True),
                    (say("端口速率", "Port rate"), True), (say("网络", "Network"), False)], nic_rows)
    notes = [(note_anchor(e.id), e.model.name, localized(e.model.summary)) for e in entities]
    notes += [(note_anchor(c.id), c.model.name, localized(c.model.summary)) for c in cards]
    return {"nodes": table, "groups": groups, "nics": _nics(site, nic_names), "notes": notes, "chinese": chinese}


def _nics(site: Site, names: RowNamer) -> Table:
    """One row per NIC and mode: a card split into other ports for another network is a row too."""
    nics = Table([(say("名称", "Name"), False), (say("端口速率", "Port rate"), True), (say("端口数", "Ports"), True),
                  (say("合计（单向）", "Total (per direction)"), True), (say("模式", "Mode"), False),
                  (say("主机接口", "Host interface"), False), (say("厂商", "Vendor"), False),
                  (say("核对日期", "Checked"), False)])
    for card in site.kb.of_type(Nic):
        n, r = card.model, card.id + "#"
        for i, mode in enumerate(n.modes):
            first = i == 0
            nics.rows.append(Row([names(card.id), site.cell(f"{r}modes.{mode.key}.port_rate", unit="Gb/s", show_direction=True),
                                  site.cell(f"{r}modes.{mode.key}.ports"),
                                  site.cell(f"{r}modes.{mode.key}.total", unit="Gb/s", show_direction=True),
                                  Cell.text(site.kb.label_of(mode.family)),
                                  Cell(site.link(n.host)) if n.host else Cell.text("—"),
                                  Cell.text(site.kb.label_of(n.vendor)), verified(site, card)],
                                 anchor=card.id if first else None, spec=site.spec(card.id) if first else None))
    return nics
