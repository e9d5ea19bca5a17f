"""The real knowledge base, whatever it says: it validates, every page and data file is generated,
every entity is shown with its anchor on its page (one table row each where it is a table row),
every figure cell shows a unit, a direction for a bandwidth and a link to its source or its
derivation, and two renders are identical. Nothing here compares a value or a text of specs/ (the
golden cases check output byte for byte, on fixtures), so a valid edit of specs/ cannot fail it."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections.abc import Iterator
from functools import cache

import pytest
from support import real_files, real_pages, real_result

from generator.diagnostics import DataPath
from generator.estimates.calibration import calibrate
from generator.figure_format import signed_percent
from generator.knowledge import Loaded
from generator.model import KINDS
from generator.model.common import Identified, Text
from generator.model.entities import ComputeNode, Gpu, Source
from generator.model.runs import Run
from generator.render import PAGES, calculator, render_site
from generator.render.context import run_page
from generator.render.runs import FOLD_ROWS
from generator.render.text import ENTITY_PAGE
from generator.render.trust import source_page
from generator.selection.tree import leaf_paths
from generator.spec_schema import schema_files
from generator.validate import Result, validate


@cache
def _real() -> tuple[Result, dict[str, str]]:
    result = real_result()
    assert result.ok and result.kb is not None and result.figures is not None, \
        [d.as_text() for d in result.diagnostics]
    return result, real_pages()


def _page_of(kind: str, model: object) -> str:
    if isinstance(model, Run):  # one page per source of measured runs
        return run_page(model.source) + ".md"
    if kind == "cases":
        return {"scaling_study": "scaling.md", "expert_study": "moe.md"}.get(getattr(model, "type", ""),
                                                                            "field-reports.md")
    return ENTITY_PAGE[kind] + ".md"


def test_every_page_and_data_file_is_generated() -> None:
    """The generated set is fixed by the code and the sources of measured runs: every page, one
    page per source that measured a run, JSON and CSV per spec folder, schemas, and the
    calculator's inputs, and the decision tree for the questionnaire."""
    result, files = _real()
    assert result.kb is not None
    measured = {f"{run_page(run.model.source)}.md" for run in result.kb.of_type(Run)}
    assert len(measured) > 10  # the real base's sources of runs
    expected = set(PAGES) | measured | {f"data/{kind}.{ext}" for kind in KINDS for ext in ("json", "csv")}
    expected |= {"data/tree.json"}
    expected |= {f"schema/{name}" for name in schema_files()} | {calculator.DATA}
    assert set(files) == expected


def test_every_entity_is_on_its_page() -> None:
    """Each entity has its anchor (a row id or a heading id) on the page that shows its kind, and
    each leaf of the decision tree its own section on the flowchart page."""
    result, files = _real()
    assert result.kb is not None
    missing = []
    for entity in result.kb:
        page = files[_page_of(entity.kind, entity.model)]
        anchor = f"src-{entity.id}" if entity.kind == "sources" else entity.id
        if f'id="{anchor}"' not in page and f"{{ #{anchor} }}" not in page:
            missing.append((entity.kind, entity.id))
        if entity.kind == "selection":
            missing += [("leaf", leaf) for leaf in leaf_paths(entity.model) if f"{{ #leaf-{leaf} }}" not in page]
    assert missing == []


@pytest.mark.parametrize(("page", "kind"), [("gpus.md", "gpus"), ("interconnects.md", "interconnects"),
                                            ("networks.md", "networks"), ("claims.md", "claims"), ("nodes.md", "nodes")])
def test_tables_have_one_row_per_entity(page: str, kind: str) -> None:
    """The comparison tables hold exactly one anchored row per entity of their kind (the claims
    page one anchored card)."""
    result, files = _real()
    assert result.kb is not None
    rows = re.findall(r'<(?:tr|div class="claim-card") id="([^"]+)">', files[page])
    kinds = (kind, "nics") if kind == "nodes" else (kind,)  # the nodes page also lists the NICs
    assert sorted(rows) == sorted(e.id for k in kinds for e in result.kb.of_kind(k))


_NUMERIC_CELL = re.compile(r'<td class="num"(?: data-sort="[^"]*")?>(.*?)</td>')
_SHOWN = re.compile(r"^(?P<number>-?\d[\d,]*(?:\.\d+)?)(?:×|%| (?P<unit>\S+))?$")
_BANDWIDTH = re.compile(r"^[KMGT]?[bB]/s$")


