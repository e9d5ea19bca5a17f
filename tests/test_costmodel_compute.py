"""The compute time's physics: matrix multiplications at a GEMM efficiency set by the roofline (the
GEMM's FLOPs per operand byte against the GPU's peak ÷ memory bandwidth), plus memory-bound
elementwise work at the GPU's memory bandwidth."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.costmodel import Assumptions, Cluster, GpuSpec, Layout, Node, Workload, estimate, explain
from generator.costmodel import compute as cp
from generator.costmodel.chain import walk
from generator.costmodel.result import Estimate

A100_LIKE = GpuSpec("a100-like", 80e9, 2.0e12, 1e15)
H100_LIKE = replace(A100_LIKE, name="h100-like", memory_bandwidth_bytes_per_s=1.0e12)
ASSUMPTIONS = Assumptions(0.6, 2.0, 16.0, 0.8, 0.85, 3e-6, 8e-6, 0.7, 0.1, 4e-6)
LAYOUT = Layout(1, 1, 1, micro_batch_size=1, sequence_length=2048, global_batch_size=8)


def _estimate(workload: Workload, gpu: GpuSpec = A100_LIKE, layout: Layout = LAYOUT,
              assumptions: Assumptions = ASSUMPTIONS) -> Estimate:
    result = estimate(workload, Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1), layout, assumptions)
    assert result.estimate is not None, result.problems
    return result.estimate


def _share_of_peak(e: Estimate) -> float:
    """The share of the peak the GPU computes at: executed FLOPs ÷ (compute time × peak)."""
    return e.compute.executed_flop_per_microbatch_per_gpu / (e.compute.microbatch_s * e.compute.peak_flop_per_s)


def _roofline(tokens: float, h: float, ffn: float, peak: float, bandwidth: float, eta_max: float = 0.6,
              rho: float = 2.0, element_bytes: float = 2.0) -> float:
    """η for the up-projection GEMM of `tokens` × h × ffn, restated here from the docstring's formula."""
    intensity = 2 * tokens * h * ffn / (element_bytes * (tokens * h + h * ffn + tokens * ffn))
    return eta_max * intensity / (intensity + rho * peak / bandwidth)


def test_gemm_efficiency_saturates_at_its_maximum() -> None:
    """η = η_max·I ÷ (I + ρ·I_ridge): half of η_max at I = ρ·I_ridge, rising towards η_max."""
    assert cp.gemm_efficiency(0.6, 1000.0, 2.0, 500.0) == pytest.approx(0.3)
    assert cp.gemm_efficiency(0.6, 1e12, 2.0, 500.0) == pytest.approx(0.6, rel=1e-6)
    assert cp.gemm_efficiency(0.6, 512.0, 0.0, 500.0) == 0.6


def test_gemm_intensity_is_flops_per_operand_byte() -> None:
    """A square n × n × n GEMM in 16 bits does 2n³ FLOPs on 3n² elements of 2 bytes: n ÷ 3 FLOPs a byte;
    in FP8 (1 byte an element) twice that."""
    assert cp.gemm_intensity(3000.0, 3000.0, 3000.0, 2.0) == pytest.approx(1000.0)
    assert cp.gemm_intensity(3000.0, 3000.0, 3000.0, 1.0) == pytest.approx(2000.0)
    assert cp.ridge_intensity(1e15, 2e12) == 500.0


