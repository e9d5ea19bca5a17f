"""Mixture-of-experts workloads, latent attention and explicit head widths (costmodel/experts.py):
the parameter counts their published shapes give, the reductions to the dense model, the expert
sharding, the all-to-all and its chain, and the layouts the model refuses.

Shapes (research/moe.md, each with its source): DeepSeek-V3 from its technical report §4.2 and
DeepSeek's inference/configs/config_671B.json; DeepSeek-V2-Lite from the V2 report appendix B.1
and config_16B.json; Mixtral 8x7B and Qwen3-30B-A3B from NVIDIA NeMo's presets (secondary: the
Hugging Face configs were not readable here). The published totals are the reports' rounded
figures, so the counts are held within the rounding of their last digit."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from generator.costmodel import (
    Assumptions,
    Cluster,
    GpuSpec,
    Layout,
    Mla,
    Moe,
    Node,
    Workload,
    check,
    estimate,
    explain,
    explain_lines,
)
from generator.costmodel import shape as sh
from generator.costmodel.grid import illustrative_assumptions

ROUTED = dict(gated_mlp=True, tied_embeddings=False, linear_biases=False, norm="rmsnorm")
V3 = Workload("DeepSeek-V3", 671e9, 61, 7168, 128, 129280, ffn_hidden_size=18432,
              mla=Mla(1536, 512, 128, 64, 128), moe=Moe(256, 8, 2048, shared_experts=1, dense_layers=3,
                                                          nodes_per_token=4), **ROUTED)
LITE = Workload("DeepSeek-V2-Lite", 15.7e9, 27, 2048, 16, 102400, ffn_hidden_size=10944,
                mla=Mla(0, 512, 128, 64, 128), moe=Moe(64, 6, 1408, shared_experts=2, dense_layers=1), **ROUTED)
MIXTRAL = Workload("Mixtral 8x7B", 46.7e9, 32, 4096, 32, 32000, ffn_hidden_size=14336, kv_heads=8,
                   moe=Moe(8, 2, 14336), **ROUTED)
QWEN = Workload("Qwen3-30B-A3B", 30.5e9, 48, 2048, 32, 151936, ffn_hidden_size=6144, kv_heads=4, head_dim=128,
                moe=Moe(128, 8, 768), **ROUTED)


@pytest.mark.parametrize(("workload", "total", "active", "digits"), [
    (V3, 671e9, 37e9, 1e9),            # "671B total parameters, of which 37B are activated" (report §4.2)
    (LITE, 15.7e9, 2.4e9, 0.1e9),      # "15.7B total parameters, of which 2.4B are activated" (appendix B.1)
    (MIXTRAL, 46.7e9, 12.9e9, 0.1e9),  # the commonly quoted 46.7B / 12.9B (12.88B with the input embedding)
    (QWEN, 30.5e9, 3e9, 0.1e9),        # "30B-A3B": 30.5B, about 3B activated
])
def test_published_counts_follow_from_the_shapes(workload: Workload, total: float, active: float,
                                                 digits: float) -> None:
    """Ψ counts every expert; the active count, the weights a token is multiplied by (no input
    embedding), counts the k routed experts, the shared ones and the router. Within one unit of
    the published figure's last digit, and 2 units for the active counts, whose convention (with
    or without the input embedding) the sources do not state."""
    assert abs(sh.parameters_from_shape(workload) - total) <= digits
    assert abs(sh.active_parameters_from_shape(workload) - active) <= 2 * digits


def test_an_explicit_head_width_of_h_over_a_changes_nothing() -> None:
    """A dense GQA block given its head width explicitly goes through experts.py's shapes and must
    land on the dense formulas' figures: the same r, Ψ and step."""
    dense = Workload("gqa", 0.0, 32, 4096, 32, 128256, ffn_hidden_size=14336, kv_heads=8, **ROUTED)
    dense = replace(dense, parameter_count=sh.parameters_from_shape(dense))
    explicit = replace(dense, head_dim=128)
    assert sh.parameters_from_shape(explicit) == pytest.approx(sh.parameters_from_shape(dense), rel=1e-15)
    assert sh.width_ratio_of(explicit) == pytest.approx(sh.width_ratio_of(dense), rel=1e-15)
    a, b = (estimate(w, CLUSTER, LAYOUT, ASSUMPTIONS).estimate for w in (dense, explicit))
    assert a is not None and b is not None
    assert b.step.step_s == pytest.approx(a.step.step_s, rel=1e-12)
    assert b.memory.total_bytes == pytest.approx(a.memory.total_bytes, rel=1e-12)


