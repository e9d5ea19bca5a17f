"""Derived figures: the values that follow from others (DESIGN.md section 4), each with the
formula that produced it. A derived figure named like a stated one is what the stated one should
be; which rule judges the two is for the rules to say (generator/rules/arithmetic_*.py,
case_table.py), not for the derivation.

`FigureIndex` is built once per knowledge base and answers every `entity#figure` lookup:
a stated figure wins over a derived one (the arithmetic rules make sure the two agree).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from .figures import Figure, stated_figures
from .knowledge import KnowledgeBase, Loaded, T
from .model.entities import Gpu, Network, Nvlink, Nvswitch, Pcie, ScalingStudy
from .units import convert_direction, fmt_number


def _show(fig: Figure) -> str:
    return f"{fmt_number(fig.shown)} {fig.unit}".strip()


class _Keep(Enum):
    """A field of a derived figure that stays as in the figure it is derived from."""

    KEEP = 0


_KEEP = _Keep.KEEP


def _derived(base: Figure, name: str, value: Fraction, unit: str, formula: str, *, entity: str | None = None,
             dimension: str | None = None, direction: str | None | _Keep = _KEEP, scope: str | None | _Keep = _KEEP,
             source: str | None | _Keep = _KEEP) -> Figure:
    """`base` with the derived value and formula, and no place or tolerance; entity, dimension,
    direction, scope and source as `base` has them unless given."""
    return Figure(entity or base.entity, name, value, dimension or base.dimension, unit,
                  base.direction if direction is _KEEP else direction, base.scope if scope is _KEEP else scope,
                  base.source if source is _KEEP else source, formula=formula)


@dataclass(frozen=True)
class ZeroDivisor:
    """A figure that could not be derived because its formula divides by a figure that is zero:
    `entity#name` would be `formula`, and `divisor` (a stated figure, with its place) is 0. The
    derivation leaves the figure out; rules/arithmetic_divisors.py reports the divisor, so that
    a zero never makes the rules that judge the figure skip it silently."""

    entity: str
    name: str
    formula: str
    divisor: Figure


class FigureIndex:
    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.zero_divisors: list[ZeroDivisor] = []
        self.stated: dict[str, dict[str, Figure]] = {
            e.id: stated_figures(e.id, e.nodes, e.file.data) for e in kb if e.kind != "sources"
        }
        self._derived: dict[str, list[Figure]] = {}
        # Order matters: GPUs read the bidirectional rate of their PCIe generation.
        self._derive(kb.of_type(Pcie), _pcie)
        self._derive(kb.of_type(Nvlink), _nvlink)
        self._derive(kb.of_type(Nvswitch), _nvswitch)
        self._derive(kb.of_type(Network), _network)
        self._derive(kb.of_type(Gpu), _gpu)
        self._derive(kb.of_type(ScalingStudy), _case)

    def _derive(self, entities: list[Loaded[T]], derive: Callable[[T, FigureIndex], Iterator[Figure]]) -> None:
        """The figures that follow from each entity's, for those whose stated figures are all
        usable (a figure in a wrong unit is reported by the units rule, and derives nothing)."""
        for entity in entities:
            if all(f.usable for f in self.stated[entity.id].values()):
                self._derived[entity.id] = list(derive(entity.model, self))

    def nonzero(self, entity: str, name: str, formula: str, divisor: Figure) -> bool:
        """True when `divisor` can divide; else records that `entity#name` (`formula`) is not
        derived because of it. Every division of a derivation goes through here."""
        if divisor.value:
            return True
        self.zero_divisors.append(ZeroDivisor(entity, name, formula, divisor))
        return False

    def get(self, ref: str) -> Figure | None:
        entity_id, _, name = ref.partition("#")
        figure = self.stated.get(entity_id, {}).get(name)
        if figure is not None:
            return figure if figure.usable else None
        for derived in self._derived.get(entity_id, []):
            if derived.name == name:
                return derived
        return None

    def derived(self, entity_id: str) -> list[Figure]:
        """Every figure derived for the entity, including those named like a stated figure (which
        `get` hides behind the stated one); none when one of its stated figures is unusable."""
        return self._derived.get(entity_id, [])

    def unusable(self, entity_id: str) -> bool:
        """True when the entity has a figure in an unknown or wrong unit (reported by the units
        rule): lookups into it are skipped rather than reported as missing."""
        return any(not f.usable for f in self.stated.get(entity_id, {}).values())

    def names(self, entity_id: str) -> list[str]:
        names = set(self.stated.get(entity_id, {}))
        names.update(figure.name for figure in self._derived.get(entity_id, []))
        return sorted(names)


def _pcie(m: Pcie, ix: FigureIndex) -> Iterator[Figure]:
    rate, lanes = ix.stated[m.id]["transfer_rate"], m.lanes.value
    enc = m.encoding
    per_dir = rate.value * lanes * Fraction(enc.payload_bits, enc.total_bits)
    formula = f"{_show(rate)} × {lanes} lanes × {enc.payload_bits}/{enc.total_bits} ({enc.name}) ÷ 8"
    base = replace(rate, dimension="data_rate", scope="per_link", source=None)
    yield _derived(base, "per_direction", per_dir, "GB/s", formula, direction="per_direction")
    yield _derived(base, "bidirectional", per_dir * 2, "GB/s", f"2 × ({formula})",
                   direction="bidirectional")


def _nvlink(m: Nvlink, ix: FigureIndex) -> Iterator[Figure]:
    per_link, links = ix.stated[m.id]["per_link"], m.links_per_gpu.value
    total = convert_direction(per_link.value * links, per_link.direction, "bidirectional")
    if total is not None:
        formula = f"{links} links × {_show(per_link)} ({per_link.direction})"
        yield _derived(per_link, "total", total, "GB/s", formula, direction="bidirectional",
                       scope="per_gpu", source=None)


def _nvswitch(m: Nvswitch, ix: FigureIndex) -> Iterator[Figure]:
    # From the NVLink generation's own links and per-link rate, so that a wrong stated total
    # there is reported once, where it is written, and does not ripple into every switch.
    link = ix.kb.get(m.nvlink, Nvlink)
    link_rate = ix.stated.get(m.nvlink, {}).get("per_link")
    if link is not None and link_rate is not None:
        links = link.model.links_per_gpu.value
        total = convert_direction(link_rate.value * links, link_rate.direction, "bidirectional")
        if total is not None:
            formula = (f"every NVLink of the GPU goes to the switches: {m.nvlink} "
                       f"{links} links × {_show(link_rate)} ({link_rate.direction})")
            yield _derived(link_rate, "per_gpu", total, "GB/s", formula, entity=m.id,
                           direction="bidirectional", scope="per_gpu", source=None)


def _network(m: Network, ix: FigureIndex) -> Iterator[Figure]:
    lane, lanes = ix.stated[m.id]["lane_rate"], m.lanes.value
    formula = f"{lanes} lanes × {_show(lane)}"
    yield _derived(lane, "port_rate", lane.value * lanes, lane.unit, formula, scope="per_port",
                   source=None)


def _gpu(m: Gpu, ix: FigureIndex) -> Iterator[Figure]:
    s = ix.stated[m.id]
    if "memory.bus_width" in s and "memory.pin_rate" in s:
        width, pin = s["memory.bus_width"], s["memory.pin_rate"]
        yield _derived(pin, "memory.bandwidth", width.value * pin.value, "GB/s",
                       f"{fmt_number(width.value)}-bit bus × {_show(pin)} per pin ÷ 8",
                       direction="aggregate", scope="per_gpu", source=None)
    sms, cores, clock = (s.get(k) for k in ("compute.sm_count", "compute.fp32_cores_per_sm", "compute.boost_clock"))
    if sms is not None and cores is not None and clock is not None:
        yield _derived(clock, "compute.fp32", sms.value * cores.value * 2 * clock.value, "TFLOPS",
                       f"{sms.value} SMs × {cores.value} FP32 cores × 2 FLOP (FMA) × {_show(clock)}",
                       dimension="compute", source=None)
    if m.nvlink is not None:
        per_link = ix.get(f"{m.nvlink.interconnect}#per_link")
        if per_link is not None:
            total = convert_direction(per_link.value * m.nvlink.links.value, per_link.direction, "bidirectional")
            if total is not None:
                yield _derived(per_link, "nvlink.bandwidth", total, "GB/s",
                               f"{m.nvlink.links.value} links × {_show(per_link)} ({per_link.direction})",
                               entity=m.id, direction="bidirectional", scope="per_gpu", source=None)
    yield from _gpu_ratios(m, ix)


def _gpu_ratios(m: Gpu, ix: FigureIndex) -> Iterator[Figure]:
    """Derived-only comparison columns for the GPU table (no stated counterpart)."""
    s = ix.stated[m.id]
    tensor, power, memory = s["compute.tensor_bf16_dense"], s["power"], s["memory.bandwidth"]
    nvlink, pcie = s.get("nvlink.bandwidth"), ix.get(f"{m.pcie}#bidirectional")
    if nvlink is not None and pcie is not None and pcie.dimension == "data_rate":
        formula = f"NVLink {_show(nvlink)} ÷ {m.pcie} {_show(pcie)} (both bidirectional)"
        if ix.nonzero(m.id, "nvlink_to_pcie", formula, pcie):
            yield _derived(nvlink, "nvlink_to_pcie", nvlink.value / pcie.value, "x", formula,
                           dimension="ratio", direction=None, scope=None, source=None)
    formula = f"BF16 dense {_show(tensor)} ÷ {_show(power)}"
    if ix.nonzero(m.id, "tflops_per_watt", formula, power):
        yield _derived(tensor, "tflops_per_watt", tensor.value / power.value, "TFLOPS/W", formula,
                       dimension="compute_per_power", source=None)
    formula = f"{_show(memory)} ÷ BF16 dense {_show(tensor)}"
    if ix.nonzero(m.id, "bytes_per_flop", formula, tensor):
        yield _derived(memory, "bytes_per_flop", memory.value / tensor.value, "B/FLOP", formula,
                       dimension="bits_per_flop", direction=None, source=None)
    price = s.get("price")
    # A zero BF16 rate is reported once, for bytes_per_flop above.
    if price is not None and tensor.value:
        yield _derived(price, "usd_per_tflops", price.value / tensor.value,
                       "USD/TFLOPS", f"{_show(price)} ÷ BF16 dense {_show(tensor)}",
                       dimension="currency_per_compute")


def _case(m: ScalingStudy, ix: FigureIndex) -> Iterator[Figure]:
    s = ix.stated[m.id]
    gpus = m.nodes.value * m.gpus_per_node.value
    yield _derived(s["gpus"], "gpus", Fraction(gpus), "",
                   f"{m.nodes.value} nodes × {m.gpus_per_node.value} GPUs per node")
    # The GPU count divides each row's efficiency: when it is zero, the factor that is zero is
    # the figure to blame (the stated total is judged against the product by tables-case-gpus).
    zero_factor = next((s[name] for name in ("nodes", "gpus_per_node") if not s[name].value), None)
    reported: bool | None = None
    for row in m.rows:
        single, cluster = s[f"rows.{row.key}.single_gpu"], s[f"rows.{row.key}.cluster"]
        formula = f"{_show(cluster)} ÷ {_show(single)}"
        if not ix.nonzero(m.id, f"rows.{row.key}.speedup", formula, single):
            continue  # no speed-up over a zero baseline, nor anything that follows from it
        speedup = cluster.value / single.value
        base = s[f"rows.{row.key}.speedup"]
        yield _derived(base, f"rows.{row.key}.speedup", speedup, "x", formula)
        formula = f"speed-up {fmt_number(speedup)} ÷ {gpus} GPUs"
        if zero_factor is not None:
            if reported is None:  # one report for the study, not one per row
                reported = ix.nonzero(m.id, "rows.*.efficiency", f"speed-up ÷ {gpus} GPUs", zero_factor)
            continue
        efficiency = speedup / gpus
        yield _derived(base, f"rows.{row.key}.efficiency", efficiency, "%", formula)
        yield _derived(base, f"rows.{row.key}.comm_share", 1 - efficiency, "%",
                       f"1 − efficiency {fmt_number(efficiency * 100)}%")
