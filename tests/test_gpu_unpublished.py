"""A GPU whose vendor publishes only some figures (no FP32, no memory bandwidth, no power, no PCIe
host link, a scale-up link given by neither count nor total) is valid: the page shows those cells
as not entered, no ratio is derived from a missing operand, and the cost model says it has no
scale-up rate instead of inventing one. Runs on the fixture knowledge base with one file added."""

from __future__ import annotations

from support import validate_with

from generator.estimates.export import export
from generator.estimates.records import gpu, scale_up
from generator.model.entities import Gpu
from generator.render.context import Site
from generator.render.hardware import gpus
from generator.render.reference import data_files

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
summary: {zh: "夹具中只公布了显存容量的 GPU。", en: "A fixture GPU with only its memory capacity published."}
""".encode()


def test_unpublished_figures_are_not_entered_and_derive_nothing() -> None:
    result = validate_with("specs/gpus/test-sparse-gpu.yaml", SPARSE)
    assert result.ok, [d.as_text() for d in result.diagnostics]
    assert result.figures is not None
    for name in ("memory.bandwidth", "compute.fp32", "power", "scale_up.bandwidth", "scale_up_to_pcie",
                 "tflops_per_watt", "bytes_per_flop"):
        assert result.figures.get(f"test-sparse-gpu#{name}") is None, name
    specs = gpus(Site(result.kb, result.figures))["specs"]
    row = next(r for r in specs.rows if r.anchor == "test-sparse-gpu")
    cells = {label: str(c.html) for (label, _numeric), c in zip(specs.headers, row.cells, strict=True)}
    assert cells["显存"].startswith("186")  # the one figure it states
    # bandwidth, FP32, scale-up, power: "未录入", not "—", which the GPU page keeps for a lacking precision
    unstated = ("显存带宽", "FP32（非张量）", "Scale-up 带宽（每 GPU）", "功耗")
    assert all("fig-none" in cells[c] and "未录入" in cells[c] for c in unstated), cells
    spec = result.kb.get("test-sparse-gpu", Gpu)
    assert spec is not None
    assert isinstance(scale_up(result.kb, spec.model, 8), str)  # no rate: said, not invented


NO_MEMORY = """\
id: test-no-memory-gpu
last_verified: 2026-11-30
name: Test GPU without memory figures
family: test-no-memory
vendor: test-nvidia
architecture: test-ampere
form_factor: test-sxm
memory: {}
compute:
  tensor:
    - {key: test-bf16, dense: {value: 300, unit: TFLOPS, source: test-gpu-datasheet}}
scale_up:
  family: test-nvlink
summary: {zh: "夹具中没有公布任何显存数字的 GPU。", en: "A fixture GPU with no memory figure published."}
""".encode()


def test_gpu_without_memory_figures_renders_and_is_not_modelled() -> None:
    """No memory type and no capacity (a vendor that prints neither, or a name sold in several
    bins): valid; the page shows both cells as not entered, the downloads carry no empty value,
    and the calculator's export gives the reason instead of a spec."""
    result = validate_with("specs/gpus/test-no-memory-gpu.yaml", NO_MEMORY)
    assert result.ok, [d.as_text() for d in result.diagnostics]
    assert result.figures is not None
    assert result.figures.get("test-no-memory-gpu#memory.capacity") is None
    site = Site(result.kb, result.figures)
    row = next(r for r in gpus(site)["specs"].rows if r.anchor == "test-no-memory-gpu")
    cells = [str(c.html) for c in row.cells]
    assert all("fig-none" in cells[i] and "未录入" in cells[i] for i in (4, 5)), cells  # capacity, type
    assert not any("None" in c for c in cells), cells
    spec = result.kb.get("test-no-memory-gpu", Gpu)
    assert spec is not None
    assert gpu(result.kb, spec.model) == "Test GPU without memory figures states no memory capacity"
    record = next(g for g in export(result.kb)["gpus"] if g["id"] == "test-no-memory-gpu")  # type: ignore[attr-defined]
    assert "problem" in record and "spec" not in record
    files = data_files(site)
    assert "test-no-memory-gpu" in files["data/gpus.csv"] and "None" not in files["data/gpus.csv"]


def test_gpu_without_memory_bandwidth_is_not_modelled() -> None:
    """The compute time needs the memory bandwidth (its memory-bound part): without it the model
    says so in one line, as for any missing figure."""
    text = NO_MEMORY.decode().replace("test-no-memory-gpu", "test-no-bandwidth-gpu").replace(
        "memory: {}", "memory: {capacity: {value: 80, unit: GB, source: test-gpu-datasheet}}")
    result = validate_with("specs/gpus/test-no-bandwidth-gpu.yaml", text.encode())
    assert result.ok, [d.as_text() for d in result.diagnostics]
    assert result.kb is not None
    spec = result.kb.get("test-no-bandwidth-gpu", Gpu)
    assert spec is not None
    assert gpu(result.kb, spec.model) == "Test GPU without memory figures states no memory bandwidth"


def test_the_cost_model_takes_flash_attentions_figure_from_the_architecture() -> None:
    """A GPU's FlashAttention efficiency is its architecture's published FlashAttention-2 figure as a
    fraction, and None where the architecture publishes none (then the GEMM efficiency applies)."""
    from generator.model.entities import Architecture
    from generator.units import to_base
    result = validate_with("specs/gpus/test-sparse-gpu.yaml", SPARSE)
    assert result.kb is not None
    seen = set()
    for entity in result.kb.of_type(Gpu):
        chip = gpu(result.kb, entity.model)
        if isinstance(chip, str):
            continue
        seen.add(chip.flash_attention_efficiency)
        arch = result.kb.get(entity.model.architecture, Architecture)
        figure = None if arch is None else arch.model.flash_attention_2
        assert chip.flash_attention_efficiency == (None if figure is None else float(to_base(figure.value, figure.unit)))
    assert None in seen and len(seen) > 1  # the fixture has architectures with and without the figure
