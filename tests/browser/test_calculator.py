"""The calculator page in Chromium: at phone width in dark mode and at laptop width in light mode
a reader changes the inputs, the results change, and every number equals what
`python -m generator estimate --format json` prints for the same inputs; nothing scrolls sideways
at 390 px; text keeps its contrast in both schemes; each input links to its row on its page; and
without JavaScript the page says what it needs.

Ids come from the site's own data/costmodel.json (whatever the knowledge base holds), and the
layouts are chosen to divide the picked workload's shape, so a valid edit of specs/ cannot fail
these tests."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from navigation import settle
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from support import cli as in_process  # `python -m generator`, in this process
from support import real_result
from test_reader import _contrast

from generator.labels import RECOMPUTE

ROOT = Path(__file__).resolve().parents[2]


def _data(site_dir: Path) -> dict[str, object]:
    data = json.loads((site_dir / "data" / "costmodel.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _pick(data: dict[str, object]) -> dict[str, object]:
    """A workload, a GPU whose 8-GPU node has a scale-up link, a network with a port rate, and two
    layouts that divide the workload's shape (the second changes every layout input)."""
    workloads, gpus, networks = (data[k] for k in ("workloads", "gpus", "networks"))
    assert isinstance(workloads, list) and isinstance(gpus, list) and isinstance(networks, list)
    dense = next(x for x in workloads if x["spec"]["moe"] is None)  # the second layout's knobs are dense-only
    w = dense["spec"]
    # a GPU whose architecture states cuDNN's attention speed-up, so the kernel choice shows
    placed = [g for g in gpus if "problem" not in g["scale_up"]["8"]]
    gpu = next((g for g in placed if g["spec"].get("cudnn_attention_speedup")), placed[0])
    network = next(n for n in networks if "problem" not in n)
    splits = [w["attention_heads"], w["kv_heads"] or w["attention_heads"], w["ffn_hidden_size"] or 4 * w["hidden_size"]]
    tp = 2 if all(x % 2 == 0 for x in splits) else 1
    pp = 2 if w["layers"] % 2 == 0 else 1
    first = {"gpus": 8, "gpus_per_node": 8, "nics_per_node": 8, "tp": 1, "pp": 1, "zero": 1, "micro_batch": 1,
             "seq": 4096, "global_batch": 512, "recompute": "selective", "sequence_parallel": False,
             "flash_attention": True, "virtual_pipeline": 1, "cp": 1, "tp_overlap": 0.0, "fp32_gradients": False,
             "shard_group": 0, "attention_kernel": "cudnn"}
    second = {"gpus": 16, "gpus_per_node": 8, "nics_per_node": 4, "tp": tp, "pp": pp, "zero": 3, "micro_batch": 2,
              "seq": 2048, "global_batch": 256, "recompute": "full", "sequence_parallel": True,
              "flash_attention": False, "virtual_pipeline": 2 if pp == 2 else 1, "cp": 2, "tp_overlap": 0.3,
              "fp32_gradients": True, "shard_group": 2, "attention_kernel": "flash-attention-2"}
    return {"workload": dense["id"], "gpu": gpu["id"], "network": network["id"], "layouts": (first, second)}


def _cli(ids: dict[str, object], layout: dict[str, object], extra: tuple[str, ...] = ()) -> dict[str, object]:
    flags = ["--workload", str(ids["workload"]), "--gpu", str(ids["gpu"]), "--network", str(ids["network"]),
             "--format", "json", *extra]
    for key, flag in (("gpus", "--gpus"), ("gpus_per_node", "--gpus-per-node"), ("nics_per_node", "--nics-per-node"),
                      ("tp", "--tp"), ("pp", "--pp"), ("zero", "--zero"), ("micro_batch", "--micro-batch"),
                      ("seq", "--seq"), ("global_batch", "--global-batch"), ("recompute", "--recompute"),
                      ("virtual_pipeline", "--virtual-pipeline"), ("cp", "--cp"), ("tp_overlap", "--tp-overlap"),
                      ("shard_group", "--shard-group"), ("attention_kernel", "--attention-kernel")):
        flags += [flag, str(layout[key])]
    for key, flag in (("sequence_parallel", "--sequence-parallel"), ("fp32_gradients", "--fp32-gradients")):
        if layout[key]:
            flags.append(flag)
    if not layout["flash_attention"]:
        flags.append("--no-flash-attention")
    done = in_process("estimate", *flags)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert isinstance(out, dict)
    return out


