"""Measured training runs as the cost model's inputs and as measured step times
(generator/estimates/runs.py): exact values on the fixture base, the reasons a run cannot be
modelled, and, on the real specs, only what holds whatever they say (every run either becomes
inputs the model estimates without error or gives a one-line reason; every measured step time is
positive or a one-line reason)."""

from __future__ import annotations

import math
from dataclasses import fields, replace
from typing import get_args

import pytest
from support import base_files, base_result, real_result, validate_with

from generator.costmodel import Assumptions, estimate, parameters_from_shape
from generator.estimates.calibration import ASSUMED as SUITE_ASSUMED
from generator.estimates.records import assumptions
from generator.estimates.runs import (
    FLOPS_PER_STEP,
    PREFERENCE,
    Assumed,
    RunInputs,
    fastest,
    measured_step,
    run_inputs,
)
from generator.knowledge import KnowledgeBase, Loaded
from generator.language import speaking
from generator.model.runs import FLOP_METRICS, Convention, Metric, Run
from generator.render.accuracy import assumptions as assumptions_table

GPT = "specs/runs/test-run-gpt-1-7b.yaml"
LLAMA = "specs/runs/test-run-llama-70b.yaml"


def _base(target: str) -> bytes:
    return next(f.raw for f in base_files() if f.path == target)


def _run(target: str, *edits: tuple[str, str]) -> tuple[KnowledgeBase, Loaded[Run]]:
    """The fixture base with one run's file edited (each `old` must occur), validated."""
    raw = _base(target).decode("utf-8")
    for old, new in edits:
        assert old in raw, old
        raw = raw.replace(old, new)
    result = validate_with(target, raw.encode("utf-8"))
    assert result.ok and result.kb is not None, [d.as_text() for d in result.diagnostics]
    entity = result.kb.get(target.rsplit("/", 1)[1].removesuffix(".yaml"), Run)
    assert entity is not None
    return result.kb, entity


def _fixture(run_id: str) -> tuple[KnowledgeBase, Loaded[Run]]:
    kb = base_result().kb
    assert kb is not None
    entity = kb.get(run_id, Run)
    assert entity is not None
    return kb, entity


def test_a_table_row_becomes_the_models_inputs() -> None:
    """The GPT fixture (an inline shape on 4 nodes of 8): the shape, the cluster and the layout
    as the run states them, and the fields the Layout does not hold in `extras`."""
    kb, entity = _fixture("test-run-gpt-1-7b")
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs)
    w, c, lay = got.workload, got.cluster, got.layout
    assert (w.layers, w.hidden_size, w.attention_heads, w.vocabulary_size, w.position_embeddings) == (24, 2304, 24, 51200, 2048)
    assert w.parameter_count == 1.7e9 and not w.gated_mlp and w.tied_embeddings and w.norm == "layernorm"
    assert (c.node_count, c.node.gpus_per_node, c.node.nics_per_node) == (4, 8, 8)
    assert c.node.nic_port_per_direction_bytes_per_s == 200e9 / 8  # the fixture's HDR port, per direction
    assert (lay.tensor_parallel, lay.pipeline_parallel, lay.zero_stage, lay.micro_batch_size) == (1, 1, 0, 4)
    assert (lay.global_batch_size, lay.sequence_length, lay.recompute, lay.precision) == (512, 2048, "full", "bf16")
    assert (got.extras.data_parallel, got.extras.precision, got.extras.flash_attention) == (32, "16bit", False)
    assert got.assumed == () and got.ids == {"run": "test-run-gpt-1-7b", "gpu": "test-a100-sxm4", "network": "test-ib-hdr"}
    assert estimate(w, c, lay, _assumptions(kb)).estimate is not None


def _assumptions(kb: KnowledgeBase) -> Assumptions:
    found = assumptions(kb)
    assert not isinstance(found, str)
    return found