@pytest.mark.parametrize("page", ["gpus.md", "interconnects.md", "networks.md", "layers.md", "scaling.md"])
def test_every_figure_has_a_unit_direction_and_source(page: str) -> None:
    """In the figure tables every number has its unit (counts have none), a bandwidth its
    direction, and each figure links to its source or shows how it was derived."""
    _result, files = _real()
    cells = _NUMERIC_CELL.findall(files[page])
    assert cells
    for cell in cells:
        if 'class="fig-none"' in cell:
            continue  # a figure this entity does not have: shown as a dash
        if 'class="fig-unsupported"' in cell:
            assert 'class="fig-src' in cell, cell  # a precision the GPU lacks: a dash, and who says so
            continue
        assert re.search(r'class="fig-src(-copy|-unread)?"', cell) or 'class="fig-derived"' in cell, cell
        shown = _SHOWN.match(cell.partition(" <")[0])
        assert shown is not None, cell
        if shown["unit"] and _BANDWIDTH.match(shown["unit"]):
            assert 'class="fig-dir"' in cell, cell


def _texts(entity: Loaded[Identified]) -> Iterator[tuple[DataPath, Text]]:
    """Every text of an entity with its path, those of a mapping of texts (a selection's
    labels) included."""
    for path, value, _marks in entity.nodes:
        if isinstance(value, Text):
            yield path, value
        elif isinstance(value, dict):
            yield from ((path + (key,), item) for key, item in value.items() if isinstance(item, Text))


def test_downloads_carry_every_text_in_both_languages() -> None:
    """Each text of each entity is in data/<kind>.json as the object {"en": ..., "zh": ...} the
    spec holds, and in data/<kind>.csv as a `<field>.zh` and a `<field>.en` column: a download that
    dropped the English (or flattened a text to its Chinese) fails here."""
    result, files = _real()
    assert result.kb is not None
    english = 0
    for kind in KINDS:
        records = {record["id"]: record for record in json.loads(files[f"data/{kind}.json"])}
        rows = {row["id"]: row for row in csv.DictReader(io.StringIO(files[f"data/{kind}.csv"]))}
        for entity in result.kb.of_kind(kind):
            texts = list(_texts(entity))
            for path, text in texts:
                exported: object = records[entity.id]
                for part in path:
                    exported = exported[part]  # type: ignore[index]
                assert exported == text.model_dump(exclude_none=True), (entity.path, path)
            row = rows[entity.id]
            filled = [column for column, cell in row.items() if cell]
            assert sum(column.endswith(".zh") for column in filled) == len(texts), (entity.path, filled)
            assert sum(column.endswith(".en") for column in filled) == sum(t.en is not None for _p, t in texts)
            assert all(column.removesuffix(".en") + ".zh" in row for column in filled if column.endswith(".en"))
            english += sum(t.en is not None for _p, t in texts)
    assert english > 0  # the comparison above saw English texts


def test_rendering_is_deterministic() -> None:
    """Two renders of the same specs are identical."""
    result, files = _real()
    assert result.kb is not None and result.figures is not None
    fresh = validate(list(real_files()))
    assert fresh.kb is not None and fresh.figures is not None
    assert render_site(fresh.kb, fresh.figures) == files


def test_unsupported_precisions_show_a_dash_with_their_source() -> None:
    """Each precision a GPU lacks is a "—" in its row of the per-precision table, linked to the
    source that says so; each precision it states is a figure there."""
    result, files = _real()
    assert result.kb is not None
    compute = files["gpus.md"].split("{ #compute }", 1)[1].split("</table>", 1)[0]
    for gpu in result.kb.of_type(Gpu):
        row = re.search(rf'<tr><td><a class="row-name" href="#{gpu.id}" [^>]*>.*?</tr>', compute)
        assert row is not None, gpu.id
        lacking = [e for e in gpu.model.compute.tensor if e.unsupported is not None]
        dashes = row[0].count('class="fig-unsupported"')  # one per column of a lacking precision
        assert dashes >= len(lacking) and (dashes == 0) == (not lacking), gpu.id
        for entry in lacking:
            assert entry.unsupported is not None
            source = result.kb.get(entry.unsupported.source, Source)
            assert source is not None
            assert f'href="../{source_page(source.model)}/#src-{source.id}"' in row[0], (gpu.id, entry.key)


