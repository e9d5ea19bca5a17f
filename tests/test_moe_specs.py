"""Mixture-of-experts workloads and runs in the knowledge base (issue 24): a workload's experts,
latent attention and head width reach the cost model's records; stated counts are held to the
shape within 1 % plus the rounding of a published label; a run's expert parallelism, routing and
schedule reach the model's layout; GPU-hours per trillion tokens become a step time. On the
fixture base with a synthetic MoE workload added, so that no real spec changes an outcome."""

from __future__ import annotations

import pytest
from support import BUILD_DATE, base_files, validate_with

from generator.costmodel.inputs import Mla, Moe
from generator.costmodel.shape import active_parameters_from_shape, parameters_from_shape
from generator.estimates.records import agrees, heads_divide, rounding, sound, workload
from generator.estimates.runs import Assumed, RunInputs, measured_step, run_inputs
from generator.knowledge import KnowledgeBase, Loaded
from generator.model.costs import LatentAttention
from generator.model.costs import Workload as WorkloadSpec
from generator.model.runs import Run
from generator.validate import SpecFile, validate

MOE = "specs/workloads/test-moe.yaml"
RUN = "specs/runs/test-run-moe.yaml"
# A small synthetic shape: 4 layers, the first dense, then 8 routed experts (2 per token) and 1
# shared; its counts are the ones `costmodel.shape` gives.
TOTAL, ACTIVE = 179864576, 90473472
WORKLOAD = f"""id: test-moe
last_verified: 2026-12-01
name: Test MoE
family: test-moe
parameters: {TOTAL}
layers: 4
hidden_size: 1024
attention_heads: 8
kv_heads: 8
ffn_hidden_size: 4096
vocabulary_size: 32000
mlp: swiglu
norm: rmsnorm
tied_embeddings: false
linear_biases: false
context_length: 4096
moe: {{experts: 8, experts_per_token: 2, expert_ffn_hidden_size: 1024, shared_experts: 1, dense_layers: 1}}
active_parameters: {ACTIVE}
source: test-topology-paper
summary: {{zh: 夹具中的小型混合专家模型。, en: A small fixture mixture-of-experts model.}}
"""
RUN_TEXT = """id: test-run-moe
last_verified: 2026-12-01
name: Test MoE on 16 GPUs
source: test-topology-paper
where: "Table 3"
quote: "| MoE | 16 | 2 | 8 | 1 | 64 | 4096 | 180000 |"
workload: test-moe
gpu: test-a100-sxm4
gpus: 16
gpus_per_node: 8
network: test-ib-hdr
nics_per_node: 8
layout:
  tensor_parallel: 1
  pipeline_parallel: 2
  zero_stage: 1
  micro_batch: 1
  global_batch: 64
  sequence_length: 4096
  recompute: selective
  sequence_parallel: false
  precision: bf16
  flash_attention: true
  expert_parallel: 8
  expert_routing: learned
  pipeline_schedule: dualpipe
measured:
  - {metric: gpu_hours_per_trillion_tokens, value: 180000}
note: {zh: 夹具：按每万亿 token 的 GPU 小时给出的实测。, en: A fixture measurement in GPU hours per trillion tokens.}
"""
ASSUMPTIONS = {
    # in place of the fixture base's own (same files), with values of this test's
    "specs/assumptions/test-moe-all-to-all-overlap.yaml": """id: test-moe-all-to-all-overlap
last_verified: 2026-12-01
parameter: ep_overlap_fraction
name: {zh: 专家并行全互联可重叠比例, en: Overlappable share of the expert-parallel all-to-all}
value: 0.9
range: {low: 0.8, high: 1}
estimate: true
source: test-topology-paper
why: {zh: 夹具。, en: Fixture.}
""",
    "specs/assumptions/test-moe-expert-imbalance.yaml": """id: test-moe-expert-imbalance
last_verified: 2026-12-01
parameter: expert_imbalance
name: {zh: 专家负载不均衡系数, en: Expert load imbalance}
value: 1.2
range: {low: 1, high: 1.25}
estimate: true
source: test-topology-paper
why: {zh: 夹具。, en: Fixture.}
"""}


