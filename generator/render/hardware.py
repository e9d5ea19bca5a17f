"""Contexts of the hardware pages: GPUs, intra-node links, networks, communication layers."""

from __future__ import annotations

from markupsafe import Markup, escape

from ..derive import reference_precision
from ..figures import Figure
from ..knowledge import Loaded
from ..labels import DIRECTION, RDMA
from ..language import Bilingual, current, say
from ..model.common import Entity
from ..model.entities import (
    Architecture,
    FormFactor,
    Gpu,
    Layer,
    Network,
    Nvlink,
    Nvswitch,
    Pcie,
    Pitfall,
    Precision,
)
from ..provenance import entity_sources
from .context import Site
from .names import RowNamer, note_anchor, row_names
from .table import Cell, Row, Table
from .text import chinese, figure_html, inert, localized, not_entered, sort_key
from .trust import checked_on, source_link, summary_html


# Words several tables of these pages share (functions: the language is known only at render time).
def _model() -> str:
    return say("型号", "Model")


def _name() -> str:
    return say("名称", "Name")


def _lanes() -> str:
    return say("通道数", "Lanes")


def _checked() -> str:
    return say("核对日期", "Checked")


def _none() -> str:
    return say("无", "none")


def _provenance_title() -> str:
    return say("本页数字的来源", "Where the figures on this page come from")


def verified(site: Site, entity: Loaded[Entity]) -> Cell:
    """The row's verification date, unless a source behind its figures was not read."""
    return Cell.text(checked_on(entity_sources(site.kb, entity.id), entity.model.last_verified.isoformat()))


def gpus(site: Site) -> dict[str, object]:
    """The GPU page's tables (the comparison page lays out the same ones)."""
    return site.once(f"gpus:{current()}", lambda: _gpus(site))


def _gpus(site: Site) -> dict[str, object]:
    # The figures a planner compares first lead each table; what names the product (vendor, form,
    # architecture) follows, and the date checked comes last.
    specs = Table([(_model(), False), (say("显存", "Memory"), True), (say("显存带宽", "Memory bandwidth"), True),
                   (say("Scale-up 带宽（每 GPU）", "Scale-up bandwidth (per GPU)"), True), (say("功耗", "Power"), True),
                   (say("FP32（非张量）", "FP32 (non-tensor)"), True), (say("Scale-up 链路", "Scale-up link"), False),
                   (say("主机接口", "Host interface"), False), (say("形态", "Form factor"), False),
                   (say("架构", "Architecture"), False), (say("厂商", "Vendor"), False),
                   (say("显存类型", "Memory type"), False), (_checked(), False)])
    reference = reference_precision(site.kb)
    ref_label = site.kb.label_of(reference) if reference else ""
    # Labels come from spec files: inert, like every spec text (a header is not escaped for Markdown).
    derived = Table([(_model(), False), (inert(say(f"每瓦 {ref_label} 稠密算力", f"Dense {ref_label} per watt")), True),
                     (say("每 TFLOPS 价格", "Price per TFLOPS"), True),
                     (inert(say(f"显存带宽 ÷ {ref_label} 稠密算力", f"Memory bandwidth ÷ dense {ref_label}")), True),
                     (say("Scale-up ÷ PCIe（单向）", "Scale-up ÷ PCIe (per direction)"), True),
                     (say("参考价（带日期）", "Reference price (dated)"), True)])
    ordered = _by_generation(site)
    names = row_names(site.kb, ordered)
    unit = site.column_units(ordered, "memory.capacity", "memory.bandwidth", "scale_up.bandwidth", "power", "compute.fp32",
                  "tflops_per_watt", "usd_per_tflops", "bytes_per_flop", "price")
    for gpu in ordered:
        m, r = gpu.model, gpu.id + "#"
        link = m.scale_up
        family = Cell.text(site.kb.label_of(link.family)) if link else Cell.text(_none())
        # Stated figures not in the knowledge base read 未录入 (not entered), as in the compute
        # table, where "—" means a precision the GPU lacks.
        bandwidth = site.cell(r + "scale_up.bandwidth", unit=unit["scale_up.bandwidth"], show_direction=True,
                              missing=not_entered()) if link else Cell.text(_none())
        specs.rows.append(Row([names(gpu.id),
                               site.cell(r + "memory.capacity", unit=unit["memory.capacity"], missing=not_entered()),
                               site.cell(r + "memory.bandwidth", unit=unit["memory.bandwidth"], missing=not_entered()),
                               bandwidth, site.cell(r + "power", unit=unit["power"], missing=not_entered()),
                               site.cell(r + "compute.fp32", unit=unit["compute.fp32"], missing=not_entered()),
                               family, Cell(site.link(m.pcie)), Cell.text(site.kb.label_of(m.form_factor)),
                               Cell.text(site.kb.label_of(m.architecture)), Cell.text(site.kb.label_of(m.vendor)),
                               _memory_type(m), verified(site, gpu)],
                              anchor=gpu.id, spec=site.spec(gpu.id)))
        price = site.fig(r + "price")
        price_cell = site.cell(r + "price", unit=unit["price"])
        if price is not None and m.price is not None:
            dated = say("（{}）", " ({})").format(m.price.as_of.isoformat())
            price_cell = Cell(price_cell.html + escape(dated), price_cell.sort, True)
        derived.rows.append(Row([names(gpu.id, href="#" + gpu.id),
                                 site.cell(r + "tflops_per_watt", unit=unit["tflops_per_watt"]),
                                 site.cell(r + "usd_per_tflops", unit=unit["usd_per_tflops"]),
                                 site.cell(r + "bytes_per_flop", unit=unit["bytes_per_flop"]),
                                 site.cell(r + "scale_up_to_pcie", show_direction=False), price_cell]))
    notes = [(note_anchor(gpu.id), gpu.model.name, localized(gpu.model.summary)) for gpu in ordered]
    return {"specs": specs, "compute": _compute(site, ordered, names), "derived": derived, "notes": notes,
            "reference": ref_label, "variants": _variants(site, ordered, reference, ref_label, names), "chinese": chinese,
            "provenance": summary_html(site.kb, kinds=("gpus",), title=_provenance_title())}


