"""`python -m generator estimate` on the real knowledge base: the documented JSON keys, the
numbers the in-process model gives for the same choice, and one-line errors with exit 2.
Entity ids are taken from the knowledge base, and only structure is asserted, so that a valid
edit of specs/ never fails these tests."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import BASE, ROOT, cli, real_result

from generator.costmodel import estimate
from generator.estimates.calibration import accuracy_record, architecture_of, calibrate, for_kind
from generator.estimates.choice import Choice, resolve
from generator.estimates.records import gpus, networks, workloads
from generator.estimates.report import summary
from generator.knowledge import KnowledgeBase
from generator.model.costs import PARAMETERS
from generator.model.entities import Gpu


def _process(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a reader runs it: a new interpreter, `python -m generator estimate`."""
    return subprocess.run([sys.executable, "-m", "generator", "estimate", *args], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=60)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The same command through `main` in this process (the interpreter's start is what
    `_process` adds), on the real specs as read and validated once (support.cli)."""
    return cli("estimate", "--specs", str(ROOT / "specs"), *args)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    result = real_result()
    assert result.kb is not None
    return result.kb


def _pick(kb: KnowledgeBase) -> tuple[str, str, str]:
    """The largest dense workload (the layout flags under test include context parallelism and
    hybrid sharding, which the model refuses for experts), the GPU with the most memory among those
    the model can run (a GPU whose vendor publishes no 16-bit tensor rate is refused with a
    message), the fastest port."""
    from generator.estimates.records import gpu as gpu_spec
    workload = max((w for w in workloads(kb) if w.model.moe is None), key=lambda w: w.model.parameters).id
    usable = [g for g in gpus(kb) if not isinstance(gpu_spec(kb, g.model), str)]
    gpu = max(usable, key=lambda g: (g.model.memory.capacity.value, g.id)).id
    network = max(networks(kb), key=lambda n: (n.model.port_rate.value, n.id)).id
    return workload, gpu, network


def test_every_model_parameter_has_an_assumption(kb: KnowledgeBase) -> None:
    from generator.estimates.records import assumptions
    assert not isinstance(assumptions(kb), str)
    assert {a.model.parameter for a in kb.of_kind("assumptions")} == set(PARAMETERS)  # type: ignore[attr-defined]


def test_json_has_the_documented_keys_and_the_models_numbers(kb: KnowledgeBase) -> None:
    workload, gpu, network = _pick(kb)
    flags = ["--workload", workload, "--gpu", gpu, "--gpus", "64", "--network", network, "--tp", "8", "--pp", "2",
             "--zero", "1", "--global-batch", "512", "--format", "json"]
    done = _process(*flags)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data["fits"], bool)
    memory = data["memory_per_gpu_gb"]
    for key in ("weights_gb", "gradients_gb", "optimizer_gb", "model_states_gb", "activations_gb", "total_gb",
                "usable_gb", "headroom_gb"):
        assert isinstance(memory[key], float), key
    assert memory["model_states_gb"] == pytest.approx(memory["weights_gb"] + memory["gradients_gb"]
                                                      + memory["optimizer_gb"], rel=1e-12)
    assert memory["total_gb"] == pytest.approx(memory["model_states_gb"] + memory["activations_gb"], rel=1e-12)
    assert 0.0 <= data["comm_share"] < 1.0
    assert data["step_time_s"] > 0
    assert data["bottleneck"] in ("memory", "compute", "intra_node", "network")
    resolved = resolve(kb, Choice(gpu, 64, network, workload=workload, tensor_parallel=8, pipeline_parallel=2,
                                  zero_stage=1, global_batch_size=512))
    assert not isinstance(resolved, str)
    expected = summary(resolved, estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions))
    accuracy = data.pop("accuracy")
    assert data == json.loads(json.dumps(expected))
    block = "moe" if resolved.workload.moe is not None else "dense"
    assert accuracy == json.loads(json.dumps(for_kind(accuracy_record(calibrate(kb)), block, resolved.layout.precision,
                                                      architecture_of(kb, gpu))))
    assert set(accuracy) == {"runs", "mean_abs_error", "bias", "error", "statement", "kinds", "kind", "architectures",
                             "architecture"}


def test_text_prints_the_chain(kb: KnowledgeBase) -> None:
    workload, gpu, network = _pick(kb)
    done = _run("--workload", workload, "--gpu", gpu, "--gpus", "16", "--network", network, "--tp", "8",
                "--global-batch", "64")
    assert done.returncode == 0, done.stderr
    assert "how step.step_s is computed:" in done.stdout
    assert "assumptions.gemm_efficiency_max = " in done.stdout


def test_params_picks_the_nearest_published_workload(kb: KnowledgeBase) -> None:
    workload, gpu, network = _pick(kb)
    count = next(w.model.parameters for w in workloads(kb) if w.id == workload)
    done = _run("--params", f"{count / 1e9:.3f}B", "--gpu", gpu, "--gpus", "64", "--network", network, "--tp", "8",
                "--pp", "2", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["inputs"]["ids"]["workload"] == workload


@pytest.mark.parametrize(("change", "says"), [
    ({"--gpu": "no-such-gpu"}, "unknown GPU"),
    ({"--network": "no-such-net"}, "unknown network"),
    ({"--workload": "no-such-model"}, "unknown workload"),
    ({"--tp": "16"}, "exceeds the 8 GPUs of a node"),
    ({"--tp": "8", "--pp": "3"}, "not a multiple of tensor × pipeline"),
    ({"--gpus": "0"}, "at least 1"),
    ({"--gpus": "12"}, "do not fill whole nodes"),
    ({"--global-batch": "3"}, "global batch 3"),
    ({"--node": "no-such-node"}, "unknown node"),
    ({"--tp": "two"}, "'two' is not a whole number"),
    ({"--zero": "4"}, "invalid choice"),
    ({"--virtual-pipeline": "0"}, "layout.virtual_pipeline is 0"),
    ({"--tp": "8", "--pp": "2", "--virtual-pipeline": "2", "--global-batch": "12"},
     "divisible by pipeline parallel 2"),
    ({"--virtual-pipeline": "2"}, "needs pipeline parallel above 1"),
    ({"--tp-overlap": "1.5"}, "must lie in [0, 1]"),
    ({"--tp-overlap": "half"}, "invalid float value"),
    ({"--cp": "3"}, "context parallel 3 does not divide"),
    ({"--cp": "0"}, "layout.context_parallel is 0"),
])
def test_bad_input_is_one_line_and_exit_2(kb: KnowledgeBase, change: dict[str, str], says: str) -> None:
    workload, gpu, network = _pick(kb)
    flags = {"--workload": workload, "--gpu": gpu, "--gpus": "64", "--network": network, **change}
    done = _run(*(item for pair in flags.items() for item in pair))
    assert done.returncode == 2, done.stdout
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_a_node_fills_gpu_node_size_and_ports(kb: KnowledgeBase) -> None:
    """--node takes the node's GPU, GPUs per node and scale-out ports (NICs × ports); a flag that
    disagrees with the node is a one-line error. The node is any one of the knowledge base whose
    GPU the model can run and whose scale-out groups state one per-direction port rate."""
    from generator.estimates.choice import Choice, resolve
    from generator.model.entities import ComputeNode
    workload, _gpu, network = _pick(kb)
    for entity in kb.of_type(ComputeNode):
        m = entity.model
        gpus = m.gpus.value * 2
        resolved = resolve(kb, Choice("", gpus, network, workload=workload, node=entity.id))
        if isinstance(resolved, str):
            continue  # this node cannot be modelled (no 16-bit rate, no single port rate): said in one line
        done = _run("--workload", workload, "--node", entity.id, "--gpus", str(gpus), "--network", network,
                    "--format", "json")
        if done.returncode == 2:
            continue  # a layout the model cannot place on it (e.g. heads across its node size)
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        assert data["inputs"]["ids"]["node"] == entity.id and data["inputs"]["ids"]["gpu"] == m.gpu
        ports = sum(g.count.value * (g.ports.value if g.ports else 1) for g in m.nics if g.role == "scale_out")
        assert resolved.cluster.node.gpus_per_node == m.gpus.value
        assert resolved.cluster.node.nics_per_node == ports
        wrong = _run("--workload", workload, "--node", entity.id, "--gpus-per-node", str(m.gpus.value + 1),
                     "--gpus", str(gpus), "--network", network)
        assert wrong.returncode == 2 and "disagrees with node" in wrong.stderr
        assert len(wrong.stderr.strip().splitlines()) == 1
        return
    pytest.fail("no node in the knowledge base can be modelled")


def test_params_that_are_not_a_count_exit_2(kb: KnowledgeBase) -> None:
    _workload, gpu, network = _pick(kb)
    for text in ("seventy", "-70B", "nanB", "1e30B", ""):
        done = _run(f"--params={text}", "--gpu", gpu, "--gpus", "8", "--network", network)
        assert done.returncode == 2, (text, done.stdout)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_adapter_converts_units(kb: KnowledgeBase) -> None:
    """Memory in bytes (GB = 1e9, the spec's unit), link rates per direction in bytes per second;
    a GPU whose vendor publishes no 16-bit rate or no link rate is refused by name, not guessed."""
    from generator.estimates.records import gpu, scale_up
    for entity in kb.of_type(Gpu):
        spec = gpu(kb, entity.model)
        link = scale_up(kb, entity.model, 8)
        if isinstance(spec, str) or isinstance(link, str):
            assert entity.model.name in (spec if isinstance(spec, str) else str(link))
            continue
        capacity = entity.model.memory.capacity
        if capacity.unit == "GB":
            assert spec.memory_capacity_bytes == capacity.value * 1e9
        assert link.bytes_per_s > 0


def test_the_adapter_reads_no_files() -> None:
    """The knowledge base's adapter to the model is pure: no module of generator/estimates/ opens a file."""
    modules = sorted((ROOT / "generator/estimates").glob("*.py"))
    assert len(modules) > 1
    assert [m.name for m in modules if "open(" in m.read_text(encoding="utf-8")] == []


# The 7.5B model of the ZeRO paper (Rajbhandari et al. 2020, §3.1 and Figure 1): 16 bytes per
# parameter of model states with mixed-precision Adam, 120 GB; ZeRO-3 over 64 GPUs, 1.875 GB.
ZERO_PAPER_SHAPE = ("--layers", "36", "--hidden", "4096", "--heads", "32", "--vocab", "51200")


@pytest.mark.parametrize(("zero", "gigabytes"), [("0", 120.0), ("3", 1.875)])
def test_zero_paper_model_states_through_the_shape_flags(kb: KnowledgeBase, zero: str, gigabytes: float) -> None:
    _workload, gpu, network = _pick(kb)
    done = _run(*ZERO_PAPER_SHAPE, "--params", "7.5B", "--gpu", gpu, "--gpus", "64", "--network", network,
                "--zero", zero, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["inputs"]["parameters"] == 7.5e9
    assert "workload" not in data["inputs"]["ids"]
    assert "given by hand" in data["inputs"]["workload_note"]
    assert data["memory_per_gpu_gb"]["model_states_gb"] == pytest.approx(gigabytes, rel=1e-12)


def test_a_shape_without_its_count_takes_the_count_it_gives(kb: KnowledgeBase) -> None:
    _workload, gpu, network = _pick(kb)
    done = _run(*ZERO_PAPER_SHAPE, "--gpu", gpu, "--gpus", "8", "--network", network, "--format", "json")
    assert done.returncode == 0, done.stderr
    parameters = json.loads(done.stdout)["inputs"]["parameters"]
    assert 7.4e9 < parameters < 7.5e9  # 12·L·h²(1 + 13/12h) + V·h: Narayanan et al. 2021's 7.5B row


def test_params_keeps_the_count_exactly() -> None:
    """`--params` alone scales the nearest published shape's layers and keeps Ψ as asked: the ZeRO
    paper's 7.5B from an 8B shape gives 120 GB of model states, not the 8B's 128.5 GB."""
    from generator.costmodel.inputs import Workload
    from generator.estimates.choice import scaled
    eight = Workload("8B", 8.03e9, 32, 4096, 32, 128256, ffn_hidden_size=14336, kv_heads=8, gated_mlp=True)
    made, source, note = scaled(eight, "an-8b", 7.5e9)
    assert made.parameter_count == 7.5e9 and made.layers == 30 and source == "an-8b"
    assert "30 layers instead of 32" in note
    assert (made.hidden_size, made.attention_heads, made.kv_heads) == (4096, 32, 8)


@pytest.mark.parametrize(("flags", "says"), [
    (("--bogus", "3"), "unrecognized arguments: --bogus 3"),
    (("--layers", "36", "--hidden", "4096"), "a shape needs --heads, --vocab"),
    (("--layers", "0", "--hidden", "4096", "--heads", "32", "--vocab", "51200"), "--layers 0"),
    (("--mlp", "relu"), "invalid choice"),
    (("--precision", "fp4"), "invalid choice"),
])
def test_bad_flags_are_one_line_and_exit_2(kb: KnowledgeBase, flags: tuple[str, ...], says: str) -> None:
    _workload, gpu, network = _pick(kb)
    done = _run(*flags, "--gpu", gpu, "--gpus", "8", "--network", network)
    assert done.returncode == 2, done.stdout
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_fp8_weight_gathers_need_fp8_and_full_training(kb: KnowledgeBase) -> None:
    """--fp8-param-gather without --precision fp8, or with LoRA adapters, is refused in one line
    with exit 2: there are no FP8 weights to gather (LoRA gathers its 16-bit adapters)."""
    workload, gpu, network = _pick(kb)
    base = ("--workload", workload, "--gpu", gpu, "--gpus", "8", "--network", network, "--fp8-param-gather")
    for extra, says in (((), "need FP8 linear layers; the layout's precision is bf16"),
                        (("--precision", "fp8", "--lora-rank", "16"), "FP8 weight gathers need full training")):
        done = _run(*base, *extra)
        assert done.returncode == 2, done.stdout
        assert says in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(("flags", "fields", "head"), [
    (("--no-flash-attention",), {"flash_attention": False}, "no FlashAttention"),
    (("--pp", "2", "--virtual-pipeline", "2"), {"pipeline_parallel": 2, "virtual_pipeline": 2}, "virtual pipeline 2"),
    (("--fp32-gradients",), {"fp32_gradients": True}, "FP32 gradients"),
    (("--tp-overlap", "0.5"), {"tp_overlap": 0.5}, "tp overlap 0.5"),
    (("--cp", "2"), {"context_parallel": 2}, "cp 2"),
    (("--shard-group", "2"), {"shard_group": 2}, "shard group 2"),
    (("--attention-kernel", "cudnn"), {"attention_kernel": "cudnn"}, "cuDNN attention"),
    (("--zero", "3", "--zero-gather", "tensor-sync"), {"zero_stage": 3, "zero_gather": "tensor-sync"},
     "ZeRO-3 gathers per tensor, synchronous"),
    (("--precision", "fp8", "--fp8-param-gather"), {"precision": "fp8", "fp8_param_gather": True}, "FP8 weight gathers"),
])
def test_layout_flags_reach_the_model(kb: KnowledgeBase, flags: tuple[str, ...], fields: dict[str, object],
                                      head: str) -> None:
    """Each layout flag gives the in-process model's numbers for the same choice, is echoed in
    the JSON inputs, and named on the text head line."""
    workload, gpu, network = _pick(kb)
    base = ("--workload", workload, "--gpu", gpu, "--gpus", "64", "--network", network, "--tp", "8")
    done = _run(*base, *flags, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    options = {"tensor_parallel": 8, **fields}
    resolved = resolve(kb, Choice(gpu, 64, network, workload=workload, **options))  # type: ignore[arg-type]
    assert not isinstance(resolved, str)
    expected = summary(resolved, estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions))
    data.pop("accuracy")  # the accuracy record: test_json_has_the_documented_keys_and_the_models_numbers
    assert data == json.loads(json.dumps(expected))
    assert {key: data["inputs"][key] for key in ("flash_attention", "virtual_pipeline", "fp32_gradients",
                                                  "fp8_param_gather", "tp_overlap", "cp", "shard_group",
                                                  "attention_kernel")} == {
        "flash_attention": fields.get("flash_attention", True), "virtual_pipeline": fields.get("virtual_pipeline", 1),
        "fp32_gradients": fields.get("fp32_gradients", False),
        "fp8_param_gather": fields.get("fp8_param_gather", False), "tp_overlap": fields.get("tp_overlap", 0.0),
        "cp": fields.get("context_parallel", 1), "shard_group": fields.get("shard_group", 0),
        "attention_kernel": fields.get("attention_kernel", "flash-attention-2")}
    text = _run(*base, *flags)
    assert text.returncode == 0 and head in text.stdout.splitlines()[0]


def test_recomputation_defaults_to_none(kb: KnowledgeBase) -> None:
    """Without --recompute the estimate is the one with --recompute none: under FlashAttention (on
    by default) selective stores what none stores and repeats the attention core, so a default of
    selective would cost time for no memory."""
    workload, gpu, network = _pick(kb)
    base = ("--workload", workload, "--gpu", gpu, "--gpus", "64", "--network", network, "--tp", "8", "--format", "json")
    plain, none, selective = (json.loads(_run(*base, *extra).stdout) for extra in
                              ((), ("--recompute", "none"), ("--recompute", "selective")))
    assert plain == none
    assert plain["inputs"]["recompute"] == "none"
    assert selective["memory_per_gpu_gb"] == none["memory_per_gpu_gb"]
    assert selective["step_time_s"] > none["step_time_s"]


def test_a_layout_that_does_not_fit_says_which_flags_would_fit() -> None:
    """Under "fits: no" the text names the flags that would fit at the same tensor and pipeline
    parallelism: each remedy, run as printed, fits; one layer fewer recomputed does not; where
    nothing fits it says so and points to `plan`. On the fixture knowledge base (a 70B on A100s),
    so that a valid edit of the real specs cannot change what is asked."""
    import re

    def run(*args: str) -> str:
        done = cli("estimate", "--specs", str(BASE), *args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def fits(*args: str) -> bool:
        return bool(json.loads(run(*args, "--format", "json"))["fits"])

    cluster = ("--workload", "test-llama-70b", "--gpu", "test-a100-sxm4", "--network", "test-ib-ndr", "--tp", "8")
    base = (*cluster, "--gpus", "64", "--zero", "0")
    line = next(x for x in run(*base).splitlines() if x.startswith("to fit"))
    remedies = re.findall(r"(--[^()]+?) \(", line.split(": ", 1)[1])
    assert "--zero 2" in remedies, line
    assert any("--recompute-layers" in r for r in remedies), line
    for remedy in remedies:
        flags = [*base[:-2], *remedy.split()] if remedy.startswith("--zero") else [*base, *remedy.split()]
        assert fits(*flags), remedy
        count = re.search(r"--recompute-layers (\d+)", remedy)
        if count:
            assert not fits(*[f if f != count.group(1) else str(int(f) - 1) for f in flags]), remedy
    assert not fits(*base[:-2], "--zero", "1")  # the lowest stage that fits is named
    nothing = run(*cluster, "--gpus", "16", "--zero", "0")
    assert "to fit: no ZeRO stage or recomputation, alone or together, fits at tp 8, pp 1" in nothing
    assert "python -m generator plan" in nothing
    assert not fits(*cluster, "--gpus", "16", "--zero", "3", "--recompute", "full")
    small = run("--workload", "test-tiny-1b", "--gpu", "test-a100-sxm4", "--network", "test-ib-ndr", "--gpus", "8")
    assert "fits: yes" in small and "to fit" not in small
