"""The strict MkDocs build of the real site, inspected as HTML: every page titled and described,
tables hold the spec values with their units, admonitions and the chart render, no template syntax
survives, every internal link resolves, and nothing is requested from another host. Values are
read from the knowledge base the site was built from, never typed here. The site is the real one
of tests/conftest.py, built for a fixed repository (REPOSITORY) so that the edit links do not
depend on the checkout's remote."""

from __future__ import annotations

import html as html_lib
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import get_args
from urllib.parse import urlsplit

import pytest
from support import REPOSITORY, parse_pages, real_result

from generator.figure_format import in_unit, with_unit
from generator.knowledge import KnowledgeBase
from generator.labels import DIRECTION_ZH
from generator.model.costs import PARAMETERS, Assumption
from generator.model.entities import Claim, Pitfall, PublisherRole, Recommendation, Source, TierTable
from generator.provenance import FIGURE_KINDS, access, entity_sources, summarize
from generator.render.trust import SOURCE_GROUPS, source_page
from generator.units import fmt_number
from generator.validate import Result


class Page(HTMLParser):
    """Collects what the tests look at: elements with attributes, ids and the visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attributes))
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)

    @property
    def visible(self) -> str:
        return " ".join(" ".join(self.text).split())


@pytest.fixture(scope="module")
def site(real_site: Path) -> Path:
    """The real site, built for REPOSITORY (tests/conftest.py)."""
    return real_site


def _pages(site: Path) -> dict[str, Page]:
    return parse_pages(site, Page)


@pytest.fixture(scope="module")
def real() -> Result:
    result = real_result()
    assert result.kb is not None and result.figures is not None
    return result


def _kb(result: Result) -> KnowledgeBase:
    assert result.kb is not None
    return result.kb


def test_every_page_has_title_and_description(site: Path) -> None:
    """Each page has a <title> and a non-empty meta description."""
    for name, page in _pages(site).items():
        metas = [a for t, a in page.tags if t == "meta" and a.get("name") == "description"]
        assert any(t == "title" for t, _a in page.tags), name
        assert metas and metas[0].get("content"), f"{name} has no description"


def test_no_template_syntax_left(site: Path) -> None:
    """No Jinja or figure-reference syntax survives into what a reader sees."""
    for name, page in _pages(site).items():
        text = page.visible
        for marker in ("{{", "}}", "{%", "%}", "[[", "]]"):
            assert marker not in text, f"{marker!r} left in {name}"


def test_gpu_table_holds_spec_values_with_units(site: Path, real: Result) -> None:
    """Every GPU's memory capacity, and its memory bandwidth, power and each tensor figure (dense
    and sparse, at every precision) where it states them (a vendor may publish none), appear with
    a unit: the one most GPUs write that figure in, so one column never mixes GB and GiB."""
    assert real.figures is not None
    text = _pages(site)["gpus/index.html"].visible
    gpus = _kb(real).of_kind("gpus")
    for gpu in gpus:
        stated = real.figures.stated[gpu.id]
        tensor = [name for name in stated if name.startswith("compute.tensor.")]
        for name in ("memory.capacity", *(n for n in ("memory.bandwidth", "power") if n in stated), *tensor):
            figure = real.figures.get(f"{gpu.id}#{name}")
            assert figure is not None
            written = Counter(f.unit for g in gpus if (f := real.figures.get(f"{g.id}#{name}")) is not None)
            value, unit, _direction = in_unit(figure, written.most_common(1)[0][0])
            assert f"{fmt_number(value)} {unit}" in text, (gpu.id, name)


def test_network_page_shows_bits_and_bytes(site: Path, real: Result) -> None:
    """Every port rate appears in Gb/s and in GB/s one way, and in GB/s both ways, with the
    direction label."""
    assert real.figures is not None
    text = _pages(site)["networks/index.html"].visible
    for network in _kb(real).of_kind("networks"):
        figure = real.figures.get(f"{network.id}#port_rate")
        assert figure is not None
        for unit, direction in (("Gb/s", None), ("GB/s", None), ("GB/s", "bidirectional")):
            value, shown_unit, shown_direction = in_unit(figure, unit, direction)
            assert shown_direction is not None
            assert f"{with_unit(value, shown_unit)} {DIRECTION_ZH[shown_direction]}" in text, (network.id, unit, direction)


def test_admonitions_and_chart_render(site: Path, real: Result) -> None:
    """Each pitfall is a Material admonition of its severity; each scaling study's chart (and the
    modelled communication-share chart of a study with a `modelled` section) is an inline SVG
    with a title."""
    pages = _pages(site)
    admonitions = {a.get("id"): a.get("class", "") for t, a in pages["pitfalls/index.html"].tags if t == "div"}
    for pitfall in _kb(real).of_kind("pitfalls"):
        assert admonitions.get(pitfall.id) == f"admonition {pitfall.model.severity}", pitfall.id
    scaling = pages["scaling/index.html"].tags
    charts = [i for i, (t, a) in enumerate(scaling) if t == "svg" and "chart-svg" in a.get("class", "")]
    studies = [c for c in _kb(real).of_kind("cases") if c.model.type == "scaling_study"]
    assert len(charts) == len(studies) + sum(c.model.modelled is not None for c in studies)
    for start in charts:
        assert scaling[start + 1][0] == "title"


def test_every_page_has_an_edit_link(site: Path) -> None:
    """Each page's edit button opens its Markdown file (hand-written) or its spec folder
    (generated) in the repository."""
    from generator.render import page_source
    for name, page in _pages(site).items():
        english = name.startswith("en/")  # the English edition: the same pages, its own hand-written ones
        in_edition = name.removeprefix("en/")
        if in_edition == "404.html":
            continue
        edits = [a["href"] for t, a in page.tags if t == "a" and a.get("rel") == "edit"]
        slug = in_edition.removesuffix("index.html").strip("/") or "index"
        folder = page_source(slug + ".md")  # a generated page's spec folder
        if folder is not None:
            assert edits == [f"{REPOSITORY}/tree/main/{folder}"], name
        else:
            assert edits == [f"{REPOSITORY}/edit/main/docs/{'en/' if english else ''}{slug}.md"], name


def test_generated_pages_link_every_entity_to_its_spec_file(site: Path, real: Result) -> None:
    """Every entity shown on a generated page links to its own spec file in the repository."""
    from generator.render.text import ENTITY_PAGE
    pages = _pages(site)
    linked: dict[str, set[str]] = {}
    for name, page in pages.items():
        for tag, attrs in page.tags:
            href = attrs.get("href", "")
            if tag == "a" and href.startswith(f"{REPOSITORY}/edit/main/specs/"):
                linked.setdefault(href.removeprefix(f"{REPOSITORY}/edit/main/"), set()).add(name)
    for entity in _kb(real):
        if entity.kind in ENTITY_PAGE or entity.kind == "cases":
            assert f"specs/{entity.kind}/{entity.id}.yaml" in linked, entity.id


def test_internal_links_resolve(site: Path) -> None:
    """Every relative link points at a built file, and its #anchor exists there."""
    pages = _pages(site)
    for name, page in pages.items():
        for tag, attrs in page.tags:
            href = attrs.get("href") if tag == "a" else None
            # 404.html uses root-absolute links by design (it is served from any depth).
            if not href or urlsplit(href).scheme or href.startswith(("mailto:", "/")):
                continue
            parts = urlsplit(href)
            target = (site / name).parent / parts.path if parts.path else site / name
            if target.is_dir() or not parts.path or parts.path.endswith("/"):
                target = target / "index.html" if parts.path else site / name
            target = target.resolve()
            assert target.exists(), f"{name}: {href}"
            if parts.fragment and target.suffix == ".html":
                key = str(target.relative_to(site.resolve()))
                assert parts.fragment in pages[key].ids, f"{name}: {href} (no such anchor)"