def _memory_type(gpu: Gpu) -> Cell:
    """The memory type as the datasheet writes it, or the mark of a figure not entered."""
    if gpu.memory.type is None:
        return Cell(not_entered())
    return Cell.text(gpu.memory.type)


def _variants(site: Site, ordered: list[Loaded[Gpu]], reference: str | None, ref_label: str,
              names: RowNamer) -> Table:
    """Restricted versions (`variant_of`) beside the GPU they are cut from: the scale-up link and
    the reference-precision dense rate of both, and the pitfalls that concern the variant. Which
    of the two figures was cut is read off the data, never named here."""
    table = Table([(say("受限版本", "Restricted version"), False), (say("同芯片的原型号", "Original (same chip)"), False),
                   (say("Scale-up 带宽", "Scale-up bandwidth"), True),
                   (say("原型号 Scale-up 带宽", "Scale-up bandwidth of the original"), True),
                   (say(f"{ref_label} 稠密", f"{ref_label} dense"), True),
                   (say(f"原型号 {ref_label} 稠密", f"{ref_label} dense of the original"), True),
                   (say("相关避坑", "Related pitfalls"), False)])
    pitfalls = site.kb.of_type(Pitfall)
    # The units of the page's other tables, taken over every GPU: the same figure reads alike here.
    link = site.common_unit(f"{g.id}#scale_up.bandwidth" for g in ordered)
    dense = site.common_unit(f"{g.id}#compute.tensor.{reference}.dense" for g in ordered)
    for gpu in ordered:
        base = gpu.model.variant_of
        if base is None:
            continue
        related = [p.id for p in pitfalls if gpu.id in p.model.concerns]
        table.rows.append(Row([names(gpu.id, href="#" + gpu.id), names(base, href="#" + base),
                               site.cell(f"{gpu.id}#scale_up.bandwidth", unit=link, show_direction=True),
                               site.cell(f"{base}#scale_up.bandwidth", unit=link, show_direction=True),
                               site.cell(f"{gpu.id}#compute.tensor.{reference}.dense", unit=dense),
                               site.cell(f"{base}#compute.tensor.{reference}.dense", unit=dense),
                               Cell(Markup(say("、", ", ")).join(site.link(p) for p in related) if related else Markup("—"))]))
    return table


# Columns of the per-precision table: dense always, the others where some GPU states them.
_SLOTS = Bilingual(zh={"dense": "稠密", "dense_half_accumulate": "稠密（16 位累加）", "sparse": "稀疏"},
                   en={"dense": "dense", "dense_half_accumulate": "dense (16-bit accumulate)", "sparse": "sparse"})