def test_one_expert_always_routed_is_the_dense_block_plus_its_router() -> None:
    """E = k = 1 with the dense width: the same FLOPs but for the router's h×1 weights."""
    dense = Workload("gqa", 8.0e9, 32, 4096, 32, 128256, ffn_hidden_size=14336, kv_heads=8, **ROUTED)
    single = replace(dense, moe=Moe(1, 1, 14336))
    a, b = (estimate(w, CLUSTER, LAYOUT, ASSUMPTIONS).estimate for w in (dense, single))
    assert a is not None and b is not None
    router = 32 * 4096 / (12 * 4096**2 * 32)  # L·h router weights against 12h²·L
    assert b.compute.model_flop_per_step / a.compute.model_flop_per_step - 1 == pytest.approx(
        router / (sh.width_ratio_of(dense) + 4096 / (6 * 4096) + 128256 / (12 * 32 * 4096)), rel=1e-6)


GPU = GpuSpec("gpu-80g", 80e9, 3.35e12, 0.99e15, 1.98e15, 0.35)
NODE = Node("node", GPU, 8, 200e9, 8, 50e9)
CLUSTER = Cluster(NODE, 8)
ASSUMPTIONS = illustrative_assumptions()
LAYOUT = Layout(1, 4, 1, 1, 4096, 256, "selective")


def _moe(workload: Workload = QWEN, cluster: Cluster = CLUSTER, **layout: object):
    lay = replace(LAYOUT, **({"expert_parallel": 8} | layout))  # type: ignore[arg-type]
    result = estimate(workload, cluster, lay, ASSUMPTIONS)
    assert result.estimate is not None, result.problems
    return result.estimate


def test_experts_spread_over_gpus_shrink_the_model_states() -> None:
    """Spread over e GPUs, the routed experts take 1/e of the memory; ZeRO-1 partitions their
    optimizer states over t·N_d·c ÷ e GPUs, the rest over N_d·c (hand-computed below)."""
    one, eight = _moe(MIXTRAL, expert_parallel=1), _moe(MIXTRAL, expert_parallel=8)
    assert eight.memory.weights_bytes < one.memory.weights_bytes / 2
    psi_e = 32 * 8 * 3 * 4096 * 14336  # (L − D)·E·n·h·f_e
    dense, experts = (MIXTRAL.parameter_count - psi_e) / 4, psi_e / (8 * 4)  # over t·p, over e·p
    d = 64 // 4  # N_d with t = 1, p = 4
    assert eight.memory.optimizer_bytes == pytest.approx(dense * 12 / d + experts * 12 / (d / 8), rel=1e-12)
    assert eight.memory.weights_bytes == pytest.approx((dense + experts) * 2, rel=1e-12)


def test_the_all_to_all_crosses_the_network_only_beyond_a_node() -> None:
    inside, across = _moe(expert_parallel=8), _moe(expert_parallel=16)
    assert inside.step.all_to_all_s is not None and not inside.step.ep_on_network
    assert across.step.all_to_all_s is not None and across.step.ep_on_network
    assert across.step.all_to_all_s > inside.step.all_to_all_s
    dense = estimate(QWEN, CLUSTER, LAYOUT, ASSUMPTIONS).estimate
    assert dense is not None and dense.step.all_to_all_s is None and dense.step.all_to_all_share is None


def test_faster_nics_and_overlap_shrink_the_exposed_all_to_all() -> None:
    slow = _moe(expert_parallel=16)
    fast = _moe(cluster=replace(CLUSTER, node=replace(NODE, nic_port_per_direction_bytes_per_s=100e9)),
                expert_parallel=16)
    hidden = _moe(expert_parallel=16, ep_overlap=1.0)
    assert fast.step.all_to_all_s < slow.step.all_to_all_s
    assert hidden.step.all_to_all_s == 0.0  # the micro-batch's compute outlasts its all-to-all here
    assert hidden.step.step_s < slow.step.step_s


def test_node_limited_routing_caps_the_network_copies() -> None:
    """DeepSeek-V3's M = 4 nodes a token: over 8 nodes of experts, at most 4·7/8 = 3.5 copies of
    a token cross the network, not k·(e − e_n)/e = 8·56/64 = 7."""
    cluster = Cluster(NODE, 16)
    limited = explain(V3, cluster, Layout(1, 2, 1, 1, 4096, 64, "selective", expert_parallel=64), ASSUMPTIONS)
    free = explain(replace(V3, moe=replace(V3.moe, nodes_per_token=0)), cluster,
                   Layout(1, 2, 1, 1, 4096, 64, "selective", expert_parallel=64), ASSUMPTIONS)
    lines = "\n".join(explain_lines(limited["step.all_to_all_share"]))
    assert "a2a_network_copies = " in lines and "3.5" in lines.split("a2a_network_copies = ", 1)[1].split("\n")[0]
    free_lines = "\n".join(explain_lines(free["step.all_to_all_share"]))
    assert free_lines.split("a2a_network_copies = ", 1)[1].split("\n")[0].endswith("] = 7")