def _set(page: Page, ids: dict[str, object], layout: dict[str, object]) -> None:
    for name in ("workload", "gpu", "network"):
        page.select_option(f"#calc select[name={name}]", str(ids[name]))
    for name in ("gpus_per_node", "tp", "zero", "recompute", "attention_kernel"):
        page.select_option(f"#calc select[name={name}]", str(layout[name]))
    for name in ("gpus", "nics_per_node", "pp", "micro_batch", "seq", "global_batch", "virtual_pipeline", "cp",
                 "tp_overlap", "shard_group"):
        page.fill(f"#calc input[name={name}]", str(layout[name]))
    for name in ("sequence_parallel", "flash_attention", "fp32_gradients"):
        page.set_checked(f"#calc input[name={name}]", bool(layout[name]))


def _shown(page: Page) -> dict[str, str]:
    pairs = page.eval_on_selector_all("#calc-result [data-key]",
                                      "els => els.map(e => [e.dataset.key, e.dataset.value])")
    return dict(pairs)


def _lookup(data: dict[str, object], key: str) -> object:
    value: object = data
    for part in key.split("."):
        assert isinstance(value, dict), key
        value = value[part]
    return value


def _assert_equal(shown: dict[str, str], cli: dict[str, object]) -> None:
    assert len(shown) >= 20, shown
    for key, text in shown.items():
        expected = _lookup(cli, key)
        if isinstance(expected, bool):
            assert text == str(expected).lower(), key
        elif isinstance(expected, (int, float)):
            assert math.isclose(float(text), expected, rel_tol=1e-9), (key, text, expected)
        elif expected is None:
            assert text in ("null", "undefined", None), (key, text)  # shown as "—", no value
        else:
            assert text == expected, (key, text, expected)


def _colours(page: Page, selector: str) -> tuple[str, str]:
    """An element's text colour and the first opaque-or-tinted background behind it."""
    colour, background = page.eval_on_selector(selector, """e => {
        let bg = getComputedStyle(e).backgroundColor, n = e;
        while (bg === 'rgba(0, 0, 0, 0)' && n.parentElement) { n = n.parentElement; bg = getComputedStyle(n).backgroundColor; }
        return [getComputedStyle(e).color, bg]; }""")
    return colour, background


def _wait_until_ready(page: Page) -> None:
    """The form is ready (calc-ready) once calculator.js has fetched and parsed costmodel.json and
    drawn the first result; it shows before that, so that nothing moves on the page. "networkidle" only says the fetch ended; on a loaded machine the parse and the
    first render can take longer than the 500 ms quiet window, so wait for the form itself (and on
    failure say what the notice says: a failed fetch is written there)."""
    try:
        page.locator("#calc.calc-ready").wait_for(state="visible", timeout=30_000)
    except PlaywrightTimeout:
        pytest.fail("the calculator never appeared; the notice says: " + page.inner_text("#calc-nojs"))
    assert not page.is_visible("#calc-nojs")


