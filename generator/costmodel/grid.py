"""A grid of configurations for benchmarks and tests: synthetic hardware, illustrative assumptions.

DESIGN §8 budgets the cost model at 10,000 configurations in under a second, in-process; the
benchmark times `estimate_all(configurations())`, a test does not. The hardware here is generic
(no product), and the assumption values are placeholders inside the ranges the knowledge base
will state; nothing on the site may quote them.
"""

from __future__ import annotations

import itertools

from .inputs import Assumptions, Cluster, GpuSpec, Layout, Mla, Moe, Node, Recompute, Workload
from .result import Result, estimate

Configuration = tuple[Workload, Cluster, Layout, Assumptions]


def illustrative_assumptions() -> Assumptions:
    """Placeholder values (the knowledge base supplies sourced ones, each with a range)."""
    return Assumptions(
        gemm_efficiency_max=0.6, gemm_half_intensity=2.0, memory_bound_bytes=16.0, intra_node_collective_efficiency=0.8, network_collective_efficiency=0.85,
        intra_node_step_latency_s=3e-6, network_step_latency_s=8e-6,
        dp_overlap_fraction=0.7, memory_reserve_fraction=0.1, tensor_sync_rank_overhead_s=4e-6)


def synthetic_nodes() -> tuple[Node, ...]:
    """Two generic 8-GPU nodes: a switched scale-up fabric with 8 NICs, and PCIe with 2 NICs."""
    fast = GpuSpec("gpu-80g", 80e9, 3.35e12, 1.0e15, 2.0e15)
    slow = GpuSpec("gpu-48g", 48e9, 0.864e12, 0.36e15, None)
    return (
        Node("node-switched", fast, 8, 450e9, 8, 50e9),
        Node("node-pcie", slow, 8, 32e9, 2, 25e9),
    )


def synthetic_workloads() -> tuple[Workload, ...]:
    """Two GPT-style shapes of about 1.3 and 13 billion parameters, and a 69-billion-parameter one
    with grouped-query attention (8 key/value heads) and a SwiGLU MLP, so that the grid exercises
    both kinds of block."""
    return (
        Workload("gpt-1.3b", 1.3e9, 24, 2048, 16, 50257),
        Workload("gpt-13b", 13e9, 40, 5120, 40, 50257),
        Workload("gqa-swiglu-69b", 69e9, 80, 8192, 64, 32000, ffn_hidden_size=28672, kv_heads=8,
                 gated_mlp=True, tied_embeddings=False, linear_biases=False, norm="rmsnorm"),
    )


def synthetic_moe_workloads() -> tuple[Workload, ...]:
    """Mixture-of-experts shapes for tests: one with grouped-query attention, 8 experts and 2 a
    token on every layer; one with latent attention, 64 experts, 6 a token, 2 shared experts and
    a dense first layer, node-limited to 3 nodes; one with heads wider than h ÷ a and 32 experts."""
    return (
        Workload("moe-gqa-47b", 46.7e9, 32, 4096, 32, 32000, ffn_hidden_size=14336, kv_heads=8, gated_mlp=True,
                 tied_embeddings=False, linear_biases=False, norm="rmsnorm", moe=Moe(8, 2, 14336)),
        Workload("moe-latent-16b", 15.7e9, 27, 2048, 16, 102400, ffn_hidden_size=10944, gated_mlp=True,
                 tied_embeddings=False, linear_biases=False, norm="rmsnorm", mla=Mla(512, 512, 128, 64, 128),
                 moe=Moe(64, 6, 1408, shared_experts=2, dense_layers=1, nodes_per_token=3)),
        Workload("moe-wide-heads-30b", 30.5e9, 48, 2048, 32, 151936, ffn_hidden_size=6144, kv_heads=4, head_dim=128,
                 gated_mlp=True, tied_embeddings=False, linear_biases=False, norm="rmsnorm", moe=Moe(32, 8, 768)),
    )


def configurations(count: int = 10_000) -> list[Configuration]:
    """The first `count` configurations of a fixed grid (13,824 in all), some of them infeasible."""
    recompute: tuple[Recompute, ...] = ("none", "selective", "full")
    grid = itertools.product(
        synthetic_workloads(), synthetic_nodes(), (1, 2, 4, 8, 16, 32), (1, 2, 4, 8), (1, 2, 4, 8),
        (0, 1, 2, 3), recompute, (False, True))
    assumptions = illustrative_assumptions()
    out = []
    for workload, node, nodes, tensor, pipeline, zero, mode, sequence_parallel in itertools.islice(grid, count):
        layout = Layout(tensor, pipeline, zero, micro_batch_size=1, sequence_length=2048, global_batch_size=1024,
                        recompute=mode, sequence_parallel=sequence_parallel)
        out.append((workload, Cluster(node, nodes), layout, assumptions))
    return out


def estimate_all(configs: list[Configuration]) -> list[Result]:
    return [estimate(*config) for config in configs]
