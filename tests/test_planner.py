"""The planner over the fixture knowledge base: availability by market (latest ruling, a node
through its GPU, the default), answers at the reader's own point, exclusions with their reason and
source, the fewest GPUs when nothing fits, and the `plan` command's flags, errors and JSON."""

from __future__ import annotations

import json
import subprocess

import pytest
from support import BASE, base_result, cli, validate_with

from generator.estimates.choice import Choice
from generator.model.markets import Market
from generator.planner.availability import standing
from generator.planner.plan import GOALS, PlanError, Request, plan

MARKET = "test-restricted"
RESTRICTED = (BASE / "markets" / f"{MARKET}.yaml").read_bytes()


def _kb():  # type: ignore[no-untyped-def]
    result = base_result()
    assert result.kb is not None
    return result.kb


def _request(workload: str = "test-tiny-1b", gpus: int = 8, **kw: object) -> Request:
    return Request(Choice("", 0, "", workload), gpus, kw.pop("market", MARKET), **kw)  # type: ignore[arg-type]


def test_a_part_stands_by_its_latest_ruling_then_its_gpu_then_the_default() -> None:
    later = RESTRICTED.replace(b"rulings:\n", b"""rulings:
  - key: opened
    title: {zh: "\xe5\xa4\xb9\xe5\x85\xb7", en: "Fixture"}
    items: [test-a100-sxm4]
    status: licence-required
    since: 2026-01-15
    source: test-topology-paper
    where: "x"
    note: {zh: "\xe5\xa4\xb9\xe5\x85\xb7", en: "Fixture"}
""")
    result = validate_with(f"specs/markets/{MARKET}.yaml", later)
    assert result.kb is not None and result.passes(strict=True)
    kb = result.kb
    entry = kb.get(MARKET, Market)
    assert entry is not None
    a100 = standing(kb, entry, "test-a100-sxm4")
    assert a100 is not None and (a100.status, a100.ruling) == ("licence-required", "opened")
    v100 = standing(kb, entry, "test-v100-sxm2")
    assert v100 is not None and v100.status == "available"
    node = standing(kb, entry, "test-node")
    assert node is not None and node.via is not None and node.status == standing(kb, entry, node.via).status  # type: ignore[union-attr]


def test_barred_parts_are_never_an_answer_and_say_which_rule() -> None:
    found = plan(_kb(), _request())
    chosen = {o.candidate.gpu for o in found.options}
    assert chosen and not chosen & {"test-a100-sxm4", "test-rtx-4090"}
    barred = {e.id: e for e in found.excluded if e.status is not None}
    assert barred["test-a100-sxm4"].ruling == "controlled"
    assert barred["test-a100-sxm4"].source == "test-topology-paper"
    assert "barred" not in {o.standing.status for o in found.options if o.standing is not None}


def test_the_answer_is_at_the_readers_own_count() -> None:
    for gpus in (1, 4, 8, 16):
        found = plan(_kb(), _request(gpus=gpus))
        assert found.options, gpus
        assert all(o.gpus == gpus for o in found.options)
        steps = [o.estimate.step.step_s for o in found.options]
        assert steps == sorted(steps)


def test_nothing_fits_gives_the_fewest_gpus_that_would() -> None:
    found = plan(_kb(), _request("test-llama-70b", 1))
    assert not found.options
    assert found.closest is not None and not found.closest.fits
    assert found.fewest is not None
    count, option = found.fewest
    assert count > 1 and option.fits and option.gpus == count
    below = plan(_kb(), _request("test-llama-70b", count - 8)) if count > 8 else None
    assert below is None or not below.options


def test_a_market_default_keeps_a_new_gpu_out_until_a_ruling_names_it() -> None:
    gpu = (BASE / "gpus" / "test-v100-sxm2.yaml").read_text(encoding="utf-8")
    result = validate_with("specs/gpus/test-v100-new.yaml", gpu.replace("id: test-v100-sxm2", "id: test-v100-new")
                           .encode())
    assert result.kb is not None and result.passes(strict=True)
    found = plan(result.kb, _request())
    out = {e.id: e for e in found.excluded}
    assert out["test-v100-new"].status == "barred" and out["test-v100-new"].ruling is None


def test_licensed_parts_come_in_only_when_asked() -> None:
    opened = RESTRICTED.replace(b"status: barred\n    since: 2022-10-07", b"status: licence-required\n    since: 2022-10-07")
    result = validate_with(f"specs/markets/{MARKET}.yaml", opened)
    assert result.kb is not None and result.passes(strict=True)
    plain = plan(result.kb, _request())
    assert "test-a100-sxm4" not in {o.candidate.gpu for o in plain.options}
    licensed = plan(result.kb, _request(licensed=True))
    assert "test-a100-sxm4" in {o.candidate.gpu for o in licensed.options}