def test_calculator_estimates_a_mixture_of_experts_as_the_cli_does(browser: Browser, base_url: str,
                                                                   site_dir: Path) -> None:
    """An MoE workload with its experts spread over two nodes: the page shows the all-to-all's
    share, and every figure equals `estimate --ep` (the imbalance defaulting to the knowledge
    base's assumption on both sides)."""
    data = _data(site_dir)
    ids = _pick(data)
    workloads = data["workloads"]
    assert isinstance(workloads, list)
    moe = next((w for w in workloads if w["spec"]["moe"] is not None and w["spec"]["moe"]["experts"] % 16 == 0), None)
    if moe is None:
        pytest.fail("the knowledge base holds no MoE workload with a multiple of 16 experts")
    layout = {"gpus": 32, "gpus_per_node": 8, "nics_per_node": 8, "tp": 1, "pp": 2, "zero": 1, "micro_batch": 1,
              "seq": 4096, "global_batch": 256, "recompute": "selective", "sequence_parallel": False,
              "flash_attention": True, "virtual_pipeline": 1, "cp": 1, "tp_overlap": 0.0, "fp32_gradients": False,
              "shard_group": 0, "attention_kernel": "flash-attention-2"}
    page = browser.new_page(viewport={"width": 390, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    moe_ids = {**ids, "workload": moe["id"]}
    _set(page, moe_ids, layout)
    page.fill("#calc input[name=ep]", "16")
    page.fill("#calc input[name=ep_overlap]", "0.5")
    shown = _shown(page)
    cli = _cli(moe_ids, layout, ("--ep", "16", "--ep-overlap", "0.5"))
    assert cli["all_to_all"] is not None and cli["all_to_all"]["on_network"]
    assert "all_to_all.share" in shown
    _assert_equal(shown, cli)
    # the error on published runs of this kind (MoE at BF16), in the CLI's own sentence
    assert page.inner_text("#calc-result .calc-accuracy-kind") == cli["accuracy"]["kind"]["statement"]
    # and on published runs on the chosen GPU's architecture, in the CLI's sentence too
    assert page.inner_text("#calc-result .calc-accuracy-architecture") == cli["accuracy"]["architecture"]["statement"]
    # each expert also split over a tensor-parallel pair: the 8 × 2 GPUs that hold a layer's experts
    # once span two nodes, and the page prices it as `estimate --etp 2` does
    split = {**layout, "tp": 2, "sequence_parallel": True}
    _set(page, moe_ids, split)
    page.fill("#calc input[name=ep]", "8")
    page.fill("#calc input[name=etp]", "2")
    page.fill("#calc input[name=ep_overlap]", "0")
    shown = _shown(page)
    cli = _cli(moe_ids, split, ("--ep", "8", "--etp", "2"))
    assert cli["all_to_all"] is not None and cli["all_to_all"]["on_network"]
    _assert_equal(shown, cli)
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("scheme", "width"), [("dark", 390), ("light", 1280)])
def test_calculator_follows_inputs_and_equals_the_cli(browser: Browser, base_url: str, site_dir: Path,
                                                      scheme: str, width: int) -> None:
    data = _data(site_dir)
    ids = _pick(data)
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900},  # type: ignore[arg-type]
                                  locale="zh-CN", is_mobile=width < 500, has_touch=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    before: dict[str, str] = {}
    for layout in ids["layouts"]:  # type: ignore[attr-defined]
        _set(page, ids, layout)
        shown = _shown(page)
        assert shown != before, "the results did not change with the inputs"
        _assert_equal(shown, _cli(ids, layout))
        before = shown
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, overflow
    # full recomputation of only 2 layers of each chunk, as `estimate --recompute-layers 2` prices it
    block = {**ids["layouts"][0], "recompute": "full"}  # type: ignore[index]
    _set(page, ids, block)
    page.fill("#calc input[name=recompute_layers]", "2")
    shown = _shown(page)
    assert shown != before, "the results did not change with the layers recomputed"
    _assert_equal(shown, _cli(ids, block, ("--recompute-layers", "2")))
    page.fill("#calc input[name=recompute_layers]", "0")
    body = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    for selector in ("#calc-result td.num", "#calc-result .calc-verdict", "#calc select[name=gpu]",
                     "#calc input[name=gpus]", "#calc legend"):
        colour, background = _colours(page, selector)
        # A translucent tint over the page: judge against the page's own colour, the tint is light.
        if background.startswith("rgba"):
            background = body
        assert _contrast(colour, background) >= 4.5, (scheme, selector, colour, background)
    if scheme == "dark":
        assert _contrast(body, "rgb(0, 0, 0)") < 2, "dark mode should have a dark page"
    assert not errors, errors
    context.close()


def test_each_input_links_to_its_row(page: Page, base_url: str, site_dir: Path) -> None:
    """The workload, GPU, network and scale-up link and every assumption link to an anchor that
    exists on the page they point to."""
    ids = _pick(_data(site_dir))
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    _set(page, ids, ids["layouts"][0])  # type: ignore[index]
    hrefs = page.eval_on_selector_all("#calc a.calc-ref[href], #calc-assumption-items a", "els => els.map(e => e.href)")
    assert len(hrefs) >= 4 + 10, hrefs
    expected = {f"/gpus/#{ids['gpu']}", f"/networks/#{ids['network']}", f"/costmodel/#{ids['workload']}"}
    assert all(any(h.endswith(e) for h in hrefs) for e in expected), hrefs
    for href in sorted(set(hrefs)):
        page.goto(href, wait_until="domcontentloaded")
        anchor = href.split("#", 1)[1]
        assert page.evaluate("id => document.getElementById(id) !== null", anchor), href


