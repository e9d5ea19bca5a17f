"""model: the cost model's knowledge is consistent. An assumption's value lies in its stated
range and the range in what the model accepts; a value read from a source (`estimate: false`)
cites a paper, a standard or vendor documentation, not an article; one assumption per model
parameter. A workload's shape splits evenly into heads, its experts can exist, and its stated
parameter counts (the total, and for a mixture-of-experts workload the count a token passes
through) are the counts its shape gives (within `PARAMETER_TOLERANCE` and the rounding of the
stated figure), so a mistyped width, layer or expert count is caught where it is written."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..estimates.records import agrees, heads_divide, shape_active_parameters, shape_parameters
from ..model.costs import PARAMETERS, Assumption, Workload
from ..model.entities import Source
from .base import Check, Context

RANGE = Rule("model-assumption-range", "model", "成本模型假设的取值必须落在其声明范围内，取值和范围都必须落在模型允许的定义域内（定义域可以不连续）。")
SOURCED = Rule("model-assumption-source", "model", "不是估计值的假设必须引用论文、标准、数据手册或厂商文档，不能引用文章或估算。")
DUPLICATE = Rule("model-assumption-duplicate", "model", "每个模型参数只能由一个假设条目设定。")
HEADS = Rule("model-workload-heads", "model",
             "训练负载的键值头数必须整除注意力头数；没有写明每头宽度（head_dim）也不是潜在注意力（mla）时，注意力头数还必须整除隐藏维度。")
PARAMETERS_RULE = Rule("model-workload-parameters", "model",
                       "训练负载声明的参数量必须与其形状算出的参数量一致（相差不超过 1%，另加所写数字末位的半个单位，至少按两位有效数字读，用于 671B、30B 这样的约数）。")
EXPERTS = Rule("model-workload-experts", "model",
               "混合专家负载的每个 token 选中的专家数不能多于路由专家数，开头的稠密层必须少于总层数。")
ATTENTION = Rule("model-workload-attention", "model",
                 "训练负载的注意力要么是潜在注意力（mla），要么写明每头宽度（head_dim），不能两者都写。")
ACTIVE = Rule("model-workload-active-parameters", "model",
              "混合专家负载必须写明每个 token 激活的参数量，它不能超过总参数量，并且与形状算出的激活参数量一致"
              "（容差与总参数量相同）。")

_SOURCED_KINDS = {"paper", "standard", "datasheet", "documentation", "measurement"}


def check_assumption_ranges(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Assumption):
        a, domain = entity.model, PARAMETERS[entity.model.parameter]
        ends = [key for key, value in (("low", a.range.low), ("high", a.range.high)) if not domain.holds(value)]
        for key in ends:
            yield RANGE.report(entity, ("range", key), f"range {key} {getattr(a.range, key):g} is outside what "
                               f"{a.parameter} accepts, {domain.label()}")
        if a.range.low > a.range.high:
            yield RANGE.report(entity, ("range",), f"range low {a.range.low:g} is above high {a.range.high:g}")
        elif not a.range.low <= a.value <= a.range.high:
            yield RANGE.report(entity, ("value",), f"value {a.value:g} lies outside the stated range "
                               f"[{a.range.low:g}, {a.range.high:g}]")
        elif not ends and not domain.holds(a.value):
            # A domain such as {0} ∪ [1e-09, 1] is not an interval: a range from 0 holds both ends
            # and still spans the gap, where a value (1e-11 s) is finite but none the model takes.
            yield RANGE.report(entity, ("value",), f"value {a.value:g} is outside what {a.parameter} accepts, "
                               f"{domain.label()}, though inside the stated range")


def check_assumption_sources(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Assumption):
        source = ctx.kb.get(entity.model.source, Source)
        if not entity.model.estimate and source is not None and source.model.kind not in _SOURCED_KINDS:
            yield SOURCED.report(entity, ("source",), f"a value read from a source cites a {source.model.kind}; "
                                 "cite a paper, standard or vendor document, or mark it `estimate: true`")


def check_one_assumption_per_parameter(ctx: Context) -> Iterator[Diagnostic]:
    seen: dict[str, str] = {}
    for entity in sorted(ctx.kb.of_type(Assumption), key=lambda e: e.path):
        first = seen.setdefault(entity.model.parameter, entity.id)
        if first != entity.id:
            yield DUPLICATE.report(entity, ("parameter",), f"{entity.model.parameter} is already set by {first!r}")


def check_workload_heads(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Workload):
        w = entity.model
        if heads_divide(w):
            continue
        if w.head_dim is None and w.mla is None and w.hidden_size % w.attention_heads:
            yield HEADS.report(entity, ("attention_heads",),
                               f"{w.attention_heads} heads do not divide the hidden size {w.hidden_size} "
                               "(state `head_dim` if each head is not hidden_size ÷ heads wide)")
        if w.attention_heads % w.kv_heads:
            yield HEADS.report(entity, ("kv_heads",),
                               f"{w.kv_heads} key/value heads do not divide the {w.attention_heads} heads")


def check_workload_experts(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Workload):
        w, m = entity.model, entity.model.moe
        if m is None:
            continue
        if m.experts_per_token > m.experts:
            yield EXPERTS.report(entity, ("moe", "experts_per_token"),
                                 f"{m.experts_per_token} experts per token exceed the {m.experts} routed experts")
        if m.dense_layers >= w.layers:
            yield EXPERTS.report(entity, ("moe", "dense_layers"),
                                 f"{m.dense_layers} dense layers leave none of the {w.layers} layers to the experts")


def check_workload_attention(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Workload):
        w = entity.model
        if w.mla is not None and w.head_dim is not None:
            yield ATTENTION.report(entity, ("head_dim",),
                                   "latent attention (`mla`) states its own head widths: drop `head_dim`")


def check_workload_parameters(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Workload):
        w = entity.model
        derived = shape_parameters(w)
        # None: a shape that cannot exist, reported above.
        if derived is not None and not agrees(w.parameters, derived):
            yield PARAMETERS_RULE.report(
                entity, ("parameters",), f"the shape gives {derived:,.0f} parameters, "
                f"{(w.parameters - derived) / derived:+.1%} from the stated {w.parameters:,}: check layers, widths, "
                "heads, experts and vocabulary")


def check_workload_active_parameters(ctx: Context) -> Iterator[Diagnostic]:
    for entity in ctx.kb.of_type(Workload):
        w = entity.model
        if w.active_parameters is None:
            if w.moe is not None:
                yield ACTIVE.report(entity, ("moe",), "a mixture-of-experts workload states `active_parameters`, the "
                                    "published count of parameters a token passes through")
            continue
        if w.active_parameters > w.parameters:
            yield ACTIVE.report(entity, ("active_parameters",),
                                f"{w.active_parameters:,} active parameters exceed the {w.parameters:,} in total")
            continue
        derived = shape_active_parameters(w)
        # None: a shape that cannot exist, reported above.
        if derived is not None and not agrees(w.active_parameters, derived):
            yield ACTIVE.report(
                entity, ("active_parameters",), f"the shape gives {derived:,.0f} active parameters (every layer's "
                f"attention and norms, the experts a token is routed to, the shared ones, the routers and the "
                f"output layer), {(w.active_parameters - derived) / derived:+.1%} from the stated "
                f"{w.active_parameters:,}: check the experts per token, the expert width and the dense layers")


RULES = (RANGE, SOURCED, DUPLICATE, HEADS, PARAMETERS_RULE, EXPERTS, ATTENTION, ACTIVE)
CHECKS: tuple[Check, ...] = (check_assumption_ranges, check_assumption_sources, check_one_assumption_per_parameter,
                             check_workload_heads, check_workload_parameters, check_workload_experts,
                             check_workload_attention, check_workload_active_parameters)