def _compute(site: Site, ordered: list[Loaded[Gpu]], names: RowNamer) -> Table:
    """Tensor throughput, one column per precision of the vocabulary: the dense rates first (the
    reference precision's, then the others widest first), then the sparse and 16-bit-accumulate
    rates where some GPU's vendor prints them. "—" is a precision the GPU lacks (with the source
    that says so); "未录入" one the knowledge base has no figure for."""
    reference = reference_precision(site.kb)
    precisions = sorted(site.kb.of_type(Precision), key=lambda p: (p.id != reference, -p.model.bits, p.id))
    columns: list[tuple[str, str]] = []
    for slot in _SLOTS:
        for p in precisions:
            entries = [e for g in ordered for e in g.model.compute.tensor if e.key == p.id]
            if slot == "dense" or any(getattr(e, slot) for e in entries):
                columns.append((p.id, slot))
    unit = {c: site.common_unit(f"{g.id}#compute.tensor.{c[0]}.{c[1]}" for g in ordered) for c in columns}
    headers = [(_model(), False)] + [(inert(f"{site.kb.label_of(pid)} {_SLOTS[slot]}"), True) for pid, slot in columns]
    table = Table(headers)
    for gpu in ordered:
        by_key = {e.key: e for e in gpu.model.compute.tensor}
        cells = [names(gpu.id, href="#" + gpu.id)]
        for pid, slot in columns:
            entry = by_key.get(pid)
            if entry is not None and entry.unsupported is not None:
                source = site.sources.get(entry.unsupported.source)
                link = Markup(" ") + source_link(source) if source is not None else Markup("")
                unsupported = say("不支持该精度", "Precision not supported")
                cells.append(Cell(Markup('<span class="fig-unsupported" title="{}">—</span>').format(unsupported) + link,
                                  "", True))
            elif entry is None or getattr(entry, slot) is None:
                cells.append(Cell(not_entered(), "", True))
            else:
                cells.append(site.cell(f"{gpu.id}#compute.tensor.{pid}.{slot}", unit=unit[pid, slot]))
        table.rows.append(Row(cells))
    return table


def _by_generation(site: Site) -> list[Loaded[Gpu]]:
    """GPUs oldest architecture first (by the year the vocabulary gives), modules before cards
    within one chip."""
    def key(g: Loaded[Gpu]) -> tuple[int, str, bool, str]:
        arch = site.kb.get(g.model.architecture, Architecture)
        form = site.kb.get(g.model.form_factor, FormFactor)
        return (arch.model.released if arch else 0, g.model.family,
                form is None or form.model.mounting != "module", g.id)
    return sorted(site.kb.of_type(Gpu), key=key)


