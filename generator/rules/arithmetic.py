"""arithmetic (and the case-table rules, which work the same way): every derived value that is
also stated must agree with it within the stated rounding. When they disagree, say what the
value should be and, where the slip is recognisable, which slip it is: bits for bytes, one
direction for both, or a figure borrowed from a sibling variant."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..derive import Derivation
from ..diagnostics import Diagnostic
from ..figures import Figure
from ..knowledge import Loaded
from ..load import DataPath
from ..model.entities import Gpu, Pcie, ScalingStudy
from ..units import UNITS, convert_direction, fmt_number, from_base, other_bit_byte_unit
from .base import Check, Context, Rule

BIT_BYTE = Rule("units-bit-byte", "units", "写出的数字恰好等于另一种单位（Gb/s 与 GB/s）下的推导值时，提示比特/字节混淆。")
DIRECTION_SLIP = Rule("units-direction-slip", "units", "写出的数字恰好是推导值的两倍或一半时，提示单向/双向混淆。")
PCIE_BANDWIDTH = Rule("arithmetic-pcie-bandwidth", "arithmetic", "PCIe 带宽 = 每通道传输率 × 通道数 × 编码效率 ÷ 8，双向为其两倍。")
PCIE_GENERATION = Rule("arithmetic-pcie-generation", "arithmetic",
                       "每一代 PCIe 的每通道传输率是上一代的两倍（3.0 到 6.0）；与前后两代都对不上的那一代被认为写错。")
NVLINK_TOTAL = Rule("arithmetic-nvlink-total", "arithmetic", "NVLink 每 GPU 总带宽 = 链路数 × 单链路带宽（换算为双向）。")
NVSWITCH_PER_GPU = Rule("arithmetic-nvswitch-per-gpu", "arithmetic", "NVSwitch 给每个 GPU 的带宽等于该代 NVLink 的每 GPU 总带宽。")
PORT_RATE = Rule("arithmetic-port-rate", "arithmetic", "网络端口速率 = 通道数 × 每通道速率。")
MEMORY_BANDWIDTH = Rule("arithmetic-memory-bandwidth", "arithmetic", "显存带宽 = 位宽 × 每针脚速率 ÷ 8。")
FP32 = Rule("arithmetic-fp32", "arithmetic", "FP32 峰值 = SM 数 × 每 SM 的 FP32 单元 × 2（FMA）× 加速频率。")
GPU_NVLINK = Rule("arithmetic-gpu-nvlink", "arithmetic", "GPU 的 NVLink 带宽 = 链路数 × 该代单链路带宽。")
VARIANT_MIX = Rule("gpu-variant-mix", "arithmetic", "一个 GPU 文件只描述一个版本：某个数字对不上、却等于同系列另一版本的数字时报错。")
FORM_FACTOR = Rule("gpu-form-factor", "arithmetic", "PCIe 卡只能经桥接器使用 NVLink；SXM 模块不需要桥接器。")
CASE_GPUS = Rule("tables-case-gpus", "tables", "案例的 GPU 总数 = 节点数 × 每节点 GPU 数。")
CASE_SPEEDUP = Rule("tables-case-speedup", "tables", "加速比 = 集群吞吐 ÷ 单卡吞吐。")
CASE_SHARE = Rule("tables-case-share", "tables", "通信占比 = 1 − 加速比 ÷ GPU 数。")
_BY_ID = {rule.id: rule for rule in (PCIE_BANDWIDTH, NVLINK_TOTAL, NVSWITCH_PER_GPU, PORT_RATE, MEMORY_BANDWIDTH,
                                     FP32, GPU_NVLINK, CASE_GPUS, CASE_SPEEDUP, CASE_SHARE)}


@dataclass(frozen=True)
class _Mismatch:
    stated: Figure
    derivation: Derivation
    expected: Fraction  # the derived value, in the stated figure's direction


def check_derived_values(ctx: Context) -> Iterator[Diagnostic]:
    for entity_id, derivations in sorted(ctx.figures.derivations.items()):
        entity = ctx.kb.entities[entity_id]
        mismatches = list(_mismatches(ctx, entity_id, derivations))
        blamed = _blame_case_inputs(ctx, entity_id, mismatches)
        for _key, path, rule, message in blamed:
            yield rule.report(entity, path, message)
        handled = {f"rows.{key}." for key, _p, _r, _m in blamed}
        for mismatch in mismatches:
            if any(mismatch.stated.name.startswith(prefix) for prefix in handled):
                continue
            alone = sum(m.derivation.rule == mismatch.derivation.rule for m in mismatches) == 1
            rule, message = _classify(ctx, mismatch, direction_slip_possible=alone)
            suffix = ("value",) if mismatch.stated.dimension != "count" else ()
            yield rule.report(entity, (mismatch.stated.path or ()) + suffix, message)


def _mismatches(ctx: Context, entity_id: str, derivations: list[Derivation]) -> Iterator[_Mismatch]:
    for derivation in derivations:
        stated = ctx.figures.stated[entity_id].get(derivation.figure.name)
        if derivation.rule is None or stated is None or stated.path is None:
            continue
        if stated.unit not in UNITS and stated.dimension != "count":
            continue  # units-unknown already reported
        derived = derivation.figure
        if stated.dimension != derived.dimension:
            continue  # units-dimension already reported
        expected = derived.value
        if stated.direction and derived.direction and stated.direction != derived.direction:
            expected = convert_direction(expected, derived.direction, stated.direction) or expected
        if abs(stated.value - expected) > stated.tolerance:
            yield _Mismatch(stated, derivation, expected)


def _blame_case_inputs(ctx: Context, entity_id: str, mismatches: list[_Mismatch]) -> list[tuple[str, DataPath, Rule, str]]:
    """In a scaling table, speed-up and share both follow from the throughputs. When both are
    off and still agree with each other, the throughput was edited: report it there, saying
    which throughput would make the row add up."""
    entity = ctx.kb.get(entity_id, ScalingStudy)
    if entity is None:
        return []
    by_row: dict[str, set[str]] = {}
    for m in mismatches:
        parts = m.stated.name.split(".")
        if parts[0] == "rows" and len(parts) == 3:
            by_row.setdefault(parts[1], set()).add(parts[2])
    blamed: list[tuple[str, DataPath, Rule, str]] = []
    stated = ctx.figures.stated[entity_id]
    gpus = entity.model.nodes.value * entity.model.gpus_per_node.value
    for index, row in enumerate(entity.model.rows):
        if by_row.get(row.key) != {"speedup", "comm_share"}:
            continue
        speedup, share = stated[f"rows.{row.key}.speedup"], stated[f"rows.{row.key}.comm_share"]
        if abs((1 - speedup.value / gpus) - share.value) > share.tolerance + speedup.tolerance / gpus:
            continue  # the stated columns disagree with each other too: report each
        single, cluster = stated[f"rows.{row.key}.single_gpu"], stated[f"rows.{row.key}.cluster"]
        want = single.value * speedup.value
        blamed.append((row.key, ("rows", index, "cluster", "value"), CASE_SPEEDUP,
                       f"rows.{row.key}.cluster is {fmt_number(cluster.shown)} tok/s, but the row states speed-up "
                       f"{fmt_number(speedup.shown)}x and share {fmt_number(share.shown)}%, which "
                       f"need {fmt_number(from_base(want, cluster.unit))} tok/s "
                       f"({fmt_number(single.shown)} tok/s × {fmt_number(speedup.shown)})"))
    return blamed


def _classify(ctx: Context, m: _Mismatch, *, direction_slip_possible: bool) -> tuple[Rule, str]:
    stated, derived, expected = m.stated, m.derivation.figure, m.expected
    unit = stated.unit or derived.unit
    want = f"{fmt_number(from_base(expected, unit) if unit in UNITS else expected)} {unit}".strip()
    told = f"{fmt_number(stated.shown)} {unit}".strip()
    base = (f"{stated.name} is {told} but {derived.formula} = {want}"
            f"{' (' + stated.direction + ')' if stated.direction else ''}")
    slip = _bit_byte(stated, expected)
    if slip:
        return BIT_BYTE, f"{base}: did you mean {fmt_number(stated.shown)} {slip}? (bits vs bytes: a factor of 8)"
    # A factor of two is a direction slip only if it is this figure alone that is off: when
    # the per-direction and bidirectional figures are both off by two, an input changed.
    if direction_slip_possible and stated.dimension == "data_rate" and (
            _close(stated, expected * 2) or _close(stated, expected / 2)):
        other = "bidirectional total" if _close(stated, expected * 2) else "per-direction rate"
        return DIRECTION_SLIP, f"{base}: {told} is the {other}; expected {want} {stated.direction}"
    sibling = _sibling_with(ctx, stated)
    if sibling is not None:
        return VARIANT_MIX, (f"{base}: {told} is the figure of {sibling} (same family, other variant); "
                                   "one file describes one variant")
    return _BY_ID[m.derivation.rule or ""], f"{base}; expected {want} (tolerance ±{_tolerance(stated)})"


def _close(stated: Figure, value: Fraction) -> bool:
    return abs(stated.value - value) <= stated.tolerance


def _bit_byte(stated: Figure, expected: Fraction) -> str | None:
    other = other_bit_byte_unit(stated.unit)
    if other is None:
        return None
    ratio = UNITS[other].factor / UNITS[stated.unit].factor
    alt_value = stated.shown * UNITS[other].factor
    return other if abs(alt_value - expected) <= stated.tolerance * ratio else None


def _sibling_with(ctx: Context, stated: Figure) -> str | None:
    entity = ctx.kb.get(stated.entity, Gpu)
    if entity is None:
        return None
    for other in ctx.kb.of_type(Gpu):
        if other.id != entity.id and other.model.family == entity.model.family:
            figure = ctx.figures.stated[other.id].get(stated.name)
            if figure is not None and abs(figure.value - stated.value) <= stated.tolerance:
                return other.id
    return None


def _tolerance(stated: Figure) -> str:
    if stated.unit in UNITS:
        return f"{fmt_number(from_base(stated.tolerance, stated.unit))} {stated.unit}"
    return fmt_number(stated.tolerance)


def check_form_factor(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
        nvlink = gpu.model.nvlink
        if nvlink is None:
            continue
        if gpu.model.form_factor == "pcie" and not nvlink.bridge:
            yield FORM_FACTOR.report(gpu, ("nvlink",),
                                     "a PCIe card reaches NVLink only through a bridge: set `bridge: true` and `bridge_gpus`, "
                                     "or `nvlink: null` if this card has no NVLink connector")
        if gpu.model.form_factor == "sxm" and nvlink.bridge:
            yield FORM_FACTOR.report(gpu, ("nvlink", "bridge"),
                                     "an SXM module connects NVLink through the baseboard, not a bridge")


def check_pcie_generations(ctx: Context) -> Iterator[Diagnostic]:
    """Each PCIe generation doubles its predecessor's transfer rate (3.0 → 6.0). A generation
    that disagrees with every neighbour is the one that was mistyped."""
    links = sorted(ctx.kb.of_type(Pcie), key=lambda e: e.model.generation)
    rates = [ctx.figures.stated[e.id]["transfer_rate"] for e in links]
    if not all(rate.usable for rate in rates):
        return
    for i, (entity, rate) in enumerate(zip(links, rates, strict=True)):
        checks = _neighbour_checks(links, rates, i)
        if not checks or any(abs(rate.value - want) <= rate.tolerance for want, _n, _r in checks):
            continue
        # At either end there is one neighbour: blame this end only if that neighbour agrees
        # with its own other neighbour (otherwise the neighbour is the mistyped one).
        if len(checks) == 1:
            j = i + 1 if i == 0 else i - 1
            if not any(abs(rates[j].value - want) <= rates[j].tolerance
                       for want, _n, _r in _neighbour_checks(links, rates, j) if _r is not rate):
                continue
        want = checks[0][0]
        said = " and ".join(f"{name} is {fmt_number(r.shown)} {r.unit}" for _w, name, r in checks)
        yield PCIE_GENERATION.report(entity, ("transfer_rate", "value"),
                                     f"transfer_rate is {fmt_number(rate.shown)} {rate.unit}, but each PCIe generation doubles "
                                     f"the previous one ({said}): expected {fmt_number(from_base(want, rate.unit))} {rate.unit}")


def _neighbour_checks(links: list[Loaded[Pcie]], rates: list[Figure], i: int) -> list[tuple[Fraction, str, Figure]]:
    """(expected rate, neighbour name, neighbour figure) from the generations next to `i`."""
    checks = []
    if i > 0 and _next_generation(links[i - 1], links[i]):
        checks.append((rates[i - 1].value * 2, links[i - 1].model.name, rates[i - 1]))
    if i + 1 < len(links) and _next_generation(links[i], links[i + 1]):
        checks.append((rates[i + 1].value / 2, links[i + 1].model.name, rates[i + 1]))
    return checks


def _next_generation(older: Loaded[Pcie], newer: Loaded[Pcie]) -> bool:
    return float(newer.model.generation) - float(older.model.generation) == 1.0


RULES = (BIT_BYTE, DIRECTION_SLIP, PCIE_BANDWIDTH, PCIE_GENERATION, NVLINK_TOTAL, NVSWITCH_PER_GPU, PORT_RATE,
         MEMORY_BANDWIDTH, FP32, GPU_NVLINK, VARIANT_MIX, FORM_FACTOR, CASE_GPUS, CASE_SPEEDUP, CASE_SHARE)
CHECKS: tuple[Check, ...] = (check_derived_values, check_form_factor, check_pcie_generations)