def test_unknown_market_and_goal_are_one_line_errors() -> None:
    with pytest.raises(PlanError, match="choose one of: test-restricted"):
        plan(_kb(), _request(market="test-nowhere"))
    with pytest.raises(PlanError, match=", ".join(GOALS)):
        plan(_kb(), _request(goal="inference"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`plan` on the fixture base, through `main` in this process (test_hostile_cli runs it as a
    new process)."""
    return cli("plan", "--specs", str(BASE), *args)


def test_cli_names_the_missing_flag_and_its_choices() -> None:
    missing = _cli("--workload", "test-tiny-1b", "--gpus", "8")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "--market" in missing.stderr and MARKET in missing.stderr
    bad = _cli("--workload", "test-tiny-1b", "--gpus", "8", "--market", MARKET, "--goal", "inference")
    assert bad.returncode == 2 and "pretrain, finetune, lora" in bad.stderr
    unknown = _cli("--workload", "test-tiny-1b", "--gpus", "8", "--market", MARKET, "--budget", "1")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1 and "--budget" in unknown.stderr


def test_cli_json_keeps_picks_and_estimate_and_adds_options_and_excluded() -> None:
    done = _cli("--workload", "test-tiny-1b", "--gpus", "16", "--market", MARKET, "--tokens", "1T",
                "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"picks", "estimate", "options", "excluded", "fewest_gpus", "as_of"} <= set(data)
    assert set(data["picks"]) >= {"gpu", "intra_node", "network", "topology"}
    assert data["picks"]["gpu"]["id"] == data["options"][0]["gpu"]["id"]
    assert data["estimate"]["gpus"] == 16 and data["estimate"]["fits"]
    first = data["options"][0]
    assert first["time_to_train_s"] == pytest.approx(1e12 / first["tokens_per_s"])
    assert first["gpu_hours"] == pytest.approx(16 * first["time_to_train_s"] / 3600)
    assert any(e["source"] == "test-topology-paper" for e in data["excluded"])


def test_a_range_is_planned_at_its_ends_and_doublings_and_answers_the_cheapest_per_token() -> None:
    from generator.planner.plan import ladder, plan_range
    assert ladder(8, 64) == [8, 16, 32, 64] and ladder(8, 48) == [8, 16, 32, 48] and ladder(4, 4) == [4]
    best, plans = plan_range(_kb(), _request(gpus=8), 32)
    assert [p.request.gpus for p in plans] == [8, 16, 32]
    per_gpu = {p.request.gpus: p.options[0].estimate.step.tokens_per_s / p.options[0].gpus for p in plans if p.options}
    assert best.request.gpus == max(per_gpu, key=lambda g: (per_gpu[g], -g))


def test_cli_takes_a_range_and_refuses_a_bad_one() -> None:
    done = _cli("--workload", "test-tiny-1b", "--gpus", "8-32", "--market", MARKET, "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [row["gpus"] for row in data["range"]] == [8, 16, 32]
    assert data["estimate"]["gpus"] in (8, 16, 32)
    for bad in ("32-8", "0", "eight"):
        refused = _cli("--workload", "test-tiny-1b", "--gpus", bad, "--market", MARKET)
        assert refused.returncode == 2 and "--gpus" in refused.stderr, bad


@pytest.mark.parametrize("flags", [["--seq", "0"], ["--global-batch", "-3"], ["--micro-batch", "0"],
                                   ["--goal", "lora", "--lora-rank", "0"], ["--tokens", "0"], ["--params", "-7B"],
                                   ["--seq", "1" + "0" * 400], ["--base-bits", "4"]])
def test_cli_refuses_a_step_it_cannot_size_in_one_line(flags: list[str]) -> None:
    done = _cli("--workload", "test-tiny-1b", "--gpus", "8", "--market", MARKET, *flags)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("plan: "), done.stderr


def test_a_model_the_knowledge_base_cannot_name_is_an_error_not_a_misfit() -> None:
    with pytest.raises(PlanError, match="unknown workload 'test-nowhere'"):
        plan(_kb(), _request("test-nowhere"))
    done = _cli("--params", "90T", "--gpus", "8", "--market", MARKET)
    assert done.returncode == 2 and "no published workload within" in done.stderr and done.stderr.count("\n") == 1


def test_where_only_full_recomputation_fits_the_answer_recomputes_the_fewest_layers() -> None:
    """70B on 128 fixture V100s: no recomputation fits at no ZeRO stage at tp 4, full recomputation
    does, and the answer recomputes only the layers of each chunk it must. The text and the JSON
    say how many; one layer fewer does not fit, and the answer is faster than recomputing them all."""
    import dataclasses

    from generator.costmodel import estimate
    done = _cli("--params", "70B", "--gpus", "128", "--market", MARKET, "--format", "json")
    assert done.returncode == 0, done.stderr
    lay = json.loads(done.stdout)["options"][0]["layout"]
    assert lay["recompute"] == "full" and lay["recompute_layers"] > 0, lay
    text = _cli("--params", "70B", "--gpus", "128", "--market", MARKET).stdout
    assert f"每块重计算 {lay['recompute_layers']} 层" in text
    answer = plan(_kb(), Request(Choice("", 0, "", None, 70e9), 128, MARKET))
    best = answer.options[0]
    r = best.resolved

    def at(layers: int):  # type: ignore[no-untyped-def]
        return estimate(r.workload, r.cluster, dataclasses.replace(best.layout, recompute_layers=layers),
                        r.assumptions).estimate

    fewer, every = at(lay["recompute_layers"] - 1), at(0)
    assert not fewer.memory.fits and every.memory.fits
    assert best.estimate.step.step_s < every.step.step_s