def test_wider_gemm_computes_at_a_higher_share_of_peak() -> None:
    """Without memory-bound work the share of peak is η_gemm itself: higher for a wider layer, lower
    when tensor parallelism splits the FFN width or the micro-batch has fewer tokens."""
    matmul_only = replace(ASSUMPTIONS, memory_bound_bytes=0.0)
    narrow = _estimate(Workload("narrow", 1e9, 8, 1024, 8, 1000), assumptions=matmul_only)
    wide = _estimate(Workload("wide", 1e9, 8, 8192, 64, 1000), assumptions=matmul_only)
    assert _share_of_peak(narrow) == pytest.approx(_roofline(2048, 1024, 4096, 1e15, 2e12), rel=1e-12)
    assert _share_of_peak(wide) == pytest.approx(_roofline(2048, 8192, 32768, 1e15, 2e12), rel=1e-12)
    assert _share_of_peak(narrow) < _share_of_peak(wide) < 0.6
    split = _estimate(Workload("wide", 1e9, 8, 8192, 64, 1000), layout=replace(LAYOUT, tensor_parallel=8),
                      assumptions=matmul_only)
    assert _share_of_peak(split) == pytest.approx(_roofline(2048, 8192, 4096, 1e15, 2e12), rel=1e-12)
    assert _share_of_peak(split) < _share_of_peak(wide)
    short = _estimate(Workload("wide", 1e9, 8, 8192, 64, 1000), layout=replace(LAYOUT, sequence_length=256),
                      assumptions=matmul_only)
    assert _share_of_peak(short) == pytest.approx(_roofline(256, 8192, 32768, 1e15, 2e12), rel=1e-12)
    assert _share_of_peak(short) < _share_of_peak(wide)


def test_less_memory_bandwidth_is_slower_at_the_same_peak() -> None:
    """An H100-like GPU (same peak, less HBM bandwidth, more FLOPs per byte) computes at a lower share
    of peak: its GEMMs sit nearer the ridge point, and its memory-bound work takes longer."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    a100, h100 = _estimate(workload), _estimate(workload, H100_LIKE)
    assert h100.compute.microbatch_s > a100.compute.microbatch_s and h100.step.step_s > a100.step.step_s
    assert _share_of_peak(h100) < _share_of_peak(a100) < _roofline(2048, 2048, 8192, 1e15, 2e12)


def test_memory_bound_time_is_bytes_over_bandwidth() -> None:
    """With ρ = 0 (GEMMs at η_max whatever the ridge point) only the memory-bound part depends on
    the bandwidth: c·b·s·h·(L ÷ p)·3 bytes at B_hbm."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    flat = replace(ASSUMPTIONS, gemm_half_intensity=0.0)
    a100, h100 = _estimate(workload, assumptions=flat), _estimate(workload, H100_LIKE, assumptions=flat)
    bound = 16.0 * 1 * 2048 * 2048 * 8 * 3
    assert h100.compute.microbatch_s - a100.compute.microbatch_s == pytest.approx(bound / 1e12 - bound / 2e12, rel=1e-9)
    assert h100.compute.forward_s - a100.compute.forward_s == pytest.approx((bound / 1e12 - bound / 2e12) / 3, rel=1e-9)


def test_sequence_parallelism_splits_the_memory_bound_work() -> None:
    """Without sequence parallelism tensor parallelism leaves the elementwise work whole on each rank."""
    workload = Workload("w", 1e9, 8, 4096, 32, 1000)
    tp = replace(LAYOUT, tensor_parallel=4)
    whole, split = _estimate(workload, layout=tp), _estimate(workload, layout=replace(tp, sequence_parallel=True))
    bound = 16.0 * 1 * 2048 * 4096 * 8 * 3 / 2e12
    assert whole.compute.microbatch_s - split.compute.microbatch_s == pytest.approx(bound * (1 - 1 / 4), rel=1e-9)


def test_full_recomputation_adds_a_memory_bound_pass() -> None:
    """Full recomputation repeats the forward: 4 passes of the memory-bound work instead of 3."""
    assert [cp.PASSES[mode]() for mode in ("none", "selective", "full")] == [3.0, 3.0, 4.0]


def test_the_chain_shows_both_costs() -> None:
    """`explain` shows the GEMM efficiency, the memory-bound bytes and the bandwidth behind the compute time."""
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    chains = explain(workload, Cluster(Node("n", A100_LIKE, 8, 450e9, 8, 50e9), 1), LAYOUT, ASSUMPTIONS)
    root = chains["compute.microbatch_s"]
    assert root.formula is not None and root.formula.text == "T_gemm + T_mem"
    keys = {figure.key for _symbol, child in root.inputs for _s, figure in child.inputs}
    assert {"compute.executed_flop_per_microbatch_per_gpu", "gemm_efficiency", "microbatch_memory_bound_bytes",
            "gpu.memory_bandwidth_bytes_per_s"} <= keys


