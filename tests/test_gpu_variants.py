"""The GPU page's section on restricted versions of one chip (`variant_of`, e.g. export-control
variants): each variant sits beside its base GPU with both scale-up links and both reference-precision
dense rates, so the reader sees which figure was cut; the section is absent when no GPU is a variant.
Runs on the fixture knowledge base with one variant file added."""

from __future__ import annotations

from support import base_result, validate_with

from generator.render.context import Site
from generator.render.hardware import gpus

VARIANT = """\
id: test-a100-cut
last_verified: 2026-11-30
name: Test A100 cut-link variant
family: test-a100
vendor: test-nvidia
architecture: test-ampere
form_factor: test-sxm
memory:
  type: HBM2e
  capacity: {value: 80, unit: GB, source: test-gpu-datasheet}
  bandwidth: {value: 2039, unit: GB/s, direction: aggregate, scope: per_gpu, source: test-gpu-datasheet}
compute:
  fp32: {value: 19.5, unit: TFLOPS, source: test-gpu-datasheet}
  tensor:
    - key: test-fp16
      dense: {value: 312, unit: TFLOPS, source: test-gpu-datasheet}
    - key: test-bf16
      dense: {value: 312, unit: TFLOPS, source: test-gpu-datasheet}
power: {value: 400, unit: W, source: test-gpu-datasheet}
scale_up:
  family: test-nvlink
  links: {value: 8, source: test-nvlink-doc}
  bandwidth: {value: 400, unit: GB/s, direction: bidirectional, scope: per_gpu, source: test-nvlink-doc}
pcie: test-pcie-4
variant_of: test-a100-sxm4
summary: {zh: "夹具中的受限版本：同一芯片，scale-up 链路被压低。", en: "A restricted fixture variant: the same chip with a slower scale-up link."}
""".encode()


def _variants(result):  # type: ignore[no-untyped-def]
    assert result.ok, [d.as_text() for d in result.diagnostics]
    return gpus(Site(result.kb, result.figures))["variants"]


def test_a_variant_sits_beside_its_base_with_both_links() -> None:
    table = _variants(validate_with("specs/gpus/test-a100-cut.yaml", VARIANT))
    assert len(table.rows) == 1
    cells = [str(c.html) for c in table.rows[0].cells]
    assert "#test-a100-cut\"" in cells[0] and "#test-a100-sxm4\"" in cells[1]
    assert cells[2].startswith("400") and cells[3].startswith("600")  # the cut link, then the base's
    assert cells[4].startswith("312") and cells[5].startswith("312")  # compute left as it was


def test_no_variant_no_section() -> None:
    assert _variants(base_result()).rows == []


def test_variant_of_must_name_a_gpu() -> None:
    result = validate_with("specs/gpus/test-a100-cut.yaml", VARIANT.replace(b"variant_of: test-a100-sxm4",
                                                                             b"variant_of: test-no-such-gpu"))
    assert not result.ok
    assert any("test-no-such-gpu" in d.as_text() for d in result.diagnostics)
