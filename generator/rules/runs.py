"""model: a measured training run (specs/runs/) is self-consistent as its source printed it. It
names exactly one model, a workload or an inline shape; the shape's heads split its width and its
published parameter count is the count the shape gives (within `PARAMETER_TOLERANCE`); the
layout's degrees multiply out to the GPUs and the global batch splits into micro-batches over the
data-parallel replicas; expert parallelism spreads the experts of a mixture-of-experts model
evenly; a pipeline schedule has a pipeline to schedule and agrees with the interleaving; a
utilization is at most 100 %; and a FLOP figure says how it counted FLOPs, while any other figure
does not. A misread table cell or a misprint of the source (Llama 3's Table 4 prints DP = 4 where the
row needs 8) is caught where it is written; the run's note records the correction."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, Rule
from ..estimates.runs import PARAMETER_TOLERANCE, shape_parameters
from ..knowledge import Loaded
from ..model.costs import Workload
from ..model.runs import FLOP_METRICS, HARDWARE_CONVENTIONS, MODEL_CONVENTIONS, Run
from .base import Check, Context

MODEL = Rule("model-run-model", "model", "实测训练记录必须恰好给出一种模型：引用训练负载（workload）或写出形状（shape），二者选一。")
LAYOUT = Rule("model-run-layout", "model",
              "实测训练记录的并行度必须乘得出 GPU 数：tp × pp × cp 整除 GPU 数，给出 dp 时 tp × pp × cp × dp 等于 GPU 数。")
BATCH = Rule("model-run-batch", "model", "实测训练记录同时给出数据并行度和微批时，全局批必须是 dp × 微批的整数倍。")
CONVENTION = Rule("model-run-convention", "model",
                  "实测训练记录里按 FLOPs 计的数字（TFLOP/s、PFLOP/s、MFU、HFU）必须写明 FLOPs 口径，MFU 用模型 FLOPs 口径，"
                  "HFU 用硬件 FLOPs 口径（不重计算时两者相同）；其他数字不写口径。")
HEADS = Rule("model-run-heads", "model", "实测训练记录的模型形状里，注意力头数必须整除隐藏维度，键值头数必须整除注意力头数。")
PARAMETERS = Rule("model-run-parameters", "model",
                  "实测训练记录写出的参数量必须与其形状算出的参数量一致（相差不超过 3%）。")

EXPERTS = Rule("model-run-experts", "model",
               "实测训练记录写出专家并行度或专家路由方式时，模型必须是混合专家负载；专家并行度必须整除路由专家数，"
               "专家并行度 × 专家张量并行度必须整除一个流水线级的 GPU 数。内联形状写出专家时，每个 token 选的专家数不能超过专家数，"
               "稠密层数必须少于总层数。")
RECOMPUTE_LAYERS = Rule("model-run-recompute-layers", "model",
                        "实测训练记录写出每块重计算的层数（recompute_layers）时，重计算方式必须是 full：这些层做的是完全重计算。")
FP8_GATHER = Rule("model-run-fp8-param-gather", "model",
                  "实测训练记录写明权重以 FP8 收集（fp8_param_gather）时，精度必须是 fp8，且训练全部权重（不写 lora_rank）："
                  "只有 FP8 的线性层才有 FP8 权重可收集，LoRA 收集的是 16 位的适配器。")
MEASURED = Rule("model-run-measured", "model",
                "实测训练记录里的百分比（MFU、HFU）不能超过 100：算力利用率超过峰值的读数是读错了表格或口径。")
SCHEDULE = Rule("model-run-pipeline-schedule", "model",
                "实测训练记录写出的流水线调度必须有流水线可调度（流水线并行度大于 1），并与交错设置一致：只有交错调度有"
                "多个虚拟块；DualPipe 要求流水线级数和每步的微批数都是偶数。")


def _runs(ctx: Context) -> list[Loaded[Run]]:
    return ctx.kb.of_type(Run)


def check_one_model(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        run = entity.model
        if run.workload is not None and run.shape is not None:
            yield MODEL.report(entity, ("shape",), f"the run names workload {run.workload!r} and a shape: keep one")
        elif run.workload is None and run.shape is None:
            yield MODEL.report(entity, (), "the run names no model: add `workload` (an id of specs/workloads/) or `shape`")


def check_layout_degrees(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        run, lay = entity.model, entity.model.layout
        if lay.tensor_parallel is None or lay.pipeline_parallel is None or lay.context_parallel is None:
            continue
        model_parallel = lay.tensor_parallel * lay.pipeline_parallel * lay.context_parallel
        product = f"tp {lay.tensor_parallel} × pp {lay.pipeline_parallel} × cp {lay.context_parallel}"
        if run.gpus % model_parallel:
            yield LAYOUT.report(entity, ("gpus",), f"{product} = {model_parallel} does not divide the {run.gpus} GPUs")
        elif lay.data_parallel is not None and model_parallel * lay.data_parallel != run.gpus:
            yield LAYOUT.report(entity, ("layout", "data_parallel"),
                                f"{product} × dp {lay.data_parallel} = {model_parallel * lay.data_parallel}, "
                                f"not the {run.gpus} GPUs (dp would be {run.gpus // model_parallel})")


def check_batch_split(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        lay = entity.model.layout
        if lay.data_parallel is None or lay.micro_batch is None or lay.global_batch is None:
            continue
        per_step = lay.data_parallel * lay.micro_batch
        if lay.global_batch % per_step:
            yield BATCH.report(entity, ("layout", "global_batch"),
                               f"global batch {lay.global_batch} is not a multiple of dp {lay.data_parallel} × "
                               f"micro-batch {lay.micro_batch} = {per_step}")


def check_measured_shares(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        for index, figure in enumerate(entity.model.measured):
            if figure.metric.endswith("_pct") and figure.value > 100:
                yield MEASURED.report(entity, ("measured", index, "value"),
                                      f"{figure.metric} {figure.value:g} is above 100 %: a utilization above the peak "
                                      "is a misread cell or a number in another unit")


def check_conventions(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        recompute = entity.model.layout.recompute
        for index, figure in enumerate(entity.model.measured):
            where, convention = ("measured", index), figure.convention
            if figure.metric not in FLOP_METRICS:
                if convention is not None:
                    yield CONVENTION.report(entity, (*where, "convention"),
                                            f"{figure.metric} counts no FLOPs: drop the convention {convention!r}")
            elif convention is None:
                yield CONVENTION.report(entity, (*where, "metric"),
                                        f"{figure.metric} needs the FLOP convention it was counted with "
                                        "(`convention`; `unstated` if the source names none)")
            elif figure.metric == "mfu_pct" and convention in HARDWARE_CONVENTIONS:
                yield CONVENTION.report(entity, (*where, "convention"),
                                        f"MFU counts model FLOPs, but {convention!r} counts hardware FLOPs: is it HFU?")
            elif figure.metric == "hfu_pct" and convention in MODEL_CONVENTIONS and recompute != "none":
                # Without recomputation the hardware executes the model's FLOPs: HFU = MFU.
                yield CONVENTION.report(entity, (*where, "convention"),
                                        f"HFU counts hardware FLOPs, but {convention!r} counts model FLOPs and the run "
                                        f"{'does not state that it does not recompute' if recompute is None else 'recomputes'}: "
                                        "is it MFU?")


def check_shape_heads(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        shape = entity.model.shape
        if shape is None:
            continue
        if shape.hidden_size % shape.attention_heads:
            yield HEADS.report(entity, ("shape", "attention_heads"),
                               f"{shape.attention_heads} heads do not divide the hidden size {shape.hidden_size}")
        if shape.kv_heads is not None and shape.attention_heads % shape.kv_heads:
            yield HEADS.report(entity, ("shape", "kv_heads"),
                               f"{shape.kv_heads} key/value heads do not divide the {shape.attention_heads} heads")


def check_shape_parameters(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        shape = entity.model.shape
        if shape is None or shape.parameters is None:
            continue
        derived = shape_parameters(shape)  # None: the count cannot be told (a field is unstated) or the shape is broken
        if derived is not None and abs(shape.parameters - derived) > PARAMETER_TOLERANCE * derived:
            yield PARAMETERS.report(entity, ("shape", "parameters"),
                                    f"the shape gives {derived:,.0f} parameters, {(shape.parameters - derived) / derived:+.1%} "
                                    f"from the stated {shape.parameters:,}: check layers, widths, heads and vocabulary")


def check_experts(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        run, lay = entity.model, entity.model.layout
        shape = run.shape
        # an inline shape's experts, held as rule model-workload-experts holds a workload's
        if shape is not None and shape.moe is not None:
            if shape.moe.experts_per_token > shape.moe.experts:
                yield EXPERTS.report(entity, ("shape", "moe", "experts_per_token"),
                                     f"{shape.moe.experts_per_token} experts per token exceed the {shape.moe.experts} experts")
            if shape.moe.dense_layers >= shape.layers:
                yield EXPERTS.report(entity, ("shape", "moe", "dense_layers"),
                                     f"{shape.moe.dense_layers} dense layers leave none of the {shape.layers} layers to experts")
        if lay.expert_parallel is None and lay.expert_routing is None:
            continue
        if run.workload is not None:
            found = ctx.kb.get(run.workload, Workload)
            if found is None:
                continue  # an unknown workload is reported by the references rule
            moe = found.model.moe
        else:
            moe = None if shape is None else shape.moe
        if moe is None:
            field = "expert_parallel" if lay.expert_parallel is not None else "expert_routing"
            yield EXPERTS.report(entity, ("layout", field),
                                 f"{field} needs a mixture-of-experts workload (one with `moe`); "
                                 f"{'the inline shape' if run.workload is None else repr(run.workload)} has no experts")
            continue
        e = lay.expert_parallel
        if e is None:
            continue
        if moe.experts % e:
            yield EXPERTS.report(entity, ("layout", "expert_parallel"),
                                 f"expert parallel {e} does not divide the {moe.experts} routed experts")
        pp, block = lay.pipeline_parallel, e * (lay.expert_tensor_parallel or 1)
        if pp is not None and run.gpus % pp == 0 and (run.gpus // pp) % block:
            what = f"expert parallel {e}" if block == e else f"expert × expert tensor parallel {block}"
            yield EXPERTS.report(entity, ("layout", "expert_parallel"),
                                 f"{what} does not divide the {run.gpus // pp} GPUs of a pipeline stage "
                                 f"({run.gpus} GPUs ÷ pp {pp})")


def _micro_batches(run: Run) -> int | None:
    """Micro-batches per data-parallel replica and step, where the run states what it takes."""
    lay = run.layout
    if None in (lay.tensor_parallel, lay.pipeline_parallel, lay.context_parallel, lay.micro_batch, lay.global_batch):
        return None
    assert lay.tensor_parallel is not None and lay.pipeline_parallel is not None and lay.context_parallel is not None
    assert lay.micro_batch is not None and lay.global_batch is not None
    dp = lay.data_parallel or run.gpus // (lay.tensor_parallel * lay.pipeline_parallel * lay.context_parallel)
    per_step = dp * lay.micro_batch
    return lay.global_batch // per_step if per_step and lay.global_batch % per_step == 0 else None


def check_pipeline_schedule(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        run, lay = entity.model, entity.model.layout
        schedule = lay.pipeline_schedule
        if schedule is None:
            continue
        where = ("layout", "pipeline_schedule")
        if lay.pipeline_parallel == 1:
            yield SCHEDULE.report(entity, where, f"pipeline schedule {schedule!r} with pipeline parallel 1: "
                                  "there is no pipeline to schedule")
            continue
        chunked = lay.virtual_pipeline != 1
        if schedule == "interleaved" and not chunked:
            yield SCHEDULE.report(entity, where, "the interleaved schedule runs several model chunks per rank: "
                                  "state `virtual_pipeline` (a number, or `interleaved` if the source gives none)")
        elif schedule != "interleaved" and chunked and lay.virtual_pipeline != "unstated":
            yield SCHEDULE.report(entity, where, f"pipeline schedule {schedule!r}, but virtual_pipeline is "
                                  f"{lay.virtual_pipeline!r}: only the interleaved schedule has virtual chunks")
        if schedule == "dualpipe":
            pp, micro = lay.pipeline_parallel, _micro_batches(run)
            if pp is not None and pp % 2:
                yield SCHEDULE.report(entity, ("layout", "pipeline_parallel"),
                                      f"DualPipe feeds micro-batches from both ends: its {pp} pipeline stages must be even")
            if micro is not None and micro % 2:
                yield SCHEDULE.report(entity, ("layout", "global_batch"),
                                      f"DualPipe needs an even number of micro-batches per step; the layout gives {micro}")


def check_recompute_layers(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        lay = entity.model.layout
        if lay.recompute_layers is not None and lay.recompute != "full":
            yield RECOMPUTE_LAYERS.report(entity, ("layout", "recompute_layers"),
                                          f"recompute_layers {lay.recompute_layers} recomputes those layers in full: "
                                          f"recompute must be full, not {lay.recompute or 'unstated'}")


def check_fp8_param_gather(ctx: Context) -> Iterator[Diagnostic]:
    for entity in _runs(ctx):
        lay = entity.model.layout
        if not lay.fp8_param_gather:
            continue
        if lay.precision != "fp8":
            yield FP8_GATHER.report(entity, ("layout", "fp8_param_gather"),
                                    f"weights gathered in FP8 need FP8 linear layers: precision must be fp8, "
                                    f"not {lay.precision or 'unstated'}")
        elif lay.lora_rank is not None:
            yield FP8_GATHER.report(entity, ("layout", "fp8_param_gather"),
                                    "LoRA gathers its 16-bit adapters, not FP8 weights: leave fp8_param_gather out "
                                    "of a run that states lora_rank")


RULES = (MODEL, LAYOUT, BATCH, MEASURED, CONVENTION, HEADS, PARAMETERS, EXPERTS, SCHEDULE, RECOMPUTE_LAYERS,
         FP8_GATHER)
CHECKS: tuple[Check, ...] = (check_one_model, check_layout_degrees, check_batch_split, check_measured_shares, check_conventions,
                             check_shape_heads, check_shape_parameters, check_experts, check_pipeline_schedule,
                             check_recompute_layers, check_fp8_param_gather)
