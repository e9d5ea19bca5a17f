"""The calculator's script computes what the Python model computes.

docs/assets/javascripts/costmodel.js is a port of generator/costmodel/ for the calculator page.
Seeded cases over the synthetic hardware and workloads of `costmodel.grid` (no product, so an
edit of the real specs never changes this test) go through `estimate` + `report.outputs` in
Python and through the script in Node (Debian's `nodejs`); every output must agree to a relative
1e-9, booleans and names exactly, and an infeasible case must report the same problem codes.
The script speaks the page's language (<html lang>), so the cases run in both: in Chinese the
messages and the scaling note are not compared (the Python model's are in English); in English
they must be the Python model's own words, with the same figures.

Node is required, not optional: CI installs it (tools/browser-deps.sh, .ci/run); without it the
test fails and says how to install it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generator.costmodel import Assumptions, Cluster, Layout, estimate
from generator.costmodel.grid import (
    illustrative_assumptions,
    synthetic_moe_workloads,
    synthetic_nodes,
    synthetic_workloads,
)
from generator.costmodel.result import Result
from generator.estimates.report import outputs

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "assets" / "javascripts" / "costmodel.js"
RUNNER = """
global.document = {documentElement: {lang: process.argv[2] || "zh"}};  // the page's <html lang>
const model = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(c => model.estimate(c.workload, c.cluster, c.layout, c.assumptions))));
"""
NOT_COMPARED = {"scaling_note", "message"}
CASES = 600


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        pytest.fail("Node.js is missing: the calculator parity test needs Debian's nodejs "
                    "(apt-get install nodejs; tools/browser-deps.sh installs it)")
    return found


def run_js(cases: list[dict[str, object]], language: str = "zh") -> list[object]:
    done = subprocess.run([node(), "-e", RUNNER, str(SCRIPT), language], input=json.dumps(cases), capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert isinstance(result, list)
    return result


def generated_cases(seed: int, count: int) -> list[tuple[object, Cluster, Layout, Assumptions]]:
    """A seeded sample of configurations: the grid's workloads and nodes, every layout knob, and
    assumptions moved around the grid's values (feasible and infeasible cases alike)."""
    rng, later, moe = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    engine = random.Random(seed + 3)  # DeepSpeed's whole-output pipeline sends, drawn apart
    partial = random.Random(seed + 5)  # some layers of each chunk recomputed, drawn apart
    gathers = random.Random(seed + 7)  # FP8 weights gathered in FP8, drawn apart
    base = illustrative_assumptions()
    out = []
    for _ in range(count):
        node = rng.choice(synthetic_nodes())
        flash = rng.choice((None, rng.uniform(0.2, 0.8))) if rng.random() < 0.97 else rng.choice((0.0, 1.5))  # a few refused
        gpu = dataclasses.replace(node.gpu, flash_attention_efficiency=flash)
        node = dataclasses.replace(node, gpu=gpu, nics_per_node=rng.choice((1, 2, 4, 8)))
        layout = Layout(
            tensor_parallel=rng.choice((1, 2, 4, 8)), pipeline_parallel=rng.choice((1, 2, 4, 8, 16)),
            zero_stage=rng.choice((0, 1, 2, 3)), micro_batch_size=rng.choice((1, 2, 4)),
            sequence_length=rng.choice((1024, 2048, 4096, 8192)), global_batch_size=rng.choice((256, 512, 1024, 1536)),
            recompute=rng.choice(("none", "selective", "full")), sequence_parallel=rng.random() < 0.5,
            precision="fp8" if rng.random() < 0.15 else "bf16", flash_attention=rng.random() < 0.7,
            virtual_pipeline=rng.choice((1, 1, 2, 3)), fp32_gradients=rng.random() < 0.3,
            tp_overlap=rng.choice((0.0, 0.0, rng.uniform(0.0, 1.0))), context_parallel=rng.choice((1, 1, 2, 4)))
        assumptions = dataclasses.replace(
            base, gemm_efficiency_max=rng.uniform(0.3, 0.8), gemm_half_intensity=rng.choice((0.0, rng.uniform(0.0, 5.0))),
            memory_bound_bytes=rng.uniform(0.0, 40.0), network_collective_efficiency=rng.uniform(0.5, 0.95),
            dp_overlap_fraction=rng.uniform(0.0, 1.0), memory_reserve_fraction=rng.uniform(0.0, 0.2),
            network_step_latency_s=rng.uniform(1e-6, 2e-5))
        cluster = Cluster(node, rng.choice((1, 2, 4, 8, 16, 32)), rng.choice((1.0, 0.5)))
        gpus, replica = cluster.node_count * node.gpus_per_node, layout.tensor_parallel * layout.pipeline_parallel
        ranks = gpus // replica if gpus % (replica * layout.context_parallel) == 0 else 0
        groups = [d for d in (1, 2, 4, 8, 16, 32, 64) if ranks and ranks % d == 0] or [3]
        # a quarter of the cases shard in groups, mostly ones that divide the ranks (some that do not)
        hybrid = layout.zero_stage > 0 and rng.random() < 1 / 3  # and a few stage-0 ones, which are refused
        layout = dataclasses.replace(layout, shard_group=rng.choice(groups + [3]) if hybrid or rng.random() < 0.02 else 0)
        workload = dataclasses.replace(rng.choice(synthetic_workloads()), dropout=rng.random() < 0.7)
        # cuDNN's attention: a speed-up figure on some GPUs (a few beyond the peak, refused), either
        # kernel; drawn apart, so the cases drawn before these knobs stay as they were
        speedup = later.choice((None, later.uniform(1.0, 1.25))) if later.random() < 0.97 else 4.0
        cluster = dataclasses.replace(cluster, node=dataclasses.replace(
            cluster.node, gpu=dataclasses.replace(cluster.node.gpu, cudnn_attention_speedup=speedup)))
        layout = dataclasses.replace(layout, attention_kernel=later.choice(("flash-attention-2", "cudnn")))
        # DeepSpeed's synchronous per-tensor ZeRO-3 gathers: on half the stage-3 layouts (a few others, refused)
        sync = layout.zero_stage == 3 and later.random() < 0.5 or later.random() < 0.02
        layout = dataclasses.replace(layout, zero_gather="tensor-sync" if sync else "layer")
        # LoRA: adapters on a third of the layouts, a frozen base of 16, 8 or 4 bits (a few 4-bit
        # bases without adapters, refused)
        rank = later.choice((8, 16, 64)) if later.random() < 1 / 3 else 0
        bits = later.choice((16, 8, 4)) if rank or later.random() < 0.02 else 16
        layout = dataclasses.replace(layout, adapter_rank=rank, base_bits=bits)
        # mixture of experts: a third of the cases take an MoE shape, expert parallel sizes that fit
        # and some that do not, the all-to-all's overlap and the routing's imbalance (drawn apart)
        if moe.random() < 1 / 3:
            workload = moe.choice(synthetic_moe_workloads())
            layout = dataclasses.replace(
                layout, expert_parallel=moe.choice((1, 2, 4, 8, 16, 32, 64, 3)),
                ep_overlap=moe.choice((0.0, moe.uniform(0.0, 1.0))), expert_imbalance=moe.choice((1.0, moe.uniform(1.0, 1.5))),
                # the knobs the model refuses with experts, mostly off so that most MoE cases are estimated
                context_parallel=layout.context_parallel if moe.random() < 0.05 else 1,
                adapter_rank=layout.adapter_rank if moe.random() < 0.05 else 0,
                base_bits=16, shard_group=layout.shard_group if moe.random() < 0.05 else 0,
                zero_gather="layer" if moe.random() < 0.95 else layout.zero_gather)
        layout = dataclasses.replace(layout, pp_scatter_gather=engine.random() >= 0.25)
        # block recomputation of N layers a chunk on half the full-recomputation layouts (and a few
        # counts on other layouts, or negative ones, refused)
        draw = partial.random()
        if layout.recompute == "full" and draw < 0.5 or draw < 0.02:
            layout = dataclasses.replace(layout, recompute_layers=partial.choice((1, 2, 3, 5, 8, 40)) if draw >= 0.005 else -1)
        # FP8 weights gathered in FP8: on most FP8 layouts and on a seventh more turned FP8 (and a few
        # BF16 ones, refused), so that dense and MoE, ZeRO 1 to 3 and LoRA (refused) cases take it
        fp8 = gathers.random()
        if fp8 < 0.15 or layout.precision == "fp8" and fp8 < 0.8:
            layout = dataclasses.replace(layout, precision="fp8", fp8_param_gather=True)
        elif fp8 > 0.99:
            layout = dataclasses.replace(layout, fp8_param_gather=True)
        out.append((workload, cluster, layout, assumptions))
    return out