def test_without_javascript_the_page_says_what_it_needs(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(base_url + "/calculator/")
    assert page.is_visible("#calc-nojs") and not page.is_visible("#calc")
    assert "JavaScript" in page.inner_text("#calc-nojs")
    # what to do on the site without the script: pages whose answers need none
    links = page.eval_on_selector_all("#calc-nojs a", "els => els.map(e => e.getAttribute('href'))")
    assert {"../flowchart/", "../scaling/", "../costmodel/"} <= set(links), links
    context.close()


def _widest_node(data: dict[str, object]) -> dict[str, object]:
    """The node with the most GPUs that the model can use (ties: the first), from costmodel.json."""
    nodes = data["nodes"]
    assert isinstance(nodes, list) and nodes, "the knowledge base holds no node"
    usable = [n for n in nodes if "problem" not in n and "problem" not in n["scale_up"]]
    assert usable, nodes
    return max(usable, key=lambda n: n["gpus_per_node"])


def _locked(page: Page) -> dict[str, object]:
    return page.evaluate("""() => Object.fromEntries(['gpu', 'gpus_per_node', 'nics_per_node'].map(
        n => [n, [document.querySelector('#calc [name=' + n + ']').value,
                  document.querySelector('#calc [name=' + n + ']').disabled]]))""")


def test_a_node_sets_the_inputs_and_equals_estimate_node(page: Page, base_url: str, site_dir: Path) -> None:
    """Choosing the node with the most GPUs locks the GPU, GPUs per node (offered even above the
    free sizes) and NICs to the node's values, every shown number equals `estimate --node` for
    two such nodes, and the node links to its row; choosing no node gives the reader's own inputs
    back."""
    data = _data(site_dir)
    ids, node = _pick(data), _widest_node(data)
    size = int(node["gpus_per_node"])  # type: ignore[call-overload]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    free = ids["layouts"][0]  # type: ignore[index]
    _set(page, ids, free)
    before = _locked(page)
    assert all(not disabled for _, disabled in before.values()), before
    layout = {**free, "gpus": 2 * size, "global_batch": 8 * size}
    page.fill("#calc input[name=gpus]", str(layout["gpus"]))
    page.fill("#calc input[name=global_batch]", str(layout["global_batch"]))
    page.select_option("#calc select[name=node]", str(node["id"]))
    assert _locked(page) == {"gpu": [node["gpu"], True], "gpus_per_node": [str(size), True],
                             "nics_per_node": [str(node["nics_per_node"]), True]}
    link = page.eval_on_selector("#calc a.calc-ref[data-ref=node]", "e => e.href")
    body = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    for name in ("gpu", "gpus_per_node", "nics_per_node"):  # locked, yet as legible as the rest
        colour, background = _colours(page, f"#calc [name={name}]")
        assert _contrast(colour, body if background.startswith("rgba") else background) >= 4.5, (name, colour)
        opacity = page.eval_on_selector(f"#calc [name={name}]", "e => getComputedStyle(e).opacity")
        assert opacity == "1", (name, opacity)  # a browser's own disabled style may fade the whole control
    assert link.endswith(f"/nodes/#{node['id']}"), link
    flags = ["--workload", str(ids["workload"]), "--node", str(node["id"]), "--network", str(ids["network"]),
             "--format", "json"]
    for key, flag in (("gpus", "--gpus"), ("tp", "--tp"), ("pp", "--pp"), ("zero", "--zero"),
                      ("micro_batch", "--micro-batch"), ("seq", "--seq"), ("global_batch", "--global-batch"),
                      ("recompute", "--recompute")):
        flags += [flag, str(layout[key])]
    done = in_process("estimate", *flags)
    assert done.returncode == 0, done.stderr
    cli = json.loads(done.stdout)
    assert cli["inputs"]["ids"]["node"] == node["id"] and cli["inputs"]["gpus_per_node"] == size
    _assert_equal(_shown(page), cli)
    page.set_viewport_size({"width": 390, "height": 900})  # a long node name must not widen a phone's page
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, overflow
    page.select_option("#calc select[name=node]", "")
    assert _locked(page) == before
    options = page.eval_on_selector_all("#calc select[name=gpus_per_node] option", "els => els.map(e => e.value)")
    assert options == sorted(data["gpus"][0]["scale_up"], key=int)  # type: ignore[index]
    assert not page.is_visible("#calc a.calc-ref[data-ref=node]")
    assert not errors, errors
    page.goto(link, wait_until="domcontentloaded")
    assert page.evaluate("id => document.getElementById(id) !== null", node["id"]), link


def test_small_clusters_lora_tokens_and_what_does_not_fit(page: Page, base_url: str, site_dir: Path) -> None:
    """4 GPUs in all: GPUs per node follows the total (min(8, total), as the CLI), and the estimate
    with LoRA adapters on a 4-bit base equals `estimate --lora-rank --base-bits`; tokens to train
    add days and GPU-hours; a configuration that does not fit shows no step time and says what
    would fit, whatever the CLI says for the same inputs."""
    data = _data(site_dir)
    ids = _pick(data)
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    for name in ("workload", "gpu", "network"):
        page.select_option(f"#calc select[name={name}]", str(ids[name]))
    sizes = page.eval_on_selector_all("#calc select[name=gpus_per_node] option", "os => os.map(o => o.value)")
    page.fill("#calc input[name=gpus]", "4")
    expected_size = max(int(s) for s in sizes if int(s) <= 4 and 4 % int(s) == 0)
    assert page.input_value("#calc select[name=gpus_per_node]") == str(expected_size)
    page.fill("#calc input[name=nics_per_node]", "1")
    page.fill("#calc input[name=adapter_rank]", "16")
    page.select_option("#calc select[name=base_bits]", "4")
    layout = {"gpus": 4, "gpus_per_node": expected_size, "nics_per_node": 1, "tp": 1, "pp": 1, "zero": 1,
              "micro_batch": 1, "seq": 4096, "global_batch": 512, "recompute": "selective", "sequence_parallel": False,
              "flash_attention": True, "virtual_pipeline": 1, "cp": 1, "tp_overlap": 0.0, "fp32_gradients": False,
              "shard_group": 0, "attention_kernel": "flash-attention-2"}
    _set(page, ids, layout)
    page.fill("#calc input[name=adapter_rank]", "16")
    cli = _cli(ids, layout, ("--lora-rank", "16", "--base-bits", "4"))
    shown = _shown(page)
    if cli["fits"]:
        _assert_equal(shown, cli)
        # the error on published LoRA runs (not on runs that train every weight), in the CLI's sentence
        assert cli["accuracy"]["kind"]["training"] == "lora"  # type: ignore[index]
        assert page.inner_text("#calc-result .calc-accuracy-kind") == cli["accuracy"]["kind"]["statement"]  # type: ignore[index]
        page.fill("#calc input[name=tokens_b]", "2")
        shown = _shown(page)
        days = 2e9 / float(cli["tokens_per_s"]) / 86400  # type: ignore[arg-type]
        assert math.isclose(float(shown["train_days"]), days, rel_tol=1e-9)
        assert math.isclose(float(shown["gpu_hours"]), days * 24 * 4, rel_tol=1e-9)
    else:
        assert "step_time_s" not in shown and page.locator("#calc-result .calc-hint").is_visible()
    # The largest workload on one GPU without savers: if it does not fit, no step time is shown.
    workloads = data["workloads"]
    assert isinstance(workloads, list)
    biggest = max(workloads, key=lambda w: w["spec"]["parameter_count"])
    one = {**layout, "gpus": 1, "gpus_per_node": 1, "zero": 0}
    big = {**ids, "workload": biggest["id"]}
    _set(page, big, one)
    page.fill("#calc input[name=adapter_rank]", "0")
    page.select_option("#calc select[name=base_bits]", "16")
    cli = _cli(big, one)
    shown = _shown(page)
    assert shown["fits"] == str(cli["fits"]).lower()
    if not cli["fits"]:
        assert "step_time_s" not in shown and "tokens_per_s" not in shown
        hint = page.inner_text("#calc-result .calc-hint")
        assert "ZeRO" in hint and "GB" in hint
        # with only some layers recomputed in full, the hint suggests recomputing more of them
        page.select_option("#calc select[name=recompute]", "full")
        page.fill("#calc input[name=recompute_layers]", "1")
        partial = {**one, "recompute": "full"}
        if not _cli(big, partial, ("--recompute-layers", "1"))["fits"]:
            assert "0 为每层都重计算" in page.inner_text("#calc-result .calc-hint")
        page.fill("#calc input[name=recompute_layers]", "0")
    else:
        assert "step_time_s" in shown



def test_choose_the_layout_for_me_runs_the_planners_search(page: Page, base_url: str, site_dir: Path) -> None:
    """The button writes the layout planner/search.py finds for the same inputs into the form, and
    the result then equals `estimate` for that layout."""
    from generator.estimates.choice import Choice, resolve
    from generator.planner.search import StepShape, fastest_layout

    data = _data(site_dir)
    ids = _pick(data)
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    layout = {"gpus": 16, "gpus_per_node": 8, "nics_per_node": 8, "tp": 1, "pp": 1, "zero": 0, "micro_batch": 1,
              "seq": 4096, "global_batch": 256, "recompute": "none", "sequence_parallel": False,
              "flash_attention": False, "virtual_pipeline": 1, "cp": 1, "tp_overlap": 0.5, "fp32_gradients": True,
              "shard_group": 0, "attention_kernel": "flash-attention-2"}
    _set(page, ids, layout)
    page.click("#calc-choose")
    result = real_result()
    assert result.kb is not None
    resolved = resolve(result.kb, Choice(str(ids["gpu"]), 16, str(ids["network"]), str(ids["workload"]),
                                         gpus_per_node=8, nics_per_node=8))
    assert not isinstance(resolved, str)
    found, estimate_, why = fastest_layout(resolved.workload, resolved.cluster, resolved.assumptions,
                                           StepShape(4096, 256, 1))
    if found is None:
        assert "没有布局" in page.inner_text("#calc-choose-note")
        return
    assert page.input_value("#calc select[name=tp]") == str(found.tensor_parallel)
    assert page.input_value("#calc input[name=pp]") == str(found.pipeline_parallel)
    assert page.input_value("#calc select[name=zero]") == str(found.zero_stage)
    assert page.input_value("#calc select[name=recompute]") == found.recompute
    assert page.input_value("#calc input[name=recompute_layers]") == str(found.recompute_layers)
    assert page.input_value("#calc input[name=ep]") == str(found.expert_parallel)
    assert page.input_value("#calc input[name=etp]") == str(found.expert_tensor_parallel)
    assert page.input_value("#calc input[name=global_batch]") == str(found.global_batch_size)
    chosen = {**layout, "tp": found.tensor_parallel, "pp": found.pipeline_parallel, "zero": found.zero_stage,
              "recompute": found.recompute, "global_batch": found.global_batch_size,
              "sequence_parallel": found.sequence_parallel, "flash_attention": True, "tp_overlap": 0.0,
              "fp32_gradients": False}
    if why == "":
        _assert_equal(_shown(page), _cli(ids, chosen, ("--recompute-layers", str(found.recompute_layers))))


def test_the_inputs_live_in_the_address(browser: Browser, base_url: str, site_dir: Path) -> None:
    """Every input is written into the page's query string; opening that address again restores
    the inputs and the same result, equal to the CLI; a value the form cannot take is ignored."""
    data = _data(site_dir)
    ids = _pick(data)
    page = browser.new_page()
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    layout = {"gpus": 16, "gpus_per_node": 8, "nics_per_node": 4, "tp": 1, "pp": 1, "zero": 2, "micro_batch": 1,
              "seq": 2048, "global_batch": 256, "recompute": "full", "sequence_parallel": False,
              "flash_attention": True, "virtual_pipeline": 1, "cp": 1, "tp_overlap": 0.0, "fp32_gradients": True,
              "shard_group": 0, "attention_kernel": "flash-attention-2"}
    _set(page, ids, layout)
    shown = _shown(page)
    params = page.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)")
    assert params["gpus"] == "16" and params["zero"] == "2" and params["fp32_gradients"] == "1"
    assert params["workload"] == ids["workload"] and params["network"] == ids["network"]
    shared = page.evaluate("() => location.href")
    page.close()
    again = browser.new_page()
    settle(again, shared)
    _wait_until_ready(again)
    assert again.input_value("#calc input[name=gpus]") == "16"
    assert again.input_value("#calc select[name=zero]") == "2"
    assert _shown(again) == shown
    _assert_equal(shown, _cli(ids, layout))
    settle(again, shared.replace("zero=2", "zero=7"))
    _wait_until_ready(again)
    assert again.input_value("#calc select[name=zero]") != "7"
    again.close()


