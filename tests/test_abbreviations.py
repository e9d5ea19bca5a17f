"""Glossary tooltips on first use only (generator/render/abbreviations.py)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from generator.render.abbreviations import first_use_only

TERMS = {"PCIe": "PCI Express &amp; co", "NVLink": "NVIDIA 的 GPU 直连总线", "TP": "张量并行"}


def _abbr(term: str) -> str:
    return f'<abbr title="{TERMS[term]}">{term}</abbr>'


def test_the_first_use_keeps_its_title_and_later_ones_lose_it() -> None:
    html = f"<p>{_abbr('PCIe')} 与 {_abbr('NVLink')}</p><p>{_abbr('PCIe')} x16，{_abbr('NVLink')}</p>"
    assert first_use_only(html) == (f"<p>{_abbr('PCIe')} 与 {_abbr('NVLink')}</p>"
                                    "<p>PCIe x16，NVLink</p>")


@given(st.lists(st.one_of(st.sampled_from(sorted(TERMS)), st.text(alphabet="ab <>&\"'", max_size=8)), max_size=30))
def test_each_term_is_explained_once_and_the_text_is_unchanged(parts: list[str]) -> None:
    html = "".join(_abbr(p) if p in TERMS else p for p in parts)
    out = first_use_only(html)
    titled = re.findall(r'<abbr title="[^"]*">([^<]*)</abbr>', out)
    assert sorted(titled) == sorted({p for p in parts if p in TERMS})  # each used term, once
    assert re.sub(r"</?abbr[^>]*>", "", out) == re.sub(r"</?abbr[^>]*>", "", html)
    assert first_use_only(out) == out