def _files(run: str = RUN_TEXT, *, with_assumptions: bool = True) -> list[SpecFile]:
    added = {MOE: WORKLOAD, RUN: run, **(ASSUMPTIONS if with_assumptions else {})}
    files = [f for f in base_files() if f.path not in added and (with_assumptions or f.path not in ASSUMPTIONS)]
    files += [SpecFile(path, path.split("/")[1], path.rsplit("/", 1)[1].removesuffix(".yaml"), text.encode())
              for path, text in added.items()]
    return files


def _kb(run: str = RUN_TEXT) -> KnowledgeBase:
    result = validate(_files(run), today=BUILD_DATE)
    # The fixture's run is not a measurement the model is held to: the calibration may warn (the
    # fixture base's threshold), nothing else may.
    others = [d.as_text() for d in result.diagnostics if d.rule != "model-calibration-error"]
    assert result.ok and result.kb is not None and not others, others
    return result.kb


def _spec(kb: KnowledgeBase) -> WorkloadSpec:
    found = kb.get("test-moe", WorkloadSpec)
    assert found is not None
    return found.model


def _run(kb: KnowledgeBase) -> Loaded[Run]:
    found = kb.get("test-run-moe", Run)
    assert found is not None
    return found


def test_the_fixture_counts_are_the_shapes() -> None:
    w = workload(_spec(_kb()))
    assert (parameters_from_shape(w), active_parameters_from_shape(w)) == (TOTAL, ACTIVE)


def test_experts_latent_attention_and_head_width_reach_the_record() -> None:
    spec = _spec(_kb())
    w = workload(spec)
    assert w.moe == Moe(8, 2, 1024, shared_experts=1, dense_layers=1, nodes_per_token=0)
    assert w.mla is None and w.head_dim is None
    latent = LatentAttention(q_lora_rank=0, kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128)
    assert workload(spec.model_copy(update={"mla": latent})).mla == Mla(0, 512, 128, 64, 128)
    assert workload(spec.model_copy(update={"head_dim": 256})).head_dim == 256


def test_a_stated_head_width_frees_the_width_from_the_heads() -> None:
    """Qwen3's 32 heads of 128 on a width of 2048: with `head_dim` the heads need not split the
    width; without it they must."""
    spec = _spec(_kb())
    odd = spec.model_copy(update={"attention_heads": 24, "kv_heads": 4})
    assert not heads_divide(odd)
    assert heads_divide(odd.model_copy(update={"head_dim": 128}))


@pytest.mark.parametrize(("stated", "derived", "ok"), [
    (37_000_000_000, 36.63e9, True),     # DeepSeek-V3's "37B": within 1 % plus 0.5B
    (2_400_000_000, 2.4514e9, True),     # DeepSeek-V2-Lite's "2.4B"
    (30_000_000_000, 30.53e9, True),     # Qwen3-30B-A3B's "30B"
    (30_000_000_000, 31.0e9, False),     # the zero of "30B" is significant: not ±5B
    (3_000_000_000, 3.04e9, True),       # Qwen3-30B-A3B's "3B" active
    (6_738_415_616, 6.2e9, False),       # an exact count keeps the 1 % of before
    (6_738_415_616, 6_738_415_616 * 1.0099, True),
])
def test_a_published_label_stands_for_every_count_that_rounds_to_it(stated: int, derived: float, ok: bool) -> None:
    assert agrees(stated, derived) is ok


def test_rounding_is_half_a_unit_of_the_last_digit() -> None:
    """Read with at least two significant digits: the zero of "30B" is one."""
    assert (rounding(37_000_000_000), rounding(15_700_000_000), rounding(6_738_415_616)) == (5e8, 5e7, 0.5)
    assert (rounding(30_000_000_000), rounding(3_000_000_000), rounding(7), rounding(10)) == (5e8, 5e7, 0.5, 0.5)


