"""The parallelism primer in the strict build of the real site: it sits in the nav before the
calculator, explains each parallelism, and its worked example is the cost model's. Each figure
of the example equals what `python -m generator estimate --format json` prints for the inputs
of the calculator link beside it, shown as the calculator shows numbers; those inputs are the
first scaling study's modelled layout; and no spec id is visible text."""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from support import cli, real_result

from generator.model.entities import ScalingStudy
from generator.validate import Result


class Primer(HTMLParser):
    """The page's example figures (data-figure → value, text), calculator links and visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.figures: dict[str, tuple[str, str]] = {}
        self.links: dict[str, str] = {}
        self.buttons: list[str] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._figure: tuple[str, str] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.ids.add(a.get("id", ""))
        if "data-figure" in a:
            self._figure = (a["data-figure"], a["data-value"])
            self.figures[a["data-figure"]] = (a["data-value"], "")
        if tag == "a" and "data-calc" in a:
            self.links[a["data-calc"]] = a["href"]
        if tag == "a" and "md-button" in a.get("class", "") and "calculator/?" in a.get("href", ""):
            self.buttons.append(a["href"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
        if tag == "span":
            self._figure = None

    def handle_data(self, data: str) -> None:
        if self._figure is not None:
            key, value = self._figure
            self.figures[key] = (value, self.figures[key][1] + data)
        if not self._skip:
            self.text.append(data)


@pytest.fixture(scope="module")
def page(real_site: Path) -> Primer:
    parsed = Primer()
    parsed.feed((real_site / "parallelism" / "index.html").read_text(encoding="utf-8"))
    return parsed


@pytest.fixture(scope="module")
def real() -> Result:
    result = real_result()
    assert result.kb is not None
    return result


def calculator_number(x: float) -> str:
    """calculator.js `fmt`: four significant digits, thousands grouped from 1,000 on."""
    rounded = float(f"{x:.4g}")
    return f"{round(rounded):,}" if abs(rounded) >= 1000 else re.sub(r"\.0$", "", repr(rounded))


def calculator_share(x: float) -> str:
    """calculator.js `pct`: a percentage with one decimal."""
    return f"{x * 100:.1f}%"


FLAGS = {"workload": "--workload", "node": "--node", "gpu": "--gpu", "gpus": "--gpus", "gpus_per_node": "--gpus-per-node",
         "nics_per_node": "--nics-per-node", "network": "--network", "tp": "--tp", "pp": "--pp", "zero": "--zero",
         "micro_batch": "--micro-batch", "seq": "--seq", "global_batch": "--global-batch", "recompute": "--recompute",
         "recompute_layers": "--recompute-layers",
         "attention_kernel": "--attention-kernel", "virtual_pipeline": "--virtual-pipeline", "cp": "--cp",
         "shard_group": "--shard-group", "tp_overlap": "--tp-overlap", "ep": "--ep", "etp": "--etp", "ep_overlap": "--ep-overlap",
         "adapter_rank": "--lora-rank", "base_bits": "--base-bits"}
SWITCHES = {"sequence_parallel": ("--sequence-parallel", "1"), "fp32_gradients": ("--fp32-gradients", "1"),
            "flash_attention": ("--no-flash-attention", "0")}


def inputs(href: str) -> dict[str, str]:
    query = parse_qs(urlsplit(href).query, keep_blank_values=True)
    assert all(len(v) == 1 for v in query.values()), href
    return {k: v[0] for k, v in query.items()}


def estimate(href: str) -> dict[str, object]:
    """What the CLI prints for the inputs of a calculator link, every one of them as a flag."""
    flags: list[str] = []
    for name, value in inputs(href).items():
        if name in SWITCHES:
            flag, when = SWITCHES[name]
            flags += [flag] if value == when else []
        else:
            flags += [FLAGS[name], value]  # an input the CLI has no flag for fails here
    done = cli("estimate", *flags, "--format", "json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert isinstance(out, dict)
    return out


MEMORY = ("weights_gb", "gradients_gb", "optimizer_gb", "model_states_gb", "activations_gb", "total_gb")
STEP = {"step_time_s": ("step_time_s",), "microbatches": ("microbatches",), "bubble": ("time_s", "bubble"),
        "tensor_parallel": ("time_s", "tensor_parallel"), "dp_exposed": ("time_s", "dp_exposed"),
        "activations_gb": ("memory_per_gpu_gb", "activations_gb")}


SHOWN = {"plain": {*STEP, "bubble_share", "tensor_parallel_share", "dp_exposed_share", "comm_share"},
         "interleaved": {"step_time_s", "bubble", "bubble_share", "activations_gb"},
         "interleaved-nofit": {"activations_gb", "total_gb", "usable_gb", "fits"}}
"""The figures each variant shows (a ZeRO stage: its memory and whether it fits)."""


def _at(out: dict[str, object], *path: str) -> float:
    value: object = out
    for key in path:
        assert isinstance(value, dict)
        value = value[key]
    assert isinstance(value, (int, float))
    return float(value)


def _expected(key: str, out: dict[str, object]) -> tuple[float | bool, str]:
    """The value and text a figure of the page must have, from the CLI's output of its variant."""
    variant, name = key.split(".")
    if name == "fits":
        fits = bool(out["fits"])
        return fits, ("是" if fits else "否") if variant.startswith("zero") else ("放得下" if fits else "放不下")
    if variant.startswith("zero") or name in ("total_gb", "usable_gb"):
        x = _at(out, "memory_per_gpu_gb", name)
        return x, calculator_number(x)
    if name == "comm_share":
        x = _at(out, "comm_share")
        return x, calculator_share(x)
    if name.endswith("_share"):
        x = _at(out, *STEP[name.removesuffix("_share")]) / _at(out, "step_time_s")
        return x, calculator_share(x)
    x = _at(out, *STEP[name])
    return x, calculator_number(x)


