"""Issue 13, "What was found", finding by finding. Each finding's inputs are in the corpus
(tests/invalid/, or tests/hostile_tree.py for what only a file system holds) and go through the
real command line here: exit 1, a `file:line:col: error: ... [rule]` line at the stated place,
no traceback. Findings about the build or the server are shown by the tests named in `ELSEWHERE`
(this file checks that they still exist), and by the build test below for source titles."""

from __future__ import annotations

import calendar
import html
import re
import shutil
from pathlib import Path

import pytest
from kbgen import assemble, base_tree, deepen
from support import BASE, BUILD_DATE, INVALID, ROOT, Case, fixture_project, with_file

from generator.edge.cli import main
from generator.load.parse import MAX_FILE_BYTES
from generator.pipeline import validate_and_render
from generator.render.trust import SOURCE_GROUPS
from tools.sitekit import build_site

# finding -> the corpus cases (tests/invalid/<name>.yaml) that hold its inputs
FINDINGS: dict[str, tuple[str, ...]] = {
    "injection: a source url carrying a script": ("sources-url-javascript", "sources-url-data"),
    "zero GPUs per node (division by zero)": ("arithmetic-zero-gpus-per-node", "arithmetic-zero-nodes", "edit-case-gpus"),
    "YAML 1.1 number forms": ("yaml-number-form-octal", "yaml-number-form-sexagesimal", "yaml-number-form-binary",
                              "yaml-number-form-hex", "yaml-number-form-separator", "yaml-number-form-octal-12"),
    "single-GPU throughput of zero": ("arithmetic-zero-single-gpu", "arithmetic-zero-single-gpu-every-row"),
    "other zero denominators": ("arithmetic-zero-power", "arithmetic-zero-tensor"),
    "malformed figure references in text": ("text-figure-ref-malformed", "text-invisible-in-reference"),
    "bidi controls and invisible characters": ("text-invisible-bidi-name", "text-invisible-bidi-isolate-summary",
                                               "text-invisible-key", "text-invisible-word-joiner-id",
                                               "text-invisible-soft-hyphen-id"),
    "look-alike characters in ids, names and units": ("text-confusable-id", "text-confusable-name",
                                                      "text-confusable-unit-cyrillic", "text-confusable-unit-fullwidth",
                                                      "text-confusable-micro-sign", "text-confusable-reference",
                                                      "text-confusable-fullwidth-digits"),
    "dates in the future": ("schema-future-date-verified", "schema-future-date-retrieved", "schema-future-date-price"),
    "typed figures hidden by zero-width spaces": ("text-invisible-zero-width-number",),
    "no cap on diagnostics per file": ("schema-too-many-problems",),
}

# finding -> tests elsewhere that show it ("file::function")
ELSEWHERE: dict[str, tuple[str, ...]] = {
    "injection: markup through every text field": ("test_hostile.py::test_markup_in_every_text_field_is_inert",),
    "symlink loop, unreadable files and folders, special files": (
        "test_spec_tree_hostile.py::test_file_system_oddity_is_a_diagnostic",
        "test_spec_tree_hostile.py::test_oddities_through_the_command_line"),
    "a newline in a file name forges a diagnostic line": (
        "test_spec_tree_hostile.py::test_newline_in_a_file_name_cannot_forge_a_line",),
    "a selection tree a thousand questions deep": ("test_valid_bases_build.py::test_sample_builds_with_mkdocs",
                                                   "test_flowchart.py::test_layout_of_a_tree_deeper_than_the_recursion_limit"),
    "every base that passes check builds": ("test_valid_bases_build.py::test_every_base_that_passes_check_renders",),
    "a failed build loses the previous site": ("test_site_atomic.py::test_failed_build_keeps_previous_site",),
    "figure references: front matter offsets the line": ("test_markdown_scan.py::test_positions_count_the_front_matter",),
    "figure references: indented and odd fences": ("test_markdown_scan.py::test_odd_fence_does_not_hide_later_references",
                                                   "test_markdown_scan.py::test_fence_that_does_not_end_hides_nothing"),
    "figure references: inline and indented code": ("test_markdown_scan.py::test_references_outside_code",),
    "figure references: malformed ones on pages": ("test_markdown_scan.py::test_malformed_references_say_what_is_wrong",),
    "mkdocs serve stops answering while specs are broken": (
        "test_site_integration.py::test_serve_lists_problems_and_keeps_answering",
        "browser/test_live_reload.py::test_problem_page_reloads_itself_when_the_spec_is_fixed"),
    "the typed-figure detector misses Gbit/s and zero-width spaces": (
        "test_narrative.py::test_detector_reads_through_spellings_and_invisible_characters",),
    "dates later than the build date, SOURCE_DATE_EPOCH": (
        "test_hygiene.py::test_check_reads_the_build_date_from_the_environment",),
}