def test_a_workload_run_uses_the_workload_and_carries_its_extras() -> None:
    """The Llama fixture names a workload: its stated count is Ψ; FP32 gradients ride along."""
    kb, entity = _fixture("test-run-llama-70b")
    assert run_inputs(kb, entity) == "the run states no flash_attention"  # unstated, and nothing assumed
    got = run_inputs(kb, entity, Assumed(flash_attention=True))
    assert isinstance(got, RunInputs)
    assert got.assumed == ("flash_attention",) and got.layout.flash_attention is True
    assert got.layout.fp32_gradients is True
    assert got.workload.parameter_count == 70553706496 and got.workload.kv_heads == 8
    assert (got.layout.tensor_parallel, got.layout.pipeline_parallel, got.layout.sequence_parallel) == (8, 2, True)
    assert got.extras.fp32_gradients is True and got.ids["workload"] == "test-llama-70b"
    assert got.layout.pp_scatter_gather is True  # absent: Megatron-LM's split sends


def test_a_deepspeed_pipeline_run_sends_whole_outputs() -> None:
    """`pipeline_scatter_gather: false` (DeepSpeed's pipeline engine) reaches the model's layout."""
    kb, entity = _run("specs/runs/test-run-gpt-1-7b.yaml",
                      ("  flash_attention: false\n", "  flash_attention: false\n  pipeline_scatter_gather: false\n"))
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs) and got.layout.pp_scatter_gather is False


def test_eq3_tflops_become_a_step_time() -> None:
    """137 TFLOP/s per GPU under Narayanan Eq. 3 on 32 GPUs: F / (n·X), computed here by hand."""
    kb, entity = _fixture("test-run-gpt-1-7b")
    step = measured_step(kb, entity)
    assert not isinstance(step, str)
    b, s, layers, h, v = 512, 2048, 24, 2304, 51200
    flops = 96 * b * s * layers * h * h * (1 + s / (6 * h) + v / (16 * layers * h))
    assert step.seconds == pytest.approx(flops / (32 * 137e12), rel=1e-12)
    assert step.figure.metric == "tflops_per_gpu" and "16lh" in step.formula


def test_a_token_rate_becomes_a_step_time() -> None:
    """B·s ÷ (GPUs × tokens/s per GPU); peak memory gives no step time and is passed over."""
    kb, entity = _fixture("test-run-llama-70b")
    step = measured_step(kb, entity)
    assert not isinstance(step, str)
    assert step.seconds == pytest.approx(256 * 4096 / (64 * 1200), rel=1e-12)


def test_a_step_time_is_preferred_to_a_flop_rate() -> None:
    kb, entity = _run(GPT, ("  - {metric: mfu_pct", "  - {metric: step_time_s, value: 3.6}\n  - {metric: mfu_pct"))
    step = measured_step(kb, entity)
    assert not isinstance(step, str) and step.seconds == 3.6 and step.figure.metric == "step_time_s"


def test_a_utilisation_is_taken_against_the_dense_peak_of_the_precision() -> None:
    """MFU under Korthikanti Eq. 7: F / (n · MFU · peak), the fixture GPU's dense 16-bit rate."""
    kb, entity = _run(GPT, ("  - {metric: tflops_per_gpu, value: 137, convention: narayanan_eq3, where: \"achieved teraFLOP/s per GPU\"}\n", ""),
                      ("convention: unstated", "convention: korthikanti_eq7_model"))
    step = measured_step(kb, entity)
    assert not isinstance(step, str)
    b, s, layers, h, v = 512, 2048, 24, 2304, 51200
    flops = 72 * b * s * layers * h * h * (1 + s / (6 * h) + v / (12 * h * layers))
    assert step.seconds == pytest.approx(flops / (32 * 0.44 * 312e12), rel=1e-12)


def test_an_unstated_convention_gives_no_step_time() -> None:
    kb, entity = _run(GPT, ("  - {metric: tflops_per_gpu, value: 137, convention: narayanan_eq3, where: \"achieved teraFLOP/s per GPU\"}\n", ""))
    assert measured_step(kb, entity) == "mfu_pct names no FLOP convention"


