"""The chain of figures: every output can say which inputs and formulas it came from."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from generator.costmodel import Cluster, Term, explain, explain_lines, walk
from generator.costmodel.chain import FORMULAS, formula
from generator.costmodel.evaluate import FLOATS, Terms
from generator.costmodel.feasibility import check
from generator.costmodel.grid import configurations, illustrative_assumptions, synthetic_nodes, synthetic_workloads
from generator.costmodel.inputs import Layout
from generator.costmodel.wiring import run


def test_every_formula_names_each_parameter_and_a_source() -> None:
    """Registered formulas bind one symbol per parameter and cite where they come from."""
    assert len(FORMULAS) > 30
    for fn, spec in FORMULAS.items():
        assert len(spec.symbols) == fn.__code__.co_argcount
        assert spec.text and spec.cite, fn.__qualname__


def test_a_formula_with_the_wrong_symbols_is_refused() -> None:
    """Registration checks the symbol count, so a chain never binds a symbol to the wrong input."""
    with pytest.raises(ValueError, match="2 symbols for 1 parameters"):
        @formula("x", "a b")
        def _one(a: float) -> float:
            return a


def _chains() -> dict[str, Term]:
    layout = Layout(4, 2, 3, micro_batch_size=2, sequence_length=4096, global_batch_size=256,
                    recompute="selective", sequence_parallel=True)
    return explain(synthetic_workloads()[2], Cluster(synthetic_nodes()[0], 4), layout, illustrative_assumptions())


def _every_figure(root: Term) -> list[Term]:
    return [root] + [figure for _symbol, child in root.inputs for figure in _every_figure(child)]


@pytest.mark.parametrize("index", [0, 5000, 9999])
def test_a_chain_reaches_back_to_inputs_in_order(index: int) -> None:
    """A key means one value wherever it appears in a chain (so showing it once loses nothing);
    walking yields inputs before what is derived from them; leaves are inputs."""
    for root in explain(*configurations()[index]).values():
        values: dict[str, float] = {}
        for figure in _every_figure(root):
            assert values.setdefault(figure.key, figure.value) == figure.value, figure.key
        position = {figure.key: i for i, figure in enumerate(walk(root))}
        assert position.keys() == values.keys()
        for figure in walk(root):
            assert all(position[child.key] < position[figure.key] for _symbol, child in figure.inputs)
            if figure.formula is None:
                assert figure.origin in ("workload", "cluster", "layout", "assumption", "derived")


def test_step_chain_shows_the_figures_behind_it() -> None:
    """The step time's chain names the overlap assumption and the network bandwidth it used."""
    lines = explain_lines(explain(*configurations()[5000])["step.step_s"])
    assert lines[-1].startswith("step.step_s = T_a + T_b [T_a = step.pipeline_s, T_b = step.dp_exposed_s] = ")
    assert any(line.startswith("assumptions.dp_overlap_fraction = 0.7 (assumption)") for line in lines)
    assert any(line.startswith("network_bandwidth_per_gpu = N_nic · B_port ÷ g · e · f") for line in lines)


def test_scaling_chain_keeps_the_reference_apart() -> None:
    """The one-node reference's figures are prefixed, so the chain never shows two values under one key."""
    chains = _chains()
    root = chains["scaling_efficiency"]
    keys = [figure.key for figure in walk(root)]
    assert "one_node.step.step_s" in keys and "step.step_s" in keys
    assert "one_node.layout.data_parallel" in keys and "layout.data_parallel" in keys


def test_no_chain_for_an_impossible_layout() -> None:
    """explain gives nothing where estimate gives problems."""
    workload, cluster, layout, assumptions = configurations()[0]
    assert explain(workload, cluster, Layout(3, 1, 0, 1, 2048, 1024), assumptions) == {}


def test_both_evaluators_give_the_same_values() -> None:
    """The wiring on figures holds, in every field, the very float the wiring on floats computes."""
    knobs = (dict(virtual_pipeline=2, context_parallel=2, tp_overlap=0.4, fp32_gradients=True), {})
    for i, config in enumerate(configurations()[::97]):
        config = (*config[:2], replace(config[2], **knobs[i % 2]), config[3])  # type: ignore[arg-type]
        if check(*config):
            continue
        floats, figures = run(FLOATS, *config), run(Terms(), *config)
        for part in ("memory", "compute", "step"):
            for field in fields(getattr(floats, part)):
                number, figure = getattr(getattr(floats, part), field.name), getattr(getattr(figures, part), field.name)
                if number is None:  # a figure of a knob the configuration does not use
                    assert figure is None, f"{part}.{field.name}"
                    continue
                assert (figure if isinstance(number, bool) else figure.value) == number, f"{part}.{field.name}"
        efficiency = figures.scaling_efficiency
        assert (efficiency.value if isinstance(efficiency, Term) else efficiency) == floats.scaling_efficiency
        assert figures.scaling_note == floats.scaling_note
