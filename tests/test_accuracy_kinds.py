"""The accuracy an answer carries is also the accuracy on runs of its own kind: a dense and a
mixture-of-experts estimate, a BF16 and an FP8 one, or a full and a LoRA one, are not equally well
measured, and the one overall error hides that. `accuracy_record` lists every kind (block ×
precision × training), `for_kind` picks
the answer's, and `estimate`, `plan` and the calculator's data carry it. Figures come from the
calibration itself (the fixture base's runs, or the real base's at whatever it holds), so a valid
edit of specs/ cannot fail these tests."""

from __future__ import annotations

import json
import statistics
from typing import get_args

import pytest
from support import base_result, cli, real_result

from generator.costmodel.inputs import Precision
from generator.estimates.calibration import (
    ArchitectureSummary,
    Block,
    Kind,
    Summary,
    Training,
    accuracy_record,
    architecture_of,
    architecture_statement,
    calibrate,
    for_kind,
    kind_statement,
)
from generator.estimates.records import gpu as gpu_spec
from generator.estimates.records import gpus, network_port, networks
from generator.figure_format import signed_percent
from generator.knowledge import KnowledgeBase
from generator.language import speaking
from generator.model.costs import Workload as WorkloadSpec
from generator.model.entities import Architecture
from generator.model.markets import Market
from generator.validate import Result

ALL_KINDS = {(block, precision, training) for block in get_args(Block) for precision in get_args(Precision)
             for training in get_args(Training)}


def _kb(result: Result) -> KnowledgeBase:
    assert result.kb is not None, [d.as_text() for d in result.diagnostics[:5]]
    return result.kb


@pytest.mark.parametrize("which", ["fixture", "real"])
def test_every_kind_is_listed_once_with_the_error_of_its_own_runs(which: str) -> None:
    kb = _kb(base_result() if which == "fixture" else real_result())
    report = calibrate(kb)
    record = accuracy_record(report)
    kinds = record["kinds"]
    assert isinstance(kinds, list)
    assert {(k["block"], k["precision"], k["training"]) for k in kinds} == ALL_KINDS and len(kinds) == len(ALL_KINDS)
    for k in kinds:
        errors = [r.error for r in report.runs
                  if r.error is not None and r.kind == Kind(k["block"], k["precision"], k["training"])]
        assert k["runs"] == len(errors)
        if errors:
            assert k["mean_abs_error"] == pytest.approx(statistics.fmean(abs(e) for e in errors), rel=1e-12)
            assert k["bias"] == pytest.approx(statistics.fmean(errors), rel=1e-12)
            assert f"{k['mean_abs_error']:.1%}" in k["statement"] and str(len(errors)) in k["statement"]
        else:
            assert k["mean_abs_error"] is None and k["bias"] is None
    assert sum(k["runs"] for k in kinds) == record["runs"]


@pytest.mark.parametrize("which", ["fixture", "real"])
def test_every_architecture_is_listed_once_with_the_error_of_its_runs(which: str) -> None:
    # Every architecture of the base, those without a run too: an answer on a GPU generation the
    # suite never measured says so, instead of borrowing the error of another generation.
    kb = _kb(base_result() if which == "fixture" else real_result())
    report = calibrate(kb)
    listed = accuracy_record(report)["architectures"]
    assert isinstance(listed, list)
    assert [a["architecture"] for a in listed] == sorted(a.id for a in kb.of_type(Architecture))
    measured = 0
    for a in listed:
        errors = [r.error for r in report.runs if r.error is not None
                  and r.architecture == architecture_of(kb, r_gpu(kb, r.id)) == a["architecture"]]
        assert a["runs"] == len(errors)
        if errors:
            measured += 1
            assert a["mean_abs_error"] == pytest.approx(statistics.fmean(abs(e) for e in errors), rel=1e-12)
            assert a["bias"] == pytest.approx(statistics.fmean(errors), rel=1e-12)
            assert signed_percent(a["bias"]) in a["statement"] and str(len(errors)) in a["statement"]
        else:
            assert a["mean_abs_error"] is None and a["bias"] is None and "%" not in a["statement"]
    assert measured >= 1
    assert sum(a["runs"] for a in listed) == accuracy_record(report)["runs"]


def r_gpu(kb: KnowledgeBase, run_id: str) -> str:
    """The GPU a run of the base names (what its architecture is read from)."""
    from generator.model.runs import Run
    run = kb.get(run_id, Run)
    assert run is not None
    return run.model.gpu


def test_an_architecture_statement_names_it_in_both_languages() -> None:
    none = ArchitectureSummary("cdna4", "CDNA 4", "CDNA 4", Summary(0, 0, None, None))
    some = ArchitectureSummary("blackwell", "Blackwell", "Blackwell", Summary(3, 2, 0.125, 0.125))
    with speaking("zh"):
        assert "CDNA 4" in architecture_statement(none) and "还没有" in architecture_statement(none)
        assert "Blackwell" in architecture_statement(some) and "+12.5%" in architecture_statement(some)
    with speaking("en"):
        assert architecture_statement(none).startswith("No published measured run on a CDNA 4 GPU")
        assert architecture_statement(some).startswith("2 published measured runs are on Blackwell GPUs")