@pytest.mark.parametrize(("edit", "fields"), [
    (("  data_parallel: 32\n", "  data_parallel: 16\n  context_parallel: 2\n"), {"context_parallel": 2}),
    (("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n",
      "  tensor_parallel: 1\n  pipeline_parallel: 2\n  data_parallel: 16\n  virtual_pipeline: 3\n"),
     {"pipeline_parallel": 2, "virtual_pipeline": 3}),
    (("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n",
      "  tensor_parallel: 1\n  pipeline_parallel: 16\n  data_parallel: 2\n"), {"pipeline_parallel": 16}),
    (("  zero_stage: 0\n", "  zero_stage: 3\n  shard_group: 8\n"), {"zero_stage": 3, "shard_group": 8}),
])
def test_layouts_the_model_holds_reach_it(edit: tuple[str, str], fields: dict[str, int]) -> None:
    """Context parallelism, an interleaved schedule with its chunks stated, stages that do not
    divide the 24 layers and hybrid sharding are expressed, and the model's layout carries them."""
    kb, entity = _run(GPT, edit)
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs), got
    assert {name: getattr(got.layout, name) for name in fields} == fields


@pytest.mark.parametrize(("edit", "reason"), [
    (("  sequence_length: 2048\n", "  sequence_length: 2048\n  context_parallel: 1\n"), None),
    (("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n",
      "  tensor_parallel: 1\n  pipeline_parallel: 2\n  data_parallel: 16\n  virtual_pipeline: interleaved\n"),
     "interleaved pipeline, chunks unstated: the schedule's bubble depends on them"),
    (("  micro_batch: 4\n", ""), "the run states no micro_batch"),
    (("  precision: 16bit\n", ""), "the run states no precision"),
    (("  tensor_parallel: 1\n", ""), "the run states no tensor_parallel"),
    (("network: test-ib-hdr\n", ""), "the run spans nodes but names no network"),
    (("gpus_per_node: 8\n", "gpus_per_node: 6\n"), "32 GPUs do not fill whole nodes of 6"),
    (("  vocabulary_size: 51200\n", ""), "the shape states no vocabulary_size"),
])
def test_what_the_model_cannot_express_is_a_reason(edit: tuple[str, str], reason: str | None) -> None:
    """Each gap or layout the model does not hold gives one line instead of inputs (the first
    edit only writes out the default, as a control)."""
    kb, entity = _run(GPT, edit)
    got = run_inputs(kb, entity)
    if reason is None:
        assert isinstance(got, RunInputs)
    else:
        assert got == reason


def test_an_unstated_field_is_filled_only_when_the_caller_assumes_it() -> None:
    """`Assumed` fills what the run leaves out, says so, and never overrides what it states."""
    kb, entity = _run(GPT, ("  micro_batch: 4\n", ""), ("gpus_per_node: 8\n", ""))
    assert run_inputs(kb, entity) == "the run states no micro_batch, gpus_per_node"
    got = run_inputs(kb, entity, Assumed(micro_batch=1, gpus_per_node=8, zero_stage=3))
    assert isinstance(got, RunInputs)
    assert got.assumed == ("micro_batch", "gpus_per_node")
    assert (got.layout.micro_batch_size, got.layout.zero_stage, got.cluster.node_count) == (1, 0, 4)


def test_one_node_needs_no_network() -> None:
    """Eight GPUs in one node of eight: no network is crossed, so none is needed."""
    kb, entity = _run(GPT, ("gpus: 32\n", "gpus: 8\n"), ("network: test-ib-hdr\n", ""), ("nics_per_node: 8\n", ""),
                      ("  data_parallel: 32\n", "  data_parallel: 8\n"), ("  global_batch: 512\n", "  global_batch: 128\n"))
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs)
    assert (got.cluster.node_count, got.cluster.node.nics_per_node) == (1, 0) and "network" not in got.ids
    assert estimate(got.workload, got.cluster, got.layout, _assumptions(kb)).estimate is not None


