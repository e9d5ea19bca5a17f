"""A GPU whose vendor publishes only some figures (no FP32, no memory bandwidth, no power, no PCIe
host link, a scale-up link given by neither count nor total) is valid: the page shows those cells
as not entered, no ratio is derived from a missing operand, and the cost model says it has no
scale-up rate instead of inventing one. Runs on the fixture knowledge base with one file added."""

from __future__ import annotations

from support import validate_with

from generator.costmodel.from_kb import scale_up
from generator.model.entities import Gpu
from generator.render.context import Site
from generator.render.hardware import gpus

SPARSE = """\
id: test-sparse-gpu
last_verified: 2026-11-30
name: Test GPU with few published figures
family: test-sparse
vendor: test-nvidia
architecture: test-ampere
form_factor: test-sxm
memory:
  type: HBM3e
  capacity: {value: 186, unit: GB, source: test-gpu-datasheet}
compute:
  tensor: []
scale_up:
  family: test-nvlink
  domain: {value: 72, source: test-nvlink-doc}
summary: {zh: "夹具中只公布了显存容量的 GPU。"}
""".encode()


def test_unpublished_figures_are_not_entered_and_derive_nothing() -> None:
    result = validate_with("specs/gpus/test-sparse-gpu.yaml", SPARSE)
    assert result.ok, [d.as_text() for d in result.diagnostics]
    assert result.figures is not None
    for name in ("memory.bandwidth", "compute.fp32", "power", "scale_up.bandwidth", "scale_up_to_pcie",
                 "tflops_per_watt", "bytes_per_flop"):
        assert result.figures.get(f"test-sparse-gpu#{name}") is None, name
    row = next(r for r in gpus(Site(result.kb, result.figures))["specs"].rows if r.anchor == "test-sparse-gpu")
    cells = [str(c.html) for c in row.cells]
    assert cells[4].startswith("186")  # the one figure it states
    assert all("fig-none" in cells[i] for i in (6, 7, 9, 11)), cells  # bandwidth, FP32, scale-up, power
    spec = result.kb.get("test-sparse-gpu", Gpu)
    assert spec is not None
    assert isinstance(scale_up(result.kb, spec.model, 8), str)  # no rate: said, not invented
