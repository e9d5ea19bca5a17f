"""The selection tree's leaves against the cost model (generator/selection/leafcheck.py) and the estimate
`recommend` prints for them. On the real specs only structure is asserted (every leaf is judged;
what `recommend` shows is what the leaf check found and what `estimate` computes for the same
inputs), so that a valid edit of specs/ never fails these tests; exact figures are asserted on the
frozen fixture base."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import ROOT, base_result

from generator.edge.cli import run_check
from generator.edge.recommend import run
from generator.knowledge import KnowledgeBase
from generator.model.common import Range
from generator.model.selection import Selection
from generator.selection.leafcheck import GPUS_PER_NODE, check_tree, gpu_counts
from generator.selection.tree import example_values, leaf_paths
from generator.validate import Result


@pytest.fixture(scope="module")
def real() -> Result:
    result = run_check(ROOT / "specs")
    assert result.ok and result.kb is not None
    return result


def _tree(kb: KnowledgeBase) -> Selection:
    return kb.of_type(Selection)[0].model


def _flags(sel: Selection, leaf_id: str) -> list[str]:
    values = example_values(sel, leaf_paths(sel)[leaf_id])
    return [arg for key, value in values.items() for arg in (f"--{key}", str(value))]


@pytest.mark.parametrize(("low", "high", "cap", "expected"), [
    (1, 9, None, (1, 8)),  # within a node: as they are
    (1, 8, None, (1, 7)),
    (9, 64, None, (16, 56)),  # whole nodes: rounded up at the low end, down at the high end
    (64, None, 1024, (64, 1024)),  # open-ended: up to the tree's check_max
    (256, None, None, (256,)),  # no check_max: the start alone
    (8, 9, None, (8,)),
])
def test_gpu_counts(low: int, high: int | None, cap: int | None, expected: tuple[int, ...]) -> None:
    assert gpu_counts(Range(min=low, max=high), cap) == expected
    assert all(c <= GPUS_PER_NODE or c % GPUS_PER_NODE == 0 for c in expected)


def test_every_real_leaf_is_judged_and_its_declarations_agree(real: Result) -> None:
    """Every leaf the tree reaches is checked (no missing model input), and each leaf's `needs`
    and `comm_warning` are there exactly when the model asks for them (the rules hold)."""
    assert real.kb is not None
    sel = _tree(real.kb)
    checks = check_tree(real.kb, sel)
    assert set(checks) == set(leaf_paths(sel))
    for leaf_id, found in checks.items():
        assert found.unchecked == "", (leaf_id, found.unchecked)
        assert found.points, leaf_id
        assert (found.leaf.needs is not None) == (not found.fits), leaf_id
        assert found.any_fits, f"{leaf_id}: no checked point of the branch fits"
        assert (found.leaf.comm_warning is not None) == found.over_threshold, leaf_id


def test_real_leaves_recommend_current_networks_and_no_topology_by_size(real: Result) -> None:
    """The site's own advice (issue 16): a multi-node leaf uses a network of at least 400 Gb/s
    per port, and a rail-optimised fat tree (no torus or dragonfly prescribed by cluster size)."""
    assert real.kb is not None
    from generator.estimates.records import network_port
    from generator.model.entities import Network
    clustered = [(leaf, leaf.picks.network) for leaf in _tree(real.kb).leaves if leaf.picks.network is not None]
    assert clustered, "no leaf names a network: the tree gives no multi-node advice to check"
    for leaf, network_id in clustered:
        network = real.kb.get(network_id, Network)
        assert network is not None
        port = network_port(network.model)
        assert isinstance(port, float) and port * 8 >= 400e9, leaf.id
        assert leaf.picks.topology == "rail-optimized-fat-tree", leaf.id


def test_recommend_json_estimate_is_the_estimate_commands(real: Result) -> None:
    """For every leaf: `picks` and `estimate` are there; the estimate is the leaf check's hardest
    point, and `python -m generator estimate` with its inputs prints the same numbers."""
    assert real.kb is not None and real.figures is not None
    sel = _tree(real.kb)
    checks = check_tree(real.kb, sel)
    compared = 0
    for leaf_id, found in checks.items():
        data = json.loads(run(real.kb, real.figures, _flags(sel, leaf_id), "json"))
        assert data["leaf"] == leaf_id and "picks" in data
        est = data["estimate"]
        hardest = found.hardest()
        assert hardest is not None
        assert (est["workload"], est["gpus"], est["fits"]) == (hardest.workload_id, hardest.gpus, hardest.fits)
        assert [p["gpus"] for p in est["points"]] == [p.gpus for p in found.points]
        assert (data["picks"] is None) == (not found.any_fits)
        inputs = est["inputs"]
        if "network" not in inputs["ids"] or compared >= 2:
            continue  # the command needs a network; two subprocess runs are enough
        flags = ["--workload", inputs["ids"]["workload"], "--gpu", inputs["ids"]["gpu"], "--gpus", str(inputs["gpus"]),
                 "--network", inputs["ids"]["network"], "--tp", str(inputs["tp"]), "--pp", str(inputs["pp"]),
                 "--zero", str(inputs["zero"]), "--micro-batch", str(inputs["micro_batch"]), "--seq", str(inputs["seq"]),
                 "--global-batch", str(inputs["global_batch"]), "--recompute", inputs["recompute"], "--format", "json"]
        if inputs["sequence_parallel"]:
            flags.append("--sequence-parallel")
        done = subprocess.run([sys.executable, "-m", "generator", "estimate", *flags], cwd=ROOT, capture_output=True,
                              text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=60)
        assert done.returncode == 0, done.stderr
        cli = json.loads(done.stdout)
        for key in ("fits", "memory_per_gpu_gb", "step_time_s", "comm_share", "bottleneck", "time_s", "inputs"):
            assert est[key] == cli[key], key
        compared += 1
    assert compared == 2


def test_recommend_text_prints_the_estimate_summary(real: Result) -> None:
    assert real.kb is not None and real.figures is not None
    sel = _tree(real.kb)
    for leaf_id, found in check_tree(real.kb, sel).items():
        text = run(real.kb, real.figures, _flags(sel, leaf_id), "text")
        hardest = found.hardest()
        assert hardest is not None
        assert "按模型估算" in text and f"{hardest.gpus} 块 GPU" in text
        if hardest.fits and hardest.comm_share is not None:
            assert f"通信占比 {hardest.comm_share:.1%}" in text


def test_fixture_leaf_figures() -> None:
    """On the frozen fixture base: the single-card leaf fits its one small workload, and the
    fat-tree leaf's largest count is its loudest point."""
    result = base_result()
    assert result.ok and result.kb is not None
    checks = check_tree(result.kb, _tree(result.kb))
    assert checks["test-small-node"].fits
    assert [p.gpus for p in checks["test-small-node"].points] == [1, 7]
    loudest = checks["test-large-fat-tree"].loudest()
    assert loudest is not None and loudest.gpus == 248
    large = checks["test-large-node"]  # 1–7 A100s for the fixture's 70B: no count fits, the leaf says so
    assert large.unchecked == "" and not large.any_fits and large.leaf.needs is not None