def _cases() -> list[tuple[str, str]]:
    return [(finding, name) for finding, names in FINDINGS.items() for name in names]


@pytest.mark.parametrize(("finding", "name"), _cases(), ids=lambda v: v if "-" in v else "")
def test_finding_gives_a_positioned_diagnostic(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch, finding: str, name: str) -> None:
    """`check` on the fixture base with the case's file: exit 1, each expected diagnostic printed
    as file:line:col with its rule id, and no traceback. The build date is the corpus's own
    (SOURCE_DATE_EPOCH), not the clock: a case dated the day after it is in the future on any day."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(calendar.timegm(BUILD_DATE.timetuple())))
    case = Case.read(INVALID / f"{name}.yaml")
    assert case.raw is not None, f"{name} deletes a file; these tests write one"
    tree = tmp_path / "specs"
    shutil.copytree(BASE, tree)
    target = tree / Path(case.target).relative_to("specs")
    target.write_bytes(case.raw)
    assert main(["check", str(tree)]) == 1, finding
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for path, line, col, rule in case.expected:
        shown = str(tree / Path(path).relative_to("specs"))
        assert re.search(rf"^{re.escape(shown)}:{line}:{col}: (error|warning): .* \[{re.escape(rule)}\]$", err, re.MULTILINE), err


@pytest.mark.parametrize("where", sorted({t for tests in ELSEWHERE.values() for t in tests}))
def test_finding_shown_elsewhere_still_has_its_test(where: str) -> None:
    path, _, function = where.partition("::")
    assert re.search(rf"^def {function}\(", (ROOT / "tests" / path).read_text(encoding="utf-8"), re.MULTILINE), where


def test_tree_depth_is_bounded_by_the_file_size() -> None:
    """No separate depth rule: the selection tree is one file, so its size limit bounds the depth.
    The deepest chain of questions that fits passes `check` and renders; a deeper one is refused
    with yaml-too-large, not a traceback."""
    fits = assemble(deepen(base_tree(), "deep", 0, 1600))
    tree_file = next(f for f in fits if f.kind == "selection")
    assert len(tree_file.raw) <= MAX_FILE_BYTES
    result, pages = validate_and_render(fits)
    assert result.ok and pages is not None and "flowchart.md" in pages
    deeper = assemble(deepen(base_tree(), "deep", 0, 4000))
    result, pages = validate_and_render(deeper)
    assert pages is None and {d.rule for d in result.diagnostics} == {"yaml-too-large"}


def test_source_title_with_bar_and_backslash_builds(tmp_path: Path) -> None:
    """A source title holding `|` and ending in `\\` passes check, and the strict build shows it
    whole: on the generated sources pages, and where a hand-written page cites a figure of that
    source in a Markdown table cell and in a paragraph (the table keeps its two columns)."""
    title = "Test GPU | datasheet \\"
    target = "specs/sources/test-gpu-datasheet.yaml"
    raw = (BASE / "sources" / "test-gpu-datasheet.yaml").read_text(encoding="utf-8")
    raw = raw.replace('title: "Test GPU datasheet"', 'title: "Test GPU | datasheet \\\\"')
    project = fixture_project(tmp_path, with_file(target, raw.encode()))
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n\n## 标题测试\n\n| 项 | 数字 |\n|---|---|\n"
                     "| FP32 | [[test-v100-sxm2#compute.fp32]] |\n| 尾 | 完 |\n\n正文 [[test-v100-sxm2#compute.fp32]] 结束。\n",
                     encoding="utf-8")
    done = build_site(tmp_path / "site", project)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    part = page[page.rindex("标题测试"):]
    table = part[part.index("<table>"):part.index("</table>")]
    assert table.count("<tr>") == 3 and table.count("<td>") == 4, table
    cited = f"来源：{title}"
    assert _titles(table) == [cited] and cited in _titles(part[part.index("</table>"):]), part[:2000]
    # Generated pages: the source's own heading, on the page of its kind of publisher, and its
    # row in the index (a figure's 源 link carries no title).
    listed = "".join((tmp_path / "site" / group / "index.html").read_text(encoding="utf-8")
                     for group, *_ in SOURCE_GROUPS)
    heading = re.search(r'<h2 id="src-test-gpu-datasheet">(.*?)<a class="headerlink"', listed)
    assert heading is not None and html.unescape(heading[1]) == title, heading
    index = (tmp_path / "site" / "sources" / "index.html").read_text(encoding="utf-8")
    row = re.search(r'<tr id="src-test-gpu-datasheet"><td><a href="[^"]*">(.*?)</a>', index)
    assert row is not None and html.unescape(row[1]) == title, row


def _titles(html_text: str) -> list[str]:
    """The title attributes of `html_text`, as a browser reads them (character references resolved)."""
    return [html.unescape(value) for value in re.findall(r'title="([^"]*)"', html_text) if "来源" in html.unescape(value)]