def test_fp8_runs_the_attention_core_at_the_bf16_peak() -> None:
    """FP8 covers the linear layers' GEMMs; the attention core's 12·b·s²·h per layer (14 with
    FlashAttention's recomputed scores) runs at the BF16 peak, so FP8 gains less at long sequences."""
    gpu = replace(A100_LIKE, dense_fp8_flop_per_s=2e15)
    flat = replace(ASSUMPTIONS, gemm_half_intensity=0.0, memory_bound_bytes=0.0)
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    for flash, coefficient in ((False, 12), (True, 14)):
        layout = replace(LAYOUT, sequence_length=8192, precision="fp8", flash_attention=flash)
        e = _estimate(workload, gpu, layout, flat)
        core = coefficient * 8192**2 * 8 * 2048
        # without FlashAttention the scores' softmax and dropout: 9 + 11 B a score, 16·8192² a layer
        scores = 0.0 if flash else 16 * 8192**2 * 8 / 2.0e12
        executed = e.compute.executed_flop_per_microbatch_per_gpu
        logits = 6 * 8192 * 2048 * 1000  # the output layer, 6·b·s·h·V, in 16 bits too
        # FP8's casts (4 B a value): the projection's and the down projection's inputs (h + 4h)
        # forward, the four output gradients backward (3h + 4h + h + h), at the memory bandwidth
        casts_forward = 4 * 8192 * 8 * (2048 + 8192) / 2.0e12
        casts = casts_forward + 4 * 8192 * 8 * (3 * 2048 + 8192 + 2 * 2048) / 2.0e12
        assert e.compute.microbatch_s == pytest.approx((executed - core - logits) / (2e15 * 0.6)
                                                       + (core + logits) / (1e15 * 0.6) + 20 * scores + casts,
                                                       rel=1e-12)
        forward = e.compute.model_flop_per_microbatch_per_gpu / 3
        forward_16 = 4 * 8192**2 * 8 * 2048 + 2 * 8192 * 2048 * 1000
        assert e.compute.forward_s == pytest.approx((forward - forward_16) / (2e15 * 0.6) + forward_16 / (1e15 * 0.6)
                                                    + 9 * scores + casts_forward, rel=1e-12)
    speedup = [_estimate(workload, gpu, replace(LAYOUT, sequence_length=s), flat).compute.microbatch_s
               / _estimate(workload, gpu, replace(LAYOUT, sequence_length=s, precision="fp8"), flat).compute.microbatch_s
               for s in (512, 32768)]
    assert 1.0 < speedup[1] < speedup[0] < 2.0


@pytest.mark.parametrize(("recompute", "sp", "forward_passes"), [
    ("none", True, 1), ("selective", True, 1), ("full", True, 2), ("none", False, 1), ("full", False, 2)])
def test_fp8_casts_every_gemm_operand_no_fused_norm_casts(recompute: str, sp: bool, forward_passes: int) -> None:
    """Under FP8 each GEMM operand that arrives in 16 bits is cast in a kernel of its own, 2 B read
    and 2 B written (the FP8 copy and its transpose), at the memory bandwidth: forward, the
    attention projection's input (h) and the down projection's (f), split by t; backward, the
    output gradients of QKV (h + 2h_kv) and of the MLP input (2f under SwiGLU), split by t, and of
    the projection and the down projection (h each), split only under sequence parallelism. The
    QKV and MLP-input GEMMs take their FP8 input from the fused norm: nothing extra. Full
    recomputation casts the forward's again. Enumerated here GEMM by GEMM, against the model's
    12hr − h − f; BF16 casts nothing."""
    h, h_kv, f, t, b, s, layers = 4096, 1024, 14336, 4, 2, 4096, 8
    llama = Workload("llama-like", 8e9, layers, h, 32, 128_256, ffn_hidden_size=f, kv_heads=8, gated_mlp=True,
                     tied_embeddings=False, linear_biases=False, norm="rmsnorm")
    gpu = replace(A100_LIKE, dense_fp8_flop_per_s=2e15)
    cluster = Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1)
    layout = Layout(t, 1, 1, micro_batch_size=b, sequence_length=s, global_batch_size=8, recompute=recompute,  # type: ignore[arg-type]
                    sequence_parallel=sp, precision="fp8")
    tokens = 4 * b * s * layers  # 4 B a value, every token of every layer
    forward = tokens * (h + f) / t
    backward = tokens * ((h + 2 * h_kv) + 2 * f) / t + tokens * (h + h) / (t if sp else 1)
    terms = {term.key: term for term in walk(explain(llama, cluster, layout, ASSUMPTIONS)["compute.microbatch_s"])}
    assert terms["fp8_forward_cast_bytes"].value == pytest.approx(forward, rel=1e-12)
    assert terms["fp8_backward_cast_bytes"].value == pytest.approx(backward, rel=1e-12)
    assert terms["fp8_microbatch_cast_bytes"].value == pytest.approx(forward_passes * forward + backward, rel=1e-12)
    bf16 = explain(llama, cluster, replace(layout, precision="bf16"), ASSUMPTIONS)["compute.microbatch_s"]
    assert not any("cast" in term.key for term in walk(bf16))


