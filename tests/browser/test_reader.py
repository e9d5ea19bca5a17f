"""What a reader sees, in headless Chromium: pages load cleanly and stay on this host, every
table shows its first four columns at a laptop's width, Chinese search finds the right pages,
tables sort by number, the flowchart works and follows dark mode
with readable contrast, nothing scrolls sideways on a phone, and heading anchors work."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from navigation import SETTLE_LIMIT_S, search_hrefs, settle, show_every_table, without_search_index
from playwright.sync_api import Browser, Frame, Page, Request, Route

from generator.derive import FigureIndex
from generator.knowledge import KnowledgeBase
from generator.render.text import sort_key

# axe findings caused by Material for MkDocs itself, not by our content. Each is explained.
AXE_THEME_ALLOWED = {
    # Material's search overlay (div.md-search, role=dialog) carries no accessible name; it is
    # theme markup we do not generate.
    "aria-dialog-name",
}


def _pages(site_dir: Path) -> list[str]:
    return sorted("/" + str(p.relative_to(site_dir)).removesuffix("index.html") for p in site_dir.rglob("index.html"))


@dataclass
class Walk:
    """What one visit of every page at a laptop's width saw: the console errors and failed
    requests, the requests to other hosts, each page's title, axe's serious violations and the
    article's text. One walk serves the tests below, so each page loads once for all of them."""

    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    violations: list[tuple[str, str, str, list[object]]] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    indexes: dict[str, list[str]] = field(default_factory=dict)  # the search index(es) each page asked for
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # FOURTH_HEADER_OVERFLOW, by page


# Every table of an article, its 4th header cell (or its last, in a narrower table), and the
# scrolling box Material wraps it in: how far that cell's right edge lies past the box's.
FOURTH_HEADER_OVERFLOW = """() => [...document.querySelectorAll('article table')].map(table => {
  const box = table.closest('.md-typeset__scrollwrap') || table.parentElement;
  const headers = table.querySelectorAll('thead th');
  const fourth = headers[Math.min(3, headers.length - 1)];
  return {header: fourth ? fourth.innerText : '', columns: headers.length, scrolled: box.scrollLeft,
          overflow: fourth ? fourth.getBoundingClientRect().right - box.getBoundingClientRect().right : 0};
})"""


# axe's rules decided by the colours of text, links and backgrounds alone. The English edition
# inherits the Chinese one's theme, palette and stylesheet (mkdocs.en.yml: INHERIT), and each of
# its pages has a Chinese counterpart built from the same template (test_english_site), so these
# run on the Chinese pages only. On the English pages they had taken about a third of the walk's
# time (142 s -> 98 s for the whole walk, idle machine).
STYLE_RULES = ("color-contrast", "link-in-text-block")

# Marks each element whose contrast is decided by the same styles as an earlier sibling's, and
# returns how many. Contrast depends on the styles, not on the words. An element is styled like an
# earlier sibling when both are in the same position (first, last, odd or even, among all their
# siblings and among those of their tag, and after the same kind of sibling) and their subtrees are
# alike: every element in them, in the same order, with the same tag, attributes (but for those that
# carry an element's own content: its link, anchor, title, sort key or accessible label) and text of
# its own or none. Any other difference keeps the element.
# axe's color-contrast rule measures every text element against the background under it, 2-3 ms
# each: it was three quarters of the walk's time, and over 90 % of axe's on the runs page, nearly
# all of it on rows styled alike; the claims and source lists are such runs of cards.
MARK_STYLED_ALIKE = """() => {
  const own = new Set(['href', 'id', 'title', 'data-sort', 'aria-label']);
  const shapes = new Map();
  const shape = e => {
    if (!shapes.has(e)) {
      const attributes = [...e.attributes].filter(a => !own.has(a.name)).map(a => a.name + '=' + a.value);
      const text = [...e.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      shapes.set(e, e.tagName + '[' + attributes.join(' ') + ']' + (text ? 'T' : '') + '(' +
                 [...e.children].map(shape).join(',') + ')');
    }
    return shapes.get(e);
  };
  shape(document.body);
  let marked = 0;
  for (const parent of document.body.querySelectorAll('*')) {
    const children = [...parent.children], seen = new Set();
    if (children.length < 3 || parent.closest('[data-walk-styled-alike]')) continue;
    children.forEach((child, i) => {
      const before = i ? children[i - 1].tagName + '.' + children[i - 1].className : '';
      const kind = children.filter(c => c.tagName === child.tagName), k = kind.indexOf(child);
      const key = [i === 0, i === children.length - 1, i % 2, k === 0, k === kind.length - 1, k % 2, before,
                   shapes.get(child)].join('|');
      if (seen.has(key)) { child.setAttribute('data-walk-styled-alike', ''); marked += 1; } else seen.add(key);
    });
  }
  return marked;
}"""


