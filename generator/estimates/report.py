"""An estimate as the CLI prints it: a JSON object with documented keys (README, "Cost model")
or text with the chain of figures behind each output. Pure: records in, a string out.

GB here is 10⁹ bytes. `model_states_gb` = weights + gradients + optimizer states per GPU.
"""

from __future__ import annotations

from typing import Any

from .. import strict_json
from ..costmodel.chain import explain_lines
from ..costmodel.explain import explain
from ..costmodel.inputs import Layout
from ..costmodel.result import Result, estimate
from ..figure_format import signed_percent
from ..knowledge import KnowledgeBase
from .choice import Choice, Resolved, resolve
from .fitting import remedies

GB = 1e9
# Outputs whose chains the text format prints, in this order (the all-to-all's only where experts are spread).
EXPLAINED = ("memory.total_bytes", "memory.usable_bytes", "step.step_s", "step.comm_share", "step.tokens_per_s",
             "step.all_to_all_share")


def summary(resolved: Resolved, result: Result) -> dict[str, object]:
    """The documented JSON object (see the README); `problems` instead when nothing is estimated."""
    return {"inputs": _inputs(resolved), **outputs(result)}


def outputs(result: Result) -> dict[str, object]:
    """The outputs of one estimate (every key of `summary` but `inputs`), or its problems. The
    calculator's script (docs/assets/javascripts/costmodel.js) returns the same object; a test
    holds the two equal."""
    if result.estimate is None:
        return {"problems": [{"code": p.code, "field": p.field, "message": p.message} for p in result.problems]}
    e = result.estimate
    m, s = e.memory, e.step
    return {
        "fits": m.fits,
        "memory_per_gpu_gb": {
            "weights_gb": m.weights_bytes / GB, "gradients_gb": m.gradients_bytes / GB,
            "optimizer_gb": m.optimizer_bytes / GB,
            "model_states_gb": (m.weights_bytes + m.gradients_bytes + m.optimizer_bytes) / GB,
            "activations_gb": m.activations_bytes / GB, "total_gb": m.total_bytes / GB,
            "usable_gb": m.usable_bytes / GB, "headroom_gb": m.headroom_bytes / GB},
        "step_time_s": s.step_s,
        "tokens_per_s": s.tokens_per_s,
        "comm_share": s.comm_share,
        "bottleneck": e.bottleneck,
        "scaling_efficiency": e.scaling_efficiency,
        "scaling_note": e.scaling_note,
        "achieved_mfu": s.achieved_mfu,
        "time_s": {"compute": s.compute_s, "bubble": s.bubble_s, "intra_node": s.intra_node_s,
                   "network": s.network_s, "exposed_comm": s.exposed_comm_s, "dp_exposed": s.dp_exposed_s,
                   "tensor_parallel": s.tp_s},
        "microbatches": s.microbatches,
        # the expert-parallel all-to-all (null without experts spread over GPUs): the exposed
        # seconds per step, their share of the step, and whether they cross the network
        "all_to_all": None if s.all_to_all_s is None else {
            "exposed_s": s.all_to_all_s, "share": s.all_to_all_share, "on_network": s.ep_on_network},
    }


def chosen_outputs(kb: KnowledgeBase, choice: Choice) -> tuple[dict[str, object] | None, str]:
    """`outputs` of what `estimate` makes of a choice, as the CLI runs it, or (None, why not)."""
    resolved = resolve(kb, choice)
    if isinstance(resolved, str):
        return None, resolved
    result = estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
    if result.estimate is None:
        return None, "; ".join(p.message for p in result.problems)
    return outputs(result), ""


