"""The selection tree on every screen: at 1280 px the drawing fits the content column with every
box and line of text inside it; at phone width (light and dark) the page asks the reader's goal,
model, GPU count and market one question at a time, and answers with exactly what `python -m
generator recommend` answers for the same flags: the branch, its reasons and pitfalls, and the
planner's answer at the reader's own point, computed in the browser. The answers live in the
address. Without JavaScript the drawing stays."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass

import pytest
from axe_playwright_python.sync_playwright import Axe
from navigation import settle
from playwright.sync_api import Browser, Page
from test_reader import AXE_THEME_ALLOWED

from generator.derive import FigureIndex
from generator.edge.recommend import run
from generator.estimates.records import workloads
from generator.knowledge import KnowledgeBase
from generator.labels import PARALLELISM_ZH
from generator.model.selection import Selection
from generator.selection.answers import MarketView, market_views

PHONE = {"width": 390, "height": 844}
ACCURACY: dict[str, object] = {"statement": "", "runs": 0, "mean_abs_error": None}


@dataclass(frozen=True)
class Point:
    """A reader's question: what they train, which published model, how many GPUs, where."""

    goal: str
    workload: str
    gpus: int
    view: int  # index into market_views

    def flags(self, views: tuple[MarketView, ...]) -> list[str]:
        view = views[self.view]
        return ["--goal", self.goal, "--workload", self.workload, "--gpus", str(self.gpus), "--market", view.market,
                *(["--licensed"] if view.licensed else [])]


def _tree(kb: KnowledgeBase) -> Selection:
    return kb.of_kind("selection")[0].model


def _points(kb: KnowledgeBase) -> list[Point]:
    """Points across the tree: every goal, the smallest, a middle and the largest published model,
    one to many GPUs, every market view (a point that fits nothing among them)."""
    shapes = sorted(workloads(kb), key=lambda w: (w.model.parameters, w.id))
    small, middle, large = shapes[0].id, shapes[len(shapes) // 2].id, shapes[-1].id
    views = len(market_views(kb))
    return [Point("pretrain", middle, 64, 0), Point("pretrain", large, 1, 0), Point("lora", small, 4, views - 1),
            Point("finetune", middle, 8, min(1, views - 1)), Point("pretrain", small, 2048, views - 1),
            Point("lora", large, 16, 0)]


def _command(kb: KnowledgeBase, figures: FigureIndex, point: Point) -> dict[str, object]:
    data: dict[str, object] = json.loads(run(kb, figures, point.flags(market_views(kb)), "json", dt.date(2026, 12, 4),
                                             ACCURACY))
    return data


def _phone(browser: Browser, scheme: str, javascript: bool = True) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, locale="zh-CN", java_script_enabled=javascript)  # type: ignore[arg-type]
    return context.new_page()