AXE_SCRIPT = Axe().axe_script  # axe-core, as axe-playwright-python bundles it


def _axe(page: Page, options: dict[str, object], context: dict[str, object] | None = None) -> list[dict[str, object]]:
    """axe-core's violations on the page as shown. Its script (570 KB) is put into each document
    once; axe-playwright-python's `Axe.run` puts it in again on every call."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    violations: list[dict[str, object]] = page.evaluate(
        "([context, options]) => axe.run(context || document, options).then(results => results.violations)",
        [context, options])
    return violations


def _contrast_violations(page: Page) -> list[dict[str, object]]:
    """axe's color-contrast violations on the page as shown, but for the elements styled alike."""
    page.evaluate(MARK_STYLED_ALIKE)
    return _axe(page, {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": ["color-contrast"]}},
                {"exclude": [["[data-walk-styled-alike]"]]})


@pytest.mark.parametrize(("path", "style"), [
    ("runs", ".md-typeset .data-table td:nth-child(4) { color: #ccc !important }"),  # a column of every row
    ("runs", ".md-typeset .data-table tbody tr:nth-child(even) td { color: #ccc !important }"),  # every other row
    ("/claims/", ".claim-card:last-of-type .claim-label { color: #ccc !important }"),  # the last of a run of cards
])
def test_the_contrast_check_sees_a_style_on_rows_or_cards_it_passes_over(page: Page, base_url: str, path: str,
                                                                          style: str, longest_runs_page: str) -> None:
    """The walk's contrast check passes over elements styled like an earlier sibling, but not a
    style that only some of them have: grey text there is found. ("runs": the longest page of
    measured runs.)"""
    settle(page, base_url + (longest_runs_page if path == "runs" else path))
    show_every_table(page)
    assert _contrast_violations(page) == []
    assert page.locator("[data-walk-styled-alike]").count() > 50  # there is something to pass over
    page.add_style_tag(content=style)
    assert [v["id"] for v in _contrast_violations(page)] == ["color-contrast"]


@pytest.fixture(scope="module")
def walk(browser: Browser, base_url: str, site_dir: Path) -> Iterator[Walk]:
    """Every page at 1280 px. Going to the next page aborts what the last one still fetches, such
    as the search worker's index: the abort of a request made by a page the walk has left is the
    walk's doing, not a failure; any other failure counts, an abort of the shown page's own
    request too."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    seen = Walk()
    made: list[Request] = []  # every request so far
    left: set[Request] = set()  # those made by the pages already left (or being left)
    host = urlsplit(base_url).netloc

    def failed(request: Request) -> None:
        if not (request.failure == "net::ERR_ABORTED" and request in left):
            seen.errors.append(f"failed: {request.url} ({request.failure})")

    def committed(frame: Frame) -> None:
        if frame == page.main_frame:  # the new document replaces the old one: what it made is left
            left.update(made)

    page.on("console", lambda m: seen.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.errors.append(str(e)))
    page.on("request", lambda r: made.append(r))
    page.on("requestfailed", failed)
    page.on("framenavigated", committed)
    page.on("request", lambda r: seen.foreign.append(r.url) if urlsplit(r.url).netloc not in (host, "") and
            not r.url.startswith(("data:", "blob:")) else None)
    # Each edition's search index, served for real to the first page that asks for it; every later
    # page that asks for the same one gets it without documents (the same config), so its search
    # worker indexes nothing. The index is one file per edition, the same for all its pages, and
    # indexing it took about a sixth of the walk's CPU time (218 -> 183 CPU-s for the walk alone).
    # Refusing it instead makes the page log "Network error".
    emptied: dict[str, str] = {}  # by URL, once it was served for real: the index without documents
    asked: list[str] = []

    def index(route: Route) -> None:
        url = route.request.url
        asked.append(url)
        if url in emptied:
            route.fulfill(status=200, content_type="application/json", body=emptied[url])
            return
        config = json.loads((site_dir / urlsplit(url).path.lstrip("/")).read_text(encoding="utf-8"))["config"]
        emptied[url] = json.dumps({"config": config, "docs": []})
        route.continue_()

    page.route("**/search/search_index.json", index)
    for path in _pages(site_dir):
        left.update(made)  # the page being left (its fetches may end before the new one commits)
        asked.clear()
        settle(page, base_url + path)
        # The search worker asks for the index once its own script has run, which may be after
        # `settle` saw nothing in flight: wait for the ask (a page that never asks fails below).
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while not asked and time.monotonic() < deadline:
            page.wait_for_timeout(10)
        seen.titles[path] = page.title()
        seen.indexes[path] = list(asked)
        show_every_table(page)
        seen.tables[path] = page.evaluate(FOURTH_HEADER_OVERFLOW)
        seen.texts[path] = page.inner_text("article")
        # Every rule but contrast on the whole page; contrast on all but the elements styled alike.
        # The rules decided by colours alone run on the Chinese pages only (see STYLE_RULES).
        english = path.startswith("/en/")
        off = STYLE_RULES if english else ("color-contrast",)
        found = _axe(page, {"resultTypes": ["violations"], "rules": {rule: {"enabled": False} for rule in off}})
        if not english:
            found += _contrast_violations(page)
        for violation in found:
            if violation["impact"] in ("critical", "serious") and violation["id"] not in AXE_THEME_ALLOWED:
                seen.violations.append((path, violation["id"], violation["impact"],
                                        [n["target"] for n in violation["nodes"][:3]]))
    yield seen
    context.close()


def test_the_walk_visits_every_page(walk: Walk, site_dir: Path, base_url: str) -> None:
    """Every page, each with a title, and each asked once for its own edition's search index (the
    one file the first page of the edition loaded for real, without error)."""
    assert len(walk.titles) == len(_pages(site_dir)) > 20
    assert [path for path, title in walk.titles.items() if not title] == []
    edition = {path: base_url + ("/en" if path.startswith("/en/") else "") + "/search/search_index.json"
               for path in walk.titles}
    assert {path: urls for path, urls in walk.indexes.items() if urls != [edition[path]]} == {}


def test_first_four_columns_fit_at_1280(walk: Walk) -> None:
    """At 1280 px no table needs sideways scrolling to show its first four columns (the folded
    tables too: the walk shows every table)."""
    assert {"/gpus/", "/networks/", "/nodes/", "/interconnects/"} <= {path for path, tables in walk.tables.items() if tables}
    too_wide = []
    for path, tables in walk.tables.items():
        for i, table in enumerate(tables):
            assert table["scrolled"] == 0, (path, i)
            if table["overflow"] > 0.5:
                too_wide.append(f"{path} table {i + 1}: {table['header']!r} ends {table['overflow']:.0f} px past its box")
    assert not too_wide, "\n".join(too_wide)


def test_every_page_loads_without_errors_or_foreign_requests(walk: Walk) -> None:
    """No console error, no failed request, and every request goes to this host."""
    assert not walk.errors, walk.errors[:5]
    assert not walk.foreign, walk.foreign[:5]


def test_accessibility_on_every_page(walk: Walk) -> None:
    """axe-core (bundled): no critical or serious violation caused by our content (the colour
    rules, STYLE_RULES, on the Chinese edition, whose styles the English one shares)."""
    assert not walk.violations, walk.violations[:10]


def test_no_page_shows_escaped_markup_as_text(walk: Walk, kb: KnowledgeBase) -> None:
    """What a reader sees holds no character reference or escape spelled out (once, quotes in
    table cells read `&#34;80&#34;`), and quoted words in the tier tables' notes read with real
    quotes."""
    for path, text in walk.texts.items():
        leaked = re.findall(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);", text)
        assert not leaked, (path, leaked[:3])
    notes = [row.note.zh for table in kb.of_kind("tiers") for row in table.model.rows if row.note is not None]
    quoted = [q for note in notes if "[[" not in note for q in re.findall(r'"[^"\n]+"', note)]
    assert [q for q in quoted if q not in walk.texts["/tiers/"]] == []


@pytest.mark.parametrize(("term", "expected"), [("带宽", "/reading/"), ("拓扑", "/topologies/"), ("显存", "/gpus/"),
                                                ("胖树", "/topologies/"), ("论断", "/claims/"), ("流程图", "/flowchart/"),
                                                ("InfiniBand", "/networks/"), ("H800", "/gpus/")])
def test_chinese_search_finds_the_page(page: Page, base_url: str, term: str, expected: str) -> None:
    """jieba-segmented search returns the page that is about the term."""
    hrefs = search_hrefs(page, base_url + "/", term)
    assert any(expected in (h or "") for h in hrefs), (term, hrefs[:8])
    # the reference pages (source lists, rules, contributing) are left out of the index
    assert not [h for h in hrefs if re.search(r"/(sources[^/]*|rules|contributing)/", h or "")], (term, hrefs[:8])


def test_tables_sort_numerically(page: Page, base_url: str, kb: KnowledgeBase, figures: FigureIndex) -> None:
    """Clicking a figure column sorts its rows by number, both ways (a GPU whose vendor publishes
    no figure has an empty cell, which the check leaves aside)."""
    settle(page, base_url + "/gpus/")
    table = page.locator("article .data-table table").first
    header = table.locator("th", has_text="显存带宽")
    index = table.locator("th").all_inner_texts().index("显存带宽")
    stated = [figures.get(f"{gpu.id}#memory.bandwidth") for gpu in kb.of_kind("gpus")]
    expected = sorted(float(sort_key(f)) for f in stated if f is not None)
    assert len(expected) >= 2

    def shown() -> list[float]:
        return [float(v) for v in table.locator(f"tbody tr td:nth-child({index + 1})").evaluate_all(
            "cells => cells.map(c => c.getAttribute('data-sort'))") if v]

    for _ in range(2):
        header.click()
        values = shown()
        assert values == sorted(values) or values == sorted(values, reverse=True), values
        assert sorted(values) == expected
    first_pass = values
    header.click()
    assert shown() == list(reversed(first_pass))


def test_flowchart_renders_and_leaf_links_navigate(page: Page, base_url: str, kb: KnowledgeBase) -> None:
    """The SVG is inline with real text; clicking an answer in a leaf opens that hardware's row."""
    settle(page, base_url + "/flowchart/")
    svg = page.locator("svg#flowchart")
    assert svg.is_visible()
    tree = kb.of_kind("selection")[0].model
    assert svg.locator("text").count() >= len(tree.questions) + len(tree.leaves)  # a line per node at least
    link = svg.locator("a[href^='../nodes/#'], a[href^='../gpus/#']").first
    target = link.get_attribute("href") or ""
    link.click()
    page.wait_for_url(re.compile(r"/(nodes|gpus)/#"))
    anchor = target.split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1