def _inputs(r: Resolved) -> dict[str, object]:
    node, layout = r.cluster.node, r.layout
    return {
        "ids": dict(r.ids), "workload": r.workload.name, "parameters": r.workload.parameter_count,
        "workload_note": r.workload_note or None,
        "gpus": r.cluster.node_count * node.gpus_per_node, "gpus_per_node": node.gpus_per_node,
        "nodes": r.cluster.node_count, "nics_per_node": node.nics_per_node,
        "tp": layout.tensor_parallel, "pp": layout.pipeline_parallel, "zero": layout.zero_stage,
        "micro_batch": layout.micro_batch_size, "seq": layout.sequence_length,
        "global_batch": layout.global_batch_size, "recompute": layout.recompute,
        "recompute_layers": layout.recompute_layers,
        "sequence_parallel": layout.sequence_parallel, "precision": layout.precision,
        "flash_attention": layout.flash_attention, "virtual_pipeline": layout.virtual_pipeline,
        "fp32_gradients": layout.fp32_gradients, "fp8_param_gather": layout.fp8_param_gather,
        "tp_overlap": layout.tp_overlap, "cp": layout.context_parallel,
        "shard_group": layout.shard_group, "attention_kernel": layout.attention_kernel,
        "zero_gather": layout.zero_gather, "adapter_rank": layout.adapter_rank, "base_bits": layout.base_bits,
        "ep": layout.expert_parallel, "etp": layout.expert_tensor_parallel, "ep_overlap": layout.ep_overlap, "expert_imbalance": layout.expert_imbalance,
        "assumptions": {name: getattr(r.assumptions, name) for name in r.assumptions.__dataclass_fields__},
    }


def to_json(resolved: Resolved, result: Result, accuracy: dict[str, object] | None = None) -> str:
    """`summary`, and with `accuracy` (calibration.accuracy_record) the model's measured error."""
    data = summary(resolved, result)
    if accuracy is not None:
        data["accuracy"] = accuracy
    return strict_json.dumps(data, "estimate's JSON", ensure_ascii=False, indent=2, sort_keys=True)


def _knobs(layout: Layout) -> str:
    """The layout knobs of the head line that differ from their defaults."""
    knobs = [] if layout.flash_attention else ["no FlashAttention"]
    knobs += ["cuDNN attention"] if layout.flash_attention and layout.attention_kernel == "cudnn" else []
    knobs += [f"{layout.recompute_layers} layers a chunk recomputed"] if layout.recompute_layers else []
    knobs += [f"virtual pipeline {layout.virtual_pipeline}"] if layout.virtual_pipeline != 1 else []
    knobs += ["FP32 gradients"] if layout.fp32_gradients else []
    knobs += ["FP8 weight gathers"] if layout.fp8_param_gather else []
    knobs += [f"tp overlap {layout.tp_overlap:g}"] if layout.tp_overlap else []
    knobs += [f"cp {layout.context_parallel}"] if layout.context_parallel != 1 else []
    knobs += [f"shard group {layout.shard_group}"] if layout.shard_group else []
    knobs += ["ZeRO-3 gathers per tensor, synchronous"] if layout.zero_gather == "tensor-sync" else []
    knobs += [f"LoRA rank {layout.adapter_rank}" + (f", {layout.base_bits}-bit base" if layout.base_bits != 16 else "")
              ] if layout.adapter_rank else []
    knobs += [f"ep {layout.expert_parallel}"] if layout.expert_parallel != 1 else []
    knobs += [f"etp {layout.expert_tensor_parallel}"] if layout.expert_tensor_parallel != 1 else []
    knobs += [f"ep overlap {layout.ep_overlap:g}"] if layout.ep_overlap else []
    knobs += [f"expert imbalance {layout.expert_imbalance:g}"] if layout.expert_imbalance != 1.0 else []
    return "".join(f", {knob}" for knob in knobs)




def _remedy_line(resolved: Resolved, result: Result) -> str:
    """Under a layout that does not fit (`result`, its estimate): which flags would make it fit at
    its tensor and pipeline parallelism (`fitting.remedies`), and where to look for every layout."""
    lay = resolved.layout
    found = remedies(resolved.workload, resolved.cluster, lay, resolved.assumptions, result.estimate)
    where = f"at tp {lay.tensor_parallel}, pp {lay.pipeline_parallel}"
    search = "`python -m generator plan` searches every layout"
    if not found:
        return f"to fit: no ZeRO stage or recomputation, alone or together, fits {where}; {search}"
    return (f"to fit {where}: " + "; or ".join(f"{r.flags} ({r.total_bytes / GB:.4g} GB per GPU)" for r in found)
            + f"; {search}")


