"""Command line: `python -m generator check|build|recommend|schema|diff`. The only place, with the
MkDocs hook, that reads or writes files; everything it calls is pure."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ..diagnostics import Diagnostic, format_all, quoted
from ..language import DEFAULT, LANGUAGES
from ..repository import Repository, from_settings
from ..strict_json import NotFinite
from ..validate import Result, SpecFile, validate
from .counts import count, whole
from .files import inside, write_all
from .output import CLOSED_PIPE, discard, streams
from .specfiles import SpecSourceError, read_spec_tree, read_spec_tree_at

if TYPE_CHECKING:  # imported where used: `check` need not load the cost model
    from ..estimates.choice import Shape
    from ..knowledge import KnowledgeBase


def build_date(environ: dict[str, str] | os._Environ[str] = os.environ) -> dt.date:
    """The date no spec date may pass: SOURCE_DATE_EPOCH (seconds since 1970, UTC) when set,
    so that a reproducible build judges the same tree the same way whenever it runs; else today
    in UTC. A value that is not a whole number of seconds is ignored, as reproducible-builds.org
    says a tool should not fail on it."""
    epoch = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        try:
            return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date()
        except (OverflowError, OSError, ValueError):  # beyond the platform's dates: fall back to the clock
            pass
    return dt.datetime.now(dt.UTC).date()


def run_check(root: Path) -> Result:
    files, early = read_spec_tree(root)
    return validate(files, early, today=build_date())


def _check(args: argparse.Namespace) -> int:
    result = run_check(Path(args.path))
    report = format_all(result.diagnostics, args.format)
    if report:
        print(report, file=sys.stdout if args.format == "github" else sys.stderr)
    if args.format == "text":
        print(summary(result, args.strict, f"{args.path}: {len(result.kb.entities) if result.kb else 0} entities"),
              file=sys.stderr)
    return 0 if result.passes(args.strict) else 1


def summary(result: Result, strict: bool, subject: str) -> str:
    """The closing line of a check: what was found, and (under --strict) that warnings fail it."""
    errors = sum(1 for d in result.diagnostics if d.severity.value == "error")
    warnings = len(result.warnings)
    if not errors and not warnings:
        return f"{subject}, no problems"
    counts = ", ".join(part for part in (f"{errors} error(s)" if errors else "",
                                         f"{warnings} warning(s)" if warnings else "") if part)
    return f"{subject}, {counts}" + (" (--strict: warnings count as errors)" if strict and warnings else "")


def _schema(args: argparse.Namespace) -> int:
    from ..spec_schema import schema_files, spec_schemas
    if args.out:
        refusal = _output_refusal(args.out, args.specs, "write the schemas elsewhere (make schema writes schema/)")
        if refusal:
            print(refusal, file=sys.stderr)
            return 1
        problem = write_all(Path(args.out), schema_files())
        if problem:
            print(f"nothing written: {problem}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(json.dumps(spec_schemas(), ensure_ascii=False, allow_nan=False, indent=2, sort_keys=True) + "\n")
    return 0


# The project's own knowledge base, beside generator/: refused as an output folder whatever the
# working folder and --specs say (`schema` reads no specs, and a build may read another folder).
PROJECT_SPECS = Path(__file__).resolve().parents[2] / "specs"


def _output_refusal(out: str, specs: str, advice: str) -> str | None:
    """Why `--out` may not be written (one line), or None: it is, or lies inside, the knowledge
    base the command reads or the project's own, links and `..` resolved. A generated page or
    schema written there would become a spec file, or overwrite one."""
    folder = inside(Path(out), [Path(specs), PROJECT_SPECS])
    if folder is None:
        return None
    return f"nothing written: --out {out} is inside the knowledge base {specs if folder == Path(specs) else folder}; {advice}"


def find_repository(project: Path) -> Repository | None:
    """Where the project is edited on the web (see `repository.from_settings`): the environment,
    or the `origin` remote of the checkout at `project`."""
    try:
        done = subprocess.run(["git", "-C", str(project), "config", "--get", "remote.origin.url"],
                              capture_output=True, text=True, timeout=10, check=False)
        origin = done.stdout.strip() if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):  # no git, or it hung: no origin to read
        origin = None
    return from_settings(os.environ, origin)


def run_build(root: Path, repository: Repository | None,
              languages: Sequence[str] = (DEFAULT,)) -> tuple[Result, dict[str, str] | None]:
    """Validate the tree and, when it passes, render every generated file (in memory) in each of
    `languages` (render_site), with entities linked to their spec files in `repository`."""
    from ..pipeline import validate_and_render
    from ..render import environment
    from .template_cache import keep_compiled_templates
    keep_compiled_templates(environment())  # each build is a new process: 55 templates compiled once
    files, early = read_spec_tree(root)
    return validate_and_render(files, early, repository, build_date(), languages)


def _build(args: argparse.Namespace) -> int:
    refusal = _output_refusal(args.out, args.specs, "write the pages elsewhere (the site's docs/, or a scratch folder)")
    if refusal:  # before anything is read: the answer does not depend on the specs
        print(refusal, file=sys.stderr)
        return 1
    specs = Path(args.specs)
    result, files = run_build(specs, find_repository(specs.resolve().parent), LANGUAGES)
    if result.diagnostics:
        print(format_all(result.diagnostics), file=sys.stderr)
    if files is None or not result.passes(args.strict):
        print(summary(result, args.strict, "nothing written: the knowledge base does not pass"), file=sys.stderr)
        return 1
    out = Path(args.out).resolve()
    problem = write_all(out, files)  # refuses a folder whose real path leaves `out`
    if problem:
        print(f"nothing written: {problem}", file=sys.stderr)
        return 1
    print(f"{len(files)} files up to date in {args.out}", file=sys.stderr)
    return 0


def _recommend(args: argparse.Namespace) -> int:
    from ..estimates.calibration import accuracy_record, calibrate
    from ..selection.tree import NoAnswer
    from .recommend import run
    result = run_check(Path(args.specs))
    if not result.ok or result.kb is None or result.figures is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        return 1
    try:
        accuracy = accuracy_record(calibrate(result.kb))
        print(run(result.kb, result.figures, args.answers, args.format, build_date(), accuracy))
    except NoAnswer as err:
        print(f"recommend: {err}", file=sys.stderr)
        return 2
    return 0


SHAPE_FLAGS = ("layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab")


def _shape(args: argparse.Namespace) -> Shape | str | None:
    """The shape given by flags, None when no shape flag is given, or what is missing."""
    from ..estimates.choice import Shape
    given = {name: getattr(args, name) for name in SHAPE_FLAGS if getattr(args, name) is not None}
    if not given and args.mlp is None:
        return None
    missing = [f"--{name}" for name in ("layers", "hidden", "heads", "vocab") if name not in given]
    if missing:
        return f"a shape needs {', '.join(missing)} as well (with --kv-heads, --ffn-hidden and --mlp optional)"
    from ..costmodel.feasibility import MAX_COUNT
    bad = [f"--{name.replace('_', '-')} {value if value < 1 else f'of {len(str(value))} digits'}"
           for name, value in given.items() if not 1 <= value <= MAX_COUNT]
    if bad:
        return f"{bad[0]}: a shape's sizes are whole numbers from 1 to 2^53 − 1"
    return Shape(args.layers, args.hidden, args.heads, args.kv_heads, args.ffn_hidden, args.vocab, args.mlp or "gelu")


def _estimate(args: argparse.Namespace) -> int:
    from ..costmodel import estimate
    from ..estimates.calibration import accuracy_record, architecture_of, block_of, calibrate, for_kind, training_of
    from ..estimates.choice import Choice, resolve
    from ..estimates.report import to_json, to_text
    result = run_check(Path(args.specs))
    if not result.ok or result.kb is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        return 1
    if args.gpu is None and args.node is None:
        print("estimate: name a GPU (--gpu ID) or a node (--node ID)", file=sys.stderr)
        return 2
    try:
        params = None if args.params is None else count(args.params)
    except ValueError as err:
        print(f"estimate: --params {quoted(args.params)} {err}: give a parameter count such as 70B or 7e9",
              file=sys.stderr)
        return 2
    shape = _shape(args)
    if isinstance(shape, str):
        print(f"estimate: {shape}", file=sys.stderr)
        return 2
    choice = Choice(args.gpu or "", args.gpus, args.network, args.workload, params, args.gpus_per_node,
                    args.nics_per_node, args.tp, args.pp, args.zero, args.micro_batch, args.seq,
                    args.global_batch, args.recompute, args.sequence_parallel, args.node, shape, args.precision,
                    not args.no_flash_attention, args.virtual_pipeline, args.fp32_gradients, args.tp_overlap, args.cp,
                    args.shard_group, args.attention_kernel, args.zero_gather, args.lora_rank, args.base_bits,
                    args.ep, args.ep_overlap, args.expert_imbalance, args.etp, args.recompute_layers,
                    args.fp8_param_gather)
    resolved = resolve(result.kb, choice)
    if isinstance(resolved, str):
        print(f"estimate: {resolved}", file=sys.stderr)
        return 2
    outcome = estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions)
    if outcome.estimate is None:
        print(f"estimate: {outcome.problems[0].message}", file=sys.stderr)
        return 2
    accuracy = for_kind(accuracy_record(calibrate(result.kb)), block_of(resolved.workload), resolved.layout.precision,
                        architecture_of(result.kb, resolved.ids["gpu"]), training=training_of(resolved.layout))
    print(to_json(resolved, outcome, accuracy) if args.format == "json" else to_text(resolved, outcome, accuracy))
    return 0


def _plan(args: argparse.Namespace) -> int:
    from ..estimates.calibration import accuracy_record, calibrate
    from ..estimates.choice import Choice
    from ..model.markets import Market
    from ..planner.plan import GOALS, PlanError, Request, plan, plan_range
    from .plan import to_json, to_text
    result = run_check(Path(args.specs))
    if not result.ok or result.kb is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        return 1
    kb = result.kb
    markets = [m.id for m in kb.of_type(Market)]
    problem = None
    if args.market is None:
        problem = f"--market is missing; choose one of: {', '.join(markets) or 'none (specs/markets/ is empty)'}"
    elif args.market not in markets:
        problem = f"--market {args.market!r} is unknown; choose one of: {', '.join(markets)}"
    gpus = _gpu_range(args.gpus)
    if problem is None and gpus is None:
        problem = "--gpus is missing or not a count; give the GPUs, e.g. --gpus 64, or a range, e.g. --gpus 8-64"
    elif args.goal not in GOALS:
        problem = f"--goal {args.goal!r} is unknown; choose one of: {', '.join(GOALS)}"
    counts: dict[str, float] = {}
    for flag, text in (("--params", args.params), ("--tokens", args.tokens)):
        try:
            if text is not None:
                counts[flag] = count(text)
        except ValueError as err:
            problem = problem or f"{flag} {quoted(text)} {err}: --params and --tokens take counts such as 70B, 7e9 or 2T"
    params, tokens = counts.get("--params"), counts.get("--tokens")
    shape = _shape(args)
    if isinstance(shape, str):
        problem = problem or shape
    for flag, value in (("--seq", args.seq), ("--global-batch", args.global_batch), ("--micro-batch", args.micro_batch),
                        ("--lora-rank", args.lora_rank), ("--ep", args.ep)):
        if problem is None and value is not None and not 1 <= value <= 100_000_000:
            problem = f"{flag} {value}: give a whole number of at least 1"
    if problem is None and args.workload is None and params is None and shape is None:
        problem = "name the model: --workload ID, --params 70B, or a shape (--layers --hidden --heads --vocab)"
    if problem is not None:
        print(f"plan: {problem}", file=sys.stderr)
        return 2
    assert not isinstance(shape, str)
    model = Choice("", 0, "", args.workload, params, shape=shape, micro_batch_size=args.micro_batch)
    if args.base_bits != 16 and args.goal != "lora":
        print(f"plan: --base-bits {args.base_bits} quantizes a frozen base: it needs --goal lora", file=sys.stderr)
        return 2
    assert gpus is not None
    request = Request(model, gpus[0], args.market, args.goal, tokens, args.licensed, args.seq, args.global_batch,
                      args.lora_rank, args.base_bits, args.ep)
    try:
        found, ladder = plan_range(kb, request, gpus[1]) if gpus[1] != gpus[0] else (plan(kb, request), [])
    except PlanError as err:
        print(f"plan: {err}", file=sys.stderr)
        return 2
    accuracy = accuracy_record(calibrate(kb))
    print(to_json(kb, found, build_date(), accuracy, ladder) if args.format == "json"
          else to_text(kb, found, build_date(), accuracy, ladder))
    return 0


def _gpu_range(text: str | None) -> tuple[int, int] | None:
    """`64` or `8-64`: the GPU count, or the ends of a range (low at least 1, not above high)."""
    if text is None:
        return None
    low, _, high = text.partition("-")
    try:
        ends = (int(low), int(high or low))
    except ValueError:
        return None
    return ends if 1 <= ends[0] <= ends[1] <= 1_000_000 else None


def _add_model_flags(parser: argparse.ArgumentParser) -> None:
    """The model flags `estimate` and `plan` share: a workload, a parameter count, or a shape."""
    parser.add_argument("--workload", help="workload id (specs/workloads/), e.g. llama-3-1-70b")
    parser.add_argument("--params", help="parameter count, e.g. 70B: alone, the nearest published workload's shape "
                                         "scaled to exactly this count; with shape flags, the shape's stated count")
    shape = parser.add_argument_group("a shape instead of --workload (with --layers, --hidden, --heads and --vocab)")
    shape.add_argument("--layers", type=whole, help="transformer blocks")
    shape.add_argument("--hidden", type=whole, help="hidden size")
    shape.add_argument("--heads", type=whole, help="attention heads")
    shape.add_argument("--kv-heads", type=whole, help="key/value heads (default: as many as heads)")
    shape.add_argument("--ffn-hidden", type=whole, help="MLP width (default: 4 × hidden)")
    shape.add_argument("--vocab", type=whole, help="vocabulary size")
    shape.add_argument("--mlp", choices=("gelu", "swiglu"),
                       help="gelu: a GPT block (LayerNorm, biases, tied embeddings; the default); swiglu: a Llama "
                            "block (RMSNorm, no biases, untied embeddings)")


def _one_line_errors(command: str) -> Callable[[str], NoReturn]:
    """A parser's flag errors as one line and exit 2 (`<command>: <message>`), not argparse's usage block."""
    def error(message: str) -> NoReturn:
        print(f"{command}: {message}", file=sys.stderr)
        raise SystemExit(2)
    return error


def _add_plan(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    pl = sub.add_parser("plan", help="which GPU, node and network to buy for a model, a GPU count, a market and a goal",
                        description="Every node and network of the knowledge base that can be bought in the market, "
                                    "each with the fastest layout the cost model finds at your model and GPU count; "
                                    "the best option, the best of each other GPU family, and why the rest are left "
                                    "out. When nothing fits, the fewest GPUs that would. Exit 2 on bad input.")
    _add_model_flags(pl)
    pl.add_argument("--gpus", help="number of GPUs, or a range such as 8-64 (planned at its ends and the doublings "
                                   "between; the answer is the count that trains a token in the fewest GPU-hours)")
    pl.add_argument("--market", help="where you buy: a market id of specs/markets/ (global, china)")
    pl.add_argument("--goal", default="pretrain", help="pretrain (default), finetune or lora")
    pl.add_argument("--tokens", help="tokens to train, e.g. 2T: adds time to train, GPU-hours and energy")
    pl.add_argument("--licensed", action="store_true",
                    help="also count on parts that need an export licence in the market")
    pl.add_argument("--seq", type=whole, help="sequence length in tokens (default 4096)")
    pl.add_argument("--global-batch", type=whole,
                    help="sequences per step, at least (default 512 for pretrain, 128 for fine-tuning)")
    pl.add_argument("--micro-batch", type=whole, default=1, help="sequences per micro-batch (default 1)")
    pl.add_argument("--lora-rank", type=whole, default=16, metavar="R", help="with --goal lora: the adapters' rank (default 16)")
    pl.add_argument("--ep", type=whole, metavar="N",
                    help="a mixture-of-experts workload: spread each layer's experts over N GPUs (default: the search "
                         "tries every size the experts and the GPUs allow)")
    pl.add_argument("--base-bits", type=whole, choices=(16, 8, 4), default=16,
                    help="with --goal lora: bits of the frozen base weights (4: QLoRA)")
    pl.add_argument("--format", choices=("text", "json"), default="text")
    pl.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    pl.set_defaults(func=_plan)
    pl.error = _one_line_errors("plan")  # type: ignore[method-assign,assignment]


def _calibrate(args: argparse.Namespace) -> int:
    from ..estimates.calibration import calibrate
    from .calibrate import to_json, to_text
    result = run_check(Path(args.specs))
    if not result.ok or result.kb is None:
        print(format_all(result.diagnostics), file=sys.stderr)
        return 1
    if args.scan:
        return _scan(args, result.kb)
    report = calibrate(result.kb)
    print(to_json(report) if args.format == "json" else to_text(report, args.worst))
    return 0


def _scan(args: argparse.Namespace, kb: KnowledgeBase) -> int:
    from ..estimates.fit import scan
    from .calibrate import scan_json, scan_text
    grid: dict[str, list[float]] = {}
    for item in args.scan:
        name, _, values = item.partition("=")
        try:
            grid[name.strip()] = [float(v) for v in values.split(",") if v.strip()]
        except ValueError:
            print(f"calibrate: --scan {item!r} is not NAME=V1,V2,... with numbers", file=sys.stderr)
            return 2
    found = scan(kb, grid)
    if isinstance(found, str):
        print(f"calibrate: {found}", file=sys.stderr)
        return 2
    print(scan_json(found) if args.format == "json" else scan_text(found))
    return 0


def _add_calibrate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cal = sub.add_parser("calibrate", help="the cost model against every published run in specs/runs/",
                         description="Predicted against measured step time for every run of specs/runs/ (error = "
                                     "measured ÷ predicted − 1), with the mean absolute error and bias per source "
                                     "and overall, the worst runs, the runs reported as not fitting and the runs "
                                     "the model cannot express, each with its reason.")
    cal.add_argument("--format", choices=("text", "json"), default="text")
    cal.add_argument("--worst", type=whole, default=10, help="how many of the worst runs the text lists")
    cal.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    cal.add_argument("--scan", action="append", metavar="NAME=V1,V2,...",
                     help="the calibration at every point of a grid of assumption values (repeat for a second "
                          "assumption), the best point, and each source held out in turn")
    cal.set_defaults(func=_calibrate)
    cal.error = _one_line_errors("calibrate")  # type: ignore[method-assign,assignment]


def _add_estimate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    est = sub.add_parser("estimate", help="estimate memory, step time and communication share of a training layout",
                         description="Memory per GPU, step time, communication share and bottleneck of one training "
                                     "configuration, from the cost model over the knowledge base (specs/workloads/, "
                                     "specs/assumptions/, GPUs and networks). Exit 2 on an unknown id or a layout "
                                     "that cannot be placed.")
    _add_model_flags(est)
    est.add_argument("--gpu", help="GPU id (specs/gpus/); or --node")
    est.add_argument("--gpus", type=whole, required=True, help="number of GPUs")
    est.add_argument("--gpus-per-node", type=whole, help="GPUs per node (default 8, or fewer GPUs in all)")
    est.add_argument("--node", help="node id (specs/nodes/): its GPU, GPUs per node and scale-out ports")
    est.add_argument("--network", required=True, help="network id (specs/networks/)")
    est.add_argument("--nics-per-node", type=whole, help="network ports per node (default: one per GPU)")
    est.add_argument("--tp", type=whole, default=1, help="tensor parallel (within a node)")
    est.add_argument("--pp", type=whole, default=1, help="pipeline parallel")
    est.add_argument("--zero", type=whole, default=1, choices=(0, 1, 2, 3), help="ZeRO stage (FSDP full shard: 3)")
    est.add_argument("--micro-batch", type=whole, default=1, help="sequences per micro-batch")
    est.add_argument("--seq", type=whole, default=4096, help="sequence length in tokens")
    est.add_argument("--global-batch", type=whole, default=512, help="sequences per step")
    est.add_argument("--recompute", choices=("none", "selective", "full"), default="none",
                     help="activation recomputation (default none, as in Megatron-LM and PyTorch; under "
                          "FlashAttention selective stores what none stores and repeats the attention forward)")
    est.add_argument("--recompute-layers", type=whole, default=0, metavar="N",
                     help="with --recompute full: recompute only the first N layers of each pipeline chunk, the "
                          "others storing everything (Megatron-LM's --recompute-method block; default 0: every layer)")
    est.add_argument("--sequence-parallel", action="store_true", help="Megatron sequence parallelism")
    est.add_argument("--precision", choices=("bf16", "fp8"), default="bf16",
                     help="which dense tensor rate the linear layers run at (model states stay 16-bit mixed "
                          "precision; under fp8 the linear layers' saved inputs take a byte a value)")
    est.add_argument("--no-flash-attention", action="store_true",
                     help="store the s×s attention scores (FlashAttention is on by default)")
    est.add_argument("--attention-kernel", choices=("flash-attention-2", "cudnn"), default="flash-attention-2",
                     help="the FlashAttention kernel: flash-attn's FlashAttention-2 (default) or cuDNN's fused "
                          "attention, Transformer Engine's first choice on Hopper (NeMo, Megatron-Core)")
    est.add_argument("--zero-gather", choices=("layer", "tensor-sync"), default="layer",
                     help="how ZeRO-3 gathers the weights: per layer, prefetched (default; FSDP, DeepSpeed from "
                          "v0.5.5), or per parameter tensor after a device synchronize (DeepSpeed v0.3.13-v0.5.4)")
    est.add_argument("--virtual-pipeline", type=whole, default=1, metavar="N",
                     help="model chunks per pipeline stage: interleaved 1F1B (default 1)")
    est.add_argument("--fp32-gradients", action="store_true", help="gradients held and reduced in FP32 (4 bytes)")
    est.add_argument("--fp8-param-gather", action="store_true",
                     help="with --precision fp8: the linear layers' weights held in FP8 and all-gathered at 1 byte "
                          "(Megatron-Core's --fp8-param-gather, NeMo's fp8_params)")
    est.add_argument("--tp-overlap", type=float, default=0.0, metavar="F",
                     help="share of tensor-parallel communication hidden behind compute, in [0, 1] (default 0)")
    est.add_argument("--cp", type=whole, default=1, metavar="N", help="context parallel: GPUs per sequence (default 1)")
    est.add_argument("--shard-group", type=whole, default=0, metavar="N",
                     help="hybrid sharding: the ZeRO stage shards over groups of N data-parallel ranks, "
                          "replicated across groups (default 0: the whole data-parallel group)")
    est.add_argument("--ep", type=whole, default=1, metavar="N",
                     help="expert parallel (a mixture-of-experts workload): each MoE layer's routed experts spread "
                          "over N GPUs, whole experts on each (default 1: split like any MLP)")
    est.add_argument("--etp", type=whole, default=1, metavar="N",
                     help="expert tensor parallel, with --ep above 1: 1 keeps each expert whole on its GPU (the "
                          "default; Megatron-Bridge's presets), the --tp size splits each over the tensor-parallel "
                          "group as well (Megatron-Core's default)")
    est.add_argument("--ep-overlap", type=float, default=0.0, metavar="F",
                     help="share of the expert all-to-all hidden behind compute, in [0, 1] (default 0; DualPipe "
                          "hides most of it)")
    est.add_argument("--expert-imbalance", type=float, default=None, metavar="F",
                     help="the busiest GPU's routed tokens ÷ the mean, at least 1 (default: the knowledge base's "
                          "moe-expert-imbalance assumption for learned routing; 1 is balanced routing)")
    est.add_argument("--lora-rank", type=whole, default=0, metavar="R",
                     help="LoRA fine-tuning: the base weights frozen, rank-R adapters on every linear layer of a "
                          "block (default 0: every weight trained)")
    est.add_argument("--base-bits", type=whole, choices=(16, 8, 4), default=16,
                     help="bits of a frozen base weight under LoRA: 16, or 8 and 4 for a quantized base (QLoRA)")
    est.add_argument("--format", choices=("text", "json"), default="text")
    est.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    est.set_defaults(func=_estimate)
    est.error = _one_line_errors("estimate")  # type: ignore[method-assign,assignment]


def _spec_side(where: str, specs_dir: Path) -> tuple[list[SpecFile], list[Diagnostic]]:
    """A spec folder when `where` is a folder, else `specs_dir` as committed in revision `where`."""
    return read_spec_tree(Path(where)) if Path(where).is_dir() else read_spec_tree_at(where, specs_dir)


def _diff(args: argparse.Namespace) -> int:
    from .diff import compare
    from .diff_format import to_json, to_markdown
    try:
        base, head = [_spec_side(where, Path(args.specs_dir)) for where in (args.base, args.head)]
    except SpecSourceError as err:
        print(f"diff: {err}", file=sys.stderr)
        return 2
    today = build_date()
    diff = compare(validate(*base, today=today), validate(*head, today=today))
    sys.stdout.write((to_json if args.format == "json" else to_markdown)(diff, args.base, args.head))
    # A diff is information, not a gate; but a HEAD that does not validate is reported as such.
    return 0 if diff.head.ok else 1


_DIFF_HELP = """\
BASE and HEAD are each a spec folder or a git revision (main, HEAD~1, origin/main, a SHA); a
revision is read from git objects (its SPECS_DIR), without a checkout. Exit status: 0, or 1
when HEAD does not validate (its first diagnostics are printed), 2 when a side cannot be read.