def test_nothing_fits_gives_null_picks_and_says_why() -> None:
    """The fixture base's single-node A100 leaf (1–7 GPUs, 13B and more) holds the fixture's 70B
    workload on no count of its branch (it declares the need): `recommend` names no picks and
    the estimate shows the memory that does not fit."""
    result = base_result()
    assert result.ok and result.kb is not None and result.figures is not None
    data = json.loads(run(result.kb, result.figures, ["--gpus", "4", "--model-size", "70"], "json"))
    assert data["leaf"] == "test-large-node"
    assert data["picks"] is None
    est = data["estimate"]
    assert est["fits"] is False and est["workload"] == "test-llama-70b" and est["gpus"] == 1
    assert est["memory_per_gpu_gb"]["total_gb"] > est["memory_per_gpu_gb"]["usable_gb"]
    assert all(not p["fits"] for p in est["points"]) and est["needs"]["what"] == "more-gpus"
    text = run(result.kb, result.figures, ["--gpus", "4", "--model-size", "70"], "text")
    assert "没有可推荐的配置" in text and "放不下" in text
    fits = json.loads(run(result.kb, result.figures, ["--gpus", "32", "--budget", "high"], "json"))
    assert fits["picks"] is not None and fits["estimate"]["fits"] is True


def test_the_kept_checks_are_the_computed_ones(real: Result) -> None:
    """`check_tree` keeps its answer on the knowledge base: the kept answer is what a fresh
    computation gives, and another tree object is not served the kept one."""
    from generator.selection.leafcheck import compute_checks
    assert real.kb is not None
    sel = _tree(real.kb)
    first, again, fresh = check_tree(real.kb, sel), check_tree(real.kb, sel), compute_checks(real.kb, sel)
    assert first == again == fresh
    other = sel.model_copy(update={"leaves": sel.leaves[:1]})
    assert set(check_tree(real.kb, other)) <= {sel.leaves[0].id}