def test_fp8_leaves_the_output_layer_in_16_bits() -> None:
    """Under FP8 the output layer (6·b·s·h·V a micro-batch, 2·b·s·h·V forward, 4·b·s·h·V under LoRA,
    spread over the model replica's GPUs) runs at the BF16 peak: a larger vocabulary adds its FLOPs
    at that rate, not the FP8 one; in BF16 nothing changes."""
    gpu = replace(A100_LIKE, dense_fp8_flop_per_s=2e15)
    flat = replace(ASSUMPTIONS, gemm_half_intensity=0.0, memory_bound_bytes=0.0)
    small, large = Workload("w", 1e9, 8, 2048, 16, 1000), Workload("w", 1e9, 8, 2048, 16, 101_000)
    for layout, k in ((replace(LAYOUT, precision="fp8", tensor_parallel=2), 6), (replace(LAYOUT, precision="fp8"), 6),
                      (replace(LAYOUT, precision="fp8", adapter_rank=8), 4)):
        grown = _estimate(large, gpu, layout, flat).compute.microbatch_s - _estimate(small, gpu, layout, flat).compute.microbatch_s
        added = k * 1 * 2048 * 2048 * 100_000 / layout.tensor_parallel
        assert grown == pytest.approx(added / (1e15 * 0.6), rel=1e-9)
    bf16 = replace(LAYOUT, tensor_parallel=2)
    grown = _estimate(large, gpu, bf16, flat).compute.microbatch_s - _estimate(small, gpu, bf16, flat).compute.microbatch_s
    assert grown == pytest.approx(6 * 2048 * 2048 * 100_000 / 2 / (1e15 * 0.6), rel=1e-9)


def test_flash_attention_runs_the_attention_core_at_its_architecture_figure() -> None:
    """With FlashAttention on a GPU whose architecture publishes FlashAttention-2's utilization, the
    attention core (14·b·s²·h per layer with its recomputed scores) runs at that share of the 16-bit
    peak and the rest at η; FlashAttention off, or no figure, keeps one η for all."""
    flat = replace(ASSUMPTIONS, gemm_half_intensity=0.0, memory_bound_bytes=0.0)
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    gpu = replace(A100_LIKE, flash_attention_efficiency=0.35)
    layout = replace(LAYOUT, sequence_length=8192)
    e = _estimate(workload, gpu, layout, flat)
    core = 14 * 8192**2 * 8 * 2048
    executed = e.compute.executed_flop_per_microbatch_per_gpu
    assert e.compute.microbatch_s == pytest.approx((executed - core) / (1e15 * 0.6) + core / (1e15 * 0.35), rel=1e-12)
    off = replace(layout, flash_attention=False)
    assert _estimate(workload, gpu, off, flat).compute.microbatch_s == pytest.approx(
        _estimate(workload, A100_LIKE, off, flat).compute.microbatch_s, rel=1e-15)
    assert _share_of_peak(_estimate(workload, A100_LIKE, layout, flat)) == pytest.approx(0.6, rel=1e-12)


