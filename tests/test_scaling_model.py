"""The scaling case study, modelled: the numbers beside the article's table are the model's (the
same `estimate` the CLI runs, computed here independently from the study's stated layouts), the
paragraph names the widest disagreement the model actually gives, the chart is accessible,
deterministic and escapes its text, and on the real knowledge base every modelled study shows
its section, table cells and chart bars (structure only: a valid edit of specs/ cannot fail it).
The fixture is tests/golden/complete/ (whose scaling.md golden holds the chart byte for byte)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from support import read_tree, real_pages, real_result

from generator.costmodel import estimate
from generator.estimates.choice import resolve
from generator.estimates.report import outputs
from generator.estimates.studies import study_choice
from generator.model.entities import ScalingStudy
from generator.render.chart import comm_share_chart
from generator.render.context import Site
from generator.render.scaling_model import modelled
from generator.validate import Result, validate

FIXTURE = Path(__file__).parent / "golden" / "complete" / "specs"


@cache
def _fixture() -> Result:
    result = validate(read_tree(FIXTURE))
    assert result.ok and result.kb is not None, [d.as_text() for d in result.diagnostics]
    return result


def _pct(share: float) -> str:
    return f"{float(f'{share * 100:.3g}'):g}%"


def test_model_cells_and_widest_gap_are_the_models() -> None:
    result = _fixture()
    assert result.kb is not None and result.figures is not None
    site = Site(result.kb, result.figures)
    (entity,) = result.kb.of_type(ScalingStudy)
    study = entity.model
    assert study.modelled is not None
    context = modelled(site, entity)
    assert context is not None
    widest: tuple[float, str, str] | None = None
    for layout in study.modelled.layouts:
        for row in study.rows:
            if row.network is None:
                continue
            choice = study_choice(study, layout, row.network)
            assert choice is not None
            resolved = resolve(result.kb, choice)
            assert not isinstance(resolved, str), resolved
            out = outputs(estimate(resolved.workload, resolved.cluster, resolved.layout, resolved.assumptions))
            share = out["comm_share"]
            assert isinstance(share, float)
            cells = [c for r in context["share"].rows for c in r.cells]  # type: ignore[attr-defined]
            assert any(c.sort == repr(share * 100) for c in cells), (row.key, layout.key, share)
            article = result.figures.get(f"{entity.id}#rows.{row.key}.comm_share")
            assert article is not None
            gap = abs(share - float(article.value))
            if widest is None or gap > widest[0]:
                widest = (gap, row.label.zh or "", _pct(share))
    assert widest is not None
    first = str(context["paragraphs"][0])  # type: ignore[index]
    sentence = first[first.index("差得最多的是"):]
    assert widest[1] in sentence and widest[2] in sentence, (widest, sentence)


def test_chart_is_accessible_deterministic_and_escaped() -> None:
    groups = [("<b>网</b> & co", [("布局 <i>", 0.25, False), ("文章", 0.5, True), ("无法估算", None, False)])]
    svg = str(comm_share_chart("x", "标题 <script>", groups))
    assert svg == str(comm_share_chart("x", "标题 <script>", groups))
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg
    assert "&lt;b&gt;网&lt;/b&gt; &amp; co" in svg
    assert re.search(r"<title>标题 &lt;script&gt;</title>", svg) and "<desc>" in svg
    assert 'role="img"' in svg
    assert ">25%<" in svg and ">50%<" in svg and ">—<" in svg


def test_every_modelled_study_shows_its_section_on_the_real_site() -> None:
    result = real_result()
    assert result.kb is not None and result.figures is not None
    page = real_pages()["scaling.md"]
    studies = [e for e in result.kb.of_type(ScalingStudy) if e.model.modelled is not None]
    for entity in studies:
        m = entity.model.modelled
        assert m is not None
        networks = [r for r in entity.model.rows if r.network is not None]
        assert f"{{ #{entity.id}-model }}" in page
        svg = page[page.index(f'id="chart-{entity.id}-model"'):]
        svg = svg[:svg.index("</svg>")]
        assert "<title>" in svg and "<desc>" in svg
        bars = re.findall(rf'id="chart-{re.escape(entity.id)}-model-\d+-\d+-bar"', svg)
        assert len(bars) == len(networks) * (len(m.layouts) + 1)
        assert "文章与模型的差别" in page