def test_imbalance_slows_the_experts_and_their_traffic() -> None:
    even, skewed = _moe(expert_parallel=16), _moe(expert_parallel=16, expert_imbalance=1.25)
    assert skewed.step.compute_s > even.step.compute_s
    assert skewed.step.all_to_all_s > even.step.all_to_all_s


def test_the_chain_shows_the_all_to_all_bytes_and_time_per_layer() -> None:
    chains = explain(QWEN, CLUSTER, replace(LAYOUT, expert_parallel=16), ASSUMPTIONS)
    lines = "\n".join(explain_lines(chains["step.all_to_all_share"]))
    for key in ("a2a_network_bytes", "a2a_intra_node_bytes", "all_to_all_s", "all_to_alls_per_layer",
                "step.ep_microbatch_s", "step.all_to_all_s"):
        assert f"{key} = " in lines


def test_latent_attention_scores_wider_than_h() -> None:
    """DeepSeek-V3's heads score over 192 and read 128 values: h_att = 128·320/2 = 20480 against h =
    7168, so the attention core's FLOPs are 2.86 times what heads of h ÷ a would cost."""
    chains = explain(V3, Cluster(NODE, 16), Layout(1, 2, 1, 1, 4096, 64, "selective", expert_parallel=64), ASSUMPTIONS)
    lines = "\n".join(explain_lines(chains["compute.model_flop_per_step"]))
    assert "workload.score_width = a·(d_n + d_r + d_v) ÷ 2" in lines
    assert lines.split("workload.score_width = ", 1)[1].split("\n")[0].endswith("= 20480")


@pytest.mark.parametrize(("workload", "layout", "code"), [
    (MIXTRAL, dict(expert_parallel=3), "expert-parallel-experts"),
    (QWEN, dict(expert_parallel=128), "expert-parallel-stage"),
    (replace(QWEN, moe=Moe(96, 8, 768)), dict(expert_parallel=12, pipeline_parallel=1, global_batch_size=48),
     "expert-parallel-placement"),  # on 6 nodes: 12 divides the 96 experts and the 48 GPUs, not a node's 8
    (replace(MIXTRAL, moe=None), dict(expert_parallel=2), "expert-parallel-without-experts"),
    (MIXTRAL, dict(expert_parallel=8, zero_stage=3), "not-modelled"),
    (QWEN, dict(context_parallel=2), "not-modelled"),  # heads wider than h ÷ a: no ring of them yet
    (LITE, dict(context_parallel=2), "not-modelled"),  # latent attention
    (MIXTRAL, dict(expert_parallel=8, tensor_parallel=2, expert_tensor_parallel=4), "expert-tensor-parallel"),
    (MIXTRAL, dict(expert_parallel=1, tensor_parallel=2, expert_tensor_parallel=2), "expert-tensor-parallel-unspread"),
    (replace(MIXTRAL, moe=None), dict(tensor_parallel=2, expert_tensor_parallel=2), "expert-tensor-parallel-unspread"),
    (MIXTRAL, dict(expert_parallel=8, tensor_parallel=4, expert_tensor_parallel=4, pipeline_parallel=8),
     "expert-parallel-stage"),  # e·t_e = 32 GPUs do not divide a stage's 64 ÷ 8 = 8
    (MIXTRAL, dict(adapter_rank=8), "not-modelled"),
    (MIXTRAL, dict(expert_imbalance=0.9), "expert-imbalance"),
    (MIXTRAL, dict(expert_imbalance=math.inf), "expert-imbalance"),
    (MIXTRAL, dict(ep_overlap=1.5), "fraction-out-of-range"),
    (replace(MIXTRAL, moe=Moe(8, 9, 14336)), {}, "experts-per-token"),
    (replace(MIXTRAL, moe=Moe(8, 2, 14336, dense_layers=32)), {}, "dense-layers"),
    (replace(MIXTRAL, linear_biases=True), {}, "not-modelled"),
])
def test_refused_layouts(workload: Workload, layout: dict[str, object], code: str) -> None:
    cluster = Cluster(NODE, 6) if code == "expert-parallel-placement" else CLUSTER
    problems = check(workload, cluster, replace(LAYOUT, **layout), ASSUMPTIONS)  # type: ignore[arg-type]
    assert code in {p.code for p in problems}


def test_zero_3_stays_available_when_experts_are_not_spread() -> None:
    """FSDP fine-tuning of an MoE model without expert parallelism: every weight is gathered like a
    dense model's."""
    assert _moe(expert_parallel=1, zero_stage=3).memory.total_bytes > 0