def test_the_primer_is_built_before_the_calculator_and_covers_each_parallelism(real_site: Path, page: Primer) -> None:
    """In the nav the primer comes right before the calculator; it has a section per parallelism."""
    home = (real_site / "index.html").read_text(encoding="utf-8")
    order = [m for m in re.findall(r'href="(?:\./|\.\./)?([a-z-]+)/"', home) if m in ("parallelism", "calculator")]
    assert order[:2] == ["parallelism", "calculator"], order
    assert {"dp", "zero", "tp", "pp", "cp", "ep", "combine", "example", "example-memory", "example-time"} <= page.ids
    calculator = (real_site / "calculator" / "index.html").read_text(encoding="utf-8")
    assert 'href="../parallelism/"' in calculator


def test_every_figure_of_the_example_is_what_estimate_prints(page: Primer) -> None:
    """Each variant's figures equal the CLI's for its calculator link, as the calculator shows them."""
    variants = {key.split(".")[0] for key in page.figures}
    assert {"zero0", "zero1", "zero2", "zero3", "plain", "interleaved"} <= variants <= {*SHOWN, "zero0", "zero1",
                                                                                      "zero2", "zero3"}, variants
    assert set(page.links) == variants
    for variant in sorted(variants):
        out = estimate(page.links[variant])
        mine = {k: v for k, v in page.figures.items() if k.split(".")[0] == variant}
        names = {k.split(".")[1] for k in mine}
        assert names == SHOWN.get(variant, {*MEMORY, "fits"}), names
        for key, (value, text) in mine.items():
            expected, shown = _expected(key, out)
            if isinstance(expected, bool):
                assert value == str(expected).lower(), key
            else:
                assert math.isclose(float(value), expected, rel_tol=1e-12), (key, value, expected)
            assert text == shown, (key, text, shown)


def test_the_example_is_the_first_scaling_studys_modelled_layout(page: Primer, real: Result) -> None:
    """The links ask for the study's workload, GPUs, network and layout, one ZeRO stage each, the
    interleaved variant with more than one chunk; the page's button is the plain variant's link."""
    assert real.kb is not None
    study = next(s.model for s in sorted(real.kb.of_type(ScalingStudy), key=lambda s: s.id) if s.model.modelled)
    assert study.modelled is not None
    layout = next(lay for lay in study.modelled.layouts if lay.tp > 1 and lay.pp > 1)
    network = next(r.network for r in study.rows if r.network)
    plain = inputs(page.links["plain"])
    assert (plain["workload"], plain["gpus"], plain["network"], plain["tp"], plain["pp"], plain["zero"]) == (
        study.modelled.workload, str(int(study.gpus.value)), network, str(layout.tp), str(layout.pp), str(layout.zero))
    assert plain["virtual_pipeline"] == "1" and int(inputs(page.links["interleaved"])["virtual_pipeline"]) > 1
    for stage in range(4):
        assert inputs(page.links[f"zero{stage}"]) == {**plain, "zero": str(stage)}
    assert page.buttons == [page.links["plain"]]


def test_no_spec_id_is_visible_text(page: Primer) -> None:
    """The ids the example names reach the links' addresses only, never the text a reader reads."""
    text = " ".join(page.text)
    ids = {v for k, v in inputs(page.links["plain"]).items() if k in ("workload", "node", "gpu", "network")}
    assert ids
    for entity_id in ids:
        assert not re.search(rf"(?<![\w-]){re.escape(entity_id)}(?![\w-])", text), entity_id
