"""The layout knobs of real runs: FlashAttention, interleaved 1F1B, uneven stages, FP32 gradients and
tensor-parallel overlap, each against its paper's numbers, and their neutral values against the
model as it was before them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate, explain
from generator.costmodel import compute as cp
from generator.costmodel import memory as me
from generator.costmodel import step as st
from generator.costmodel.chain import explain_lines, walk
from generator.costmodel.grid import configurations
from generator.estimates.report import outputs

BEFORE = Path(__file__).parent / "fixtures" / "costmodel_before_layouts.json"
GPT3 = Workload("gpt-3", 175e9, 96, 12288, 96, 51200)
NODE = Node("n", GpuSpec("g", 80e9, 2.039e12, 312e12, None), 8, 300e9, 8, 25e9)
ASSUMPTIONS = Assumptions(0.8, 2.5, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1, 4e-6)


def _run(layout: Layout, workload: Workload = GPT3, nodes: int = 8, node: Node = NODE):
    result = estimate(workload, Cluster(node, nodes), layout, ASSUMPTIONS)
    assert result.estimate is not None, result.problems
    return result.estimate


def test_neutral_knobs_reproduce_the_model_before_them() -> None:
    """v = 1, c = 1, no TP overlap, 16-bit gradients and FlashAttention off give the earlier model's
    outputs exactly, on a sample of the grid. The fixture was computed by the commit before the
    knobs, and recomputed (knobs neutral) only where a base formula changed on purpose: the GEMM
    efficiency by the roofline, which replaced the per-rank width h ÷ t, ZeRO-3's collectives
    priced per layer with NCCL's ring latency, and the s×s scores' elementwise traffic, which
    FlashAttention off now pays."""
    configs = configurations(13824)
    for case in json.loads(BEFORE.read_text(encoding="utf-8")):
        workload, cluster, layout, assumptions = configs[case["index"]]
        layout = replace(layout, flash_attention=False, virtual_pipeline=1, fp32_gradients=False, tp_overlap=0.0,
                         context_parallel=1)
        now = outputs(estimate(workload, cluster, layout, assumptions))
        now.pop("scaling_note")
        time_s = now["time_s"]
        assert isinstance(time_s, dict)
        time_s.pop("tensor_parallel")  # an output added after the fixture (the step time's tensor-parallel part)
        assert now.pop("all_to_all", None) is None  # a dense model has no expert all-to-all
        assert now == case["outputs"], case["index"]


@pytest.mark.parametrize(("recompute", "sp", "coefficient"), [
    ("none", False, lambda a, s, h, t: 10 + 24 / t + 5 * a * s / (h * t)),
    ("none", True, lambda a, s, h, t: 34 / t + 5 * a * s / (h * t)),
    ("selective", False, lambda a, s, h, t: 10 + 24 / t),
    ("selective", True, lambda a, s, h, t: 34 / t),
])
def test_korthikanti_table_2_with_flash_attention_off(recompute: str, sp: bool, coefficient) -> None:  # type: ignore[no-untyped-def]
    """FlashAttention off: Table 2's rows (GPT-3, s 2048, t 8); on: no 5as/(ht) term."""
    s, h, a, t = 2048, 12288, 96, 8
    layout = Layout(t, 8, 1, 1, s, 512, recompute, sp, flash_attention=False)  # type: ignore[arg-type]
    assert _run(layout).memory.activation_per_layer_bytes == pytest.approx(s * h * coefficient(a, s, h, t))
    flash = _run(replace(layout, flash_attention=True)).memory.activation_per_layer_bytes
    assert flash == pytest.approx(s * h * (34 / t if sp else 10 + 24 / t))


def test_flash_attention_adds_the_backward_recomputation_of_the_scores() -> None:
    """Executed FLOPs gain 2·b·s²·h per layer (here per GPU of t·p); model FLOPs do not move."""
    layout = Layout(8, 8, 1, 1, 2048, 512, "none", flash_attention=False)
    off, on = _run(layout).compute, _run(replace(layout, flash_attention=True)).compute
    assert on.executed_flop_per_microbatch_per_gpu - off.executed_flop_per_microbatch_per_gpu == pytest.approx(
        2 * 2048**2 * 96 * 12288 / 64)
    assert on.model_flop_per_step == off.model_flop_per_step


