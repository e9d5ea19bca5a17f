"""The model's one wiring: which registered formula takes which inputs, for one configuration.

Written once against an evaluator (`evaluate.py`): `model.estimate` runs it on floats,
`explain.explain` on figures, so every explained value is the estimated one by construction and
the order of IEEE operations is the one written in each formula. Each value is named with the
key of the `Estimate` field it equals (`step.step_s`), where it comes from (`layout.tensor_parallel`)
or, for an intermediate, what it is (`tp_all_reduce_s`); the float evaluator drops the names.

Formulas as data (a table of figures, each a key, a unit, a formula and its input keys, walked
by a generic interpreter) would pay off once this wiring must exist outside Python: generated
into costmodel.js, the table would retire that hand-written port and the parity test that holds
it equal. That needs the formula bodies as data too (expressions both languages evaluate in the
same IEEE order), and the wiring's branches on the layout (ZeRO stage, recomputation, a pipeline
on the network, whether a one-node reference exists) as conditions in the table. Not now: the
port stays as it is, so a table would only recast this Python in a form less readable and
unchecked by mypy, while plain calls keep the branches ordinary code and the float path as short
as a direct call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Generic, NamedTuple

from . import collectives as co
from . import compute as cp
from . import experts as ex
from . import memory as me
from . import step as st
from . import traffic as tr
from .chain import formula
from .evaluate import Evaluator, V
from .inputs import Assumptions, Cluster, Layout, Workload
from .leaves import (
    Leaves,
    Links,
    adapters_per_gpu,
    expert_split,
    gradient_bytes_per_parameter,
    leaves,
    links,
    microbatches,
    parameters_per_gpu,
)


class Run(NamedTuple, Generic[V]):
    """Every output of one configuration but the bottleneck. `scaling_efficiency` is a bare 1.0
    (no formula) for a one-node cluster, None when no one-node reference exists."""

    memory: me.Memory[V]
    compute: cp.Compute[V]
    step: st.Step[V]
    scaling_efficiency: V | float | None
    scaling_note: str


@formula("T_ref ÷ T_step", "T_ref T_step", "weak scaling: same t, p, b, m per GPU on one node")
def scaling_efficiency(reference_step_s: float, step_s: float) -> float:
    return reference_step_s / step_s


def run(ev: Evaluator[V], workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions) -> Run[V]:
    """Every output of a configuration that `feasibility.check` accepts (others may divide by zero)."""
    x = leaves(ev, workload, cluster, layout, a)
    m = microbatches(ev, x)
    memory = memory_per_gpu(ev, x, m, cluster, layout, a)
    work = compute(ev, x, cluster, layout, a)
    step = step_time(ev, x, m, work, cluster, layout, a)
    return Run(memory, work, step, *one_node_scaling(ev, workload, cluster, layout, a, step.step_s))


class Screened(NamedTuple):
    """What a layout search compares: memory per GPU, the memory usable, whether it fits, and the
    step time of a layout that fits (None for one that does not: its step is never asked for)."""

    total_bytes: float
    fits: bool
    step_s: float | None
    usable_bytes: float


def screen(ev: Evaluator[float], workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions,
           timed: bool = True) -> Screened:
    """The part of `run` a search needs, by the same wiring: memory first, the step only for a
    layout that fits (and only if `timed`), and no one-node reference (the search keeps a layout
    by its own step)."""
    x = leaves(ev, workload, cluster, layout, a)
    m = microbatches(ev, x)
    memory = memory_per_gpu(ev, x, m, cluster, layout, a)
    if not memory.fits or not timed:
        return Screened(memory.total_bytes, memory.fits, None, memory.usable_bytes)
    return Screened(memory.total_bytes, True, _step_s(ev, x, m, cluster, layout, a), memory.usable_bytes)


def step_of(ev: Evaluator[float], workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions) -> float:
    """The step of a layout a search already knows to fit (what another search of the same memory
    settled), by the same wiring as `screen`, without its memory."""
    x = leaves(ev, workload, cluster, layout, a)
    return _step_s(ev, x, microbatches(ev, x), cluster, layout, a)


def _step_s(ev: Evaluator[float], x: Leaves[float], m: float, cluster: Cluster, layout: Layout, a: Assumptions) -> float:
    return step_time(ev, x, m, compute(ev, x, cluster, layout, a), cluster, layout, a).step_s


def memory_per_gpu(ev: Evaluator[V], x: Leaves[V], m: V, cluster: Cluster, layout: Layout,
                   a: Assumptions) -> me.Memory[V]:
    psi = parameters_per_gpu(ev, x)
    adapters = adapters_per_gpu(ev, x)
    parts = expert_split(ev, x)
    weight_bytes = ev.given("assumptions.weight_bytes_per_parameter", "B", a.weight_bytes_per_parameter, "assumption")
    states = []
    for (key, bytes_each), partitioned in zip((
            ("memory.weights_bytes", weight_bytes),
            ("memory.gradients_bytes", gradient_bytes_per_parameter(ev, layout, a)),
            ("memory.optimizer_bytes", ev.given("assumptions.optimizer_bytes_per_parameter", "B",
                                                a.optimizer_bytes_per_parameter, "assumption"))),
            me.partitions(layout.zero_stage), strict=True):
        if adapters is not None and key == "memory.weights_bytes":
            # LoRA: the frozen base (at its bits) and the adapters' 16-bit weights
            whole = lora_weights(ev, psi, adapters, weight_bytes, layout,
                                 key if not partitioned else "lora_weights_bytes_per_gpu")
            states.append(ev.derive(key, "B", me.partitioned_total)(whole, x.shard) if partitioned else whole)
            continue
        count = psi if adapters is None else adapters  # LoRA: only the adapters have gradients and Adam states
        if parts is not None and partitioned:  # experts partitioned over their own data-parallel group
            assert x.moe is not None
            states.append(ev.derive(key, "B", ex.moe_partitioned_bytes)(*parts, bytes_each, x.shard, x.moe.d_e))
            continue
        states.append(ev.derive(key, "B", me.partitioned_bytes)(count, bytes_each, x.shard) if partitioned
                      else ev.derive(key, "B", me.replicated_bytes)(count, bytes_each))
    weights, gradients, optimizer = states
    if x.phi is None:
        per_layer = activation_per_layer(ev, x, layout, layout.recompute, "memory.activation_per_layer_bytes")
    else:  # only some layers recomputed: their inputs, and everything of the others
        per_layer = ev.derive("memory.activation_per_layer_bytes", "B", cp.recompute_blend)(
            x.phi, activation_per_layer(ev, x, layout, "full", "recomputed_activation_per_layer_bytes", "recomputed_"),
            activation_per_layer(ev, x, layout, "none", "stored_activation_per_layer_bytes", "stored_"))
    held = (ev.derive("memory.activation_layers_held", "1", me.activation_layers_held_interleaved)(
        x.L_paced, x.p, m, x.v) if layout.virtual_pipeline > 1
        else ev.derive("memory.activation_layers_held", "1", me.activation_layers_held)(x.L_paced, x.p, m))
    activations = ev.derive("memory.activations_bytes", "B", me.activations_held)(per_layer, held)
    total = ev.derive("memory.total_bytes", "B", me.total_bytes)(weights, gradients, optimizer, activations)
    usable = ev.derive("memory.usable_bytes", "B", me.usable_bytes)(
        ev.given("gpu.memory_capacity_bytes", "B", cluster.node.gpu.memory_capacity_bytes, "cluster"),
        ev.given("assumptions.memory_reserve_fraction", "1", a.memory_reserve_fraction, "assumption"))
    headroom = ev.derive("memory.headroom_bytes", "B", me.headroom_bytes)(usable, total)
    return me.Memory(weights, gradients, optimizer, per_layer, held, activations, total, usable, headroom,
                     ev.value(total) <= ev.value(usable))


def activation_per_layer(ev: Evaluator[V], x: Leaves[V], layout: Layout, mode: str, key: str, prefix: str = "") -> V:
    """The bytes one layer stores for the backward pass under recomputation `mode`, named `key`:
    Table 2's row, then each correction that applies, in this order; each intermediate is named
    for the correction it goes into (after `prefix`)."""
    table = me.ACTIVATIONS_FLASH if layout.flash_attention else me.ACTIVATIONS_PER_LAYER
    masks = not x.dropout and mode != "full"  # full recomputation stores no mask
    fp8 = layout.precision == "fp8" and mode != "full"  # its layer input stays 16-bit
    stages = [stage for stage, on in (("dropout", masks), ("16bit", fp8), ("sequence", bool(x.context))) if on]
    names = [f"{prefix}activation_per_layer_{stage}_bytes" for stage in stages] + [key]
    per_layer = ev.derive(names[0], "B", table[(mode, layout.sequence_parallel)])(x.s, x.b, x.h, x.a, x.t, x.r)
    if masks or fp8:  # the terms tensor parallelism splits only under sequence parallelism
        split = x.t if layout.sequence_parallel else ev.given("no_split", "1", 1.0, "derived")
    for stage, name in zip(stages, names[1:], strict=True):
        if stage == "dropout":
            per_layer = (ev.derive(name, "B", me.without_dropout_scores)(per_layer, x.s, x.b, x.h, split, x.a, x.t)
                         if mode == "none" and not layout.flash_attention
                         else ev.derive(name, "B", me.without_dropout_masks)(per_layer, x.s, x.b, x.h, split))
        elif stage == "16bit":
            per_layer = ev.derive(name, "B", me.fp8_linear_inputs)(per_layer, x.s, x.b, x.h, x.f, split, x.t)
        else:
            per_layer = ev.derive(name, "B", me.context_share_bytes)(per_layer, x.c)
    return per_layer


def by_recompute(ev: Evaluator[V], x: Leaves[V], layout: Layout, key: str, unit: str,
                 table: Mapping[str, Callable[..., float]]) -> Callable[..., V]:
    """`table[layout.recompute]` derived under `key`; where only some layers are recomputed
    (`recompute_layers`), full recomputation's entry and none's, weighed by the share φ."""
    if x.phi is None:
        return ev.derive(key, unit, table[layout.recompute])
    phi, name = x.phi, key.rsplit(".", 1)[-1]

    def blended(*args: V) -> V:
        return ev.derive(key, unit, cp.recompute_blend)(
            phi, ev.derive(f"recomputed_{name}", unit, table["full"])(*args),
            ev.derive(f"stored_{name}", unit, table["none"])(*args))
    return blended


def lora_weights(ev: Evaluator[V], psi: V, adapters: V, weight_bytes: V, layout: Layout, key: str) -> V:
    """Bytes of a LoRA model's weights on one GPU before any ZeRO partitioning: the frozen base at
    `base_bits`, the adapters at the assumption's weight bytes."""
    frozen = ev.derive("frozen_weight_bytes_per_parameter", "B", me.frozen_weight_bytes)(
        ev.given("layout.base_bits", "1", layout.base_bits, "layout"))
    return ev.derive(key, "B", me.lora_weight_bytes)(psi, frozen, adapters, weight_bytes)


