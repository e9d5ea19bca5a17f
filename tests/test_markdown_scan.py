"""The page scanner reads Markdown as the site renders it: references in code are left alone,
every other `[[...]]` is a reference or a malformed one, at its exact position. Property tests
build pages from blocks whose truth is known (text or code), check the scanner and the
expansion against it, and check that truth against the site's own Markdown renderer."""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from html.parser import HTMLParser

import markdown
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT

from generator.figure_refs import Malformed, Reference, line_col
from generator.figures import Figure
from generator.markdown_scan import scan_markdown
from generator.render.expand import body_first_line, expand_figures


def _refs(text: str) -> list[str]:
    return [text[f.start:f.end] for f in scan_markdown(text).found if isinstance(f, Reference)]


CASES = [
    ("a [[x#y]] b", ["[[x#y]]"]),
    ("a `[[x#y]]` b", []),
    ("a ``[[x#y]] ` z`` b [[x#z]]", ["[[x#z]]"]),
    ("a `open [[x#y]]", ["[[x#y]]"]),
    ("a \\`[[x#y]]` b", ["[[x#y]]"]),
    ("a `multi\nline [[x#y]]` b", []),
    ("```\n[[x#y]]\n```\n[[x#z]]", ["[[x#z]]"]),
    ("````\n```\n[[x#y]]\n````\n[[x#z]]", ["[[x#z]]"]),
    ("~~~~python\n[[x#y]]\n~~~\n[[x#w]]\n~~~~~\n~~~~\n[[x#z]]", ["[[x#z]]"]),
    ("   ```\n   [[x#y]]\n   ```\n[[x#z]]", ["[[x#z]]"]),
    ("para\n```\n[[x#y]]\n```\n[[x#z]]", ["[[x#z]]"]),
    ("text\n\n    [[x#y]]\n\n[[x#z]]", ["[[x#z]]"]),
    ("text\n    [[x#y]]", ["[[x#y]]"]),
    ("# Heading\n    [[x#y]]", []),
    ("- item\n\n    [[x#y]]\n\n        [[x#c]]", ["[[x#y]]"]),
    ("- item\n\n    ```\n    [[x#c]]\n    ```\n\n[[x#y]]", ["[[x#y]]"]),
    ('=== "Tab"\n\n    [[x#y]]\n\n        [[x#c]]', ["[[x#y]]"]),
    ('!!! note "t"\n    [[x#y]]\n\n!!! warning\n\n    ```\n    [[x#c]]\n    ```', ["[[x#y]]"]),
    ("> ```\n> [[x#c]]\n> ```\n> [[x#y]]", ["[[x#y]]"]),
    ("| a | [[x#y]] |\n|---|---|\n| `[[x#c]]` | [[x#z GB/s]] |", ["[[x#y]]", "[[x#z GB/s]]"]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_references_outside_code(text: str, expected: list[str]) -> None:
    assert _refs(text) == expected


@pytest.mark.parametrize("page", ["```\n[[x#b]]\n\n[[x#c]]\n", "```\n[[x#b]]\n````\n[[x#c]]",
                                  "  ```\n[[x#b]]\n\n  ```\n[[x#c]]", "```\n[[x#b]]\n\n ```\n[[x#c]]"])
def test_fence_that_does_not_end_hides_nothing(page: str) -> None:
    """A fence the site does not end (never closed, closed by a longer fence or at another
    indentation) is text to the site and code to CommonMark: what follows it is reported,
    never silently shown raw nor silently expanded."""
    found = scan_markdown("[[x#a]]\n" + page).found
    assert [type(f).__name__ for f in found] == ["Reference", "Malformed", "Malformed"]
    assert all("does not end" in f.problem for f in found if isinstance(f, Malformed))


def test_odd_fence_does_not_hide_later_references() -> None:
    """An indented or longer fence is paired by the rules, not blindly: the reference after it is found."""
    assert _refs("  ```\n  code\n  ```\n[[x#a]]\n\n````\n```\n````\n[[x#b]]") == ["[[x#a]]", "[[x#b]]"]
    assert _refs("- item\n\n    ```\n    ~~~\n    ```\n\n[[x#a]]") == ["[[x#a]]"]


def test_link_text_is_known() -> None:
    scan = scan_markdown("[see [[x#a]] here](u.md) and [[x#b]] and ![alt [[x#c]]][ref]")
    refs = [f for f in scan.found if isinstance(f, Reference)]
    assert [scan.in_link_text(r) for r in refs] == [True, False, True]


MALFORMED = [
    ("[[IB-NDR#port_rate]]", "uppercase"), ("[[ib-ndr #port_rate]]", "spaces"), ("[[ ib-ndr#port_rate]]", "spaces"),
    ("[[ib-ndr#port_rate\u200b]]", "U+200B"), ("[[ib-ndr#port\u202erate]]", "U+202E"), ("[[ib-ndr.port_rate]]", "no '#'"),
    ("[[ib-ndr#port_rate Gbps]]", "unknown unit 'Gbps'"), ("[[]]", "empty"), ("[[ib-ndr#port_rate", "no closing"),
    ("[[ib-ndr#port_rate\u00a0GB/s]]", "spaces"),
]


@pytest.mark.parametrize(("text", "problem"), MALFORMED, ids=[m[1] for m in MALFORMED])
def test_malformed_references_say_what_is_wrong(text: str, problem: str) -> None:
    found = scan_markdown(f"前文 {text} 后文").found
    assert len(found) == 1 and isinstance(found[0], Malformed) and problem in found[0].problem


def test_escaped_brackets_are_text() -> None:
    assert scan_markdown("\\[[not a reference]]").found == ()


def test_positions_count_the_front_matter() -> None:
    """The hook gets the page without its front matter; diagnostics still point into the file."""
    from mkdocs.utils.meta import get_data
    source = "---\ntitle: x\n---\n\n\n# T\n\n为 [[x#nope]]\n"
    body, _meta = get_data(source)
    _text, problems = expand_figures(body, _Figures(), {}, "docs/p.md", first_line=body_first_line(source, body))
    assert [(p.line, p.col, p.rule) for p in problems] == [(8, 3, "refs-unknown-figure")]


class _Figures:
    """Every figure `<entity>#f<n>` exists (a count of 7, without source); `x#nope` does not."""

    def get(self, ref: str) -> Figure | None:
        return None if ref.endswith("nope") else Figure("e", ref, Fraction(7), "count", "")


def test_inserted_title_is_escaped_for_tables_and_links() -> None:
    """A source title with | or a trailing backslash neither cuts a table cell nor escapes the quote."""
    class Sourced(_Figures):
        def get(self, ref: str) -> Figure | None:
            return Figure("e", ref, Fraction(7), "count", "", source="s")
    page = "| a | b |\n|---|---|\n| x | [[e#f1]] |\n"
    text, problems = expand_figures(page, Sourced(), {"s": ('A|B "q" C\\', "sources-vendor")}, "p.md")
    rendered = markdown.markdown(text, extensions=["tables", "pymdownx.escapeall"])
    assert not problems and rendered.count("<td>") == 2
    assert 'title="来源：A|B &quot;q&quot; C\\"' in rendered and 'href="sources-vendor.md#src-s"' in rendered
    linked, _ = expand_figures("[see [[e#f1]]](u.md)", Sourced(), {"s": ("t", "sources-vendor")}, "p.md")
    assert linked == "[see 7](u.md)"


# --- property tests ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Page:
    text: str
    refs: tuple[tuple[str, bool, int], ...]  # (reference, in code, line)


_WORDS = st.sampled_from(["带宽", "latency", "a*b", "x_y", "1 < 2", "#", "|", "]", "[", "~", "-", "é"])


@st.composite
def _page(draw: st.DrawFn) -> _Page:
    counter = iter(range(10_000))
    lines: list[str] = []
    refs: list[tuple[str, bool, int]] = []

    def ref(code: bool) -> str:
        text = f"[[e#f{next(counter)}]]"
        refs.append((text, code, len(lines) + 1))
        return text

    def words() -> str:
        parts = []
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["word", "ref", "code"]))
            if kind == "code":
                ticks = "`" * draw(st.integers(1, 3))
                parts.append(f"{ticks}{draw(_WORDS)} {ref(True)}{ticks}")
            else:
                parts.append(ref(False) if kind == "ref" else draw(_WORDS))
        return " ".join(parts)

    def blocks(indent: str, depth: int) -> None:
        previous = "para"
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["para", "fence", "indented", *(["item", "note", "tab"] if depth < 2 else [])]))
            if kind == "indented" and previous in ("item", "note", "tab"):
                kind = "para"  # indented text after a list item or admonition continues it
            previous = kind
            if kind == "para":
                for _ in range(draw(st.integers(1, 2))):
                    lines.append(indent + "文字 " + words())  # never a list item, heading or table
            elif kind == "fence":
                char, length = draw(st.sampled_from("`~")), draw(st.integers(3, 5))
                shift = indent + " " * draw(st.integers(0, 3))
                lines.append(f"{shift}{char * length}{draw(st.sampled_from(['', 'yaml']))}")
                for _ in range(draw(st.integers(0, 2))):
                    inner = draw(st.sampled_from(["", "    ", char * (length - 1), char * (length + 1) + "x"]))
                    lines.append(f"{shift}{inner}{ref(True)} {draw(_WORDS)}")
                lines.append(f"{shift}{char * length}")
            elif kind == "indented":
                for _ in range(draw(st.integers(1, 2))):
                    lines.append(f"{indent}    {' ' * draw(st.integers(0, 2))}{draw(_WORDS)} {ref(True)}")
            else:
                lines.append(indent + ("- 文字 " + words() if kind == "item" else
                                       '!!! note "注意"' if kind == "note" else '=== "标签"'))
                lines.append("")
                blocks(indent + "    ", depth + 1)
            lines.append("")

    blocks("", 0)
    return _Page("\n".join(lines), tuple(refs))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_scanner_finds_exactly_the_references_outside_code(page: _Page) -> None:
    """Positions exact; references in code are not found; nothing else is."""
    found = scan_markdown(page.text).found
    assert all(isinstance(f, Reference) for f in found)
    got = [(page.text[f.start:f.end], line_col(page.text, f.start)[0]) for f in found]
    assert got == [(text, line) for text, code, line in page.refs if not code]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_expansion_changes_nothing_but_the_references(page: _Page) -> None:
    """Each reference outside code becomes its figure; every other character stays as it was."""
    expanded, problems = expand_figures(page.text, _Figures(), {}, "p.md")
    expected = page.text
    for text, code, _line in page.refs:
        if not code:
            expected = expected.replace(text, "7", 1)
    assert not problems and expanded == expected