def test_nodes_show_scale_out_beside_scale_up() -> None:
    """Every node's row gives the derived scale-out rate per node and per GPU, and, where its GPU
    states a scale-up rate (a vendor may publish none, a PCIe server may have no link), that rate
    and the ratio of the two, all per direction."""
    result, files = _real()
    assert result.kb is not None and result.figures is not None
    nodes = result.kb.of_type(ComputeNode)
    assert nodes
    for node in nodes:
        row = re.search(rf'<tr id="{node.id}">.*?</tr>', files["nodes.md"])
        assert row is not None, node.id
        linked = result.figures.get(f"{node.model.gpu}#scale_up.bandwidth") is not None
        assert row[0].count("推导") >= (3 if linked else 2), node.id  # scale-out per node and per GPU, the ratio
        assert row[0].count("单向") >= (3 if linked else 2), node.id


def test_a_source_page_opens_with_the_error_on_each_gpu_and_precision() -> None:
    """A source whose runs are of more than one GPU or precision opens its page with one row for
    each: its runs and the model's error on them, as calibrate computes them (the long tables of
    runs and predictions follow); a source of one GPU and one precision has the sentence alone."""
    result, files = _real()
    assert result.kb is not None
    report = calibrate(result.kb)
    groups: dict[str, dict[tuple[str, str], list[float]]] = {}
    for r in report.runs:
        if r.error is not None and r.kind is not None:
            run = result.kb.get(r.id, Run)
            assert run is not None
            groups.setdefault(r.source, {}).setdefault((run.model.gpu, r.kind.precision.upper()), []).append(r.error)
    assert max(len(g) for g in groups.values()) > 2  # the real base has a source of several GPUs
    gpu_order = [e.id for e in result.kb.of_kind("gpus")]
    row = re.compile(r'<tr><td><a href="\.\./gpus/#([^"]+)">[^<]*</a></td><td>([^<]+)</td><td class="num">(\d+)</td>'
                     r'<td class="num">([^<]+)</td><td class="num">([^<]+)</td></tr>')
    for source, by_group in groups.items():
        page = files[f"{run_page(source)}.md"]
        summary = page[page.index("## 概览 { #summary }"):page.index("## 记录 { #runs }")]
        shown = {(gpu, precision): (int(n), mae, bias) for gpu, precision, n, mae, bias in row.findall(summary)}
        if len(by_group) < 2:
            assert shown == {} and "<table>" not in summary, source
            continue
        assert shown == {group: (len(errors), f"{statistics.fmean(abs(e) for e in errors):.1%}",
                                 signed_percent(statistics.fmean(errors))) for group, errors in by_group.items()}, source
        assert list(shown) == sorted(shown, key=lambda g: gpu_order.index(g[0])), source


def test_a_source_with_many_runs_folds_its_two_long_tables() -> None:
    """A source's page folds its tables of runs and of predictions (`<details>`, their summaries
    naming the count) when it has more runs than FOLD_ROWS, and shows them open otherwise; the
    rows are the same either way."""
    result, files = _real()
    assert result.kb is not None
    counts: dict[str, int] = {}
    for run in result.kb.of_type(Run):
        counts[run.model.source] = counts.get(run.model.source, 0) + 1
    assert max(counts.values()) > FOLD_ROWS >= min(counts.values())  # the real base has both kinds
    assert result.figures is not None
    english = render_site(result.kb, result.figures, languages=("en",))
    for source, count in counts.items():
        for pages, words in ((files, ("全部 {} 条记录", "逐条预测：{} 条")), (english, ("All {} runs", "Run by run: {} predictions"))):
            prefix = "en/" if pages is english else ""
            page = pages[f"{prefix}{run_page(source)}.md"]
            summaries = re.findall(r'<details class="long-table">\n<summary>([^<]*)</summary>\n<div class="data-table">', page)
            assert summaries == ([w.format(count) for w in words] if count > FOLD_ROWS else []), (prefix, source)
            assert page.count("</details>") == len(summaries), (prefix, source)
            assert len(re.findall(r'<tr id="', page)) == count, (prefix, source)