_FETCHING = {"script": "src", "img": "src", "iframe": "src", "audio": "src", "video": "src", "source": "src",
             "embed": "src", "object": "data", "link": "href"}
# Absolute URLs inside the theme's JavaScript, and why none of them is fetched on this site.
_JS_ALLOWED = {
    "https://unpkg.com/mermaid": "loaded only for Mermaid diagrams; the site has none (asserted below)",
    "https://unpkg.com/resize-observer-polyfill": "loaded only by browsers without ResizeObserver",
    "https://api.github.com/repos/": "repository facts, only with repo_url set (it is not)",
    "https://api.github.com/users/": "as above",
    "https://${e}/api/v4/projects/": "GitLab repository facts, only with repo_url set",
}


def test_no_request_to_another_host(site: Path) -> None:
    """HTML, CSS and JS request nothing from another host (links to sources are fine)."""
    for name, page in _pages(site).items():
        for tag, attrs in page.tags:
            attribute = _FETCHING.get(tag)
            value = attrs.get(attribute or "", "")
            if tag == "link" and attrs.get("rel") in ("canonical",):
                continue
            assert not urlsplit(value).netloc, f"{name}: <{tag} {attribute}={value}>"
            assert "url(http" not in attrs.get("style", ""), name
        assert not any("mermaid" in a.get("class", "") for _t, a in page.tags)
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), css
        assert not re.search(r"@import\s+(url\()?['\"]?(https?:)?//", text), css
    for js in site.rglob("*.js"):
        text = js.read_text(encoding="utf-8")
        for match in re.finditer(r"[\"'`](https?://[^\"'`\s]+)", text):
            url = match.group(1)
            if url.startswith(("http://www.w3.org/", "https://www.w3.org/")):
                continue  # XML namespaces, never fetched
            assert any(url.startswith(allowed) for allowed in _JS_ALLOWED), f"{js.name}: {url}"


