"""Contexts of the hardware pages: GPUs, intra-node links, networks, communication layers."""

from __future__ import annotations

from markupsafe import escape

from ..figures import Figure
from ..knowledge import Loaded
from ..model.common import Entity
from ..model.entities import Gpu, Layer, Network, Nvlink, Nvswitch, Pcie
from ..provenance import entity_sources
from .context import Site
from .table import Cell, Row, Table
from .text import DIRECTION_ZH, figure_html, sort_key, zh
from .trust import checked_on, summary_html

FORM_ZH = {"sxm": "SXM 模块", "pcie": "PCIe 卡"}
ARCH_ZH = {"volta": "Volta", "ampere": "Ampere", "ada-lovelace": "Ada Lovelace", "hopper": "Hopper",
           "blackwell": "Blackwell"}


def _verified(site: Site, entity: Loaded[Entity]) -> Cell:
    """The row's verification date, unless a source behind its figures was not read."""
    return Cell.text(checked_on(entity_sources(site.kb, entity.id), entity.model.last_verified.isoformat()))


def gpus(site: Site) -> dict[str, object]:
    specs = Table([("型号", False), ("形态", False), ("架构", False), ("显存", True), ("显存类型", False), ("显存带宽", True),
                   ("FP32（非张量）", True), ("BF16 张量（稠密）", True), ("BF16 张量（稀疏）", True),
                   ("NVLink（每 GPU）", True), ("主机接口", False), ("功耗", True), ("核对日期", False)])
    derived = Table([("型号", False), ("NVLink ÷ PCIe", True), ("每瓦 BF16 算力", True),
                     ("显存带宽 ÷ BF16 算力", True), ("参考价（带日期）", True), ("每 TFLOPS 价格", True)])
    for gpu in _by_generation(site):
        m, r = gpu.model, gpu.id + "#"
        nvlink = site.cell(r + "nvlink.bandwidth", show_direction=True) if m.nvlink else Cell.text("无")
        specs.rows.append(Row([Cell.text(m.name), Cell.text(FORM_ZH[m.form_factor]), Cell.text(ARCH_ZH[m.architecture]),
                               site.cell(r + "memory.capacity"), Cell.text(m.memory.type), site.cell(r + "memory.bandwidth"), site.cell(r + "compute.fp32"),
                               site.cell(r + "compute.tensor_bf16_dense"), site.cell(r + "compute.tensor_bf16_sparse"),
                               nvlink, Cell(site.link(m.pcie)), site.cell(r + "power"), _verified(site, gpu)], anchor=gpu.id, spec=site.spec(gpu.id)))
        price = site.fig(r + "price")
        price_cell = site.cell(r + "price")
        if price is not None and m.price is not None:
            price_cell = Cell(price_cell.html + escape(f"（{m.price.as_of.isoformat()}）"), price_cell.sort, True)
        derived.rows.append(Row([Cell(site.link(gpu.id, m.name)), site.cell(r + "nvlink_to_pcie"),
                                 site.cell(r + "tflops_per_watt"), site.cell(r + "bytes_per_flop"), price_cell,
                                 site.cell(r + "usd_per_tflops")]))
    notes = [(gpu.model.name, zh(gpu.model.summary)) for gpu in _by_generation(site)]
    return {"specs": specs, "derived": derived, "notes": notes,
            "provenance": summary_html(site.kb, kinds=("gpus",), title="本页数字的来源")}


def _by_generation(site: Site) -> list[Loaded[Gpu]]:
    """GPUs oldest architecture first, SXM before PCIe within one chip."""
    order = list(ARCH_ZH)
    return sorted(site.kb.of_type(Gpu), key=lambda g: (order.index(g.model.architecture),
                                                          g.model.family, g.model.form_factor != "sxm", g.id))