def test_interleaved_bubble_and_traffic() -> None:
    """Narayanan et al. 2021 §2.2.2: bubble (p − 1)/v slots, v × the point-to-point transfers,
    Korthikanti §4.2.3: activations of L(1 + (p − 1)/(p·v)) layers on the first stage."""
    layout = Layout(8, 8, 1, 1, 2048, 512)
    plain, interleaved = _run(layout), _run(replace(layout, virtual_pipeline=4))
    assert st.bubble_interleaved_s(8.0, 4.0, 1.0) == 7 / 4
    assert interleaved.step.bubble_s == pytest.approx(7 / 4 * interleaved.step.slot_s)
    assert interleaved.step.pp_microbatch_s == pytest.approx(4 * plain.step.pp_microbatch_s)
    assert interleaved.memory.activation_layers_held == pytest.approx(96 * (1 + 7 / 32))
    m = interleaved.step.microbatches
    assert interleaved.step.pipeline_s == pytest.approx((m + 7 / 4) * interleaved.step.slot_s)


def test_interleaved_warm_up_never_holds_more_micro_batches_than_the_step_has() -> None:
    """With m = p, Megatron-Core's interleaved schedule runs every forward pass before the first
    backward: the first stage holds its L/p layers for all m micro-batches and no more, where
    Korthikanti's L(1 + (p − 1)/(p·v)) would count (p − 1)/v micro-batches that do not exist.
    With m = 2p the warm-up, not the step, is the limit, and the formula stands."""
    layout = Layout(8, 8, 1, 1, 2048, 8, virtual_pipeline=4)  # one data-parallel rank: m = 8 = p
    equal = _run(layout)
    assert equal.step.microbatches == 8
    assert equal.memory.activation_layers_held == pytest.approx(96 / 8 * 8)
    double = _run(replace(layout, global_batch_size=16))
    assert double.step.microbatches == 16
    assert double.memory.activation_layers_held == pytest.approx(96 * (1 + 7 / 32))
    assert me.activation_layers_held_interleaved(96.0, 8.0, 9.0, 4.0) == pytest.approx(96 / 8 * 9)


def test_deepspeeds_pipeline_engine_sends_the_whole_output() -> None:
    """Megatron-LM's scatter/gather sends 1/t of a stage's output from each GPU of the tensor-
    parallel group; DeepSpeed's pipeline engine sends the whole of it from each: t times the
    bytes, so the same send time less its latency, times t."""
    layout = Layout(8, 8, 1, 1, 2048, 512)
    split, whole = _run(layout), _run(replace(layout, pp_scatter_gather=False))
    assert split.step.pp_microbatch_s > 0
    assert whole.step.pp_microbatch_s > split.step.pp_microbatch_s * 7  # the latency part does not grow
    assert whole.memory == split.memory and whole.compute == split.compute


def test_uneven_stages_pace_on_the_largest_stage() -> None:
    """Llama 3 405B: 126 layers on 16 stages run at the pace of 8-layer stages."""
    llama = Workload("llama-3-405b", 405e9, 126, 16384, 128, 128256, ffn_hidden_size=53248, kv_heads=8,
                     gated_mlp=True, tied_embeddings=False, linear_biases=False, norm="rmsnorm")
    assert cp.paced_layers(126.0, 16.0, 1.0) == 128.0
    run = _run(Layout(8, 16, 1, 1, 8192, 256, "none", flash_attention=True), llama, nodes=32)
    assert run.memory.activation_layers_held == 8 * 16
    assert me.paced_parameters(405e9, 128.0, 126.0) / 128 == pytest.approx(run.memory.weights_bytes / 2)
    bloom = Workload("bloom", 176e9, 70, 14336, 112, 250880)
    assert _run(Layout(4, 12, 1, 2, 2048, 2048), bloom, nodes=48).memory.activation_layers_held == 6 * 12