def _luminance(rgb: str) -> float:
    parts = [float(x) for x in re.findall(r"[\d.]+", rgb)[:3]]
    channel = [c / 255 for c in parts]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channel]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_COLOURS = """() => {
  const pick = (sel, prop) => { const el = document.querySelector(sel); return el ? getComputedStyle(el)[prop] : null; };
  const body = getComputedStyle(document.body).backgroundColor;
  return {
    body,
    qText: pick('svg#flowchart .fc-question .fc-text', 'fill'),
    qBox: pick('svg#flowchart .fc-question rect', 'fill'),
    leafLink: pick('svg#flowchart .fc-link .fc-text', 'fill'),
    leafBox: pick('svg#flowchart .fc-leaf rect', 'fill'),
    label: pick('svg#flowchart .fc-label', 'fill'),
  };
}"""


def _colours(browser: Browser, base_url: str, path: str, scheme: str) -> dict[str, str]:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})  # type: ignore[arg-type]
    page = context.new_page()
    settle(page, base_url + path)
    colours = page.evaluate(_COLOURS) if path == "/flowchart/" else page.evaluate(
        "() => ({body: getComputedStyle(document.body).backgroundColor,"
        " text: getComputedStyle(document.querySelector('.chart-svg text')).fill})")
    context.close()
    return colours