def _compare(python: object, js: object, path: str) -> list[str]:
    if isinstance(python, dict):
        if not isinstance(js, dict) or set(python) - NOT_COMPARED != set(js) - NOT_COMPARED:
            return [f"{path}: keys {sorted(python) if isinstance(python, dict) else python} != {js}"]
        return [d for key in python if key not in NOT_COMPARED for d in _compare(python[key], js[key], f"{path}.{key}")]
    if isinstance(python, list):
        if not isinstance(js, list) or len(python) != len(js):
            return [f"{path}: {python} != {js}"]
        return [d for i, (a, b) in enumerate(zip(python, js, strict=True)) for d in _compare(a, b, f"{path}[{i}]")]
    if isinstance(python, float) and not isinstance(python, bool):
        if isinstance(js, (int, float)) and not isinstance(js, bool) and math.isclose(python, js, rel_tol=1e-9):
            return []
        return [f"{path}: python {python!r}, js {js!r}"]
    return [] if python == js else [f"{path}: python {python!r}, js {js!r}"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_script_equals_python_model_on_generated_cases(language: str) -> None:
    cases = generated_cases(seed=16, count=CASES)
    python = [outputs(estimate(*case)) for case in cases]
    js = run_js([{"workload": dataclasses.asdict(w), "cluster": dataclasses.asdict(c),  # type: ignore[call-overload]
                  "layout": dataclasses.asdict(layout), "assumptions": dataclasses.asdict(a)}
                 for w, c, layout, a in cases], language)
    feasible = sum("problems" not in p for p in python)
    assert feasible >= 200, f"only {feasible} of {CASES} generated cases are feasible"
    hybrid = sum("problems" not in p and case[2].shard_group > 0 for p, case in zip(python, cases, strict=True))
    assert hybrid >= 40, f"only {hybrid} feasible cases shard in groups"
    lora = sum("problems" not in p and case[2].adapter_rank > 0 for p, case in zip(python, cases, strict=True))
    assert lora >= 40, f"only {lora} feasible cases train LoRA adapters"
    assert len({p["bottleneck"] for p in python if "bottleneck" in p}) == 4, "every bottleneck should occur"
    experts = [p for p, case in zip(python, cases, strict=True) if "problems" not in p and case[0].moe is not None]
    assert len(experts) >= 40, f"only {len(experts)} feasible cases have experts"
    assert sum(p["all_to_all"] is not None and p["all_to_all"]["on_network"] for p in experts) >= 5, \
        "some all-to-alls should cross the network"
    blocks = sum("problems" not in p and case[2].recompute_layers > 0 for p, case in zip(python, cases, strict=True))
    assert blocks >= 30, f"only {blocks} feasible cases recompute some layers of each chunk"
    fp8 = [case for p, case in zip(python, cases, strict=True) if "problems" not in p and case[2].fp8_param_gather]
    assert len(fp8) >= 20, f"only {len(fp8)} feasible cases gather FP8 weights"
    assert any(case[0].moe is not None and case[2].expert_parallel > 1 for case in fp8), "an MoE case should gather FP8"
    differences = [d for i, (p, j) in enumerate(zip(python, js, strict=True)) for d in _compare(p, j, f"case {i}")]
    assert not differences, differences[:10]
    said = [d for i, (p, j) in enumerate(zip(python, js, strict=True)) for d in _words(p, j, f"case {i}")]
    if language == "en":
        assert not said, said[:10]
    else:  # the Chinese page's words are its own: every message differs from the Python model's
        assert len(said) == len(python)


# Python prints a float as 1.0 or 1e-05 where JavaScript prints 1 or 0.00001: figures are compared
# as numbers, the words around them as they are.
FIGURE = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def _same_words(python: str, js: str) -> bool:
    if FIGURE.split(python) != FIGURE.split(js):
        return False
    figures = list(zip(FIGURE.findall(python), FIGURE.findall(js), strict=True))
    return all(math.isclose(float(a), float(b), rel_tol=1e-9) for a, b in figures)


def _words(python: dict[str, Any], js: object, where: str) -> list[str]:
    """The English page's messages and scaling note against the Python model's: the messages of
    each problem in turn (`not-finite` excepted: the script does not name the output that came
    out infinite), and the scaling note. One difference at most per case."""
    assert isinstance(js, dict)
    pairs = [(p["message"], j["message"]) for p, j in zip(python.get("problems", []), js.get("problems", []), strict=True)
             if p["code"] != "not-finite"]
    if "scaling_note" in python:
        pairs.append((python["scaling_note"], js["scaling_note"]))
    return next(([f"{where}: python {a!r}, js {b!r}"] for a, b in pairs if not _same_words(a, b)), [])


def expert_cases(seed: int, count: int) -> list[tuple[object, Cluster, Layout, Assumptions]]:
    """MoE layouts drawn where the generated cases are thin: experts spread and split over the
    tensor-parallel group (t_e = t) or kept whole, with context parallelism, on the grid's MoE
    shapes (the latent-attention and wide-head ones refuse context parallelism), and a few
    expert tensor-parallel sizes the model refuses (neither 1 nor t, or with ep 1)."""
    rng = random.Random(seed)
    base = illustrative_assumptions()
    out = []
    for _ in range(count):
        t, c = rng.choice((1, 2, 4, 8)), rng.choice((1, 1, 2, 4))
        refused = rng.random() < 0.05
        layout = Layout(
            tensor_parallel=t, pipeline_parallel=rng.choice((1, 2, 4)), zero_stage=rng.choice((0, 1, 2)),
            micro_batch_size=rng.choice((1, 2)), sequence_length=rng.choice((4096, 8192)),
            global_batch_size=rng.choice((512, 1024)), recompute=rng.choice(("none", "selective", "full")),
            sequence_parallel=t > 1 and rng.random() < 0.8, precision="fp8" if rng.random() < 0.3 else "bf16",
            virtual_pipeline=rng.choice((1, 2)), tp_overlap=rng.choice((0.0, rng.uniform(0.0, 1.0))),
            context_parallel=c, expert_parallel=rng.choice((1, 2, 4, 8)),
            expert_tensor_parallel=rng.choice((3, 16)) if refused else rng.choice((1, t)),
            ep_overlap=rng.choice((0.0, rng.uniform(0.0, 1.0))), expert_imbalance=rng.choice((1.0, rng.uniform(1.0, 1.5))))
        workload = rng.choice(list(synthetic_moe_workloads()[:1]) * 4 + list(synthetic_moe_workloads()[1:]))
        node = dataclasses.replace(rng.choice(synthetic_nodes()), nics_per_node=rng.choice((4, 8)))
        out.append((workload, Cluster(node, rng.choice((1, 2, 4, 8, 16, 32))), layout, base))
    return out


@pytest.mark.parametrize("language", ["zh", "en"])
def test_script_equals_python_model_on_split_experts_and_context(language: str) -> None:
    """The script prices experts split over the tensor-parallel group, and context parallelism
    with experts, as the Python model does, and refuses what it refuses with the same codes
    (and, in English, the same words)."""
    cases = expert_cases(seed=27, count=600)
    python = [outputs(estimate(*case)) for case in cases]
    js = run_js([{"workload": dataclasses.asdict(w), "cluster": dataclasses.asdict(c),  # type: ignore[call-overload]
                  "layout": dataclasses.asdict(layout), "assumptions": dataclasses.asdict(a)}
                 for w, c, layout, a in cases], language)
    feasible = [(p, case) for p, case in zip(python, cases, strict=True) if "problems" not in p]
    split = [p for p, case in feasible if case[2].expert_tensor_parallel > 1]
    assert len(split) >= 40, f"only {len(split)} feasible cases split experts over the tensor-parallel group"
    assert sum(p["all_to_all"]["on_network"] for p in split) >= 5, "some split experts' all-to-alls should leave a node"
    assert sum(case[2].context_parallel > 1 for p, case in feasible) >= 30, "too few feasible MoE cases with context parallelism"
    codes = {problem["code"] for p in python for problem in p.get("problems", [])}
    assert {"expert-tensor-parallel", "expert-tensor-parallel-unspread", "not-modelled"} <= codes
    differences = [d for i, (p, j) in enumerate(zip(python, js, strict=True)) for d in _compare(p, j, f"case {i}")]
    assert not differences, differences[:10]
    if language == "en":
        said = [d for i, (p, j) in enumerate(zip(python, js, strict=True)) for d in _words(p, j, f"case {i}")]
        assert not said, said[:10]


def test_comparison_catches_a_difference() -> None:
    """The comparison itself can fail: one ulp-scale change passes, a 1e-6 change does not."""
    assert _compare({"x": 1.0}, {"x": 1.0 + 1e-15}, "c") == []
    assert _compare({"x": 1.0}, {"x": 1.0 + 1e-6}, "c") != []
    assert _compare({"fits": True}, {"fits": False}, "c") != []
    assert _compare({"problems": [{"code": "a", "message": "x"}]}, {"problems": [{"code": "a", "message": "y"}]}, "c") == []


FROM_DATA = """
const model = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.choices.map(c => {
  const r = model.fromChoice(input.data, c);
  return r.problem ? {problem: r.problem} : model.estimate.apply(null, r.inputs);
})));
"""


def test_exported_data_gives_the_clis_numbers() -> None:
    """data/costmodel.json of a fixture knowledge base, read by the script's `fromChoice` as the
    calculator reads it, gives what `resolve` + `estimate` give for the same choice (the CLI's
    path), for every GPU and network of the fixture and a few layouts."""
    from support import read_tree

    from generator.estimates.choice import Choice, resolve
    from generator.render import calculator
    from generator.render.context import Site
    from generator.validate import validate

    result = validate(read_tree(Path(__file__).parent / "golden" / "complete" / "specs"))
    assert result.kb is not None and result.figures is not None
    data = calculator.data(Site(result.kb, result.figures))
    workloads, gpus, networks = (data[k] for k in ("workloads", "gpus", "networks"))
    assert isinstance(workloads, list) and isinstance(gpus, list) and isinstance(networks, list)
    choices, python = [], []
    for gpu in gpus:
        for network in networks:
            for gpus_total, per_node, nics, tp, pp, zero, rank, bits in (
                    (8, 8, 8, 1, 1, 1, 0, 16), (16, 8, 4, 8, 2, 3, 0, 16), (4, 2, 1, 2, 1, 2, 0, 16),
                    (4, 4, 1, 1, 1, 0, 16, 4), (16, 8, 4, 2, 1, 3, 8, 16)):
                js_choice = {"workload": workloads[0]["id"], "gpu": gpu["id"], "network": network["id"],
                             "gpus": gpus_total, "gpus_per_node": per_node, "nics_per_node": nics, "tp": tp, "pp": pp,
                             "zero": zero, "micro_batch": 1, "seq": 2048, "global_batch": 256,
                             "recompute": "selective", "sequence_parallel": False, "adapter_rank": rank,
                             "base_bits": bits}
                resolved = resolve(result.kb, Choice(gpu["id"], gpus_total, network["id"], workloads[0]["id"],
                                                     gpus_per_node=per_node, nics_per_node=nics, tensor_parallel=tp,
                                                     pipeline_parallel=pp, zero_stage=zero, sequence_length=2048,
                                                     global_batch_size=256, recompute="selective", adapter_rank=rank,
                                                     base_bits=bits))
                choices.append(js_choice)
                python.append({"problem": resolved} if isinstance(resolved, str) else outputs(
                    estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)))
    done = subprocess.run([node(), "-e", FROM_DATA, str(SCRIPT)], input=json.dumps({"data": data, "choices": choices}),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    estimated = sum("fits" in p for p in python)
    assert estimated >= len(python) // 2, "most fixture choices should be estimable"
    differences = []
    for i, (p, j) in enumerate(zip(python, js, strict=True)):
        if "problem" in p:  # messages differ in language; both must refuse
            if "problem" not in j:
                differences.append(f"choice {i}: python refuses ({p['problem']}), js estimates")
            continue
        differences += _compare(p, j, f"choice {i}")
    assert not differences, differences[:10]


# Nodes added to the fixture for the node cases (the fixture's own test-node has 8 GPUs and ports
# as fast as its network): a 16-GPU NVLink node with two groups of two-port NICs slower than the
# fastest networks, a PCIe node whose one port is faster than every network, and a node whose
# scale-out groups disagree on their rate (the model cannot use it).
EXTRA_NODES = {
    "test-rack-16": """
id: test-rack-16
last_verified: 2026-11-30
name: Test 16-GPU rack
kind: rack
vendor: test-nvidia
gpu: test-gpu-sxm
gpus: {value: 16, source: test-vendor-docs}
scale_up: {family: test-nvlink, fabric: test-nvswitch-2, domain: {value: 16, source: test-vendor-docs}}
nics:
  - {key: a, role: scale_out, count: {value: 4, source: test-vendor-docs}, ports: {value: 2, source: test-vendor-docs},
     port_rate: {value: 200, unit: Gb/s, direction: per_direction, scope: per_port, source: test-vendor-docs}}
  - {key: b, role: scale_out, count: {value: 4, source: test-vendor-docs}, ports: {value: 2, source: test-vendor-docs},
     port_rate: {value: 200, unit: Gb/s, direction: per_direction, scope: per_port, source: test-vendor-docs}}
summary: {zh: "夹具机柜：16 块 GPU。", en: "A fixture rack of 16 GPUs."}
""",
    "test-pcie-4x": """
id: test-pcie-4x
last_verified: 2026-11-30
name: Test 4-card PCIe box
kind: server
vendor: test-nvidia
gpu: test-gpu-pcie
gpus: {value: 4, source: test-vendor-docs}
scale_up: null
nics:
  - {key: a, role: scale_out, count: {value: 1, source: test-vendor-docs},
     port_rate: {value: 800, unit: Gb/s, direction: per_direction, scope: per_port, source: test-vendor-docs}}
summary: {zh: "夹具 PCIe 机器：4 张卡。", en: "A fixture PCIe machine with 4 cards."}
""",
    "test-mixed": """
id: test-mixed
last_verified: 2026-11-30
name: Test mixed-port server
kind: server
vendor: test-nvidia
gpu: test-gpu-sxm
gpus: {value: 8, source: test-vendor-docs}
scale_up: null
nics:
  - {key: a, role: scale_out, count: {value: 4, source: test-vendor-docs},
     port_rate: {value: 400, unit: Gb/s, direction: per_direction, scope: per_port, source: test-vendor-docs}}
  - {key: b, role: scale_out, count: {value: 4, source: test-vendor-docs},
     port_rate: {value: 200, unit: Gb/s, direction: per_direction, scope: per_port, source: test-vendor-docs}}
summary: {zh: "夹具服务器：两组网口速率不同。", en: "A fixture server whose two port groups differ in rate."}
""",
}
NODE_CASES = 240


def _node_kb() -> tuple[object, dict[str, object]]:
    """The complete fixture with EXTRA_NODES, and its data/costmodel.json as the page reads it."""
    from support import read_tree

    from generator.render import calculator
    from generator.render.context import Site
    from generator.validate import SpecFile, validate

    files = read_tree(Path(__file__).parent / "golden" / "complete" / "specs")
    files += [SpecFile(f"specs/nodes/{stem}.yaml", "nodes", stem, text.lstrip().encode())
              for stem, text in EXTRA_NODES.items()]
    result = validate(files)
    assert result.kb is not None and result.figures is not None, [d.as_text() for d in result.diagnostics]
    return result.kb, calculator.data(Site(result.kb, result.figures))


def node_cases(seed: int, data: dict[str, object]) -> list[dict[str, Any]]:
    """Seeded choices that name a node (or none): the node's own values left out, repeated or
    contradicted, totals that fill whole nodes or not, and layouts that fit the fixture workload."""
    rng = random.Random(seed)
    nodes, gpus, networks, workloads = (data[k] for k in ("nodes", "gpus", "networks", "workloads"))
    assert isinstance(nodes, list) and isinstance(gpus, list) and isinstance(networks, list)
    assert isinstance(workloads, list)
    out = []
    for _ in range(NODE_CASES):
        node = rng.choice([*nodes, None])
        per_node = node["gpus_per_node"] if node else rng.choice((1, 2, 4, 8))
        given = rng.random()
        if node is None:
            gpu, size, nics = rng.choice(gpus)["id"], per_node, rng.choice((1, 2, 4, 8))
        elif given < 0.5:  # the page's way: the node's own values
            gpu, size, nics = node["gpu"], node["gpus_per_node"], node.get("nics_per_node")
        elif given < 0.8:  # the CLI's way: left out
            gpu, size, nics = None, None, None
        else:  # one contradicted
            gpu, size, nics = node["gpu"], node["gpus_per_node"], node.get("nics_per_node")
            wrong = rng.choice(("gpu", "size", "nics"))
            gpu = next(g["id"] for g in gpus if g["id"] != node["gpu"]) if wrong == "gpu" else gpu
            size = size * 2 if wrong == "size" else size
            nics = (nics or 1) + 1 if wrong == "nics" else nics
        out.append({"workload": rng.choice(workloads)["id"], "node": node["id"] if node else "", "gpu": gpu,
                    "network": rng.choice(networks)["id"],
                    "gpus": per_node * rng.choice((1, 2, 4)) + (1 if rng.random() < 0.1 else 0),
                    "gpus_per_node": size, "nics_per_node": nics, "tp": rng.choice((1, 2, 4)),
                    "pp": rng.choice((1, 2)), "zero": rng.choice((0, 1, 2, 3)), "micro_batch": rng.choice((1, 2)),
                    "seq": rng.choice((1024, 2048, 4096)), "global_batch": rng.choice((256, 512)),
                    "recompute": rng.choice(("none", "selective", "full")), "sequence_parallel": rng.random() < 0.5})
    return out


def _python(kb: object, c: dict[str, Any]) -> dict[str, object]:
    """What `estimate` gives for a page choice, by the CLI's path (`resolve` with `--node`)."""
    from generator.estimates.choice import Choice, resolve
    from generator.knowledge import KnowledgeBase

    assert isinstance(kb, KnowledgeBase)
    resolved = resolve(kb, Choice(c["gpu"] or "", c["gpus"], c["network"], c["workload"],
                                  gpus_per_node=c["gpus_per_node"], nics_per_node=c["nics_per_node"],
                                  tensor_parallel=c["tp"], pipeline_parallel=c["pp"], zero_stage=c["zero"],
                                  micro_batch_size=c["micro_batch"], sequence_length=c["seq"],
                                  global_batch_size=c["global_batch"], recompute=c["recompute"],
                                  sequence_parallel=c["sequence_parallel"], node=c["node"] or None))
    if isinstance(resolved, str):
        return {"problem": resolved}
    return {**outputs(estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)),
            "node_name": resolved.cluster.node.name,
            "port": resolved.cluster.node.nic_port_per_direction_bytes_per_s}