def test_an_address_with_only_a_total_gets_its_node_size(page: Page, base_url: str) -> None:
    """`?gpus=4` alone: GPUs per node follows the total, as typing 4 would, and the page estimates."""
    settle(page, base_url + "/calculator/?gpus=4")
    _wait_until_ready(page)
    assert page.input_value("#calc input[name=gpus]") == "4"
    assert int(page.input_value("#calc select[name=gpus_per_node]")) <= 4
    assert page.locator("#calc-result [data-key=fits]").count() == 1


def test_the_planner_on_the_page_gives_the_commands_answer(page: Page, base_url: str, site_dir: Path) -> None:
    """The calculator's planner, for the page's workload and GPU count in each market and goal,
    lists the options `plan --format json` lists, in its order and with its step times."""
    data = _data(site_dir)
    ids = _pick(data)
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    page.select_option("#calc select[name=workload]", str(ids["workload"]))
    page.select_option("#calc select[name=node]", "")
    page.fill("#calc input[name=gpus]", "16")
    page.fill("#calc input[name=seq]", "4096")
    page.fill("#calc input[name=micro_batch]", "1")
    page.fill("#calc input[name=adapter_rank]", "0")
    markets = page.eval_on_selector_all("#calc-plan select[name=market] option", "os => os.map(o => o.value)")
    assert markets
    for market in markets:
        for goal in ("pretrain", "lora"):
            page.select_option("#calc-plan select[name=market]", market)
            page.select_option("#calc-plan select[name=goal]", goal)
            page.fill("#calc input[name=global_batch]", "128" if goal == "lora" else "512")
            page.click("#calc-plan-run")
            done = in_process("plan", "--workload", str(ids["workload"]), "--gpus", "16", "--market", market, "--goal",
                              goal, "--format", "json")
            assert done.returncode == 0, done.stderr
            cli = json.loads(done.stdout)
            rows = page.eval_on_selector_all("#calc-plan-result tr[data-id]",
                                             "rs => rs.map(r => [r.dataset.id, Number(r.dataset.step), r.lastChild.textContent])")
            assert [r[0] for r in rows] == [o["id"] for o in cli["options"]], (market, goal)
            for (_, step, layout), option in zip(rows, cli["options"], strict=True):
                assert math.isclose(step, option["step_time_s"], rel_tol=1e-9)
                # the layout cell names the answer's recomputation, whichever it is
                lay = option["layout"]
                experts = (f" · EP {lay['ep']}" if lay["ep"] > 1 else "") + (f" · ETP {lay['etp']}" if lay["etp"] > 1 else "")
                assert layout.startswith(f"TP {lay['tp']} · PP {lay['pp']}{experts} · ZeRO-{lay['zero']} · "), layout
                named = f"每块重计算 {lay['recompute_layers']} 层" if lay["recompute_layers"] else RECOMPUTE.zh[lay["recompute"]]
                assert layout.endswith(named), (layout, lay)
            if not cli["options"]:
                shown = page.get_attribute("#calc-plan-result [data-key=fewest_gpus]", "data-value")
                assert shown == ("" if cli["fewest_gpus"] is None else str(cli["fewest_gpus"]["gpus"]))


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize(("name", "value"), [("seq", "9" * 301), ("global_batch", "1" + "0" * 320),
                                             ("seq", "9007199254740993"), ("adapter_rank", "9" * 301)])
