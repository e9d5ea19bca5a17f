"""The selection tree on every screen: at 1280 px the drawing fits the content column with every
box and line of text inside it; at phone width (light and dark) the page asks one question at a
time and ends with exactly what `python -m generator recommend` answers for the same answers,
and a changed answer changes the result. Without JavaScript the drawing stays."""

from __future__ import annotations

import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from navigation import settle
from playwright.sync_api import Browser, Page
from test_reader import AXE_THEME_ALLOWED

from generator.derive import FigureIndex
from generator.edge.recommend import run
from generator.knowledge import KnowledgeBase
from generator.model.selection import Selection, Variable
from generator.selection.tree import Step, Value, answer_label, example_values, leaf_paths, variables

PHONE = {"width": 390, "height": 844}
PAGE_OF = {"gpu": "gpus", "intra_node": "interconnects", "network": "networks", "topology": "topologies"}


def _tree(kb: KnowledgeBase) -> Selection:
    return kb.of_kind("selection")[0].model


def _flags(sel: Selection, values: dict[str, Value]) -> list[str]:
    known: dict[str, Variable] = variables(sel)
    argv: list[str] = []
    for name, value in values.items():
        argv += [f"--{name}", f"{value}{known[name].suffix or ''}" if known[name].kind == "count" else str(value)]
    return argv


def _command(kb: KnowledgeBase, figures: FigureIndex, sel: Selection, path: tuple[Step, ...]) -> dict[str, object]:
    """What the command answers for the answers that follow `path` (its own flag parsing too)."""
    data: dict[str, object] = json.loads(run(kb, figures, _flags(sel, example_values(sel, path)), "json"))
    return data


def _phone(browser: Browser, scheme: str, javascript: bool = True) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, locale="zh-CN", java_script_enabled=javascript)  # type: ignore[arg-type]
    return context.new_page()


def _answer(page: Page, label: str) -> None:
    page.locator(".quiz .quiz-answer", has_text=re.compile(f"^{re.escape(label)}$")).click()