def test_for_kind_adds_the_entry_of_the_answers_architecture() -> None:
    kb = _kb(real_result())
    record = accuracy_record(calibrate(kb))
    listed = record["architectures"]
    assert isinstance(listed, list)
    for entry in listed:
        picked = for_kind(record, "dense", "bf16", entry["architecture"])
        assert picked["architecture"] == entry and picked["kind"] == for_kind(record, "dense", "bf16")["kind"]
    # a GPU the base does not know, or none: no entry, rather than another architecture's
    assert "architecture" not in for_kind(record, "dense", "bf16", "no-such-architecture")
    assert "architecture" not in for_kind(record, "dense", "bf16")


def test_a_kind_without_runs_says_the_overall_error_is_no_evidence_for_it() -> None:
    none = Summary(0, 0, None, None)
    with speaking("zh"):
        zh = kind_statement(Kind("moe", "bf16"), none)
    with speaking("en"):
        en = kind_statement(Kind("moe", "bf16"), none)
    assert "还没有" in zh and "混合专家" in zh and "BF16" in zh
    assert "No published measured run" in en and "mixture-of-experts" in en and "%" not in en
    with speaking("en"):
        some = kind_statement(Kind("dense", "fp8"), Summary(5, 4, 0.0625, -0.03125))
    assert some.startswith("4 published measured runs are of this kind (dense, FP8)") and "6.2%" in some and "-3.1%" in some
    with speaking("en"):
        lora = kind_statement(Kind("dense", "bf16", "lora"), Summary(6, 6, 0.025, 0.019))
    with speaking("zh"):
        lora_zh = kind_statement(Kind("dense", "bf16", "lora"), Summary(6, 6, 0.025, 0.019))
    assert lora.startswith("6 published measured runs are of this kind (dense, BF16, LoRA fine-tuning)")
    assert "LoRA 微调" in lora_zh


def test_for_kind_adds_the_answers_entry() -> None:
    record = accuracy_record(calibrate(_kb(base_result())))
    for block, precision, training in sorted(ALL_KINDS):
        picked = for_kind(record, block, precision, training=training)
        assert {k: v for k, v in picked.items() if k != "kind"} == record
        assert picked["kind"] == next(k for k in record["kinds"]  # type: ignore[union-attr]
                                      if (k["block"], k["precision"], k["training"]) == (block, precision, training))


def _cli(command: str, *args: str) -> dict[str, object]:
    done = cli(command, *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def test_estimate_carries_the_kind_of_its_workload_and_precision() -> None:
    """A mixture-of-experts workload at FP8 gets the MoE/FP8 entry, a dense one at BF16 the
    dense/BF16 entry, each as the calibration of the real base has it (ids picked from the base:
    a GPU with an FP8 rate, the fastest port; tp 1 and pp 1 divide any shape)."""
    kb = _kb(real_result())
    record = json.loads(json.dumps(accuracy_record(calibrate(kb))))
    specs = {w.id: w.model for w in kb.of_type(WorkloadSpec)}
    moe = next(i for i, w in sorted(specs.items()) if w.moe is not None and w.moe.experts % 8 == 0)
    dense = next(i for i, w in sorted(specs.items()) if w.moe is None)
    fp8 = [g for g in gpus(kb) if not isinstance(spec := gpu_spec(kb, g.model), str) and spec.dense_fp8_flop_per_s]
    gpu = max(fp8, key=lambda g: (g.model.memory.capacity.value, g.id)).id
    network = max((n for n in networks(kb) if not isinstance(network_port(n.model), str)),
                  key=lambda n: (n.model.port_rate.value, n.id)).id
    for workload, precision, extra, training in ((moe, "fp8", ("--ep", "8"), "full"), (dense, "bf16", (), "full"),
                                                 (dense, "bf16", ("--lora-rank", "16"), "lora")):
        out = _cli("estimate", "--workload", workload, "--gpu", gpu, "--gpus", "64", "--network", network,
                   "--tp", "1", "--pp", "1", "--global-batch", "512", "--precision", precision, *extra)
        accuracy = out["accuracy"]
        assert isinstance(accuracy, dict)
        block = "moe" if specs[workload].moe is not None else "dense"
        assert accuracy == for_kind(record, block, precision, architecture_of(kb, gpu),  # type: ignore[arg-type]
                                    training=training)  # type: ignore[arg-type]
        assert accuracy["kind"]["block"] == block and accuracy["kind"]["precision"] == precision
        assert accuracy["kind"]["training"] == training
        assert accuracy["architecture"]["architecture"] == architecture_of(kb, gpu)


def test_plan_carries_the_kind_of_its_answer() -> None:
    """The planner's answer (BF16, a dense workload's shape scaled to 7B) carries its kind; an
    answer with nothing to show carries the overall record alone."""
    kb = _kb(real_result())
    market = sorted(m.id for m in kb.of_type(Market))[0]
    out = _cli("plan", "--market", market, "--gpus", "64", "--params", "7B")
    accuracy = out["accuracy"]
    assert isinstance(accuracy, dict)
    if out["estimate"] is None:
        assert "kind" not in accuracy
        return
    assert accuracy["kind"]["block"] == "dense" and accuracy["kind"]["precision"] == "bf16"
    assert accuracy["kind"]["training"] == "full"
    assert accuracy["kind"] in accuracy["kinds"]
    # the architecture of the answer's GPU, which the answer names by its id
    gpu = out["picks"]["gpu"]["id"]  # type: ignore[index]
    assert accuracy["architecture"]["architecture"] == architecture_of(kb, gpu)
    assert accuracy["architecture"] in accuracy["architectures"]