def test_a_count_beyond_a_double_is_refused_as_the_cli_refuses_it(page: Page, base_url: str, name: str,
                                                                   value: str, language: str) -> None:
    """A count the model cannot take (301 digits, 10^320, past 2^53 − 1) is refused, never shown
    as NaN or Infinity: the model's refusal names the field and the limit, as `estimate` does; a
    value beyond a double (10^320), which the browser's number field itself drops, is refused as
    a missing whole number. A LoRA rank may be 0 but is bounded as every count is. In English, in
    the Python model's own words."""
    _open(page, base_url, language)
    page.fill(f"#calc input[name={name}]", value)
    page.locator("#calc-result .calc-problem").first.wait_for(state="visible", timeout=15_000)
    result = page.inner_text("#calc-result")
    field = {"seq": "sequence_length", "global_batch": "global_batch_size", "adapter_rank": "adapter_rank"}[name]
    whole = {"zh": "不小于 1 的整数", "en": "must be a whole number of at least 1"}[language]
    limit = {"zh": "2^53", "en": "is beyond 2^53 − 1"}[language]
    assert (limit in result and f"layout.{field}" in result) or (len(value) > 308 and whole in result), result
    assert "NaN" not in result and "Infinity" not in result
    assert language == "zh" or not CJK.search(result), result