def test_cudnn_attention_runs_at_flash_attention_2_times_its_speedup() -> None:
    """cuDNN's fused attention runs the attention core at FlashAttention-2's share of the peak times
    the architecture's published speed-up; without a speed-up figure, or with the flash-attn kernel,
    at FlashAttention-2's; a product above the peak is refused."""
    flat = replace(ASSUMPTIONS, gemm_half_intensity=0.0, memory_bound_bytes=0.0)
    workload = Workload("w", 1e9, 8, 2048, 16, 1000)
    gpu = replace(A100_LIKE, flash_attention_efficiency=0.35, cudnn_attention_speedup=1.6)
    layout = replace(LAYOUT, sequence_length=8192, attention_kernel="cudnn")
    e = _estimate(workload, gpu, layout, flat)
    core = 14 * 8192**2 * 8 * 2048
    executed = e.compute.executed_flop_per_microbatch_per_gpu
    assert e.compute.microbatch_s == pytest.approx((executed - core) / (1e15 * 0.6) + core / (1e15 * 0.35 * 1.6),
                                                   rel=1e-12)
    flash2 = _estimate(workload, gpu, replace(layout, attention_kernel="flash-attention-2"), flat).compute.microbatch_s
    no_figure = _estimate(workload, replace(gpu, cudnn_attention_speedup=None), layout, flat).compute.microbatch_s
    assert no_figure == pytest.approx(flash2, rel=1e-15) and e.compute.microbatch_s < flash2
    chains = explain(workload, Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1), layout, flat)
    keys = {term.key for term in walk(chains["compute.microbatch_s"])}
    assert {"cudnn_attention_efficiency", "gpu.cudnn_attention_speedup"} <= keys
    refused = estimate(workload, Cluster(Node("n", replace(gpu, cudnn_attention_speedup=3.0), 8, 450e9, 8, 50e9), 1),
                       layout, flat)
    assert [p.code for p in refused.problems] == ["fraction-out-of-range"]
    unknown = estimate(workload, Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1),
                       replace(layout, attention_kernel="triton"), flat)  # type: ignore[arg-type]
    assert [p.code for p in unknown.problems] == ["attention-kernel"]


@pytest.mark.parametrize(("recompute", "dropout", "per_score"), [
    ("none", True, 9 + 11), ("selective", True, 2 * 9 + 11), ("full", True, 2 * 9 + 11),
    ("none", False, 4 + 6), ("full", False, 2 * 4 + 6),
])
def test_without_flash_attention_the_scores_elementwise_work_is_memory_bound(recompute: str, dropout: bool,
                                                                               per_score: int) -> None:
    """Without FlashAttention the softmax and the attention dropout read and write the a·s²·b
    scores of every layer (÷ t·c per GPU) at the memory bandwidth: 9 B a score forward and 11
    backward, 4 and 6 without dropout, the forward twice under recomputation; with FlashAttention
    none of it leaves the chip. The chain shows the bytes."""
    flat = replace(ASSUMPTIONS, memory_bound_bytes=0.0)
    workload = replace(Workload("w", 1e9, 8, 2048, 16, 1000), dropout=dropout)
    gpu = replace(A100_LIKE, flash_attention_efficiency=0.5)
    cluster = Cluster(Node("n", gpu, 8, 450e9, 8, 50e9), 1)
    layout = Layout(2, 1, 1, micro_batch_size=2, sequence_length=4096, global_batch_size=8, recompute=recompute,  # type: ignore[arg-type]
                    flash_attention=False)
    e = _estimate(workload, gpu, layout, flat)
    chains = explain(workload, cluster, layout, flat)
    assert chains["compute.microbatch_s"] is not None
    keys = {term.key: term for term in walk(chains["compute.microbatch_s"])}
    scores = 16 * 4096**2 * 2 * 8 / 2
    assert keys["microbatch_score_bytes"].value == pytest.approx(per_score * scores, rel=1e-12)
    assert keys["microbatch_memory_bound_bytes"].value == pytest.approx(per_score * scores, rel=1e-12)
    bound_s = keys["microbatch_memory_bound_s"].value
    assert bound_s == pytest.approx(per_score * scores / 2.0e12, rel=1e-12)
    assert e.compute.microbatch_s == pytest.approx(keys["microbatch_gemm_s"].value + bound_s, rel=1e-12)
    flash = explain(workload, cluster, replace(layout, flash_attention=True), flat)
    assert "microbatch_score_bytes" not in {term.key for term in walk(flash["compute.microbatch_s"])}
