"""What a figure rests on (generator.provenance) and the generated blocks of hand-written pages
(generator.expand.expand_blocks): categories decided by the source's kind, publisher and reading
status; counts that add up to the figures of the knowledge base."""

from __future__ import annotations

import datetime as dt
from typing import get_args

import pytest
from support import real_result

from generator.model.entities import PublisherRole, Source, SourceCopy, SourceKind
from generator.provenance import FIGURE_KINDS, KIND_PUBLISHERS, access, figure_sources, footing, summarize
from generator.render.expand import expand_blocks

DAY = dt.date(2026, 12, 1)


def source(kind: str = "datasheet", role: str = "vendor", *, read: bool = False, copy: bool = False) -> Source:
    return Source.model_validate({
        "id": "test-source", "title": "Test", "publisher": "Test", "publisher_role": role, "kind": kind,
        "url": "https://example.com/x", "retrieved": DAY if read else None,
        "via": SourceCopy(url="https://example.org/copy", publisher="Mirror", retrieved=DAY) if copy else None,
    }, strict=False)


@pytest.mark.parametrize(("src", "expected"), [
    (source(read=True), "read_primary"),
    (source("standard", "standards_body", read=True), "read_primary"),
    (source("patch", "project", read=True), "read_secondary"),
    (source(copy=True), "copy"),
    (source(), "unread"),
    (source("article", "author"), "article"),
    (source("estimate", "author", read=True), "estimate"),
    (source("measurement", "third_party"), "estimate"),
])
def test_footing(src: Source, expected: str) -> None:
    assert footing(src) == expected


def test_access() -> None:
    assert access(source(read=True)) == "read"
    assert access(source(copy=True)) == "copy"
    assert access(source()) == "unread"
    assert access(source("article", "author")) == "read"  # the project's own starting texts


def test_every_kind_names_the_publishers_that_issue_it() -> None:
    """The kind/publisher table covers every kind, and every publisher role issues something."""
    assert set(KIND_PUBLISHERS) == set(get_args(SourceKind))
    roles = set(get_args(PublisherRole))
    issued = set().union(*KIND_PUBLISHERS.values())
    assert issued <= roles and roles <= issued


def test_summary_counts_every_figure_of_the_real_specs_once() -> None:
    """Whatever the data says, the categories add up to the figures the pages count."""
    result = real_result()
    assert result.kb is not None
    summary = summarize(result.kb)
    assert summary.total == len(figure_sources(result.kb, FIGURE_KINDS)) > 0
    for kind in FIGURE_KINDS:
        assert summarize(result.kb, (kind,)).total == len(figure_sources(result.kb, (kind,)))


def test_expand_blocks_replaces_known_markers_only() -> None:
    page = "intro\n<!-- data: provenance -->\nmore <!-- data: provenance --> inline\n<!-- data: nope -->\n"
    out, unknown = expand_blocks(page, {"provenance": "<div>S</div>"})
    assert out == "intro\n<div>S</div>\nmore <!-- data: provenance --> inline\n<!-- data: nope -->\n"
    assert unknown == ["nope"]