def test_fp32_gradients_hold_four_bytes() -> None:
    """Weights 2 + FP32 gradients 4 + optimizer 12 = 18 bytes per parameter (Megatron, BLOOM)."""
    layout = Layout(8, 8, 0, 1, 2048, 512, fp32_gradients=True)
    run = _run(layout)
    states = run.memory.weights_bytes + run.memory.gradients_bytes + run.memory.optimizer_bytes
    assert states == pytest.approx(18 * 175e9 / 64)
    assert run.step.dp_network_s == pytest.approx(2 * _run(replace(layout, fp32_gradients=False)).step.dp_network_s,
                                                  rel=0.01)


def test_tp_overlap_hides_its_share() -> None:
    """A share o of the tensor-parallel time leaves the critical path, capped by the compute."""
    layout = Layout(8, 8, 1, 1, 2048, 512)
    plain, half = _run(layout), _run(replace(layout, tp_overlap=0.5))
    assert half.step.tp_microbatch_s == pytest.approx(plain.step.tp_microbatch_s / 2)
    assert st.exposed_tp_s(10.0, 1.0, 4.0) == 6.0


def test_fp8_weight_gathers_move_the_linear_layers_at_one_byte() -> None:
    """`fp8_param_gather`: the weight all-gathers carry φ₈ of the parameters at 1 byte and the rest
    (embeddings, position table) at B; the gradients' reduce-scatter is unchanged. With ZeRO-1 one
    reduce-scatter and one all-gather of equal size, 2·T, become T + T·(φ₈ + 2(1 − φ₈)) ÷ 2."""
    from generator.costmodel import traffic as tr
    fp8_node = replace(NODE, gpu=replace(NODE.gpu, dense_fp8_flop_per_s=624e12))
    gpt = replace(GPT3, position_embeddings=2048)  # tied embeddings: e = 1
    layout = Layout(8, 2, 1, 1, 2048, 8, precision="fp8")  # 4 data-parallel ranks, 2 micro-batches a step
    plain = _run(layout, gpt, node=fp8_node)
    gathered = _run(replace(layout, fp8_param_gather=True), gpt, node=fp8_node)
    assert plain.step.dp_network_s > 0 and plain.step.dp_exposed_s > 0
    share = 1 - (51200 * 12288 + 2048 * 12288) / 175e9
    assert tr.fp8_parameter_share(1.0, 51200.0, 12288.0, 2048.0, 175e9) == pytest.approx(share)
    gather_bytes = share * 1 + (1 - share) * 2
    # the ring's latency (microseconds) is not scaled: equal to a part in 10⁴ over seconds of transfer
    assert gathered.step.dp_network_s == pytest.approx(plain.step.dp_network_s * (2 + gather_bytes) / 4, rel=1e-4)
    assert gathered.memory.total_bytes == plain.memory.total_bytes  # the weights' memory is not what changes
    assert gathered.step.step_s < plain.step.step_s
    assert tr.fp8_gather_bytes_per_parameter(1.0, 2.0) == 1.0 and tr.fp8_gather_bytes_per_parameter(0.0, 2.0) == 2.0
    # an MoE's routed experts are linear weights only: 1 byte; the rest's share is over Ψ − Ψ_E
    assert tr.fp8_dense_parameter_share(2.0, 1000.0, 10.0, 0.0, 100_000.0, 60_000.0) == pytest.approx(0.5)


@pytest.mark.parametrize(("change", "code"), [
    ({"precision": "bf16"}, "fp8-param-gather-without-fp8"),
    ({"adapter_rank": 16}, "fp8-param-gather-with-adapters"),
])
def test_fp8_weight_gathers_need_fp8_and_full_training(change: dict[str, object], code: str) -> None:
    fp8_node = replace(NODE, gpu=replace(NODE.gpu, dense_fp8_flop_per_s=624e12))
    layout = replace(Layout(8, 8, 1, 1, 2048, 512, precision="fp8", fp8_param_gather=True), **change)  # type: ignore[arg-type]
    result = estimate(GPT3, Cluster(fp8_node, 8), layout, ASSUMPTIONS)
    assert result.estimate is None and [p.code for p in result.problems] == [code]


