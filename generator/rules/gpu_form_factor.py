"""arithmetic: a GPU's NVLink fits its form factor. "A100 80GB" is an SXM module or a PCIe card
with different NVLink (DESIGN.md section 2): a PCIe card reaches NVLink only through a bridge
over two (or four) cards, and an SXM module through the baseboard, never a bridge."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..model.entities import Gpu
from .base import Check, Context, Rule

FORM_FACTOR = Rule("gpu-form-factor", "arithmetic", "PCIe 卡只能经桥接器使用 NVLink；SXM 模块不需要桥接器。")


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


RULES = (FORM_FACTOR,)
CHECKS: tuple[Check, ...] = (check_form_factor,)