--format json prints one object:
  base, head  {label, loaded, ok, errors, diagnostics: [{path, line, col, rule, severity, message}]}
  compared    both sides loaded, so figures could be compared
  changed     anything below is non-empty (null when not compared)
  entities    [{entity, kind, change: added|removed}]
  figures     [{entity, kind, figure, origin: stated|derived, change: added|removed|changed,
                fields: which of value/unit/direction/scope/source changed, old, new:
                {value (in unit), exact (fraction, in unit), unit, dimension, direction, scope,
                source} or null, delta (new - old, in the new unit), delta_pct}]
  claims      [{claim, change, old, new: {verdict (computed from the data; null when it cannot
                be), recorded (in the claim file), actual, deviation_pct} or null}]
  accuracy    the cost model against the published runs (specs/runs/) when it moved:
              {old, new: {runs, expressed, mean_abs_error, bias}}, else null
"""


def main(argv: list[str] | None = None) -> int:
    """`python -m generator`: the command's exit status; 130 on Ctrl-C, and CLOSED_PIPE, without a
    traceback, when the reader of its output stops reading (`| head -1`)."""
    try:
        with streams():
            return _run(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        discard()
        return CLOSED_PIPE


def _run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description="GPU cluster knowledge base tools")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate the spec files and print every problem")
    check.add_argument("path", nargs="?", default="specs", help="spec folder (default: specs)")
    check.add_argument("--format", choices=("text", "github"), default="text")
    check.add_argument("--strict", action="store_true", help="warnings are errors (exit 1): what CI runs")
    check.set_defaults(func=_check)
    schema = sub.add_parser("schema", help="print (or write with --out) the JSON Schema of each spec folder")
    schema.add_argument("--out", help="folder to write <kind>.schema.json files into")
    schema.add_argument("--specs", default="specs",
                        help="the knowledge base folder, which --out may not be in (default: specs)")
    schema.set_defaults(func=_schema)
    build = sub.add_parser("build", help="validate, then write the generated pages and data files, the English edition's under en/")
    build.add_argument("--out", required=True, help="output folder")
    build.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    build.add_argument("--strict", action="store_true", help="warnings are errors: nothing is written")
    build.set_defaults(func=_build)
    rec = sub.add_parser("recommend", help="the selection tree's path and the planner's answer at your point, e.g. "
                                           "--goal pretrain --model-size 70B --gpus 64 --market global",
                         description="Flags are the selection tree's variables (specs/selection/: --goal "
                                     "pretrain|finetune|lora, default pretrain; --model-size 70B; --gpus 64) and the "
                                     "planner's --market (required), --licensed, --tokens 2T and --workload ID (a "
                                     "published model instead of --model-size). The tree gives the branch and why; "
                                     "what to buy is the planner's answer at your own model, GPU count, market and "
                                     "goal, the same as `plan` gives. Exit 2 on bad input, naming the flag.")
    rec.add_argument("--format", choices=("text", "json"), default="text")
    rec.add_argument("--specs", default="specs", help="spec folder (default: specs)")
    rec.set_defaults(func=_recommend)
    _add_estimate(sub)
    _add_plan(sub)
    _add_calibrate(sub)
    diff = sub.add_parser("diff", help="what changed between two spec trees, figure by figure (Markdown or JSON)",
                          epilog=_DIFF_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    diff.add_argument("base", metavar="BASE", help="spec folder or git revision")
    diff.add_argument("head", metavar="HEAD", help="spec folder or git revision")
    diff.add_argument("--specs-dir", default="specs", help="spec folder inside a revision (default: specs)")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown")
    diff.set_defaults(func=_diff)
    args, extra = parser.parse_known_args(argv)
    if args.command in ("estimate", "calibrate", "plan") and extra:
        # The same one line and exit status as every other bad input of these commands.
        print(f"{args.command}: unrecognized arguments: {' '.join(extra)}", file=sys.stderr)
        return 2
    if args.command != "recommend" and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.answers = extra
    try:
        return int(args.func(args))
    except NotFinite as err:
        # A number that is not finite reached a writer (a bug, or an input past the bounds the
        # commands check): one line and the status of a refused input, not a traceback or a
        # document that is not JSON.
        print(f"{args.command}: {err}", file=sys.stderr)
        return 2