def test_every_new_figure_is_explained() -> None:
    """The chain names the new formulas with their sources."""
    layout = Layout(8, 16, 1, 1, 2048, 512, virtual_pipeline=4, fp32_gradients=True, tp_overlap=0.3)
    chains = explain(GPT3, Cluster(NODE, 16), layout, ASSUMPTIONS)
    text = "\n".join(line for chain in chains.values() for line in explain_lines(chain))
    for needle in ("(m + (p − 1)/v)·T", "p·v·⌈L/(p·v)⌉", "4 bytes (FP32 gradients)", "T_tp − min(o·T_tp, T_mb)",
                   "2·B·s²·L·h", "min(m, p + (p − 1)/v)"):
        assert needle in text, needle


def test_context_parallel_splits_the_sequence() -> None:
    """c = 2: half the activations and FLOPs per GPU, ZeRO over N_d·c, the ring's K and V chunk
    2·b·(s/c)·h_kv·2 ÷ t bytes, exposed only beyond the attention compute."""
    from generator.costmodel import traffic as tr
    layout = Layout(4, 8, 1, 1, 8192, 512, "none")
    plain, split = _run(layout, nodes=8), _run(replace(layout, context_parallel=2), nodes=8)
    assert split.memory.activation_per_layer_bytes == pytest.approx(plain.memory.activation_per_layer_bytes / 2)
    assert split.compute.executed_flop_per_microbatch_per_gpu == pytest.approx(
        plain.compute.executed_flop_per_microbatch_per_gpu / 2)
    assert split.memory.optimizer_bytes == pytest.approx(plain.memory.optimizer_bytes)  # N_d halves, c doubles
    assert tr.kv_chunk_bytes(1.0, 4096.0, 12288.0, 4.0) == 2 * 4096 * 12288 * 2 / 4
    assert tr.ring_kv_s(96.0, 8.0, 4.0, 1.0) == 3 * 12 * 3
    assert st.exposed_ring_s(2.0, 3.0) == 0.0 and st.exposed_ring_s(5.0, 3.0) == 2.0
    problems = estimate(GPT3, Cluster(NODE, 8), replace(layout, sequence_length=8191, context_parallel=2),
                        ASSUMPTIONS).problems
    assert [p.code for p in problems] == ["context-parallel-sequence"]


@pytest.mark.parametrize(("recompute", "sp", "flash", "saved"), [
    ("none", False, True, lambda s, h, a, t: 2 * s * h),
    ("selective", True, True, lambda s, h, a, t: 2 * s * h / t),
    ("selective", False, False, lambda s, h, a, t: 2 * s * h),
    ("none", True, False, lambda s, h, a, t: 2 * s * h / t + 3 * a * s * s / t),
    ("full", False, True, lambda s, h, a, t: 0.0),
])
def test_a_workload_without_dropout_stores_no_masks(recompute: str, sp: bool, flash: bool, saved) -> None:  # type: ignore[no-untyped-def]
    """Korthikanti's Table 2 counts two dropout masks of sbh bytes per layer (split t ways under
    sequence parallelism) and, with the s×s scores stored, the attention's mask and dropped-out
    copy (3as²b ÷ t); a workload trained without dropout (MPT) stores none, full recomputation
    stores no mask either way."""
    s, h, a, t = 2048, 12288, 96, 8
    layout = Layout(t, 8, 1, 1, s, 512, recompute, sp, flash_attention=flash)  # type: ignore[arg-type]
    with_masks = _run(layout).memory.activation_per_layer_bytes
    without = _run(layout, replace(GPT3, dropout=False)).memory.activation_per_layer_bytes
    assert with_masks - without == pytest.approx(saved(s, h, a, t), rel=1e-12, abs=1e-6)