NODE_RUNNER = """
global.document = {documentElement: {lang: process.argv[2] || "zh"}};  // the page's <html lang>
const model = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.choices.map(c => {
  const r = model.fromChoice(input.data, c);
  if (r.problem) { return {problem: r.problem}; }
  const out = model.estimate.apply(null, r.inputs);
  out.node_name = r.inputs[1].node.name;
  out.port = r.inputs[1].node.nic_port_per_direction_bytes_per_s;
  return out;
})));
"""


def test_exported_nodes_give_the_clis_numbers() -> None:
    """Seeded choices naming a node (as the page makes them, as the CLI makes them, and with a
    flag that contradicts the node) give in the script what `resolve` + `estimate` give: the
    same refusals, the same numbers, the node's name and the slower of its port and the network's."""
    kb, data = _node_kb()
    nodes = data["nodes"]
    assert isinstance(nodes, list) and {n["id"] for n in nodes} >= set(EXTRA_NODES)
    choices = node_cases(seed=72, data=data)
    python = [_python(kb, c) for c in choices]
    done = subprocess.run([node(), "-e", NODE_RUNNER, str(SCRIPT)], input=json.dumps({"data": data, "choices": choices}),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    named = [p for c, p in zip(choices, python, strict=True) if c["node"]]
    assert sum("fits" in p for p in named) >= len(named) // 3, "most node choices should be estimable"
    assert any("disagrees" in str(p.get("problem")) for p in named), "a contradicting flag should be refused"
    assert any("single per-direction" in str(p.get("problem")) for p in named), "test-mixed should be refused"
    rack = [p for c, p in zip(choices, python, strict=True) if c["node"] == "test-rack-16" and "fits" in p]
    assert rack and {p["node_name"] for p in rack} == {"Test 16-GPU rack"}, "the 16-GPU node should be estimated"
    differences = []
    for i, (p, j) in enumerate(zip(python, js, strict=True)):
        if "problem" in p or "problem" in j:
            if ("problem" in p) != ("problem" in j):
                differences.append(f"choice {i} {choices[i]}: python {p.get('problem')}, js {j.get('problem')}")
            continue
        differences += _compare(p, j, f"choice {i}")
    assert not differences, differences[:10]


SEARCH = """
const model = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(c => {
  const r = model.fastestLayout(c.workload, c.cluster, c.assumptions, c.shape);
  return r.layout === null ? null : {layout: r.layout, estimate: r.estimate, fits: r.why === ""};
})));
"""

SEARCHED = ("tensor_parallel", "pipeline_parallel", "zero_stage", "recompute", "recompute_layers", "global_batch_size",
            "sequence_parallel", "expert_parallel", "expert_tensor_parallel")


def test_the_layout_search_in_the_browser_equals_the_planners() -> None:
    """The calculator's "choose the layout for me" (costmodel.js `fastestLayout`) finds the layout
    planner/search.py finds, with the same estimate, on seeded clusters, shapes and goals: full
    training and LoRA on a 16-, 8- or 4-bit base, fitting and not."""
    from generator.planner.search import StepShape, fastest_layout
    rng = random.Random(27)  # a seed whose 60 cases reach every kind of answer (the asserts below)
    cases, python = [], []
    for _ in range(60):
        node_spec = rng.choice(synthetic_nodes())
        cluster = Cluster(dataclasses.replace(node_spec, nics_per_node=rng.choice((1, 4, 8))), rng.choice((1, 2, 4, 16)))
        workload = rng.choice(synthetic_workloads() + synthetic_moe_workloads())
        rank = rng.choice((0, 0, 16)) if workload.moe is None else 0
        base = Layout(1, 1, 0, 1, 1, 1, adapter_rank=rank, base_bits=rng.choice((16, 4)) if rank else 16,
                      flash_attention=rng.random() < 0.75)  # without it, selective recomputation is tried
        shape = StepShape(rng.choice((2048, 4096)), rng.choice((64, 512)), rng.choice((1, 2)), base)
        assumptions = illustrative_assumptions()
        layout, found, why = fastest_layout(workload, cluster, assumptions, shape)
        python.append(None if layout is None else {"layout": {k: getattr(layout, k) for k in SEARCHED},
                                                   "estimate": outputs(estimate(workload, cluster, layout, assumptions)),
                                                   "fits": why == ""})
        cases.append({"workload": dataclasses.asdict(workload), "cluster": dataclasses.asdict(cluster),  # type: ignore[call-overload]
                      "assumptions": dataclasses.asdict(assumptions),
                      "shape": {"sequence_length": shape.sequence_length, "min_global_batch": shape.min_global_batch,
                                "micro_batch": shape.micro_batch, "base": dataclasses.asdict(base)}})
    done = subprocess.run([node(), "-e", SEARCH, str(SCRIPT)], input=json.dumps(cases), capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    assert sum(p is not None and p["fits"] for p in python) >= 20, "most searches should find a fitting layout"
    assert any(p is not None and not p["fits"] for p in python), "some searches should find nothing that fits"
    # both of the search's later choices are answers somewhere: some layers recomputed, experts split
    assert any(p is not None and p["layout"]["recompute_layers"] > 0 for p in python)
    assert any(p is not None and p["layout"]["expert_tensor_parallel"] > 1 for p in python)
    differences = []
    for i, (p, j) in enumerate(zip(python, js, strict=True)):
        if p is None or j is None:
            if p != j:
                differences.append(f"case {i}: python {p}, js {j}")
            continue
        if {k: j["layout"][k] for k in SEARCHED} != p["layout"] or p["fits"] != j["fits"]:
            differences.append(f"case {i}: python {p['layout']}, js {j['layout']}")
        differences += _compare(p["estimate"], j["estimate"], f"case {i}")
    assert not differences, "\n".join(differences[:20])


PLAN = """
const model = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.requests.map(r => model.plan(input.data, r))));
"""


def _kind(why: str, status: str | None) -> str:
    if status is not None or why.startswith("market "):
        return "market"
    for prefix, kind in (("cannot be estimated", "problem"), ("does not fit", "fit"), ("slower than", "slower")):
        if why.startswith(prefix):
            return kind
    return "blocked"


@pytest.mark.parametrize("case", ["complete", "base"])
def test_the_planner_in_the_browser_equals_the_cli(case: str) -> None:
    """costmodel.js `plan` over the calculator's data gives what planner/plan.py gives for the
    same request: the same options in the same order, with the same layouts, estimates and GPU
    counts, the same exclusions by kind (market with its status and ruling, blocked, cannot be
    estimated, does not fit, slower) and the same fewest GPUs, across every market, every
    workload, counts from one GPU to several nodes, full training and LoRA, with and without
    licensed parts."""
    from support import BASE, read_tree

    from generator.estimates.choice import Choice
    from generator.model.markets import Market
    from generator.planner.plan import Request, plan
    from generator.render import calculator
    from generator.render.context import Site
    from generator.validate import validate

    root = BASE if case == "base" else Path(__file__).parent / "golden" / "complete" / "specs"
    result = validate(read_tree(root))
    assert result.kb is not None and result.figures is not None
    kb = result.kb
    data = calculator.data(Site(kb, result.figures))
    workloads = data["workloads"]
    assert isinstance(workloads, list)
    requests, python = [], []
    for market in kb.of_type(Market):
        for w in workloads:
            for gpus in (1, 3, 8, 16, 64):
                for goal, licensed in (("pretrain", False), ("lora", False), ("finetune", True)):
                    requests.append({"workload": w["id"], "gpus": gpus, "market": market.id, "goal": goal,
                                     "licensed": licensed})
                    python.append(plan(kb, Request(Choice("", 0, "", w["id"]), gpus, market.id, goal,  # type: ignore[arg-type]
                                                   licensed=licensed)))
    done = subprocess.run([node(), "-e", PLAN, str(SCRIPT)], input=json.dumps({"data": data, "requests": requests}),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    assert sum(bool(p.options) for p in python) >= len(python) // 3, "most requests should find an option"
    differences: list[str] = []
    for i, (p, j) in enumerate(zip(python, js, strict=True)):
        where = f"request {i} {requests[i]}"
        if [o.candidate.id for o in p.options] != [o["id"] for o in j["options"]]:
            differences.append(f"{where}: options {[o.candidate.id for o in p.options]} != {[o['id'] for o in j['options']]}")
            continue
        for po, jo in zip(p.options, j["options"], strict=True):
            if po.gpus != jo["gpus"] or any(getattr(po.layout, k) != jo["layout"][k] for k in SEARCHED):
                differences.append(f"{where}: {po.candidate.id} layout or GPUs differ")
            differences += _compare(outputs(Result((), po.estimate)), jo["estimate"], f"{where} {po.candidate.id}")
        py_out = sorted((e.id, _kind(e.why, e.status), e.status, e.ruling) for e in p.excluded)
        js_out = sorted((e["id"], e["kind"], e.get("status"), e.get("ruling")) for e in j["excluded"])
        if py_out != js_out:
            differences.append(f"{where}: excluded {set(py_out) ^ set(js_out)}")
        fewest = None if p.fewest is None else (p.fewest[0], p.fewest[1].candidate.id)
        js_fewest = None if j["fewest"] is None else (j["fewest"]["gpus"], j["fewest"]["option"]["id"])
        if fewest != js_fewest:
            differences.append(f"{where}: fewest {fewest} != {js_fewest}")
    assert not differences, "\n".join(differences[:15])


TABLES = """
const model = require(process.argv[1]);
const keys = lang => Object.keys(model.text[lang]).sort();
const inner = lang => Object.keys(model.text[lang]).filter(k => typeof model.text[lang][k] === "object")
  .map(k => [k, Object.keys(model.text[lang][k]).sort()]);
process.stdout.write(JSON.stringify({zh: [keys("zh"), inner("zh")], en: [keys("en"), inner("en")],
  cjk: JSON.stringify(Object.values(model.text.en).map(v => typeof v === "function" ? v.toString() : v))}));
"""


def test_the_scripts_string_tables_say_the_same_things_in_both_languages() -> None:
    """costmodel.js's Chinese and English tables have the same keys (and the same keys in their
    inner tables), and the English one holds no Chinese, as a Bilingual table in Python."""
    done = subprocess.run([node(), "-e", TABLES, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    tables = json.loads(done.stdout)
    assert tables["zh"] == tables["en"] and len(tables["zh"][0]) > 40
    assert not re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", tables["cjk"])