def _error_line(what: str, entry: dict[str, Any]) -> str:
    """One group of `accuracy` (a kind, an architecture): its runs, error and bias, or that none was measured."""
    measured = isinstance(entry["mean_abs_error"], float)
    return f"  {what}: " + (f"{entry['runs']} runs, {entry['mean_abs_error']:.1%} mean absolute error, "
                            f"bias {signed_percent(entry['bias'])}" if measured else "no published run yet")


def to_text(resolved: Resolved, result: Result, accuracy: dict[str, object] | None = None) -> str:
    data = summary(resolved, result)
    inputs = data["inputs"]
    assert isinstance(inputs, dict)
    head = (f"{inputs['workload']} on {inputs['gpus']} × {resolved.cluster.node.gpu.name} "
            f"({inputs['nodes']} nodes of {inputs['gpus_per_node']}, {inputs['nics_per_node']} NICs each, "
            f"{resolved.ids['network']}); tp {inputs['tp']}, pp {inputs['pp']}, ZeRO {inputs['zero']}, "
            f"micro-batch {inputs['micro_batch']}, seq {inputs['seq']}, global batch {inputs['global_batch']}, "
            f"recompute {inputs['recompute']}, {inputs['precision']}{_knobs(resolved.layout)}"
            + (f"\nmodel: {resolved.workload_note}" if resolved.workload_note else ""))
    if result.estimate is None:
        return head + "\n" + "\n".join(f"cannot estimate: {p.message}" for p in result.problems)
    memory = data["memory_per_gpu_gb"]
    assert isinstance(memory, dict)
    lines = [head, "",
             f"fits: {'yes' if data['fits'] else 'no'} — {memory['total_gb']:.4g} GB per GPU of "
             f"{memory['usable_gb']:.4g} GB usable (model states {memory['model_states_gb']:.4g} GB, "
             f"activations {memory['activations_gb']:.4g} GB)",
             f"step time: {data['step_time_s']:.4g} s, {data['tokens_per_s']:.4g} tokens/s, "
             f"communication share {data['comm_share']:.1%}, bottleneck: {data['bottleneck']}"]
    if not data["fits"]:
        lines.append(_remedy_line(resolved, result))
    a2a = data["all_to_all"]
    if isinstance(a2a, dict):
        lines.append(f"expert all-to-all: {a2a['exposed_s']:.4g} s exposed per step, {a2a['share']:.1%} of the step, "
                     + ("across nodes" if a2a["on_network"] else "inside a node"))
    if accuracy is not None and isinstance(accuracy["mean_abs_error"], float):
        lines.append(f"model accuracy: on {accuracy['runs']} published runs, {accuracy['mean_abs_error']:.1%} mean "
                     "absolute error of the step time (python -m generator calibrate)")
        kind, on = accuracy.get("kind"), accuracy.get("architecture")
        if isinstance(kind, dict):
            lines.append(_error_line(f"of this kind ({kind['block']}, {kind['precision']})", kind))
        if isinstance(on, dict):
            lines.append(_error_line(f"on this GPU architecture ({on['architecture']})", on))
    efficiency = data["scaling_efficiency"]
    lines.append("scaling efficiency against one node: "
                 + (f"{efficiency:.1%} ({data['scaling_note']})" if isinstance(efficiency, float)
                    else str(data["scaling_note"])))
    chains = explain(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
    shown: set[str] = set()
    for key in (k for k in EXPLAINED if k in chains):  # each figure once: a later chain lists only what the earlier ones did not
        new = [line for line in explain_lines(chains[key]) if line.split(" = ", 1)[0] not in shown]
        shown.update(line.split(" = ", 1)[0] for line in new)
        lines += ["", f"how {key} is computed:"] + [f"  {line}" for line in new]
    return "\n".join(lines)