def compute(ev: Evaluator[V], x: Leaves[V], cluster: Cluster, layout: Layout, a: Assumptions) -> cp.Compute[V]:
    h_att = x.h if x.h_att is None else x.h_att

    def widened(key: str, flop: Callable[[str], V], coefficient: Callable[[str], V], batch: V, layers: V) -> V:
        """`flop(key)`, or with an attention core wider than h, `flop` under another name plus the
        wider core's extra FLOPs (`experts.wide_attention_flop`, its coefficient `coefficient(name)`)
        under `key`."""
        if x.h_att is None:
            return flop(key)
        name = key.rsplit(".", 1)[-1]
        return ev.derive(key, "FLOP", cp.plus_flop)(
            flop(f"narrow_{name}"), ev.derive(f"wide_attention_{name}", "FLOP", ex.wide_attention_flop)(
                coefficient(f"wide_attention_coefficient_{name}"), batch, x.s, layers, h_att, x.h))

    def model_coefficient(key: str) -> V:
        return ev.derive(key, "1", ex.wide_model_coefficient)()

    per_step = widened("compute.model_flop_per_step", lambda key: ev.derive(key, "FLOP", cp.model_flop)(
        x.B, x.s, x.L, x.h, x.vocab, x.r), model_coefficient, x.B, x.L)
    model = widened("model_flop_per_microbatch", lambda key: ev.derive(key, "FLOP", cp.model_flop)(
        x.b, x.s, x.L_paced, x.h, x.vocab, x.r), model_coefficient, x.b, x.L_paced)
    lora = x.adapters is not None
    executed = widened("executed_flop_per_microbatch" if not (layout.flash_attention or lora)
                       else "layers_flop_per_microbatch", lambda key: by_recompute(ev, x, layout, key, "FLOP", cp.EXECUTED_FLOP)(
        x.b, x.s, x.L_paced, x.h, x.vocab, x.r), lambda key: by_recompute(ev, x, layout, key, "1", ex.WIDE_COEFFICIENT)(),
        x.b, x.L_paced)
    if layout.flash_attention:
        executed = ev.derive("executed_flop_per_microbatch" if not lora else "flash_flop_per_microbatch", "FLOP",
                             cp.plus_flop)(
            executed, ev.derive("flash_backward_flop_per_microbatch", "FLOP", cp.flash_backward_flop)(
                x.b, x.s, x.L_paced, h_att))
    if lora:
        # LoRA: no weight gradients for the frozen base (the adapters' own FLOPs, r/h of a layer's, are left out)
        executed = ev.derive("executed_flop_per_microbatch", "FLOP", cp.minus_flop)(
            executed, ev.derive("frozen_weight_gradient_flop_per_microbatch", "FLOP", cp.frozen_weight_gradient_flop)(
                x.b, x.s, x.L_paced, x.h, x.vocab, x.r))
    if x.context:
        model_mb = ev.derive("compute.model_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu_context)(
            model, x.t, x.p, x.c)
        executed_mb = ev.derive("compute.executed_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu_context)(
            executed, x.t, x.p, x.c)
    else:
        model_mb = ev.derive("compute.model_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu)(model, x.t, x.p)
        executed_mb = ev.derive("compute.executed_flop_per_microbatch_per_gpu", "FLOP", cp.per_gpu)(
            executed, x.t, x.p)
    forward_flop = ev.derive("forward_flop_per_microbatch_per_gpu", "FLOP", cp.forward_flop)(model_mb)
    hbm = ev.given("gpu.memory_bandwidth_bytes_per_s", "B/s", cluster.node.gpu.memory_bandwidth_bytes_per_s,
                   "cluster")
    operand = ev.given("layout.operand_bytes", "B", 1.0 if layout.precision == "fp8" else 2.0, "layout")
    ridge = ev.derive("ridge_intensity", "FLOP/B", cp.ridge_intensity)(x.peak, hbm)

    def gemm(prefix: str, tokens: V, ffn: V) -> V:
        """η of a GEMM of `tokens` × h by h × `ffn` (`compute.gemm_efficiency`), keyed `<prefix>gemm_*`."""
        return ev.derive(f"{prefix}gemm_efficiency", "1", cp.gemm_efficiency)(
            ev.given("assumptions.gemm_efficiency_max", "1", a.gemm_efficiency_max, "assumption"),
            ev.derive(f"{prefix}gemm_intensity", "FLOP/B", cp.gemm_intensity)(tokens, x.h, ffn, operand),
            ev.given("assumptions.gemm_half_intensity", "1", a.gemm_half_intensity, "assumption"), ridge)

    eta = gemm("", ev.derive("microbatch_tokens", "1", cp.microbatch_tokens)(x.b, x.s_c),
               ev.derive("ffn_per_rank", "1", cp.ffn_per_rank)(x.f, x.t))
    if x.moe is not None:
        eta = expert_efficiency(ev, x, eta, gemm)
    per_token = ev.given("assumptions.memory_bound_bytes", "B", a.memory_bound_bytes, "assumption")

    fp8 = layout.precision == "fp8"
    bf16_peak = (ev.given("gpu.dense_bf16_flop_per_s", "FLOP/s", cluster.node.gpu.dense_bf16_flop_per_s, "cluster")
                 if fp8 else x.peak)
    flash = cluster.node.gpu.flash_attention_efficiency if layout.flash_attention else None
    speedup = cluster.node.gpu.cudnn_attention_speedup if layout.attention_kernel == "cudnn" else None
    eta_attn = (ev.given("gpu.flash_attention_efficiency", "1", flash, "cluster") if flash is not None else eta)
    if flash is not None and speedup is not None:
        eta_attn = ev.derive("cudnn_attention_efficiency", "1", cp.cudnn_attention_efficiency)(
            eta_attn, ev.given("gpu.cudnn_attention_speedup", "1", speedup, "cluster"))
    split = fp8 or flash is not None

    def attention_core(name: str, coefficient: V) -> V:
        return ev.derive(f"{name}_attention_flop_per_gpu", "FLOP", cp.attention_core_flop)(
            coefficient, x.b, x.s, x.L_paced, x.p, h_att, x.t, x.c)

    def output_layer(name: str) -> V:
        """The output layer's FLOPs per GPU of the forward pass or the micro-batch (`name`): FP8
        leaves it in 16 bits, as Megatron-Core's output layer (not a Transformer Engine module) and
        DeepSeek-V3's FP8 recipe do."""
        kind = (cp.logit_forward_coefficient if name == "forward"
                else cp.logit_frozen_coefficient if x.adapters is not None else cp.logit_coefficient)
        return ev.derive(f"{name}_output_layer_flop_per_gpu", "FLOP", cp.logit_flop)(
            ev.derive(f"{name}_output_layer_coefficient", "1", kind)(), x.b, x.s, x.h, x.vocab, x.t, x.p, x.c)

    def fp8_casts() -> dict[str, V]:
        """The bytes FP8's casts move in the forward pass and in the micro-batch, by name; the
        forward's are derived once, for both."""
        forward = ev.derive("fp8_forward_cast_bytes", "B", cp.fp8_forward_cast_bytes)(
            x.b, x.s_c, x.L_paced, x.p, x.h, x.f, x.t)
        split = x.t if layout.sequence_parallel else ev.given("no_split", "1", 1.0, "derived")
        return {"forward": forward, "microbatch": ev.derive("fp8_microbatch_cast_bytes", "B", cp.fp8_microbatch_cast_bytes)(
            by_recompute(ev, x, layout, "fp8_forward_passes", "1", cp.FP8_FORWARD_PASSES)(), forward,
            ev.derive("fp8_backward_cast_bytes", "B", cp.fp8_backward_cast_bytes)(
                x.b, x.s_c, x.L_paced, x.p, x.h, x.r, x.f, x.t, split))}

    casts = fp8_casts() if fp8 else {}

    def seconds(name: str, flop: V, passes: V, coefficient: Callable[[], V], per_score: Callable[[], V]) -> V:
        """`compute.<name>_s`: the matmul time plus the memory-bound time of `passes` passes (and,
        without FlashAttention, of the scores' elementwise work, `per_score` bytes a score); with
        FP8 or FlashAttention's own efficiency, the attention core's FLOPs (`coefficient` × b·s²·h
        per layer) apart, at the 16-bit peak and η_attn."""
        key = f"{name}_memory_bound_bytes"
        scored = not layout.flash_attention
        hidden = f"{name}_elementwise_bytes" if scored else key
        layers = x.L_paced
        bound = (ev.derive(hidden, "B", cp.memory_bound_bytes_split)(per_token, x.b, x.s_c, x.h, layers, x.p, passes,
                                                                     x.t)
                 if layout.sequence_parallel
                 else ev.derive(hidden, "B", cp.memory_bound_bytes)(per_token, x.b, x.s_c, x.h, layers, x.p, passes))
        if scored:
            scores = ev.derive(f"{name}_score_bytes", "B", cp.score_bytes)(per_score(), x.a, x.s, x.b, layers, x.p,
                                                                          x.t, x.c)
            bound = ev.derive(key, "B", cp.memory_bound_bytes_total)(bound, scores)
        if fp8:
            bound = ev.derive(f"{name}_fp8_memory_bound_bytes", "B", cp.memory_bound_bytes_total)(bound, casts[name])
            gemm = ev.derive(f"{name}_gemm_s", "s", cp.fp8_split_seconds_at_rate)(
                flop, attention_core(name, coefficient()), output_layer(name), x.peak, bf16_peak, eta, eta_attn)
        elif split:
            gemm = ev.derive(f"{name}_gemm_s", "s", cp.split_seconds_at_rate)(
                flop, attention_core(name, coefficient()), x.peak, bf16_peak, eta, eta_attn)
        else:
            gemm = ev.derive(f"{name}_gemm_s", "s", cp.seconds_at_rate)(flop, x.peak, eta)
        return ev.derive(f"compute.{name}_s", "s", cp.compute_s)(
            gemm, ev.derive(f"{name}_memory_bound_s", "s", cp.memory_bound_s)(bound, hbm))

    def executed_coefficient() -> V:
        core = by_recompute(ev, x, layout, "attention_coefficient", "1", cp.ATTENTION_COEFFICIENT)()
        return (ev.derive("attention_flash_coefficient", "1", cp.flash_attention_coefficient)(core)
                if layout.flash_attention else core)

    def forward_score_bytes() -> V:
        return ev.derive("score_forward_bytes", "B", cp.SCORE_FORWARD_BYTES[x.dropout])()

    def microbatch_score_bytes() -> V:
        return ev.derive("score_microbatch_bytes", "B", cp.score_microbatch_bytes)(
            by_recompute(ev, x, layout, "score_forward_passes", "1", cp.SCORE_FORWARD_PASSES)(),
            forward_score_bytes(), ev.derive("score_backward_bytes", "B", cp.SCORE_BACKWARD_BYTES[x.dropout])())

    forward = seconds("forward", forward_flop, ev.derive("forward_passes", "1", cp.one_pass)(),
                      lambda: ev.derive("attention_forward_coefficient", "1", cp.attention_forward_coefficient)(),
                      forward_score_bytes)
    microbatch = seconds("microbatch", executed_mb, by_recompute(ev, x, layout, "microbatch_passes", "1", cp.PASSES)(),
                         executed_coefficient, microbatch_score_bytes)
    backward = ev.derive("compute.backward_s", "s", cp.backward_s)(microbatch, forward)
    attention = (ev.derive("attention_s", "s", cp.seconds_at_rate)(
        ev.derive("attention_flop_per_microbatch_per_gpu", "FLOP", cp.attention_flop)(
            x.b, x.s, x.L_paced, x.p, h_att, x.t, x.c), bf16_peak, eta_attn) if x.context else None)
    return cp.Compute(x.peak, per_step, model_mb, executed_mb, forward, backward, microbatch, attention)


def expert_efficiency(ev: Evaluator[V], x: Leaves[V], eta: V, gemm: Callable[[str, V, V], V]) -> V:
    """η_moe: the dense GEMMs at η, the routed experts' at the efficiency of their own size (`gemm`,
    compute's roofline), the busiest GPU carrying λ times the mean (`experts.py`)."""
    m = x.moe
    assert m is not None
    if x.moe_spread:  # the tokens of the e·t_e GPUs, each expert t_e times narrower
        eta_e = gemm("expert_", ev.derive("expert_tokens", "1", ex.expert_tokens)(x.b, x.s_c, m.k, m.block, x.t, m.E),
                     m.f_e if m.t_e is None else ev.derive("expert_ffn_per_rank", "1", cp.ffn_per_rank)(m.f_e, m.t_e))
    else:
        eta_e = gemm("expert_", ev.derive("expert_tokens", "1", ex.expert_tokens_unspread)(x.b, x.s_c, m.k, m.E),
                     ev.derive("expert_ffn_per_rank", "1", cp.ffn_per_rank)(m.f_e, x.t))
    share = ev.derive("routed_share", "1", ex.routed_share)(x.L, m.D, m.k, m.n, x.h, m.f_e, x.r)
    return ev.derive("moe_gemm_efficiency", "1", ex.moe_gemm_efficiency)(eta, eta_e, share, m.lam)


def step_time(ev: Evaluator[V], x: Leaves[V], m: V, work: cp.Compute[V], cluster: Cluster, layout: Layout,
              a: Assumptions) -> st.Step[V]:
    link = links(ev, x, cluster, a)
    message = ev.derive("activation_message_bytes", "B", tr.activation_message_bytes)(x.b, x.s_c, x.h)
    tp_ar = ev.derive("tp_all_reduce_s", "s", co.ring_all_reduce_s)(x.t, message, link.b_intra, link.alpha_intra)
    collectives = by_recompute(ev, x, layout, "tp_collectives_per_layer", "1", tr.TP_COLLECTIVES_PER_LAYER)(x.t)
    if x.moe_spread:
        tp = expert_layers_tp(ev, x, work, link, layout, collectives, tp_ar, message)
    else:
        tp = tp_exposed(ev, x, work, layout, ev.derive(
            "tp_microbatch_total_s" if layout.tp_overlap > 0.0 else "step.tp_microbatch_s", "s", tr.tp_microbatch_s)(
            collectives, x.L_paced, x.p, tp_ar))
    on_network = layout.pipeline_parallel > 1 and cluster.node_count > 1
    send = ev.derive("pp_send_s", "s", co.send_recv_s)(
        ev.derive("pipeline_message_bytes", "B", tr.pipeline_message_bytes if layout.pp_scatter_gather
                  else tr.pipeline_whole_message_bytes)(message, x.t),
        link.b_net if on_network else link.b_intra, link.alpha_net if on_network else link.alpha_intra)
    pp = (ev.derive("step.pp_microbatch_s", "s", tr.pp_microbatch_interleaved_s)(x.p, x.v, send)
          if layout.virtual_pipeline > 1 else ev.derive("step.pp_microbatch_s", "s", tr.pp_microbatch_s)(x.p, send))
    dp_intra, dp_net, sync = data_parallel(ev, x, m, link, layout, a)
    ring = context_ring(ev, x, work, link, layout, cluster) if x.context else None
    a2a = all_to_all(ev, x, work, link, layout, cluster) if x.moe is not None and layout.expert_parallel > 1 else None
    return combine(ev, x, m, work, (tp, pp, dp_intra, dp_net), on_network, layout, a, ring, sync, a2a)


def expert_layers_tp(ev: Evaluator[V], x: Leaves[V], work: cp.Compute[V], link: Links[V], layout: Layout,
                     collectives: V, tp_ar: V, message: V) -> V:
    """The tensor-parallel time per micro-batch left exposed with experts spread over GPUs: the
    attention's collectives in every layer and the MLP's in the dense layers, as a dense model's
    (hidden by `layout.tp_overlap`); an expert layer takes its tokens sequence-parallel as they are
    (Megatron-Core's MoE layer: no gather before the router), so with whole experts (t_e = 1) its
    MLP has none, and with experts split over the group (t_e = t) the group gathers the λ·k
    dispatched copies of its tokens before the experts and scatters them after (Megatron-Core's
    alltoall dispatcher), collectives that Transformer Engine's overlap of the linear layers does not hide."""
    m = x.moe
    assert m is not None
    overlap, sharded = layout.tp_overlap > 0.0, m.t_e is not None
    linear = ev.derive("tp_linear_microbatch_s" if overlap or sharded else "step.tp_microbatch_s", "s",
                       ex.tp_microbatch_moe_s)(collectives, x.L_paced, x.p, tp_ar, m.D, x.L)
    if overlap:
        linear = ev.derive("tp_linear_exposed_s" if sharded else "step.tp_microbatch_s", "s", st.exposed_tp_s)(
            linear, ev.given("layout.tp_overlap", "1", layout.tp_overlap, "layout"), work.microbatch_s)
    if not sharded:
        return linear
    expert_ar = ev.derive("etp_all_reduce_s", "s", co.ring_all_reduce_s)(
        x.t, ev.derive("etp_message_bytes", "B", ex.etp_message_bytes)(m.lam, m.k, message), link.b_intra,
        link.alpha_intra)
    return ev.derive("step.tp_microbatch_s", "s", st.sum_s)(
        linear, ev.derive("etp_microbatch_s", "s", ex.etp_microbatch_s)(collectives, x.L_paced, x.p, expert_ar, m.D, x.L))


def all_to_all(ev: Evaluator[V], x: Leaves[V], work: cp.Compute[V], link: Links[V], layout: Layout,
               cluster: Cluster) -> tuple[V, bool]:
    """The expert-parallel all-to-all left exposed per micro-batch, and whether it crosses the
    network (an expert-parallel group larger than a node), `experts.py`."""
    m = x.moe
    assert m is not None
    in_node = (ev.derive("ep_gpus_per_node", "1", ex.ep_gpus_per_node)(m.e, x.g) if m.t_e is None
               else ev.derive("ep_gpus_per_node", "1", ex.ep_gpus_per_node_sharded)(m.e, x.g, m.t_e))
    intra = ev.derive("a2a_intra_node_bytes", "B", ex.all_to_all_bytes)(
        m.lam, x.b, x.s_c, x.t, ev.derive("a2a_intra_node_copies", "1", ex.intra_node_copies)(m.k, in_node, m.e), x.h)
    on_net = layout.expert_parallel * layout.expert_tensor_parallel > cluster.node.gpus_per_node
    if on_net:
        copies = (ev.derive("a2a_network_copies", "1", ex.limited_network_copies)(m.k, m.e, in_node, m.M)
                  if m.M is not None else ev.derive("a2a_network_copies", "1", ex.network_copies)(m.k, m.e, in_node))
        one = ev.derive("all_to_all_s", "s", ex.all_to_all_s)(
            ev.derive("a2a_network_bytes", "B", ex.all_to_all_bytes)(m.lam, x.b, x.s_c, x.t, copies, x.h),
            link.b_net, intra, link.b_intra, link.alpha_net)
    else:
        one = ev.derive("all_to_all_s", "s", ex.intra_node_all_to_all_s)(intra, link.b_intra, link.alpha_intra)
    hidden = layout.ep_overlap > 0.0
    total = ev.derive("ep_microbatch_total_s" if hidden else "step.ep_microbatch_s", "s", ex.ep_microbatch_s)(
        by_recompute(ev, x, layout, "all_to_alls_per_layer", "1", ex.ALL_TO_ALLS)(), x.L_paced, x.p, x.L, m.D, one)
    if not hidden:
        return total, on_net
    return ev.derive("step.ep_microbatch_s", "s", ex.exposed_ep_s)(
        total, ev.given("layout.ep_overlap", "1", layout.ep_overlap, "layout"), work.microbatch_s), on_net


def context_ring(ev: Evaluator[V], x: Leaves[V], work: cp.Compute[V], link: Links[V], layout: Layout,
                 cluster: Cluster) -> tuple[V, bool]:
    """The ring attention exchange left exposed per micro-batch, and whether it crosses the network
    (a tensor- × context-parallel group larger than a node)."""
    on_net = layout.tensor_parallel * layout.context_parallel > cluster.node.gpus_per_node
    send = ev.derive("cp_send_s", "s", co.send_recv_s)(
        ev.derive("kv_chunk_bytes", "B", tr.kv_chunk_bytes)(x.b, x.s_c, x.h_kv, x.t),
        link.b_net if on_net else link.b_intra, link.alpha_net if on_net else link.alpha_intra)
    ring = ev.derive("cp_ring_microbatch_s", "s", tr.ring_kv_s)(x.L_paced, x.p, x.c, send)
    assert work.attention_s is not None
    return ev.derive("step.cp_microbatch_s", "s", st.exposed_ring_s)(ring, work.attention_s), on_net


def tp_exposed(ev: Evaluator[V], x: Leaves[V], work: cp.Compute[V], layout: Layout, total: V) -> V:
    """The tensor-parallel time per micro-batch left on the critical path by `layout.tp_overlap`."""
    if not layout.tp_overlap > 0.0:
        return total
    return ev.derive("step.tp_microbatch_s", "s", st.exposed_tp_s)(
        total, ev.given("layout.tp_overlap", "1", layout.tp_overlap, "layout"), work.microbatch_s)


def data_parallel(ev: Evaluator[V], x: Leaves[V], m: V, link: Links[V], layout: Layout,
                  a: Assumptions) -> tuple[V, V, V | None]:
    """Seconds of data-parallel communication per step: (intra-node part, network part, the part
    no compute can hide: ZeRO-3's synchronous per-tensor all-gathers, else None). With hybrid
    sharding the stage's collectives run inside a shard group, and the gradient shards are
    all-reduced across the groups' replicas once a step."""
    hybrid = layout.shard_group > 0
    peers = ev.derive("dp_peers_per_node", "1", co.dp_peers_per_node)(x.d_grad, x.g, x.t)
    k = ev.derive("shard_peers_per_node", "1", co.group_peers_per_node)(x.shard, peers) if hybrid else peers
    n = ev.derive("shard_nodes" if hybrid else "dp_nodes", "1", co.dp_nodes)(x.shard, k)
    split = expert_split(ev, x)
    psi = parameters_per_gpu(ev, x) if split is None else split[0]
    adapters = adapters_per_gpu(ev, x)
    weight_bytes = ev.given("assumptions.weight_bytes_per_parameter", "B", a.weight_bytes_per_parameter, "assumption")
    # FP8 weights are gathered at a byte: the linear layers' share φ₈ (`fp8_param_gather`)
    gathered = (weight_bytes if x.fp8_share is None else ev.derive(
        "fp8_gather_bytes_per_parameter", "B", tr.fp8_gather_bytes_per_parameter)(x.fp8_share, weight_bytes))
    # LoRA: only the adapters' gradients are reduced; ZeRO-3 gathers the whole weights (frozen base
    # and adapters), stages 1 and 2 gather back only what the optimizer updated, the adapters
    grads = ev.derive("gradient_bytes_per_gpu", "B", me.replicated_bytes)(
        psi if adapters is None else adapters, gradient_bytes_per_parameter(ev, layout, a))
    if adapters is not None and layout.zero_stage == 3:
        weights = lora_weights(ev, psi, adapters, weight_bytes, layout, "weight_bytes_per_gpu")
    else:
        weights = ev.derive("weight_bytes_per_gpu", "B", me.replicated_bytes)(
            psi if adapters is None else adapters, gathered)
    n_g = ev.derive("dp_gradient_phases", "1", tr.GRADIENT_PHASES[layout.zero_stage])(m)
    n_w = ev.derive("dp_weight_phases", "1", tr.WEIGHT_PHASES[layout.zero_stage])(m)
    b_i, b_n = link.b_intra, link.b_net
    c = (ev.derive("dp_collectives_per_phase", "1", tr.per_tensor)(x.L_paced, x.p, x.tensors) if x.tensors is not None
         else ev.derive("dp_collectives_per_phase", "1", tr.COLLECTIVES_PER_PHASE[layout.zero_stage])(x.L_paced, x.p))
    lat_i = ev.derive("dp_ring_intra_latency_s", "s", co.ring_intra_latency_s)(x.shard, n, link.alpha_intra)
    lat_n = ev.derive("dp_ring_network_latency_s", "s", co.ring_network_latency_s)(n, link.alpha_net)
    if x.tensors is not None:
        lat_i = ev.derive("dp_tensor_list_latency_s", "s", tr.per_tensor_latency_s)(lat_i, x.shard, ev.given(
            "assumptions.tensor_sync_rank_overhead_s", "s", a.tensor_sync_rank_overhead_s, "assumption"))
    phase = co.collectives_phase_s
    weight_intra = ev.derive("dp_weight_phase_intra_s", "s", phase)(c, lat_i, k, weights, b_i)
    intra = ev.derive("shard_group_intra_node_s" if hybrid else "dense_dp_intra_node_s" if split else "step.dp_intra_node_s",
                      "s", tr.phases_s)(
        n_g, ev.derive("dp_gradient_phase_intra_s", "s", phase)(c, lat_i, k, grads, b_i), n_w, weight_intra)
    grad_shard = ev.derive("gradient_shard_bytes", "B", co.shard_bytes)(grads, k)
    weight_shard = ev.derive("weight_shard_bytes", "B", co.shard_bytes)(weights, k)
    weight_net = ev.derive("dp_weight_phase_network_s", "s", phase)(c, lat_n, n, weight_shard, b_n)
    net = ev.derive("shard_group_network_s" if hybrid else "dense_dp_network_s" if split else "step.dp_network_s",
                    "s", tr.phases_s)(
        n_g, ev.derive("dp_gradient_phase_network_s", "s", phase)(c, lat_n, n, grad_shard, b_n), n_w, weight_net)
    sync = (ev.derive("dp_synchronous_gather_s", "s", tr.synchronous_gathers_s)(n_w, weight_intra, weight_net)
            if x.tensors is not None else None)
    if split is not None:
        expert_bytes = (weight_bytes if x.fp8_share is None
                        else ev.derive("fp8_expert_gather_bytes_per_parameter", "B", tr.fp8_bytes_per_parameter)())
        e_intra, e_net = expert_data_parallel(ev, x, link, layout, a, (n_g, n_w), split[1], expert_bytes)
        return (ev.derive("step.dp_intra_node_s", "s", st.sum_s)(intra, e_intra),
                ev.derive("step.dp_network_s", "s", st.sum_s)(net, e_net), sync)
    if not hybrid:
        return intra, net, sync
    return (*replica_all_reduce(ev, x, link, grads, peers, k, intra, net), sync)


def expert_data_parallel(ev: Evaluator[V], x: Leaves[V], link: Links[V], layout: Layout, a: Assumptions,
                         phases: tuple[V, V], experts: V, weight_bytes: V) -> tuple[V, V]:
    """The routed experts' gradients and weights over their own data-parallel group (the N_E GPUs
    that hold the same experts, e ranks apart), in the ZeRO stage's phases: (intra-node, network)."""
    m = x.moe
    assert m is not None
    k = ev.derive("expert_dp_peers_per_node", "1", ex.expert_dp_peers_per_node)(m.d_e, x.g, m.block)
    n = ev.derive("expert_dp_nodes", "1", co.dp_nodes)(m.d_e, k)
    grads = ev.derive("expert_gradient_bytes_per_gpu", "B", me.replicated_bytes)(
        experts, gradient_bytes_per_parameter(ev, layout, a))
    weights = ev.derive("expert_weight_bytes_per_gpu", "B", me.replicated_bytes)(experts, weight_bytes)
    c = ev.derive("expert_dp_collectives_per_phase", "1", tr.COLLECTIVES_PER_PHASE[layout.zero_stage])(x.L_paced, x.p)
    lat_i = ev.derive("expert_dp_ring_intra_latency_s", "s", co.ring_intra_latency_s)(m.d_e, n, link.alpha_intra)
    lat_n = ev.derive("expert_dp_ring_network_latency_s", "s", co.ring_network_latency_s)(n, link.alpha_net)
    phase = co.collectives_phase_s
    n_g, n_w = phases
    intra = ev.derive("expert_dp_intra_node_s", "s", tr.phases_s)(
        n_g, ev.derive("expert_dp_gradient_phase_intra_s", "s", phase)(c, lat_i, k, grads, link.b_intra),
        n_w, ev.derive("expert_dp_weight_phase_intra_s", "s", phase)(c, lat_i, k, weights, link.b_intra))
    net = ev.derive("expert_dp_network_s", "s", tr.phases_s)(
        n_g, ev.derive("expert_dp_gradient_phase_network_s", "s", phase)(
            c, lat_n, n, ev.derive("expert_gradient_shard_bytes", "B", co.shard_bytes)(grads, k), link.b_net),
        n_w, ev.derive("expert_dp_weight_phase_network_s", "s", phase)(
            c, lat_n, n, ev.derive("expert_weight_shard_bytes", "B", co.shard_bytes)(weights, k), link.b_net))
    return intra, net


def replica_all_reduce(ev: Evaluator[V], x: Leaves[V], link: Links[V], grads: V, peers: V, shard_peers: V,
                       intra: V, net: V) -> tuple[V, V]:
    """Hybrid sharding's all-reduce of each gradient shard (S_g ÷ G) across the N_d·c ÷ G replicas,
    once a step, added to the shard group's (`intra`, `net`) seconds."""
    r = ev.derive("replicas", "1", co.replicas)(x.d_grad, x.shard)
    k = ev.derive("replica_peers_per_node", "1", co.replica_peers_per_node)(peers, shard_peers)
    n = ev.derive("replica_nodes", "1", co.dp_nodes)(r, k)
    size = ev.derive("replica_gradient_bytes", "B", co.shard_bytes)(grads, x.shard)
    one = ev.derive("replica_collectives_per_phase", "1", tr.COLLECTIVES_PER_PHASE[0])(x.L_paced, x.p)
    lat_i = ev.derive("replica_ring_intra_latency_s", "s", co.ring_intra_latency_s)(r, n, link.alpha_intra)
    lat_n = ev.derive("replica_ring_network_latency_s", "s", co.ring_network_latency_s)(n, link.alpha_net)
    phase = co.collectives_phase_s
    intra_r = ev.derive("replica_intra_node_s", "s", tr.all_reduce_s)(
        ev.derive("replica_phase_intra_s", "s", phase)(one, lat_i, k, size, link.b_intra))
    net_r = ev.derive("replica_network_s", "s", tr.all_reduce_s)(
        ev.derive("replica_phase_network_s", "s", phase)(
            one, lat_n, n, ev.derive("replica_shard_bytes", "B", co.shard_bytes)(size, k), link.b_net))
    return (ev.derive("step.dp_intra_node_s", "s", st.sum_s)(intra, intra_r),
            ev.derive("step.dp_network_s", "s", st.sum_s)(net, net_r))


def combine(ev: Evaluator[V], x: Leaves[V], m: V, work: cp.Compute[V], comm: tuple[V, V, V, V], on_network: bool,
            layout: Layout, a: Assumptions, ring: tuple[V, bool] | None = None,
            synchronous: V | None = None, a2a: tuple[V, bool] | None = None) -> st.Step[V]:
    """The schedule: communication per micro-batch and per step into the step time and its shares
    (`ring`: the exposed context-parallel exchange per micro-batch and whether it is on the network;
    `synchronous`: the data-parallel seconds that hide behind no compute; `a2a`: the exposed
    expert-parallel all-to-all per micro-batch and whether it is on the network)."""
    tp, pp, dp_intra, dp_net = comm
    interleaved = layout.virtual_pipeline > 1

    def slots(key: str, per_slot: V) -> V:
        """`per_slot` over the schedule's slots: m + p − 1, or m + (p − 1)/v interleaved."""
        if interleaved:
            return ev.derive(key, "s", st.slots_interleaved_s)(m, x.p, x.v, per_slot)
        return ev.derive(key, "s", st.slots_s)(m, x.p, per_slot)

    dp = ev.derive("dp_s", "s", st.sum_s)(dp_intra, dp_net)
    window = ev.derive("step.dp_overlap_window_s", "s", st.OVERLAP_WINDOW[layout.zero_stage])(
        m, work.backward_s, work.forward_s)
    overlap = ev.given("assumptions.dp_overlap_fraction", "1", a.dp_overlap_fraction, "assumption")
    exposed = (ev.derive("step.dp_exposed_s", "s", st.exposed_dp_synchronous_s)(dp, synchronous, overlap, window)
               if synchronous is not None else ev.derive("step.dp_exposed_s", "s", st.exposed_dp_s)(dp, overlap, window))
    slot_key = "step.slot_s" if a2a is None else "slot_before_all_to_all_s"
    slot = (ev.derive(slot_key, "s", st.slot_context_s)(work.microbatch_s, tp, pp, ring[0]) if ring
            else ev.derive(slot_key, "s", st.slot_s)(work.microbatch_s, tp, pp))
    if a2a is not None:
        slot = ev.derive("step.slot_s", "s", st.sum_s)(slot, a2a[0])
    pipeline = slots("step.pipeline_s", slot)
    step = ev.derive("step.step_s", "s", st.sum_s)(pipeline, exposed)
    tp_pp = ev.derive("tp_pp_microbatch_s", "s", st.sum_s)(tp, pp)
    if ring:
        tp_pp = ev.derive("tp_pp_cp_microbatch_s", "s", st.sum_s)(tp_pp, ring[0])
    if a2a is not None:
        tp_pp = ev.derive("tp_pp_ep_microbatch_s", "s", st.sum_s)(tp_pp, a2a[0])
    exposed_comm = ev.derive("step.exposed_comm_s", "s", st.sum_s)(
        slots("tp_pp_per_step_s", tp_pp), exposed)
    zero = ev.given("zero", "s", 0.0, "derived")
    pp_intra, pp_net = (zero, pp) if on_network else (pp, zero)
    intra_mb = ev.derive("intra_node_microbatch_s", "s", st.sum_s)(tp, pp_intra)
    if ring:
        cp_intra, cp_net = (zero, ring[0]) if ring[1] else (ring[0], zero)
        intra_mb = ev.derive("intra_node_cp_microbatch_s", "s", st.sum_s)(intra_mb, cp_intra)
        pp_net = ev.derive("network_microbatch_s", "s", st.sum_s)(pp_net, cp_net)
    if a2a is not None:
        if a2a[1]:
            pp_net = ev.derive("network_ep_microbatch_s", "s", st.sum_s)(pp_net, a2a[0])
        else:
            intra_mb = ev.derive("intra_node_ep_microbatch_s", "s", st.sum_s)(intra_mb, a2a[0])
    intra = ev.derive("step.intra_node_s", "s", st.sum_s)(
        slots("intra_node_slots_s", intra_mb),
        ev.derive("dp_exposed_intra_node_s", "s", st.exposed_part_s)(exposed, dp_intra, dp))
    net = ev.derive("step.network_s", "s", st.sum_s)(
        slots("network_slots_s", pp_net),
        ev.derive("dp_exposed_network_s", "s", st.exposed_part_s)(exposed, dp_net, dp))
    return st.Step(
        m, tp, pp, on_network, dp_intra, dp_net, slot, pipeline,
        slots("step.compute_s", work.microbatch_s),
        ev.derive("step.bubble_s", "s", st.bubble_interleaved_s)(x.p, x.v, slot) if interleaved
        else ev.derive("step.bubble_s", "s", st.bubble_s)(x.p, slot), window, exposed, step, exposed_comm,
        ev.derive("step.comm_share", "1", st.share)(exposed_comm, step),
        ev.derive("step.tokens_per_s", "1/s", st.tokens_per_s)(x.B, x.s, step),
        ev.derive("step.achieved_mfu", "1", st.achieved_mfu)(work.model_flop_per_step, step, x.gpus, x.peak),
        intra, net, slots("step.tp_s", tp), *expert_outputs(ev, slots, a2a, step))


def expert_outputs(ev: Evaluator[V], slots: Callable[[str, V], V], a2a: tuple[V, bool] | None,
                   step: V) -> tuple[V | None, bool, V | None, V | None]:
    """The all-to-all's exposed seconds per micro-batch, whether on the network, per step and its
    share of the step; Nones for a model without expert parallelism."""
    if a2a is None:
        return None, False, None, None
    per_step = slots("step.all_to_all_s", a2a[0])
    return a2a[0], a2a[1], per_step, ev.derive("step.all_to_all_share", "1", st.share)(per_step, step)


def reference_layout(cluster: Cluster, layout: Layout) -> Layout | str:
    """The one-node run with the same per-GPU work (same t, p, b and micro-batches per step), or
    why there is none. A shard group as large as the node's data-parallel ranks, or larger, shards
    over all of them (the node holds no replica)."""
    g = cluster.node.gpus_per_node
    replica = layout.tensor_parallel * layout.pipeline_parallel * layout.context_parallel
    product = "t × p" if layout.context_parallel == 1 else "t × p × c"
    if replica > g:
        return f"no one-node reference: a model replica needs {product} = {replica} GPUs, more than a node's {g}"
    if g % replica:
        return f"no one-node reference: a model replica of {product} = {replica} GPUs does not divide a node's {g}"
    data_parallel = cluster.node_count * g // replica
    per_replica = layout.global_batch_size // data_parallel
    node_ranks = g // (layout.tensor_parallel * layout.pipeline_parallel)  # N_d·c of one node
    group = layout.shard_group if layout.shard_group < node_ranks else 0
    return replace(layout, global_batch_size=per_replica * (g // replica), shard_group=group)


def one_node_scaling(ev: Evaluator[V], workload: Workload, cluster: Cluster, layout: Layout, a: Assumptions,
                     step_s: V) -> tuple[V | float | None, str]:
    """Scaling efficiency against one node: its step time ÷ the cluster's (see `reference_layout`),
    the reference computed in full beside the cluster's run."""
    if cluster.node_count == 1:
        return 1.0, "the cluster is one node"
    ref_layout = reference_layout(cluster, layout)
    if isinstance(ref_layout, str):
        return None, ref_layout
    ref_cluster, ref = replace(cluster, node_count=1), ev.beside("one_node.")
    x = leaves(ref, workload, ref_cluster, ref_layout, a)
    m = microbatches(ref, x)  # equals the cluster's: same micro-batches per pipeline per step
    ref_step = step_time(ref, x, m, compute(ref, x, ref_cluster, ref_layout, a), ref_cluster, ref_layout, a)
    return (ev.derive("scaling_efficiency", "1", scaling_efficiency)(ref_step.step_s, step_s),
            f"against one node running {ref_layout.global_batch_size} sequences per step")