def test_a_run_naming_no_network_may_take_its_reference_servers() -> None:
    """A multi-node run that names neither network nor NICs: unexpressed unless the caller
    assumes the reference server's; then the fixture server's 8 compute ports of its HDR network,
    both listed as assumed. A run that states its NICs described a network: it keeps its gap."""
    kb, entity = _run(GPT, ("network: test-ib-hdr\n", ""), ("nics_per_node: 8\n", ""))
    assert run_inputs(kb, entity) == "the run spans nodes but names no network"
    got = run_inputs(kb, entity, Assumed(reference_network=True))
    assert isinstance(got, RunInputs)
    assert (got.cluster.node.nics_per_node, got.cluster.node.nic_port_per_direction_bytes_per_s) == (8, 25e9)
    assert {"network", "nics_per_node"} <= set(got.assumed) and got.ids["network"] == "test-ib-hdr"
    kb, entity = _run(GPT, ("network: test-ib-hdr\n", ""), ("nics_per_node: 8\n", "nics_per_node: 4\n"))
    assert run_inputs(kb, entity, Assumed(reference_network=True)) == "the run spans nodes but names no network"


CHOOSE = Assumed(fastest_unstated=True)
PIPELINED = ("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n",
             "  tensor_parallel: 1\n  pipeline_parallel: 2\n  data_parallel: 16\n  virtual_pipeline: unstated\n")


def _steps(got: RunInputs, kb: KnowledgeBase, **fixed: int) -> dict[int, float]:
    """The model's step time at each virtual pipeline 1 to the layers that it accepts."""
    out = {}
    for v in range(1, got.workload.layers + 1):
        layout = replace(got.layout, virtual_pipeline=v, **fixed)
        found = estimate(got.workload, got.cluster, layout, _assumptions(kb)).estimate
        if found is not None:
            out[v] = found.step.step_s
    return out


def test_unstated_interleaving_takes_the_models_fastest_chunks() -> None:
    """The GPT fixture on pp 2 with interleaving unstated: left open only when the caller says so;
    then every v from 1 to the 24 layers is a candidate, `estimate` accepts v ≤ 13 (the embedding and
    the logits may take a stage each: p·v ≤ 24 + 2), and the chunks
    are the accepted v of least step time, listed with every accepted value."""
    kb, entity = _run(GPT, PIPELINED)
    assert run_inputs(kb, entity) == "interleaving unstated: the schedule's bubble depends on them"
    got = run_inputs(kb, entity, CHOOSE)
    assert isinstance(got, RunInputs) and got.open is not None
    assert got.open.fields == ("virtual_pipeline",) and got.open.candidates == tuple((v,) for v in range(1, 25))
    chosen = fastest(got, _assumptions(kb))
    assert isinstance(chosen, RunInputs) and chosen.open is None and chosen.choice is not None
    steps = _steps(got, kb)
    assert list(steps) == list(range(1, 14))  # p·v ≤ 24 layers + 2
    best = min(steps, key=lambda v: steps[v])
    assert chosen.layout.virtual_pipeline == best and chosen.extras.virtual_pipeline == best
    assert chosen.assumed == (f"virtual_pipeline={best} (fastest of {', '.join(map(str, range(1, 14)))})",)
    assert chosen.choice.accepted == tuple((v,) for v in range(1, 14)) and chosen.extras.data_parallel == 16
    # "interleaved" rules out v = 1: the candidates start at 2
    kb, entity = _run(GPT, (PIPELINED[0], PIPELINED[1].replace("unstated", "interleaved")))
    got = run_inputs(kb, entity, CHOOSE)
    assert isinstance(got, RunInputs) and got.open is not None and got.open.candidates[0] == (2,)


