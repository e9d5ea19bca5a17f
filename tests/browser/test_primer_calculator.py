"""The parallelism primer's worked example, followed into the calculator in Chromium: each of its
calculator links opens the calculator with the example's inputs (read from the address), and the
calculator shows the same figures, text for text, as the primer does for that variant."""

from __future__ import annotations

import math

from navigation import settle
from playwright.sync_api import Page
from test_calculator import _wait_until_ready

# primer figure name -> where the calculator shows it (data-key, or data-share for a share of the step)
MEMORY = ("weights_gb", "gradients_gb", "optimizer_gb", "model_states_gb", "activations_gb", "total_gb", "usable_gb")
STEP = {"step_time_s": "[data-key='step_time_s']", "microbatches": "[data-key='microbatches']",
        "bubble": "[data-key='time_s.bubble']", "tensor_parallel": "[data-key='time_s.tensor_parallel']",
        "dp_exposed": "[data-key='time_s.dp_exposed']", "comm_share": "[data-key='comm_share']",
        "activations_gb": "[data-key='memory_per_gpu_gb.activations_gb']",
        "bubble_share": "[data-share='bubble']", "tensor_parallel_share": "[data-share='tensor_parallel']",
        "dp_exposed_share": "[data-share='dp_exposed']"}


def _selector(name: str) -> str:
    if name in STEP:
        return STEP[name]
    if name == "fits":
        return "[data-key='fits']"
    assert name in MEMORY, name
    return f"[data-key='memory_per_gpu_gb.{name}']"


def test_each_link_of_the_example_opens_the_calculator_on_the_same_figures(page: Page, base_url: str) -> None:
    settle(page, base_url + "/parallelism/")
    figures = page.eval_on_selector_all(
        "[data-figure]", "els => els.map(e => [e.dataset.figure, e.dataset.value, e.textContent])")
    links = dict(page.eval_on_selector_all("a[data-calc]", "els => els.map(e => [e.dataset.calc, e.href])"))
    assert {"plain", "interleaved", "zero0", "zero1", "zero2", "zero3"} <= set(links)
    compared = 0
    for variant, href in sorted(links.items()):
        settle(page, href)
        _wait_until_ready(page)
        for key, value, text in figures:
            mine, _, name = key.partition(".")
            if mine != variant:
                continue
            cell = page.locator("#calc-result " + _selector(name))
            assert cell.count() == 1, (key, _selector(name))
            if name == "fits":
                assert cell.get_attribute("data-value") == value, key
                continue
            assert cell.inner_text().strip() == text.strip(), (key, cell.inner_text(), text)
            assert math.isclose(float(cell.get_attribute("data-value") or "nan"), float(value), rel_tol=1e-9), key
            compared += 1
    assert compared >= 30, compared