@pytest.mark.parametrize("width", [1280, 390])
def test_result_tables_keep_labels_and_figures_apart(browser: Browser, base_url: str, width: int) -> None:
    """Each result row's label and figure stand apart (a gap of at least 8 px between their texts)
    with a rule line between rows, at a desktop and a phone width."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    gaps = page.eval_on_selector_all("#calc-result table.calc-table tr", """rows => rows.map(r => {
        const [a, b] = r.children; const text = c => { const g = document.createRange(); g.selectNodeContents(c);
        return g.getBoundingClientRect(); };
        return [text(b).left - text(a).right, parseFloat(getComputedStyle(a).borderTopWidth)]; })""")
    page.close()
    assert len(gaps) >= 5
    assert all(gap >= 8 and line > 0 for gap, line in gaps), gaps


def test_nothing_moves_while_the_calculator_loads(browser: Browser, base_url: str) -> None:
    """The form shows before the first paint and the notice for readers without scripts is gone by
    then, so filling the form and drawing the first result move no text the reader already sees
    (Lighthouse counted the old reveal as a layout shift of 0.16 on a phone)."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    page = context.new_page()
    settle(page, base_url + "/calculator/")
    _wait_until_ready(page)
    shift = page.evaluate("""() => new Promise(resolve => {
        let total = 0;
        new PerformanceObserver(list => { for (const e of list.getEntries()) { if (!e.hadRecentInput) total += e.value; } })
          .observe({type: "layout-shift", buffered: true});
        setTimeout(() => resolve(total), 300);
    })""")
    assert shift < 0.01, shift
    context.close()