def test_an_unstated_split_keeps_the_stated_data_parallel_degree() -> None:
    """Tensor and pipeline parallel unstated, data parallel 16 stated on 32 GPUs: the candidates
    are t = 1 to 8 with p = 32 / (16 t) where whole, the model accepts 1 × 2 and 2 × 1 (24 heads),
    and the split it takes keeps dp 16."""
    kb, entity = _run(GPT, ("  tensor_parallel: 1\n  pipeline_parallel: 1\n  data_parallel: 32\n", "  data_parallel: 16\n"))
    assert run_inputs(kb, entity) == "the run states no tensor_parallel, pipeline_parallel"
    got = run_inputs(kb, entity, CHOOSE)
    assert isinstance(got, RunInputs) and got.open is not None
    assert got.open.fields == ("tensor_parallel", "pipeline_parallel") and got.open.candidates == ((1, 2), (2, 1))
    chosen = fastest(got, _assumptions(kb))
    assert isinstance(chosen, RunInputs) and chosen.choice is not None
    assert chosen.choice.accepted == ((1, 2), (2, 1))
    times = {c: estimate(got.workload, got.cluster, replace(got.layout, tensor_parallel=c[0], pipeline_parallel=c[1]),
                         _assumptions(kb)).estimate for c in chosen.choice.accepted}
    assert chosen.choice.chosen == min(times, key=lambda c: times[c].step.step_s)  # type: ignore[union-attr]
    assert chosen.extras.data_parallel == 16 and chosen.assumed[-1].startswith("tensor_parallel×pipeline_parallel=")


def test_no_accepted_value_leaves_the_run_unexpressed_with_a_reason() -> None:
    """An interleaved pipeline of 2 stages with 9 micro-batches: the interleaved schedule needs
    them divisible by p, so no chunk count from 2 up is accepted, and the reason says why."""
    kb, entity = _run(GPT, (PIPELINED[0], PIPELINED[1].replace("unstated", "interleaved")),
                      ("  global_batch: 512\n", "  global_batch: 576\n"))
    got = run_inputs(kb, entity, CHOOSE)
    assert isinstance(got, RunInputs)
    why = fastest(got, _assumptions(kb))
    assert isinstance(why, str) and _one_line(why)
    assert why.startswith("the run leaves virtual_pipeline unstated and the model accepts none of the 23 candidates")
    assert "micro-batches per step (9) divisible by pipeline parallel 2" in why


def test_every_convention_has_a_count_and_every_metric_a_place() -> None:
    """A convention added to the vocabulary needs its FLOP count here; every metric but peak
    memory gives a step time, in a stated order of preference."""
    assert set(FLOPS_PER_STEP) == set(get_args(Convention)) - {"unstated"}
    assert set(PREFERENCE) == set(get_args(Metric)) - {"peak_memory_gib"}
    assert set(FLOP_METRICS) <= set(PREFERENCE)


@pytest.fixture(scope="module")
def real() -> KnowledgeBase:
    result = real_result()
    assert result.kb is not None
    return result.kb


def _one_line(reason: str) -> bool:
    return bool(reason.strip()) and "\n" not in reason


def test_every_real_run_is_inputs_or_a_reason(real: KnowledgeBase) -> None:
    """Whatever specs/runs/ holds: inputs that agree with the run and that the model estimates
    without error, or one line saying why not."""
    wanted = assumptions(real)
    for entity in real.of_type(Run):
        got = run_inputs(real, entity)
        if isinstance(got, str):
            assert _one_line(got), entity.id
            continue
        run = entity.model
        assert got.cluster.node_count * got.cluster.node.gpus_per_node == run.gpus, entity.id
        assert (got.layout.tensor_parallel, got.layout.pipeline_parallel) == (run.layout.tensor_parallel,
                                                                              run.layout.pipeline_parallel)
        assert (got.extras.data_parallel * got.layout.tensor_parallel * got.layout.pipeline_parallel
                * got.layout.context_parallel) == run.gpus, entity.id
        if not isinstance(wanted, str):
            result = estimate(got.workload, got.cluster, got.layout, wanted)
            assert result.estimate is not None or result.problems, entity.id


