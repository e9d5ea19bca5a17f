"""Collective communication times by the α-β model, with nccl-tests' bus-bandwidth relations.

nccl-tests, doc/PERFORMANCE.md (https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md):
for an operation on S bytes over n ranks that takes t seconds, algbw = S/t and
busbw = algbw × 2(n−1)/n for all-reduce, × (n−1)/n for reduce-scatter and all-gather (S being the
whole array, n × the per-rank part), × 1 for broadcast, reduce and send/receive. busbw is the
figure that compares with a link's per-direction rate. So with B = per-direction rate ×
collective efficiency and α the latency of one ring step:

    all-reduce (ring):           2(n−1)·α + 2(n−1)/n · S/B
    reduce-scatter, all-gather:   (n−1)·α +  (n−1)/n · S/B   (one "ring phase")
    send/receive:                       α +           S/B

A ring all-reduce is one reduce-scatter and one all-gather, so its time is two ring phases.

Across nodes the bandwidth is that of a hierarchical reduction (what NCCL's rings achieve on
rail-optimised clusters): a reduce-scatter among the k ranks of the group inside a node on the
scale-up link, then the same collective across the n nodes on each rank's 1/k shard over the
network, then an all-gather inside the node. All g GPUs of a node do their inter-node step at once,
so each gets 1/g of the node's NICs × port rate (rail-aligned NICs, one flow per GPU), times the
fabric's bandwidth fraction.

The latency of a data-parallel collective is that of NCCL's ring, which passes through every rank
of the group: of a reduce-scatter's or all-gather's N − 1 steps, n − 1 cross the network and the
other N − n stay inside a node (NCCL src/graph/tuning.cc, the ring's latency since 2.7: (nsteps −
nInterSteps)·intraLat + nInterSteps·interLat). It matters when a step runs many collectives: ZeRO-3
gathers and reduces each layer on its own (`traffic.py`).
"""

from __future__ import annotations

from typing import Literal

from .chain import formula

NCCL_TESTS = "nccl-tests doc/PERFORMANCE.md"
Operation = Literal["all_reduce", "reduce_scatter", "all_gather", "broadcast", "reduce", "send_recv"]


def bus_bandwidth_factor(operation: Operation, ranks: int) -> float:
    """busbw ÷ algbw for an operation over `ranks` ranks (nccl-tests PERFORMANCE.md, Summary)."""
    n = float(ranks)
    if operation == "all_reduce":
        return 2.0 * (n - 1.0) / n
    if operation in ("reduce_scatter", "all_gather"):
        return (n - 1.0) / n
    return 1.0


@formula("2(n−1)·α + 2(n−1)/n · S/B", "n S B α", NCCL_TESTS + " (all-reduce)")
def ring_all_reduce_s(ranks: float, size_bytes: float, bandwidth: float, step_latency_s: float) -> float:
    if ranks <= 1.0:
        return 0.0
    return 2.0 * (ranks - 1.0) * step_latency_s + 2.0 * (ranks - 1.0) / ranks * size_bytes / bandwidth


@formula("α + S/B", "S B α", NCCL_TESTS + " (send/receive, busbw = algbw)")
def send_recv_s(size_bytes: float, bandwidth: float, step_latency_s: float) -> float:
    return step_latency_s + size_bytes / bandwidth


@formula("B_link · e", "B_link e", "per-direction rate × assumption: collective efficiency")
def intra_node_bandwidth(per_direction: float, efficiency: float) -> float:
    return per_direction * efficiency


@formula("N_nic · B_port ÷ g · e · f", "N_nic B_port g e f", "rail-aligned NICs shared by the node's GPUs")
def network_bandwidth_per_gpu(nics: float, port: float, gpus_per_node: float, efficiency: float, fabric: float) -> float:
    return nics * port / gpus_per_node * efficiency * fabric


@formula("min(N_d, g ÷ t)", "N_d g t", "ranks placed tensor-parallel first, then data-parallel")
def dp_peers_per_node(data_parallel: float, gpus_per_node: float, tensor: float) -> float:
    return min(data_parallel, gpus_per_node / tensor)


@formula("N_d ÷ k", "N_d k", "nodes a data-parallel group spans")
def dp_nodes(data_parallel: float, peers_per_node: float) -> float:
    return data_parallel / peers_per_node


@formula("S ÷ k", "S k", "each rank's shard after the intra-node reduce-scatter")
def shard_bytes(size_bytes: float, peers_per_node: float) -> float:
    return size_bytes / peers_per_node


NCCL_TUNING = "NCCL src/graph/tuning.cc (ring latency)"


@formula("(N − n)·α_intra", "N n α_intra", NCCL_TUNING + ": the ring's steps inside a node")
def ring_intra_latency_s(ranks: float, nodes: float, intra_latency_s: float) -> float:
    return (ranks - nodes) * intra_latency_s


@formula("(n − 1)·α_net", "n α_net", NCCL_TUNING + ": the ring's steps across nodes")
def ring_network_latency_s(nodes: float, network_latency_s: float) -> float:
    return (nodes - 1.0) * network_latency_s


@formula("c·λ + (n−1)/n · S/B", "c λ n S B", NCCL_TESTS + ": c collectives of one phase, each with latency λ")
def collectives_phase_s(collectives: float, latency_s: float, ranks: float, size_bytes: float,
                        bandwidth: float) -> float:
    if ranks <= 1.0:
        return collectives * latency_s  # no bytes to move on this link (and one that need not exist)
    return collectives * latency_s + (ranks - 1.0) / ranks * size_bytes / bandwidth


@formula("min(G, k)", "G k", "hybrid sharding: a shard group's ranks in one node (groups of consecutive ranks)")
def group_peers_per_node(group: float, peers: float) -> float:
    return min(group, peers)


@formula("N_d ÷ G", "N_d G", "hybrid sharding: replicas of each shard")
def replicas(ranks: float, group: float) -> float:
    return ranks / group


@formula("k ÷ k_G", "k k_G", "hybrid sharding: a shard's replicas in one node (the groups a node holds)")
def replica_peers_per_node(peers: float, group_peers: float) -> float:
    return peers / group_peers