def test_assumptions_record_is_unchanged() -> None:
    """The MoE knobs are the layout's; the assumptions keep their fields (the knowledge base's
    moe-* assumptions supply the layout's defaults)."""
    assert "expert_imbalance" not in Assumptions.__dataclass_fields__


def test_the_search_tries_only_expert_parallel_sizes_that_divide_experts_and_stage() -> None:
    """A hostile expert count (a prime near a million) leaves one size to try, e = 1, and the loop
    runs over gcd(E, a stage's GPUs), not over E."""
    from generator.planner.search import StepShape, placements
    prime = replace(QWEN, moe=Moe(999_983, 8, 768))
    assert {e for _t, _p, e, _b, _f in placements(prime, CLUSTER, StepShape(4096, 256))} == {1}
    sizes = {e for _t, _p, e, _b, _f in placements(QWEN, CLUSTER, StepShape(4096, 256))}
    assert sizes == {1, 2, 4, 8, 16, 32, 64}  # 128 experts on 64 GPUs: every size a node divides or spans


def test_experts_split_over_the_tensor_parallel_group() -> None:
    """t_e = t (Megatron-Core's default): each expert is split over the t GPUs as well, so the
    routed experts take 1/(e·t) of a stage's share and their optimizer states are partitioned over
    t·N_d ÷ (e·t) GPUs; a GPU's expert GEMMs are t times taller and t times narrower (the same
    FLOPs); the expert-parallel GPUs sit t ranks apart, so e·t > g sends the all-to-all over the
    network; and the tensor-parallel group gathers λ·k copies of its tokens around the experts."""
    cluster = Cluster(NODE, 16)  # 128 GPUs, 32 a stage
    whole = _moe(MIXTRAL, cluster, tensor_parallel=4, expert_parallel=8, sequence_parallel=True)
    split = _moe(MIXTRAL, cluster, tensor_parallel=4, expert_parallel=8, sequence_parallel=True,
                 expert_tensor_parallel=4)
    psi_e = 32 * 8 * 3 * 4096 * 14336
    dense = (MIXTRAL.parameter_count - psi_e) / (4 * 4)  # over t·p
    d = 128 // (4 * 4)  # N_d
    assert split.memory.weights_bytes == pytest.approx((dense + psi_e / (8 * 4 * 4)) * 2, rel=1e-12)
    assert split.memory.optimizer_bytes == pytest.approx(dense * 12 / d + psi_e / (8 * 4 * 4) * 12 / (4 * d / 32),
                                                         rel=1e-12)
    assert split.compute.executed_flop_per_microbatch_per_gpu == whole.compute.executed_flop_per_microbatch_per_gpu
    assert not whole.step.ep_on_network and split.step.ep_on_network  # 8 × 4 = 32 GPUs span 4 nodes
    assert split.step.tp_microbatch_s > whole.step.tp_microbatch_s


def test_an_expert_layer_has_no_tensor_parallel_mlp_collectives_with_whole_experts() -> None:
    """With whole experts (t_e = 1) an expert layer's MLP takes its tokens as the sequence-parallel
    shard holds them: only the attention's half of a layer's collectives remains, so the time is
    half a dense model's (no dense layers here), and with t_e = t the MLP's half comes back
    carrying λ·k = 2 copies of the tokens: three halves, less the α terms counted once per collective."""
    lay = dict(tensor_parallel=4, sequence_parallel=True, expert_parallel=8)
    whole = _moe(MIXTRAL, Cluster(NODE, 16), **lay)
    dense = estimate(MIXTRAL, Cluster(NODE, 16), replace(LAYOUT, tensor_parallel=4, sequence_parallel=True),
                     ASSUMPTIONS).estimate
    assert dense is not None
    assert whole.step.tp_microbatch_s == pytest.approx(dense.step.tp_microbatch_s / 2, rel=1e-12)
    split = _moe(MIXTRAL, Cluster(NODE, 16), expert_tensor_parallel=4, **lay)
    assert whole.step.tp_microbatch_s * 2.9 < split.step.tp_microbatch_s <= whole.step.tp_microbatch_s * 3


def test_context_parallelism_with_experts_splits_the_sequence() -> None:
    """Experts with context parallelism: a GPU holds s ÷ c of each sequence, so its activations and
    its expert tokens shrink by c, and the ring of key/value chunks runs as for a dense model."""
    one = _moe(MIXTRAL, Cluster(NODE, 8), expert_parallel=8)
    two = _moe(MIXTRAL, Cluster(NODE, 8), expert_parallel=8, context_parallel=2)
    assert two.memory.activation_per_layer_bytes == pytest.approx(one.memory.activation_per_layer_bytes / 2, rel=1e-12)
    assert two.compute.attention_s is not None and one.compute.attention_s is None  # what the ring hides behind
    assert two.step.all_to_all_s is not None and one.step.all_to_all_s is not None