def test_every_real_measured_figure_is_a_step_time_or_a_reason(real: KnowledgeBase) -> None:
    for entity in real.of_type(Run):
        step = measured_step(real, entity)
        if isinstance(step, str):
            assert _one_line(step), entity.id
        else:
            assert math.isfinite(step.seconds) and step.seconds > 0, entity.id
            assert step.figure in entity.model.measured


def test_a_shape_without_dropout_reaches_the_workload() -> None:
    """`dropout: false` in a run's shape makes a workload without dropout masks; left out, the
    shape trains with dropout, as GPT-3 and Megatron-LM do."""
    kb, entity = _run(GPT, ("  vocabulary_size: 51200\n", "  vocabulary_size: 51200\n  dropout: false\n"))
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs) and got.workload.dropout is False
    kb, entity = _run(GPT)
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs) and got.workload.dropout is True


def test_a_shape_with_experts_reaches_the_workload() -> None:
    """`moe` in a run's shape gives the model the same experts a workload's `moe` gives it, and a
    gated GELU (`geglu`) has the three matrices of SwiGLU: the count and the experts reach the
    workload, so the run is priced as a mixture of experts."""
    experts = "  moe: {experts: 8, experts_per_token: 2, expert_ffn_hidden_size: 4608, dense_layers: 1}\n"
    kb, entity = _run(GPT, ("  mlp: gelu\n", "  mlp: geglu\n" + experts), ("  parameters: 1700000000\n", ""),
                      ("  linear_biases: true\n", "  linear_biases: false\n"),
                      ("  precision: 16bit\n", "  precision: bf16\n  expert_parallel: 8\n  expert_routing: balanced\n"))
    got = run_inputs(kb, entity)
    assert isinstance(got, RunInputs), got
    moe = got.workload.moe
    assert moe is not None and (moe.experts, moe.experts_per_token, moe.expert_ffn_hidden_size) == (8, 2, 4608)
    assert moe.dense_layers == 1 and got.workload.gated_mlp is True and got.layout.expert_parallel == 8
    dense = replace(got.workload, moe=None)
    h, f, f_e, layers = 2304, 9216, 4608, 24
    # without biases, the 23 expert layers hold 8 experts of 3·h·f_e and a router of h × 8 in place of one MLP of 3·h·f
    assert got.workload.parameter_count - parameters_from_shape(dense) == pytest.approx(
        (layers - 1) * (8 * 3 * h * f_e + h * 8 - 3 * h * f))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_runs_page_shows_every_value_the_suite_assumes(language: str) -> None:
    """The runs index explains, for each field `calibration.ASSUMED` fills in where a run is
    silent, the value taken and why, from the object calibrate uses: changing an assumed value
    changes the page, and one without a stated reason fails the build."""
    with speaking(language):
        shown = assumptions_table()
        rows = [[cell.html for cell in row.cells] for row in shown.rows]
        numbers = {f.name: str(getattr(SUITE_ASSUMED, f.name)) for f in fields(SUITE_ASSUMED)
                   if isinstance(getattr(SUITE_ASSUMED, f.name), int) and not isinstance(getattr(SUITE_ASSUMED, f.name), bool)}
        set_fields = [f.name for f in fields(SUITE_ASSUMED) if getattr(SUITE_ASSUMED, f.name) not in (None, False)]
        assert len(rows) == len(set_fields) > 5
        assert all(label and value and why for label, value, why in rows)
        values = [value for _label, value, _why in rows]
        for name, number in numbers.items():  # micro-batch 1, 8 GPUs and 8 NICs per node, ZeRO-1
            assert any(value.endswith(number) for value in values), (name, number, values)
        with pytest.raises(KeyError):  # a field assumed with no reason given
            assumptions_table(replace(SUITE_ASSUMED, precision="bf16"))