def _labels(page: Page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def _check_result(page: Page, data: dict[str, object], path_labels: list[str]) -> None:
    """The result panel shows the command's leaf: title, picks with their links, reasons,
    pitfalls, conflicts, and the estimate's figures when there is one."""
    result = page.locator(".quiz .quiz-result")
    assert result.is_visible()
    assert page.locator(".quiz").get_attribute("data-quiz-state") == "ready"
    assert result.locator(".quiz-title").inner_text() == data["title"]
    assert [t.rsplit(" → ", 1)[1] for t in _labels(page, ".quiz .quiz-path li")] == path_labels
    picks = data["picks"]
    if isinstance(picks, dict):
        shown = result.locator(".quiz-picks tr[data-field] a")
        assert shown.all_inner_texts() == [p["name"] for p in picks.values()]
        assert [shown.nth(i).get_attribute("href") for i in range(shown.count())] == [
            f"../{PAGE_OF[field]}/#{pick['id']}" for field, pick in picks.items()]
    else:
        assert result.locator(".quiz-none").is_visible()
    assert _labels(page, ".quiz .quiz-reasons li") == data["reasons"]
    pitfalls = data["pitfalls"]
    assert isinstance(pitfalls, list)
    assert [t.split("] ", 1)[1] for t in _labels(page, ".quiz .quiz-pitfalls li")] == [p["title"] for p in pitfalls]
    conflicts = data["conflicts"]
    assert isinstance(conflicts, list)
    assert len(_labels(page, ".quiz .quiz-conflict")) == len(conflicts)
    estimate = data.get("estimate")
    if isinstance(estimate, dict):  # the cost model's figures, formatted as the script does
        text = result.locator(".quiz-estimate").inner_text()
        if isinstance(estimate.get("step_time_s"), (int, float)):
            assert f"{estimate['step_time_s']:.2f} s" in text
        if isinstance(estimate.get("comm_share"), (int, float)):
            assert f"{estimate['comm_share'] * 100:.1f}%" in text
    else:
        assert result.locator(".quiz-estimate").count() == 0
    assert result.locator(".quiz-more a").get_attribute("href") == f"#leaf-{data['leaf']}"


def _luminance(rgb: str) -> float:
    channel = [float(x) / 255 for x in re.findall(r"[\d.]+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channel]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_flowchart_fits_the_column_at_1280(page: Page, base_url: str, kb: KnowledgeBase) -> None:
    """At 1280x800 the drawing needs no sideways scrolling: every box lies within the content
    column, every line of text within its box, and the questionnaire stays out of the way."""
    page.set_viewport_size({"width": 1280, "height": 800})
    settle(page, base_url + "/flowchart/")
    geometry = page.evaluate("""() => {
      const column = document.querySelector('article').getBoundingClientRect();
      const wrapper = document.querySelector('.flowchart');
      const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
      const nodes = [...document.querySelectorAll('svg#flowchart .fc-node')].map(g => ({
        id: g.id, box: r(g.querySelector('rect')), texts: [...g.querySelectorAll('text')].map(r)}));
      return {column: [column.left, column.right], scroll: wrapper.scrollWidth - wrapper.clientWidth,
              labels: [...document.querySelectorAll('svg#flowchart .fc-label')].map(r), nodes,
              quiz: getComputedStyle(document.querySelector('.quiz')).display};
    }""")
    sel = _tree(kb)
    assert len(geometry["nodes"]) == len(sel.questions) + len(sel.leaves)
    left, right = geometry["column"]
    assert geometry["scroll"] <= 0
    for node in geometry["nodes"]:
        x1, y1, x2, y2 = node["box"]
        assert left <= x1 and x2 <= right, (node["id"], node["box"], geometry["column"])
        for tx1, ty1, tx2, ty2 in node["texts"]:  # text clipped by, or spilling out of, its box
            assert x1 <= tx1 and tx2 <= x2 and y1 <= ty1 and ty2 <= y2, (node["id"], node["box"], (tx1, tx2))
    assert all(left <= x1 and x2 <= right for x1, _y1, x2, _y2 in geometry["labels"])
    assert geometry["quiz"] == "none"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_questionnaire_on_a_phone_gives_the_commands_answer(browser: Browser, base_url: str, kb: KnowledgeBase,
                                                             figures: FigureIndex, scheme: str) -> None:
    """At 390 px the drawing gives way to one question at a time; every leaf, reached by clicking
    its answers, shows what `recommend` answers for those answers; going back and choosing
    another answer changes the result; restart returns to the first question."""
    sel = _tree(kb)
    page = _phone(browser, scheme)
    settle(page, base_url + "/flowchart/")
    quiz = page.locator(".quiz.quiz-ready")
    quiz.wait_for()
    assert not page.locator("svg#flowchart").is_visible()
    first = next(q.ask.zh for q in sel.questions if q.id == sel.root)
    for leaf_id, path in leaf_paths(sel).items():
        if page.locator(".quiz .quiz-restart").is_enabled():
            page.locator(".quiz .quiz-restart").click()
        asked = []
        for step in path:
            asked.append(page.locator(".quiz .quiz-question").inner_text())
            _answer(page, _label(sel, step))
        assert asked == [s.question.ask.zh for s in path]
        data = _command(kb, figures, sel, path)
        assert data["leaf"] == leaf_id
        _check_result(page, data, [_label(sel, s) for s in path])

    # Change the last answer of some path whose question has another answer: a different result.
    paths = leaf_paths(sel)
    leaf_id, path = next((leaf, p) for leaf, p in paths.items() if len(p[-1].question.answers) > 1)
    page.locator(".quiz .quiz-restart").click()
    for step in path:
        _answer(page, _label(sel, step))
    before = page.locator(".quiz .quiz-title").inner_text()
    page.locator(".quiz .quiz-back").click()
    other = next(a for a in path[-1].question.answers if a is not path[-1].answer)
    _answer(page, _label(sel, Step(path[-1].question, other)))
    changed = (*path[:-1], Step(path[-1].question, other))
    if page.locator(".quiz .quiz-result").count():
        data = _command(kb, figures, sel, changed)
        assert page.locator(".quiz .quiz-title").inner_text() == data["title"] != before
    else:  # the other answer leads to a further question: the result is gone
        assert page.locator(".quiz .quiz-question").is_visible()
    page.locator(".quiz .quiz-restart").click()
    assert page.locator(".quiz .quiz-question").inner_text() == first
    assert page.locator(".quiz .quiz-back").is_disabled()

    # Readable in this scheme: the question and the answer buttons against the page.
    colours = page.evaluate("""() => {
      const c = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
      return {body: c('body', 'backgroundColor'), question: c('.quiz .quiz-question', 'color'),
              button: c('.quiz .quiz-answer', 'color'), scheme: document.body.getAttribute('data-md-color-scheme')};
    }""")
    assert colours["scheme"] == ("slate" if scheme == "dark" else "default")
    assert _contrast(colours["question"], colours["body"]) >= 4.5, colours
    assert _contrast(colours["button"], colours["body"]) >= 4.5, colours
    page.context.close()


def test_questionnaire_by_keyboard(browser: Browser, base_url: str, kb: KnowledgeBase) -> None:
    """Answers are buttons reached with Tab and pressed with Enter; after each answer, focus
    moves to the next question, so the next Tab reaches its first answer; axe finds nothing
    serious in the result."""
    sel = _tree(kb)
    page = _phone(browser, "light")
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    path = next(iter(leaf_paths(sel).values()))
    page.locator(".quiz .quiz-answer").first.focus()
    for index, step in enumerate(path):
        if index:
            assert page.evaluate("() => document.activeElement.classList.contains('quiz-question')")
            page.keyboard.press("Tab")
        target = _label(sel, step)
        for _ in range(len(step.question.answers)):
            if page.evaluate("() => document.activeElement.textContent") == target:
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    assert page.locator(".quiz .quiz-result").is_visible()
    assert page.evaluate("() => document.activeElement.classList.contains('quiz-title')")
    # axe-core over the questionnaire with a result showing (the site-wide axe test runs at
    # desktop width, where the questionnaire is hidden).
    violations = [(v["id"], [n["target"] for n in v["nodes"][:3]])
                  for v in Axe().run(page, context=".quiz").response["violations"]
                  if v["impact"] in ("critical", "serious") and v["id"] not in AXE_THEME_ALLOWED]
    assert not violations, violations
    page.context.close()


def test_without_javascript_the_drawing_stays(browser: Browser, base_url: str) -> None:
    """Progressive enhancement: with scripts off a phone gets the drawing (scrolling in its own
    box), and the empty questionnaire takes no room."""
    page = _phone(browser, "light", javascript=False)
    page.goto(base_url + "/flowchart/")
    assert page.locator("svg#flowchart").is_visible()
    assert page.locator(".quiz").evaluate("q => getComputedStyle(q).display") == "none"
    page.context.close()


def _label(sel: Selection, step: Step) -> str:
    return answer_label(variables(sel)[step.question.variable], step.answer)


def test_questionnaire_shows_an_estimate_and_a_leaf_without_picks(browser: Browser, base_url: str,
                                                                   kb: KnowledgeBase) -> None:
    """A leaf whose data carries the cost model's estimate (keys as `estimate --format json`)
    shows memory per GPU, whether it fits, step time, communication share and bottleneck; a leaf
    with no picks (nothing fits) says so. The file is rewritten in flight, with made-up figures."""
    sel = _tree(kb)
    paths = list(leaf_paths(sel).items())
    (first_leaf, first_path), (last_leaf, last_path) = paths[0], paths[-1]
    estimate = {"fits": False, "memory_per_gpu_gb": {"total_gb": 91.234, "usable_gb": 72.0}, "step_time_s": 1.2345,
                "comm_share": 0.4321, "bottleneck": "network"}
    page = _phone(browser, "dark")

    last_has_estimate: list[bool] = []

    def rewrite(route):  # type: ignore[no-untyped-def]
        tree = route.fetch().json()
        tree["nodes"][first_leaf]["recommendation"]["estimate"] = estimate
        tree["nodes"][last_leaf]["recommendation"]["picks"] = None
        last_has_estimate.append(bool(tree["nodes"][last_leaf]["recommendation"].get("estimate")))
        route.fulfill(json=tree)

    page.route("**/data/tree.json", rewrite)
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    for step in first_path:
        _answer(page, _label(sel, step))
    text = page.locator(".quiz .quiz-estimate").inner_text()
    for shown in ("91.2 GB", "可用 72.0 GB", "放不下", "1.23 s", "43.2%", "节点间网络"):
        assert shown in text, (shown, text)
    page.locator(".quiz .quiz-restart").click()
    for step in last_path:
        _answer(page, _label(sel, step))
    assert page.locator(".quiz .quiz-none").is_visible()
    assert page.locator(".quiz .quiz-picks").count() == 0
    # With nothing to buy, the leaf's own estimate (when it has one) still shows why.
    assert page.locator(".quiz .quiz-estimate").count() == (1 if last_has_estimate[-1] else 0)
    page.context.close()


def test_the_answers_live_in_the_address(browser: Browser, base_url: str, kb: KnowledgeBase,
                                          figures: FigureIndex) -> None:
    """Each answer is written into the page's address (`?answers=…`, the answers' indexes); opening
    that address again replays the path to the same result; going back shortens it."""
    sel = _tree(kb)
    leaf_id, path = max(leaf_paths(sel).items(), key=lambda item: len(item[1]))
    page = _phone(browser, "light")
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    for step in path:
        _answer(page, _label(sel, step))
    indexes = ".".join(str(s.question.answers.index(s.answer)) for s in path)
    assert page.evaluate("() => new URL(location.href).searchParams.get('answers')") == indexes
    title = page.locator(".quiz .quiz-title").inner_text()
    assert title == _command(kb, figures, sel, path)["title"]
    shared = page.evaluate("() => location.href")
    page.context.close()
    again = _phone(browser, "light")
    settle(again, shared)
    again.locator(".quiz.quiz-ready").wait_for()
    assert again.locator(".quiz .quiz-title").inner_text() == title
    again.locator(".quiz .quiz-back").click()
    shorter = ".".join(indexes.split(".")[:-1])
    assert again.evaluate("() => new URL(location.href).searchParams.get('answers')") == (shorter or None)
    # An address naming answers the tree does not have replays only the valid prefix.
    settle(again, base_url + "/flowchart/?answers=" + indexes.split(".")[0] + ".999")
    again.locator(".quiz.quiz-ready").wait_for()
    assert again.evaluate("() => new URL(location.href).searchParams.get('answers')") == indexes.split(".")[0]
    again.context.close()