def test_a_moe_workload_without_its_active_count_is_not_sound() -> None:
    spec = _spec(_kb())
    assert sound(spec)
    assert not sound(spec.model_copy(update={"active_parameters": None}))
    assert not sound(spec.model_copy(update={"active_parameters": TOTAL + 1}))


def test_gpu_hours_per_trillion_tokens_give_the_step_time() -> None:
    """step = GPU-hours × 3600 × B·s ÷ (10¹² × GPUs): 180000 × 3600 × 64 × 4096 ÷ (10¹² × 16)."""
    kb = _kb()
    step = measured_step(kb, _run(kb))
    assert not isinstance(step, str)
    assert step.seconds == pytest.approx(180000 * 3600 * 64 * 4096 / (1e12 * 16), rel=1e-12)


def test_expert_parallelism_routing_and_schedule_reach_the_layout() -> None:
    """DualPipe takes the knowledge base's all-to-all overlap, learned routing its imbalance."""
    kb = _kb()
    got = run_inputs(kb, _run(kb))
    assert isinstance(got, RunInputs), got
    lay = got.layout
    assert (lay.expert_parallel, lay.ep_overlap, lay.expert_imbalance) == (8, 0.9, 1.2)
    assert (got.extras.pipeline_schedule, got.extras.expert_routing) == ("dualpipe", "learned")


@pytest.mark.parametrize("routing", ["balanced", "capacity"])
def test_balanced_routing_and_other_schedules_take_neither_assumption(routing: str) -> None:
    """Forced balance, and a capacity factor of 1 with padding (every expert computes exactly the
    mean share), put the same load on every GPU: λ = 1, not the knowledge base's learned imbalance."""
    kb = _kb(RUN_TEXT.replace("expert_routing: learned", f"expert_routing: {routing}")
             .replace("  pipeline_schedule: dualpipe\n", ""))
    got = run_inputs(kb, _run(kb))
    assert isinstance(got, RunInputs), got
    assert (got.layout.ep_overlap, got.layout.expert_imbalance) == (0.0, 1.0)
    assert got.extras.expert_routing == routing


def test_without_the_assumptions_a_moe_knowledge_base_is_refused() -> None:
    """A workload with experts reads both assumptions: without them the knowledge base does not
    pass (model-assumption-missing, once each), rather than pricing DualPipe and learned routing
    with silent defaults."""
    result = validate(_files(with_assumptions=False), today=BUILD_DATE)
    assert sorted((d.rule, d.path) for d in result.diagnostics) == [
        ("model-assumption-missing", "specs/assumptions/ep-overlap-fraction.yaml"),
        ("model-assumption-missing", "specs/assumptions/expert-imbalance.yaml")]


def test_unstated_routing_is_a_reason_unless_assumed() -> None:
    kb = _kb(RUN_TEXT.replace("  expert_routing: learned\n", ""))
    assert run_inputs(kb, _run(kb)) == "the run states no expert_routing"
    got = run_inputs(kb, _run(kb), Assumed(expert_routing="balanced"))
    assert isinstance(got, RunInputs) and "expert_routing" in got.assumed


def test_unstated_expert_parallelism_is_a_reason() -> None:
    kb = _kb(RUN_TEXT.replace("  expert_parallel: 8\n", ""))
    assert run_inputs(kb, _run(kb)) == "the run states no expert_parallel"


def test_a_dense_run_needs_no_routing() -> None:
    """The fixture's dense runs state no routing and still become inputs (routing has nothing to act on)."""
    result = validate_with(RUN, RUN_TEXT.replace("workload: test-moe", "workload: test-llama-70b")
                           .replace("  expert_parallel: 8\n  expert_routing: learned\n", "").encode())
    assert result.kb is not None
    got = run_inputs(result.kb, _run(result.kb), Assumed())
    assert isinstance(got, RunInputs), got
    assert (got.layout.expert_parallel, got.extras.expert_routing) == (1, None)