def interconnects(site: Site) -> dict[str, object]:
    links = site.kb.of_type(Pcie, Nvlink, Nvswitch)
    pcie = Table([("名称", False), ("每通道传输率", True), ("通道数", True), ("编码", False),
                  ("单向（推导）", True), ("双向合计（推导）", True), ("官方标称单向", True),
                  ("官方标称双向", True), ("核对日期", False)])
    nvlink = Table([("名称", False), ("每 GPU 链路数", True), ("每链路单向", True), ("每 GPU 单向合计", True),
                    ("每 GPU 双向合计", True), ("核对日期", False)])
    nvswitch = Table([("名称", False), ("所用 NVLink", False), ("全互连 GPU 数", True), ("交换芯片数", True),
                      ("每 GPU 带宽", True), ("核对日期", False)])
    for e in links:
        m, r = e.model, e.id + "#"
        derived = {figure.name: figure for figure in site.figures.derived(e.id)}
        if isinstance(m, Pcie):
            pcie.rows.append(Row([Cell.text(m.name), site.cell(r + "transfer_rate"), site.cell(r + "lanes"),
                                  Cell.text(m.encoding.name), _derived_cell(site, derived.get("per_direction")),
                                  _derived_cell(site, derived.get("bidirectional")), site.cell(r + "per_direction"),
                                  site.cell(r + "bidirectional"), _verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        elif isinstance(m, Nvlink):
            nvlink.rows.append(Row([Cell.text(m.name), site.cell(r + "links_per_gpu"), site.cell(r + "per_link"),
                                    site.cell(r + "total", direction="per_direction"), site.cell(r + "total"),
                                    _verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        else:
            nvswitch.rows.append(Row([Cell.text(m.name), Cell(site.link(m.nvlink)), site.cell(r + "gpus"),
                                      site.cell(r + "switches"), site.cell(r + "per_gpu", show_direction=True),
                                      _verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
    notes = [(e.model.name, zh(e.model.summary)) for e in links]
    return {"pcie": pcie, "nvlink": nvlink, "nvswitch": nvswitch, "notes": notes,
            "provenance": summary_html(site.kb, kinds=("interconnects",), title="本页数字的来源")}


def _derived_cell(site: Site, figure: Figure | None) -> Cell:
    return Cell(figure_html(figure, site.sources), sort_key(figure), numeric=True)


RDMA_ZH = {"native": "原生", "rocev2": "RoCEv2", "none": "无（TCP/IP）"}
FABRIC_ZH = {"infiniband": "InfiniBand", "ethernet": "以太网"}


def networks(site: Site) -> dict[str, object]:
    table = Table([("名称", False), ("类型", False), ("RDMA", False), ("通道数", True), ("每通道速率", True),
                   ("端口速率（Gb/s，单向）", True), ("换算为 GB/s（单向）", True), ("双向合计（GB/s）", True),
                   ("延迟", True), ("核对日期", False)])
    latency_notes = []
    for e in site.kb.of_type(Network):
        m, r = e.model, e.id + "#"
        table.rows.append(Row([Cell.text(m.name), Cell.text(FABRIC_ZH[m.fabric]), Cell.text(RDMA_ZH[m.rdma]),
                               site.cell(r + "lanes"), site.cell(r + "lane_rate"),
                               site.cell(r + "port_rate", unit="Gb/s", show_direction=True),
                               site.cell(r + "port_rate", unit="GB/s", show_direction=True),
                               site.cell(r + "port_rate", unit="GB/s", direction="bidirectional", show_direction=True),
                               site.cell(r + "latency"), _verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        if m.latency is not None:
            latency_notes.append((m.name, zh(m.latency.measures)))
    notes = [(e.model.name, zh(e.model.summary)) for e in site.kb.of_type(Network)]
    return {"ports": table, "latency_notes": latency_notes, "notes": notes,
            "provenance": summary_html(site.kb, kinds=("networks",), title="本页数字的来源")}


# The headline bandwidth of each kind of technology in the layers overview.
_HEADLINE = {"nvlink": "total", "nvswitch": "per_gpu", "pcie": "bidirectional"}


def layers(site: Site) -> dict[str, object]:
    sections = []
    for e in sorted(site.kb.of_type(Layer), key=lambda e: e.model.order):
        table = Table([("技术", False), ("带宽", True), ("换算", True)])
        for tech in e.model.technologies:
            target = site.kb.get(tech)
            if target is None:
                continue
            if isinstance(target.model, Network):
                cells = [site.cell(f"{tech}#port_rate", unit="Gb/s", show_direction=True),
                         site.cell(f"{tech}#port_rate", unit="GB/s", show_direction=True)]
            else:
                link = target.model
                name = _HEADLINE.get(link.type if isinstance(link, (Pcie, Nvlink, Nvswitch)) else "", "")
                cells = [site.cell(f"{tech}#{name}", show_direction=True),
                         site.cell(f"{tech}#{name}", direction="per_direction", show_direction=True)]
            table.rows.append(Row([Cell(site.link(tech)), *cells]))
        sections.append({"id": e.id, "order": e.model.order, "name": zh(e.model.name),
                         "connects": zh(e.model.connects), "summary": zh(e.model.summary), "table": table,
                         "verified": e.model.last_verified.isoformat()})
    return {"sections": sections, "directions": DIRECTION_ZH}