def interconnects(site: Site) -> dict[str, object]:
    links = site.kb.of_type(Pcie, Nvlink, Nvswitch)
    # The bandwidths lead, per direction first (what nccl-tests' busbw is compared with).
    pcie = Table([(_name(), False), (say("单向（推导）", "Per direction (derived)"), True),
                  (say("双向合计（推导）", "Bidirectional total (derived)"), True),
                  (say("官方标称单向", "Official per direction"), True), (say("官方标称双向", "Official bidirectional"), True),
                  (say("每通道传输率", "Transfer rate per lane"), True), (_lanes(), True), (say("编码", "Encoding"), False),
                  (_checked(), False)])
    nvlink = Table([(_name(), False), (say("每 GPU 单向合计", "Per GPU, per direction"), True),
                    (say("每 GPU 双向合计", "Per GPU, bidirectional total"), True),
                    (say("每链路单向", "Per link, per direction"), True), (say("每 GPU 链路数", "Links per GPU"), True),
                    (_checked(), False)])
    nvswitch = Table([(_name(), False), (say("每 GPU 带宽", "Bandwidth per GPU"), True),
                      (say("全互连 GPU 数", "GPUs fully connected"), True), (say("所用 NVLink", "NVLink used"), False),
                      (say("交换芯片数", "Switch chips"), True), (_checked(), False)])
    names = row_names(site.kb, links)
    unit = site.column_units(links, "per_direction", "bidirectional", "transfer_rate", "per_link", "total", "per_gpu")
    for e in links:
        m, r = e.model, e.id + "#"
        derived = {figure.name: figure for figure in site.figures.derived(e.id)}
        if isinstance(m, Pcie):
            pcie.rows.append(Row([names(e.id), _derived_cell(site, derived.get("per_direction")),
                                  _derived_cell(site, derived.get("bidirectional")),
                                  site.cell(r + "per_direction", unit=unit["per_direction"]),
                                  site.cell(r + "bidirectional", unit=unit["bidirectional"]),
                                  site.cell(r + "transfer_rate", unit=unit["transfer_rate"]), site.cell(r + "lanes"),
                                  Cell.text(m.encoding.name), verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        elif isinstance(m, Nvlink):
            nvlink.rows.append(Row([names(e.id), site.cell(r + "total", unit=unit["total"], direction="per_direction"),
                                    site.cell(r + "total", unit=unit["total"]),
                                    site.cell(r + "per_link", unit=unit["per_link"]), site.cell(r + "links_per_gpu"),
                                    verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
        else:
            nvswitch.rows.append(Row([names(e.id), site.cell(r + "per_gpu", unit=unit["per_gpu"], show_direction=True),
                                      site.cell(r + "gpus"), Cell(site.link(m.nvlink)), site.cell(r + "switches"),
                                      verified(site, e)], anchor=e.id, spec=site.spec(e.id)))
    notes = [(note_anchor(e.id), e.model.name, localized(e.model.summary)) for e in links]
    return {"pcie": pcie, "nvlink": nvlink, "nvswitch": nvswitch, "notes": notes, "chinese": chinese,
            "provenance": summary_html(site.kb, kinds=("interconnects",), title=_provenance_title())}


def _derived_cell(site: Site, figure: Figure | None) -> Cell:
    return Cell(figure_html(figure, site.sources), sort_key(figure), numeric=True)




def networks(site: Site) -> dict[str, object]:
    # The port rate leads, in bits as vendors print it and in bytes as GPU links are compared.
    table = Table([(_name(), False), (say("端口速率（Gb/s，单向）", "Port rate (Gb/s, per direction)"), True),
                   (say("换算为 GB/s（单向）", "In GB/s (per direction)"), True),
                   (say("双向合计（GB/s）", "Bidirectional total (GB/s)"), True), (say("延迟", "Latency"), True),
                   ("RDMA", False), (say("类型", "Type"), False), (_lanes(), True),
                   (say("每通道速率", "Rate per lane"), True), (_checked(), False)])
    latency_notes = []
    entities = site.kb.of_type(Network)
    names = row_names(site.kb, entities)
    unit = site.column_units(entities, "latency", "lane_rate")
    for e in entities:
        m, r = e.model, e.id + "#"
        table.rows.append(Row([names(e.id), site.cell(r + "port_rate", unit="Gb/s", show_direction=True),
                               site.cell(r + "port_rate", unit="GB/s", show_direction=True),
                               site.cell(r + "port_rate", unit="GB/s", direction="bidirectional", show_direction=True),
                               site.cell(r + "latency", unit=unit["latency"]), Cell.text(RDMA[m.rdma]),
                               Cell.text(site.kb.label_of(m.fabric)), site.cell(r + "lanes"),
                               site.cell(r + "lane_rate", unit=unit["lane_rate"]), verified(site, e)],
                              anchor=e.id, spec=site.spec(e.id)))
        if m.latency is not None:
            latency_notes.append((m.name, localized(m.latency.measures)))
    notes = [(note_anchor(e.id), e.model.name, localized(e.model.summary)) for e in entities]
    return {"ports": table, "latency_notes": latency_notes, "notes": notes, "chinese": chinese,
            "provenance": summary_html(site.kb, kinds=("networks",), title=_provenance_title())}


# The headline bandwidth of each kind of technology in the layers overview.
_HEADLINE = {"nvlink": "total", "nvswitch": "per_gpu", "pcie": "bidirectional"}


def layers(site: Site) -> dict[str, object]:
    sections = []
    for e in sorted(site.kb.of_type(Layer), key=lambda e: e.model.order):
        table = Table([(say("技术", "Technology"), False), (say("带宽", "Bandwidth"), True),
                       (say("换算", "Converted"), True)])
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
        sections.append({"id": e.id, "order": e.model.order, "name": localized(e.model.name),
                         "connects": localized(e.model.connects), "summary": localized(e.model.summary), "table": table,
                         "verified": e.model.last_verified.isoformat()})
    return {"sections": sections, "directions": DIRECTION}