# ---- the English calculator --------------------------------------------------------------------
# The English edition's calculator (/en/calculator/): its page, its scripts' English strings and
# the data the English build writes (en/data/costmodel.json).

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def _open(page: Page, base_url: str, language: str, query: str = "") -> None:
    """The calculator of the edition in `language`, ready."""
    settle(page, base_url + ("/en" if language == "en" else "") + "/calculator/" + query)
    _wait_until_ready(page)
    assert page.evaluate("() => document.documentElement.lang") == language


def _words(page: Page, selector: str) -> str:
    return page.inner_text(selector)


def test_the_english_calculator_shows_the_chinese_ones_figures_in_english(browser: Browser, base_url: str,
                                                                          site_dir: Path) -> None:
    """The same inputs on the Chinese and the English calculator: every figure the same (and the
    CLI's), every word of the result in English; a configuration that does not fit says what would
    fit; "choose a layout for me" and the planner, in each market, give the same rows."""
    data = _data(site_dir)
    ids = _pick(data)
    workloads = data["workloads"]
    assert isinstance(workloads, list)
    biggest = max(workloads, key=lambda w: w["spec"]["parameter_count"])
    one = {**ids["layouts"][0], "gpus": 1, "gpus_per_node": 1, "zero": 0}  # type: ignore[index]
    seen: dict[str, list[object]] = {}
    for language in ("zh", "en"):
        page = browser.new_page(viewport={"width": 390, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))  # noqa: B023
        _open(page, base_url, language)
        got: list[object] = []
        for layout in ids["layouts"]:  # type: ignore[attr-defined]
            _set(page, ids, layout)
            got.append(_shown(page))
            text = _words(page, "#calc-result")
            assert language == "zh" or not CJK.search(text), text
        _set(page, {**ids, "workload": biggest["id"]}, one)
        got.append(_shown(page))
        text = _words(page, "#calc-result")
        assert language == "zh" or not CJK.search(text), text
        if got[-1]["fits"] == "false":  # type: ignore[index]
            assert "ZeRO" in _words(page, "#calc-result .calc-hint")
        _set(page, ids, ids["layouts"][0])  # type: ignore[index]
        page.click("#calc-choose")
        got.append(_shown(page))
        note = _words(page, "#calc-choose-note")
        assert note and (language == "zh" or not CJK.search(note)), note
        markets = page.eval_on_selector_all("#calc-plan select[name=market] option",
                                            "os => os.map(o => [o.value, o.textContent])")
        assert markets and (language == "zh" or not CJK.search(json.dumps(markets, ensure_ascii=False))), markets
        page.fill("#calc input[name=gpus]", "16")
        for market, _name in markets:
            page.select_option("#calc-plan select[name=market]", market)
            page.click("#calc-plan-run")
            got.append(page.eval_on_selector_all("#calc-plan-result tr[data-id], #calc-plan-result [data-key]",
                                                 "rs => rs.map(r => [r.dataset.id, r.dataset.step, r.dataset.value])"))
            text = _words(page, "#calc-plan-result")
            assert language == "zh" or not CJK.search(text), text
        assert not errors, errors
        seen[language] = got
        page.close()
    assert seen["en"] == seen["zh"]
    for shown, layout in zip(seen["en"], ids["layouts"], strict=False):  # type: ignore[call-overload]
        _assert_equal(shown, _cli(ids, layout))  # type: ignore[arg-type]