def _labels(page: Page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def _answer(page: Page, kb: KnowledgeBase, point: Point) -> None:
    """Answer whatever is asked until the result shows: the goal by its label, the model by its
    button, the GPU count typed, the market by its name."""
    sel = _tree(kb)
    goal_label = next((v.labels[point.goal].zh for v in sel.variables if v.id == "goal"), point.goal)
    name = next(w.model.name for w in workloads(kb) if w.id == point.workload)
    view = market_views(kb)[point.view]
    for _ in range(10):
        if page.locator(".quiz .quiz-result, .quiz .quiz-waiting").count():
            page.locator(".quiz .quiz-result").wait_for()  # the planner loads at the first answer
            return
        if page.locator(".quiz .quiz-gpus").count():
            page.locator(".quiz .quiz-gpus input").fill(str(point.gpus))
            page.locator(".quiz .quiz-gpus input").press("Enter")
        elif page.locator(".quiz .quiz-workload").count():
            page.locator(".quiz .quiz-workload", has_text=re.compile(f"^{re.escape(name)}（")).click()
        elif page.locator(".quiz .quiz-market").count():
            page.locator(".quiz .quiz-market", has_text=re.compile(f"^{re.escape(view.name)}$")).click()
        else:
            page.locator(".quiz .quiz-answer", has_text=re.compile(f"^{re.escape(goal_label)}$")).click()
    raise AssertionError("the questionnaire never answered")


def _check_result(page: Page, kb: KnowledgeBase, data: dict[str, object]) -> None:
    """The result panel shows the command's answer: branch title and path, the picks with their
    links, the estimate's figures, the other families, or the fewest GPUs when nothing fits; the
    reasons and the pitfalls (the branch's and those concerning a picked part)."""
    result = page.locator(".quiz .quiz-result")
    assert result.is_visible()
    assert page.locator(".quiz").get_attribute("data-quiz-state") == "ready"
    assert result.locator(".quiz-title").inner_text() == data["title"]
    path = data["path"]
    assert isinstance(path, list)
    assert [t.rsplit(" → ", 1)[1] for t in _labels(page, ".quiz .quiz-path li")] == [p["answer"] for p in path]
    picks, options, estimate = data["picks"], data["options"], data["estimate"]
    assert isinstance(options, list)
    if isinstance(picks, dict):
        shown = [p for p in picks.values() if p is not None]
        links = result.locator(".quiz-picks tr[data-field] a")
        assert links.all_inner_texts() == [p["name"] for p in shown]
        entity_pages = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert [h.split("#", 1)[1] for h in entity_pages if h] == [p["id"] for p in shown]
        assert isinstance(estimate, dict)
        table = result.locator(".quiz-estimate")
        assert table.locator("[data-key=step_time_s]").inner_text().endswith(f"{estimate['step_time_s']:.2f} s")
        assert table.locator("[data-key=comm_share]").inner_text().endswith(f"{estimate['comm_share'] * 100:.1f}%")
        memory = estimate["memory_per_gpu_gb"]
        assert f"{memory['total_gb']:.1f} GB（可用 {memory['usable_gb']:.1f} GB）" in table.inner_text()
        parallel = "、".join(PARALLELISM_ZH[p] for p in data["parallelism"])  # type: ignore[attr-defined]
        if parallel:
            assert result.locator("[data-key=parallelism]").inner_text().endswith(parallel)
        assert [li.get_attribute("data-id") for li in result.locator(".quiz-options li").all()] == [
            o["id"] for o in options[1:]]
        assert (result.locator(".quiz-warning").count() == 1) == (data["comm_warning"] is not None)
    else:
        none = result.locator(".quiz-none")
        assert none.is_visible()
        fewest = data["fewest_gpus"]
        assert none.get_attribute("data-fewest") == (str(fewest["gpus"]) if isinstance(fewest, dict) else "")
    assert _labels(page, ".quiz .quiz-reasons li") == data["reasons"]
    pitfalls = data["pitfalls"]
    assert isinstance(pitfalls, list)
    assert [li.get_attribute("data-id") for li in result.locator(".quiz-pitfalls li").all()] == [p["id"] for p in pitfalls]
    assert result.locator(".quiz-more a").first.get_attribute("href") == f"#leaf-{data['leaf']}"


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
    """At 390 px the drawing gives way to one question at a time; at points across the tree
    (every goal, small to large models, one to thousands of GPUs, every market view, one that fits
    nothing) the result is what `recommend` answers for the same flags; going back and giving
    another GPU count changes the answer; restart returns to the first question."""
    sel = _tree(kb)
    page = _phone(browser, scheme)
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    assert not page.locator("svg#flowchart").is_visible()
    first = next(q.ask.zh for q in sel.questions if q.id == sel.root)
    assert page.locator(".quiz .quiz-question").inner_text() == first
    for point in _points(kb):
        if page.locator(".quiz .quiz-restart").is_enabled():
            page.locator(".quiz .quiz-restart").click()
        _answer(page, kb, point)
        _check_result(page, kb, _command(kb, figures, point))

    # Back twice (the market, then the GPU count), another count, the same market: its own answer.
    point = _points(kb)[0]
    page.locator(".quiz .quiz-restart").click()
    _answer(page, kb, point)
    page.locator(".quiz .quiz-back").click()
    page.locator(".quiz .quiz-back").click()
    assert page.locator(".quiz .quiz-gpus").is_visible()
    other = Point(point.goal, point.workload, 8, point.view)
    _answer(page, kb, other)
    _check_result(page, kb, _command(kb, figures, other))
    page.locator(".quiz .quiz-restart").click()
    assert page.locator(".quiz .quiz-question").inner_text() == first
    assert page.locator(".quiz .quiz-back").is_disabled()

    # A GPU count the form cannot take is refused with a reason, and asked again.
    _answer_until_gpus(page, kb, point)
    page.locator(".quiz .quiz-gpus input").fill("0")
    page.locator(".quiz .quiz-gpus input").press("Enter")
    assert "整数" in page.locator(".quiz .quiz-problem").inner_text()
    assert page.locator(".quiz .quiz-gpus").is_visible()

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


def _answer_until_gpus(page: Page, kb: KnowledgeBase, point: Point) -> None:
    """Answer the goal and the model, so that the GPU count is asked next."""
    page.locator(".quiz .quiz-restart").click() if page.locator(".quiz .quiz-restart").is_enabled() else None
    sel = _tree(kb)
    goal_label = next((v.labels[point.goal].zh for v in sel.variables if v.id == "goal"), point.goal)
    name = next(w.model.name for w in workloads(kb) if w.id == point.workload)
    page.locator(".quiz .quiz-answer", has_text=re.compile(f"^{re.escape(goal_label)}$")).click()
    page.locator(".quiz .quiz-workload", has_text=re.compile(f"^{re.escape(name)}（")).click()
    page.locator(".quiz .quiz-gpus").wait_for()


FOCUSABLE = "() => document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length"
"""How many elements of the page may take focus: a bound on the Tabs to any one of them."""


def test_questionnaire_by_keyboard(browser: Browser, base_url: str, kb: KnowledgeBase) -> None:
    """Answers are buttons reached with Tab and pressed with Enter, the GPU count is typed and
    sent with Enter; after each answer, focus moves to the next question; axe finds nothing
    serious in the result."""
    page = _phone(browser, "light")
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    point = _points(kb)[0]
    sel = _tree(kb)
    goal_label = next((v.labels[point.goal].zh for v in sel.variables if v.id == "goal"), point.goal)
    name = next(w.model.name for w in workloads(kb) if w.id == point.workload)
    view = market_views(kb)[point.view].name

    def press_button(text: re.Pattern[str]) -> None:
        # At most once round every element that takes focus: the first question is reached from
        # the top of the page, past the site's navigation, however many pages it lists (the
        # question's heading takes focus only once an answer moves it there).
        page.keyboard.press("Tab")
        for _ in range(page.evaluate(FOCUSABLE)):
            if text.match(page.evaluate("() => document.activeElement.textContent")):
                break
            page.keyboard.press("Tab")
        assert text.match(page.evaluate("() => document.activeElement.textContent")), text
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.tagName") == "H3"

    press_button(re.compile(f"^{re.escape(goal_label)}$"))
    press_button(re.compile(f"^{re.escape(name)}（"))
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.type") == "number"
    page.keyboard.type(str(point.gpus))
    page.keyboard.press("Enter")
    press_button(re.compile(f"^{re.escape(view)}$"))
    page.locator(".quiz .quiz-result").wait_for()
    assert page.evaluate("() => document.activeElement.classList.contains('quiz-title')")
    # axe-core over the questionnaire with a result showing (the site-wide axe test runs at
    # desktop width, where the questionnaire is hidden).
    violations = [(v["id"], [n["target"] for n in v["nodes"][:3]])
                  for v in Axe().run(page, context=".quiz").response["violations"]
                  if v["impact"] in ("critical", "serious") and v["id"] not in AXE_THEME_ALLOWED]
    assert not violations, violations
    page.context.close()


def test_the_planner_loads_when_the_reader_answers(browser: Browser, base_url: str, kb: KnowledgeBase) -> None:
    """The planner (costmodel.js and costmodel.json, most of the page's weight) is not fetched with
    the page: a phone that opens the flowchart fetches neither; the reader's first answer fetches
    both, once, and the result shows."""
    page = _phone(browser, "light")
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    assert "tree.json" in fetched
    assert not [name for name in fetched if name.startswith("costmodel.")], fetched
    _answer(page, kb, _points(kb)[0])
    assert fetched.count("costmodel.js") == 1 and fetched.count("costmodel.json") == 1, fetched
    assert page.locator(".quiz .quiz-result .quiz-path li").count() >= 1
    page.context.close()


def test_without_the_planner_an_answer_links_to_its_branch(browser: Browser, base_url: str, kb: KnowledgeBase) -> None:
    """If the planner cannot load, the questionnaire still leads to a branch, and says where on the
    page its example's answer is: a link to the branch's own section."""
    page = _phone(browser, "light")
    page.route("**/costmodel.js", lambda route: route.abort())
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    point = _points(kb)[0]
    _answer_until_gpus(page, kb, point)
    page.locator(".quiz .quiz-gpus input").fill(str(point.gpus))
    page.locator(".quiz .quiz-gpus input").press("Enter")
    page.locator(".quiz .quiz-market", has_text=re.compile(f"^{re.escape(market_views(kb)[point.view].name)}$")).click()
    link = page.locator(".quiz .quiz-waiting .quiz-loading a")
    link.wait_for()
    target = link.get_attribute("href")
    assert target is not None and target.startswith("#leaf-")
    assert page.locator(f"[id='{target[1:]}']").count() == 1
    assert not page.locator(".quiz .quiz-result").count()
    link.click()  # the branch's answers and reasons are folded under its heading: the link opens them
    page.locator(f"details[data-fold-for='{target[1:]}'] .data-table").first.wait_for(state="visible")
    page.context.close()


def test_a_branch_in_the_drawing_opens_its_notes(page: Page, base_url: str) -> None:
    """At 1280 px a branch's box in the drawing links to its section below, where its planner's
    answers, reasons and pitfalls are folded under the heading: following the link opens that
    fold, and only that one; a reader who arrives at the address does too."""
    page.set_viewport_size({"width": 1280, "height": 800})
    settle(page, base_url + "/flowchart/")
    folds = page.locator("article details.leaf-body")
    assert folds.count() > 1 and folds.evaluate_all("fs => fs.filter(f => f.open).length") == 0
    box = page.locator("svg#flowchart a[href^='#leaf-']").last
    target = box.get_attribute("href")
    assert target is not None
    box.click()
    fold = page.locator(f"details[data-fold-for='{target[1:]}']")
    fold.locator(".data-table").first.wait_for(state="visible")
    assert folds.evaluate_all("fs => fs.filter(f => f.open).map(f => f.dataset.foldFor)") == [target[1:]]
    page.goto("about:blank")
    settle(page, base_url + "/flowchart/" + target)
    fold.locator(".data-table").first.wait_for(state="visible")
    heading = page.locator(f"[id='{target[1:]}']").bounding_box()
    assert heading is not None and 0 <= heading["y"] < 800  # the jump still lands on the heading


def test_without_javascript_the_drawing_stays(browser: Browser, base_url: str) -> None:
    """Progressive enhancement: with scripts off a phone gets the drawing (scrolling in its own
    box), and the empty questionnaire takes no room."""
    page = _phone(browser, "light", javascript=False)
    page.goto(base_url + "/flowchart/")
    assert page.locator("svg#flowchart").is_visible()
    assert page.locator(".quiz").evaluate("q => getComputedStyle(q).display") == "none"
    page.context.close()


def test_how_to_read_explains_what_the_reader_sees(browser: Browser, page: Page, base_url: str) -> None:
    """The page's "how to read" explains the drawing where the drawing is shown (1280 px, or a phone
    without scripts) and the questionnaire where the questionnaire has replaced it (a phone)."""
    def shown(p: Page) -> tuple[bool, bool]:
        seen = [[e.is_visible() for e in p.locator(f".howto-{what}").all()] for what in ("drawing", "quiz")]
        assert all(len(v) == 2 and len(set(v)) == 1 for v in seen), seen  # how to read, then where answers come from
        return seen[0][0], seen[1][0]

    page.set_viewport_size({"width": 1280, "height": 800})
    settle(page, base_url + "/flowchart/")
    assert shown(page) == (True, False)
    phone = _phone(browser, "light")
    settle(phone, base_url + "/flowchart/")
    phone.wait_for_selector(".quiz.quiz-ready")
    assert shown(phone) == (False, True)
    phone.context.close()
    bare = _phone(browser, "light", javascript=False)
    bare.goto(base_url + "/flowchart/")
    assert shown(bare) == (True, False)
    bare.context.close()
    # Scripts run but the questionnaire cannot start: its tree, or its script, does not load. The
    # drawing stays, and so does its explanation.
    for blocked, failed in (("**/tree.json", ".quiz[data-quiz-state=failed]"), ("**/quiz.js", "html.quiz-failed")):
        broken = _phone(browser, "light")
        broken.route(blocked, lambda route: route.abort())
        settle(broken, base_url + "/flowchart/")
        broken.wait_for_selector(failed, state="attached")
        assert broken.locator("svg#flowchart").is_visible()
        assert shown(broken) == (True, False), blocked
        broken.context.close()


def test_how_to_read_does_not_move_under_the_reader(browser: Browser, base_url: str) -> None:
    """On a phone the questionnaire's explanation is there from the first paint: nothing above
    the questionnaire shifts when it becomes ready (the swap of explanations did, by 0.012)."""
    phone = _phone(browser, "light")
    phone.add_init_script("""window.__shifts = [];
      new PerformanceObserver(list => { for (const e of list.getEntries()) window.__shifts.push(e.value); })
        .observe({type: 'layout-shift', buffered: true});""")
    settle(phone, base_url + "/flowchart/")
    phone.wait_for_selector(".quiz.quiz-ready")
    phone.wait_for_timeout(300)
    assert sum(phone.evaluate("() => window.__shifts")) < 0.001
    phone.context.close()


def test_the_answers_live_in_the_address(browser: Browser, base_url: str, kb: KnowledgeBase,
                                          figures: FigureIndex) -> None:
    """Each answer is written into the page's address (?goal=…&workload=…&gpus=…&market=…); opening
    that address again shows the same result; going back drops the last answer from it; an
    address with a value the questionnaire cannot take keeps only what comes before it."""
    point = _points(kb)[2]
    page = _phone(browser, "light")
    settle(page, base_url + "/flowchart/")
    page.locator(".quiz.quiz-ready").wait_for()
    _answer(page, kb, point)
    params = page.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)")
    view = market_views(kb)[point.view]
    assert params == {"goal": point.goal, "workload": point.workload, "gpus": str(point.gpus), "market": view.market,
                      **({"licensed": "1"} if view.licensed else {})}
    shared = page.evaluate("() => location.href")
    page.context.close()
    again = _phone(browser, "light")
    settle(again, shared)
    again.locator(".quiz.quiz-ready").wait_for()
    _check_result(again, kb, _command(kb, figures, point))
    again.locator(".quiz .quiz-back").click()
    assert again.evaluate("() => new URL(location.href).searchParams.get('market')") is None
    assert again.locator(".quiz .quiz-market").count() > 0
    # A count the questionnaire cannot take: the goal and the model stay, the count is asked.
    settle(again, f"{base_url}/flowchart/?goal={point.goal}&workload={point.workload}&gpus=1e400&market={view.market}")
    again.locator(".quiz.quiz-ready").wait_for()
    assert again.locator(".quiz .quiz-gpus").is_visible()
    assert again.evaluate("() => Object.fromEntries(new URL(location.href).searchParams)") == {
        "goal": point.goal, "workload": point.workload}
    again.context.close()