class _CodeText(HTMLParser):
    """The text of a rendered page, split into what is inside <code> and what is not."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth, self.code, self.text = 0, [], []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.depth += tag == "code"

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag == "code"

    def handle_data(self, data: str) -> None:
        (self.code if self.depth else self.text).append(data)


def _site_markdown() -> tuple[list[str], dict[str, dict[str, object]]]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python/object/apply:pymdownx.slugs.slugify", ""))
    names, options = [], {}
    for entry in config["markdown_extensions"]:
        name, option = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        if name in ("pymdownx.snippets", "toc"):
            continue
        names.append(name)
        options[name] = {k: v for k, v in (option or {}).items() if k != "slugify"}
    return names, options


_EXTENSIONS, _OPTIONS = _site_markdown()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_generated_pages_are_read_as_the_site_renders_them(page: _Page) -> None:
    """The truth the other properties rely on is the site's: a reference placed in code is shown
    inside <code>, one placed in text is shown outside it."""
    parser = _CodeText()
    parser.feed(markdown.markdown(page.text, extensions=_EXTENSIONS, extension_configs=_OPTIONS))
    code, text = "".join(parser.code), html.unescape("".join(parser.text))
    for ref, in_code, _line in page.refs:
        assert (ref in code, ref in text) == (in_code, not in_code), ref