def test_dark_mode_recolours_charts_with_readable_contrast(browser: Browser, base_url: str) -> None:
    """Flowchart and scaling chart change colour with the scheme; text keeps WCAG AA contrast."""
    light, dark = (_colours(browser, base_url, "/flowchart/", s) for s in ("light", "dark"))
    assert light["qText"] != dark["qText"] and light["body"] != dark["body"]
    for colours in (light, dark):
        assert _contrast(colours["qText"], colours["qBox"]) >= 4.5, colours
        assert _contrast(colours["leafLink"], colours["leafBox"]) >= 4.5, colours
        assert _contrast(colours["label"], colours["body"]) >= 4.5, colours
    chart_light, chart_dark = (_colours(browser, base_url, "/scaling/", s) for s in ("light", "dark"))
    assert chart_light["text"] != chart_dark["text"]
    for colours in (chart_light, chart_dark):
        assert _contrast(colours["text"], colours["body"]) >= 4.5, colours


def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, base_url: str, site_dir: Path) -> None:
    """At 375 px every page fits; wide tables and diagrams scroll inside their own box."""
    context = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    without_search_index(page)
    for path in _pages(site_dir):
        settle(page, base_url + path)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (path, overflow)
    context.close()


def test_charts_fit_a_phone_with_every_label_inside(browser: Browser, base_url: str, site_dir: Path) -> None:
    """At 390 px every chart (the scaling bars, the modelled communication shares, the accuracy
    scatter) lies within the viewport without sideways scrolling, and every text of it (a bar's
    "74.2%", "64×", an axis label) within the drawing. The flowchart is not a chart: on a phone the
    questionnaire replaces it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    charted = [path for path in _pages(site_dir)
               if 'class="chart-svg' in (site_dir / path.strip("/") / "index.html").read_text(encoding="utf-8")]
    assert {"/scaling/", "/accuracy/"} <= set(charted)
    without_search_index(page)
    for path in charted:
        settle(page, base_url + path)
        problems = page.evaluate("""() => {
          const width = document.documentElement.clientWidth, out = [];
          document.querySelectorAll('svg.chart-svg').forEach(svg => {
            const box = svg.getBoundingClientRect();
            if (box.left < 0 || box.right > width) out.push([svg.id, 'svg', box.left, box.right, width]);
            const scroller = svg.closest('.chart');
            if (scroller && scroller.scrollWidth > scroller.clientWidth) out.push([svg.id, 'scrolls']);
            svg.querySelectorAll('text').forEach(t => {
              const b = t.getBoundingClientRect();
              if (b.left < box.left - 0.5 || b.right > box.right + 0.5 || b.top < box.top - 0.5
                  || b.bottom > box.bottom + 0.5) out.push([svg.id, t.textContent, b.left, b.right]);
            });
          });
          return out;
        }""")
        assert problems == [], (path, problems[:5])
    context.close()


@pytest.mark.parametrize("path", ["/gpus/", "/interconnects/", "/networks/"])
def test_wide_table_keeps_its_first_column_in_view(page: Page, base_url: str, path: str) -> None:
    """A comparison table wider than the column scrolls in its own box, and the name column stays
    put while the figures move under it, so every number keeps its row's name beside it."""
    settle(page, base_url + path)
    box = page.locator("article .data-table .md-typeset__scrollwrap").first
    assert box.evaluate("b => b.scrollWidth > b.clientWidth"), "expected a table wider than the column"
    name, figure = (box.locator(f"tbody tr:first-child td:nth-child({n})") for n in (1, 3))
    before = (name.bounding_box(), figure.bounding_box())
    box.evaluate("b => { b.scrollLeft = 300; }")
    after = (name.bounding_box(), figure.bounding_box())
    assert all(b is not None for b in (*before, *after))
    assert after[0]["x"] == pytest.approx(before[0]["x"], abs=1)  # type: ignore[index]
    assert after[1]["x"] < before[1]["x"] - 200  # type: ignore[index]
    covered = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('td')?.cellIndex",
                            [after[0]["x"] + 5, after[0]["y"] + 5])  # type: ignore[index]
    assert covered == 0, "the name cell must paint over the cells scrolling beneath it"


