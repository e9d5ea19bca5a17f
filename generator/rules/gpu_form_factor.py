"""arithmetic: a GPU's scale-up link fits its form factor. "A100 80GB" is an SXM module or a PCIe
card with different NVLink (DESIGN.md section 2): a card reaches its scale-up link only through a
bridge over two (or four) cards, and a module through the baseboard, never a bridge. Which form
factor is a card and which a module is data (`mounting` in specs/form-factors/), not a list here."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..model.entities import FormFactor, Gpu
from .base import Check, Context

FORM_FACTOR = Rule("gpu-form-factor", "arithmetic", "插卡（如 PCIe 卡）只能经桥接器使用 GPU 间直连链路；基板上的模块（如 SXM、OAM）不用桥接器。")


def check_form_factor(ctx: Context) -> Iterator[Diagnostic]:
    for gpu in ctx.kb.of_type(Gpu):
        link = gpu.model.scale_up
        form = ctx.kb.get(gpu.model.form_factor, FormFactor)
        if link is None or form is None:
            continue  # no link, or an unknown form factor (refs-unknown reports it)
        if form.model.mounting == "card" and not link.bridge:
            yield FORM_FACTOR.report(gpu, ("scale_up",),
                                     f"a card ({gpu.model.form_factor!r}) reaches its scale-up link only through a bridge: "
                                     "set `bridge: true` and `bridge_gpus`, or `scale_up: null` if it has no connector")
        if form.model.mounting == "module" and link.bridge:
            yield FORM_FACTOR.report(gpu, ("scale_up", "bridge"),
                                     f"a module ({gpu.model.form_factor!r}) connects its scale-up link through the "
                                     "baseboard, not a bridge")


RULES = (FORM_FACTOR,)
CHECKS: tuple[Check, ...] = (check_form_factor,)