def test_contributing_page_lists_the_limits_from_the_code(site: Path) -> None:
    """The hook renders the limits where the page holds the marker (generator/render/limits.py)."""
    from generator.load.parse import MAX_DEPTH, MAX_FILE_BYTES
    from generator.rules.diagnostic_cap import MAX_PER_FILE
    html = (site / "contributing" / "index.html").read_text(encoding="utf-8")
    assert "limits --&gt;" not in html and "<!-- limits -->" not in html
    for figure in (f"{MAX_FILE_BYTES // 1024} KiB", f"{MAX_DEPTH} 层", f"最多列出 {MAX_PER_FILE} 条"):
        assert figure in html, figure


# --- Provenance and verdicts (issue 15) -----------------------------------------------------------

def _html(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


_SUMMARY = re.compile(r'<div class="admonition info provenance-summary" id="provenance" data-total="(\d+)">(.*?)</div>', re.S)
_COUNT = re.compile(r'<li data-footing="([a-z_]+)"><strong class="provenance-count">(\d+)</strong>')


@pytest.mark.parametrize(("page", "kinds"), [("index.html", FIGURE_KINDS), ("gpus/index.html", ("gpus",)),
                                             ("interconnects/index.html", ("interconnects",)),
                                             ("networks/index.html", ("networks",)), ("scaling/index.html", ("cases",)),
                                             ("sources/index.html", FIGURE_KINDS)])
def test_provenance_summary_counts_come_from_the_data(site: Path, real: Result, page: str,
                                                      kinds: tuple[str, ...]) -> None:
    """The summary sits before the page's first figure, and its counts are the data's."""
    html = _html(site, page)
    found = _SUMMARY.search(html)
    assert found is not None, page
    first_figure = html.find('class="fig-src')
    assert first_figure == -1 or found.start() < first_figure, f"{page}: the summary comes after a figure"
    summary = summarize(_kb(real), kinds)
    assert int(found[1]) == summary.total > 0
    shown = {footing: int(n) for footing, n in _COUNT.findall(found[2])}
    assert shown == {f: n for f, n in summary.counts.items() if n}


def test_figure_links_say_how_the_source_was_read(site: Path, real: Result) -> None:
    """A figure's source link is marked read, copy or unread exactly as its source was reached."""
    sources = {e.id: e.model for e in _kb(real).of_type(Source)}
    seen: set[str] = set()
    for page in ("gpus/index.html", "interconnects/index.html", "networks/index.html"):
        for reached, listed_on, source_id, text in re.findall(
                r'<a class="fig-src(?:-(\w+))?" href="../(sources-[a-z]+)/#src-([a-z0-9-]+)"[^>]*>([^<]*)</a>',
                _html(site, page)):
            reached = reached or "read"  # a source that was read has the plain class
            assert reached == access(sources[source_id]), (page, source_id)
            assert listed_on == source_page(sources[source_id]), (page, source_id)
            assert (text == "源") == (reached == "read"), (page, source_id, text)
            seen.add(reached)
    assert "read" in seen


def test_no_row_shows_a_date_its_sources_cannot_support(site: Path, real: Result) -> None:
    """A hardware row shows its verification date only when every source behind it was read."""
    kb = _kb(real)
    checked = 0
    for page, kind in (("gpus/index.html", "gpus"), ("interconnects/index.html", "interconnects"),
                       ("networks/index.html", "networks")):
        html = _html(site, page)
        for entity in kb.of_kind(kind):
            row = re.search(rf'<tr id="{entity.id}">(.*?)</tr>', html, re.S)
            assert row is not None, entity.id
            last = html_lib.unescape(re.findall(r"<td[^>]*>(.*?)</td>", row[1], re.S)[-1])
            reached = {access(s) for s in entity_sources(kb, entity.id)}
            has_date = re.match(r"\d{4}-\d{2}-\d{2}", last) is not None
            assert has_date == ("unread" not in reached), (entity.id, last, reached)
            checked += 1
    assert checked


def test_pitfalls_show_the_verdict_of_each_claim_they_restate(site: Path, real: Result) -> None:
    """Beside every pitfall that restates an article's claim: that claim's verdict and basis,
    linked to its row on the claims page."""
    kb = _kb(real)
    html = _html(site, "pitfalls/index.html")
    restating = [e for e in kb.of_type(Pitfall) if e.model.restates]
    assert restating
    for entity in restating:
        block = re.search(rf'<div class="admonition \w+" id="{entity.id}">(.*?)</div>', html, re.S)
        assert block is not None, entity.id
        for item in entity.model.restates:
            claim = kb.get(item.claim, Claim)
            assert claim is not None
            badge = (f'<a class="verdict verdict-{claim.model.verdict} basis-{claim.model.basis}" '
                     f'href="../claims/#{item.claim}"')
            assert badge in block[1], (entity.id, item.claim)


def test_claims_page_shows_every_claim_with_its_basis(site: Path, real: Result) -> None:
    """Each claim's card carries its verdict and what the verdict was checked against; the
    recommendations and tier bands link to theirs."""
    kb = _kb(real)
    html = _html(site, "claims/index.html")
    assert "<table" not in html.split('<article', 1)[1]  # cards, not a wide table
    for claim in kb.of_type(Claim):
        row = re.search(rf'<div class="claim-card" id="{claim.id}">(.*?)</div>', html, re.S)
        assert row is not None, claim.id
        assert f'class="verdict verdict-{claim.model.verdict} basis-{claim.model.basis}"' in row[1], claim.id
        assert f'class="basis basis-{claim.model.basis}"' in row[1], claim.id
    tiers = _html(site, "tiers/index.html")
    for table in kb.of_type(TierTable):
        assert f'href="../claims/#{table.model.claim}"' in tiers, table.id
    for rec in kb.of_type(Recommendation):
        for item in rec.model.items:
            assert f'href="../claims/#{item.claim}"' in tiers, (rec.id, item.claim)


def test_search_index_is_utf8_and_leaves_out_the_reference_pages(site: Path) -> None:
    """The search index is written as UTF-8: no escaped CJK character or word separator, the same
    documents; the source lists, the rules and the contributing page are not searched, the
    subject pages are."""
    raw = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    docs = raw.split('"docs":', 1)[1]  # the config before it holds the separator regex, escapes and all
    assert not re.search(r"\\u[0-9a-fA-F]{4}", docs)
    assert "\u200b" in raw  # jieba's word separators, as characters
    locations = {d["location"].split("/")[0] for d in json.loads(raw)["docs"]}
    assert {"gpus", "networks", "nodes", "calculator", "flowchart"} <= locations
    assert not locations & {"rules", "contributing", "sources", "sources-vendor", "sources-papers"}


def test_table_scripts_load_only_where_there_is_a_table(site: Path) -> None:
    """Tablesort and tables.js load, deferred, on the pages with a table, and on no other."""
    with_table = without_table = 0
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        body = html.split('<article', 1)[-1]
        scripts = re.findall(r'<script src="[^"]*(?:tablesort|tables)[^"]*"( defer)?>', html)
        if "<table" in body:
            with_table += 1
            assert len(scripts) == 3 and all(scripts), page
        else:
            without_table += 1
            assert scripts == [], page
    assert with_table and without_table


def test_glossary_terms_are_explained_on_first_use(site: Path) -> None:
    """A page gives each glossary term its tooltip once, at its first use; later uses are plain
    <abbr>. The glossary is appended to every page, so the site does use some terms."""
    titled_anywhere = 0
    for name in sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")):
        terms = re.findall(r'<abbr title="[^"]*">([^<]*)</abbr>', _html(site, name))
        assert len(terms) == len(set(terms)), (name, sorted(t for t in set(terms) if terms.count(t) > 1))
        titled_anywhere += len(terms)
    assert titled_anywhere > 0


def test_sources_are_listed_by_kind_of_publisher_without_a_table_of_contents(site: Path, real: Result) -> None:
    """Every source has its anchor on the page of its kind of publisher, which drops its table of
    contents (one entry per source, written twice); the index links each of them; the search
    leaves those pages out (a search for a network lands on its subject page, not on every list
    naming it); every kind of publisher has a page."""
    sources = {e.id: e.model for e in _kb(real).of_type(Source)}
    index = _html(site, "sources/index.html")
    search = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert set(get_args(PublisherRole)) == {role for group in SOURCE_GROUPS for role in group.roles}
    for page, *_ in SOURCE_GROUPS:
        html = _html(site, f"{page}/index.html")
        assert 'data-md-component="toc"' not in html
        listed = {i for i, s in sources.items() if source_page(s) == page}
        assert all(f'id="src-{i}"' in html for i in listed), page
        assert all(f'href="../{page}/#src-{i}"' in index for i in listed), page
        assert f'"location":"{page}/' not in search, page
    assert sources and all(f'id="src-{i}"' in index for i in sources)  # old /sources/#src-… links still land
    assert 'data-md-component="toc"' in _html(site, "contributing/index.html")  # other pages keep theirs


def test_assumptions_read_in_their_units(site: Path, real: Result) -> None:
    """The cost model page and the calculator's data show each assumption in its unit, as a reader
    reads it (a latency of 1e-05 s as "10 µs"): never in an exponent."""
    page = _html(site, "costmodel/index.html")
    data = json.loads((site / "data" / "costmodel.json").read_text(encoding="utf-8"))["assumptions"]
    for entity in _kb(real).of_type(Assumption):
        a = entity.model
        row = re.search(rf'<tr id="{entity.id}">(.*?)</tr>', page, re.S)
        assert row is not None, entity.id
        shown = PARAMETERS[a.parameter].shown(a.value)
        cells = [html_lib.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)]
        assert cells[1] == shown and not re.search(r"\de[-+]?\d", shown), (entity.id, cells[1], shown)
        if a.parameter in data["values"]:
            assert data["shown"][a.parameter] == shown