def test_downloads_table_fits_the_column(page: Page, base_url: str) -> None:
    """At a laptop's width the downloads table shows every link without scrolling."""
    settle(page, base_url + "/downloads/")
    box = page.locator("article .md-typeset__scrollwrap").first
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    assert box.locator("a", has_text="JSON Schema").count() >= 12


def test_chinese_heading_anchor_from_a_link(page: Page, base_url: str) -> None:
    """A link to a Chinese heading lands on it (Unicode slugs)."""
    settle(page, base_url + "/reading/")
    ids = page.eval_on_selector_all("article h2[id]", "els => els.map(e => e.id)")
    chinese = next(i for i in ids if re.search(r"[\u4e00-\u9fff]", i))
    settle(page, f"{base_url}/reading/#{quote(chinese)}")
    top = page.evaluate(f"() => document.getElementById({chinese!r}).getBoundingClientRect().top")
    assert 0 <= top < 200, top


def test_verdict_badges_show_what_they_were_checked_against(page: Page, base_url: str, kb: KnowledgeBase) -> None:
    """Beside each pitfall that restates a claim the badge is visible, names the verdict and the
    basis, and a verdict not checked against independent data is drawn with a dashed bar."""
    from generator.labels import BASIS_ZH, VERDICT_ZH
    from generator.model.entities import Claim, Pitfall

    settle(page, base_url + "/pitfalls/")
    restated = {r.claim for p in kb.of_type(Pitfall) for r in p.model.restates}
    assert restated
    for claim_id in sorted(restated):
        claim = kb.get(claim_id, Claim)
        assert claim is not None
        badge = page.locator(f'.restates a.verdict[href="../claims/#{claim_id}"]').first
        assert badge.is_visible(), claim_id
        assert badge.inner_text() == f"{VERDICT_ZH[claim.model.verdict]}｜{BASIS_ZH[claim.model.basis]}"
        style = badge.evaluate("e => getComputedStyle(e).borderLeftStyle")
        assert style == ("solid" if claim.model.basis == "independent" else "dashed"), (claim_id, style)


def test_provenance_summary_comes_before_the_first_figure(page: Page, base_url: str) -> None:
    """On the home page and the GPU page a reader meets the summary before any figure."""
    for path in ("/", "/gpus/"):
        settle(page, base_url + path)
        summary = page.locator(".provenance-summary")
        assert summary.is_visible(), path
        box = summary.bounding_box()
        # A figure's link to its source: the 源 link of a data page, or a hand-written page's
        # figure linked to the source's entry (on the page of its kind of publisher).
        first = page.locator(".fig-src, a[href*='/#src-']").first.bounding_box()
        assert box is not None and first is not None
        assert box["y"] < first["y"], path