@pytest.mark.parametrize(("recompute", "sp", "saved"), [
    ("none", False, lambda s, h, f, t: 2 * s * h + s * (h + f) / t),
    ("selective", True, lambda s, h, f, t: 2 * s * h / t + s * (h + f) / t),
    ("full", True, lambda s, h, f, t: 0.0),
])
def test_fp8_keeps_the_linear_layers_inputs_in_one_byte(recompute: str, sp: bool, saved) -> None:  # type: ignore[no-untyped-def]
    """Transformer Engine under FP8 saves each linear layer's input as its FP8 copy: of Table 2's
    16-bit terms the QKV and MLP-input GEMMs' inputs (2sbh, split only under sequence parallelism),
    the projection's input and the down projection's (sb(h + f) of 2sb(h + f), split by t) halve;
    full recomputation keeps only the layer's 16-bit input. Also with a workload without dropout,
    whose masks go first, and under context parallelism, which shares the result c ways."""
    s, h, t = 2048, 12288, 8
    f = 4 * h
    node = replace(NODE, gpu=replace(NODE.gpu, dense_fp8_flop_per_s=624e12))
    layout = Layout(t, 8, 1, 1, s, 512, recompute, sp)  # type: ignore[arg-type]
    for workload in (GPT3, replace(GPT3, dropout=False)):
        bf16 = _run(layout, workload, node=node).memory.activation_per_layer_bytes
        fp8 = _run(replace(layout, precision="fp8"), workload, node=node).memory.activation_per_layer_bytes
        assert bf16 - fp8 == pytest.approx(saved(s, h, f, t), rel=1e-12, abs=1e-6)
    fp8_layout = replace(layout, precision="fp8")
    assert _run(replace(fp8_layout, context_parallel=2), nodes=16, node=node).memory.activation_per_layer_bytes == pytest.approx(
        _run(fp8_layout, node=node).memory.activation_per_layer_bytes / 2, rel=1e-12)
    chains = explain(GPT3, Cluster(node, 8), fp8_layout, ASSUMPTIONS)
    lines = "\n".join(line for chain in chains.values() for line in explain_lines(chain))
    if recompute != "full":
        assert "activation_per_layer_16bit_bytes" in lines and "linear-layer inputs kept in 8 bits" in lines


@pytest.mark.parametrize(("norm", "biases", "gated", "tensors"), [
    ("layernorm", True, False, 12), ("rmsnorm", False, True, 7), ("layernorm", False, False, 8),
])
def test_synchronous_per_tensor_zero3_gathers(norm: str, biases: bool, gated: bool, tensors: int) -> None:
    """DeepSpeed's ZeRO-3 through v0.5.4 gathers and reduce-scatters each parameter tensor on its
    own (2·k_n + (2 + n)·k_b a layer: 12 for a GPT block, 7 for a Llama block), so every phase pays
    the ring's latency (L/p)·T times instead of L/p; and each all-gather follows a device
    synchronize, so the gathers are exposed whole while the reduce-scatters still overlap."""
    workload = replace(GPT3, norm=norm, linear_biases=biases, gated_mlp=gated)  # type: ignore[arg-type]
    layout = Layout(1, 1, 3, 1, 2048, 512, "full", False, flash_attention=False)
    per_layer = _run(layout, workload, nodes=64)
    sync = replace(layout, zero_gather="tensor-sync")
    per_tensor = _run(sync, workload, nodes=64)
    chains = explain(workload, Cluster(NODE, 64), sync, ASSUMPTIONS)
    terms = {t.key: t for chain in chains.values() for t in walk(chain)}
    assert terms["workload.parameter_tensors_per_layer"].value == tensors
    assert terms["dp_collectives_per_phase"].value == 96 * tensors
    # the latency term grows T-fold; the bandwidth term stays
    assert per_tensor.step.dp_intra_node_s > per_layer.step.dp_intra_node_s
    gathers = terms["dp_synchronous_gather_s"].value
    assert gathers == pytest.approx(2 * (terms["dp_weight_phase_intra_s"].value + terms["dp_weight_phase_network_s"].value))
    dp = per_tensor.step.dp_intra_node_s + per_tensor.step.dp_network_s
    rest = dp - gathers
    window = per_tensor.compute.forward_s + per_tensor.compute.backward_s
    assert per_tensor.step.dp_exposed_s == pytest.approx(gathers + rest - min(ASSUMPTIONS.dp_overlap_fraction * rest, window))
    refused = estimate(GPT3, Cluster(NODE, 64), replace(sync, zero_stage=1), ASSUMPTIONS)
    assert [p.code for p in refused.problems] == ["zero-gather-without-zero-3"]