def test_reader_pages_show_no_repository_commands(site: Path) -> None:
    """A reader has the site, not a checkout: no page but the contributors' guide tells them to
    run `python -m generator` or anything under .venv/; what to do is on the site itself."""
    shown = [page.relative_to(site).as_posix() for page in sorted(site.rglob("*.html"))
             if "contributing" not in page.relative_to(site).parts[:2]  # the guide, in either language
             and re.search(r"python -m generator|\.venv/bin", page.read_text(encoding="utf-8"))]
    assert shown == []


class ReaderText(HTMLParser):
    """The text a reader sees on a page, link texts and chart labels included, without what a page
    shows as code (`code`, `pre`, `kbd`, `samp`: a YAML value or a command is meant to be copied)
    and without scripts and styles. Attributes (`id`, `href`, `class`) are never text."""

    HIDDEN = ("script", "style", "code", "pre", "kbd", "samp")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.text.append(data)


def test_no_spec_id_reaches_reader_visible_text(site: Path, real: Result) -> None:
    """Readers see names, never the knowledge base's ids (`roce-100g`, `claim-a1-…`, a run's or an
    assumption's id as link text). Ids of one word (`torus`, `bf16`, `global`) are ordinary words
    and terms a page may use, so only ids of two parts or more are looked for, as whole tokens."""
    ids = {entity.id for entity in _kb(real) if "-" in entity.id}
    token = re.compile(r"(?<![\w./#-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w/#-])")
    shown: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        reader = ReaderText()
        reader.feed(page.read_text(encoding="utf-8"))
        found = sorted({t for t in token.findall(" ".join(reader.text)) if t in ids})
        if found:
            shown[page.relative_to(site).as_posix()] = found
    assert shown == {}
