"""The estimate as chains of figures: each output with the named inputs and formulas behind it.

`estimate`'s own wiring (`wiring.py`) run with the `Terms` evaluator, which records every
value it computes; slower, and only run when a page or the CLI asks how a number was computed.
Keys name the `Estimate` field a figure equals, e.g. `step.step_s`; inputs are keyed by where
they come from, e.g. `layout.tensor_parallel`.
"""

from __future__ import annotations

from .chain import Term
from .evaluate import Terms
from .feasibility import check
from .inputs import Assumptions, Cluster, Layout, Workload
from .wiring import Run, run

EXPLAINED = (
    "memory.weights_bytes", "memory.gradients_bytes", "memory.optimizer_bytes", "memory.activations_bytes",
    "memory.total_bytes", "memory.usable_bytes", "memory.headroom_bytes",
    "compute.model_flop_per_step", "compute.forward_s", "compute.backward_s", "compute.microbatch_s",
    "step.tp_microbatch_s", "step.pp_microbatch_s", "step.dp_intra_node_s", "step.dp_network_s", "step.slot_s",
    "step.pipeline_s", "step.dp_overlap_window_s", "step.dp_exposed_s", "step.step_s", "step.exposed_comm_s",
    "step.intra_node_s", "step.network_s", "step.tp_s", "step.compute_s", "step.bubble_s", "step.comm_share",
    "step.tokens_per_s", "step.achieved_mfu",
)
EXPERT_PARALLEL = ("step.ep_microbatch_s", "step.all_to_all_s", "step.all_to_all_share")
"""The outputs `explain` returns, in this order (then the all-to-all's, where experts are spread,
and `scaling_efficiency` when there is a figure)."""


def explain(workload: Workload, cluster: Cluster, layout: Layout, assumptions: Assumptions) -> dict[str, Term]:
    """Every output of `estimate` as a chain, keyed by its field; empty when there are problems."""
    if check(workload, cluster, layout, assumptions):
        return {}
    chains = run(Terms(), workload, cluster, layout, assumptions)
    out = {key: _field(chains, key) for key in EXPLAINED}
    for key in EXPERT_PARALLEL:  # only where experts are spread over GPUs
        figure = getattr(chains.step, key.partition(".")[2])
        if isinstance(figure, Term):
            out[key] = figure
    if isinstance(chains.scaling_efficiency, Term):  # not a bare 1.0 for one node, nor None
        out["scaling_efficiency"] = chains.scaling_efficiency
    return out


def _field(chains: Run[Term], key: str) -> Term:
    part, _, name = key.partition(".")
    figure: Term = getattr(getattr(chains, part), name)
    return figure
