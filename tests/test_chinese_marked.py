"""A name or title the specs give in Chinese only (a Chinese source's title, an NVSwitch
generation's name) is shown as it is on an English page, inside an element marked `lang="zh"`,
and exactly as before on a Chinese page (issue 27)."""

from __future__ import annotations

from markupsafe import Markup

from generator.language import speaking
from generator.render.names import name_cell
from generator.render.text import chinese, marked


def test_chinese_text_is_found_by_its_characters_and_punctuation() -> None:
    assert chinese("NVSwitch（第一代，DGX-2）") and chinese("ECCN 3A090，§742.6")
    assert not chinese("8× H100 SXM5 80GB (DGX H100) ÷ — µs")


def test_an_english_page_marks_chinese_text_and_a_chinese_page_does_not() -> None:
    html = Markup("第一代")
    with speaking("en"):
        assert marked(html, "第一代") == '<span lang="zh">第一代</span>'
        assert marked(Markup("DGX"), "DGX") == "DGX"
        assert ' lang="zh" ' in name_cell("nvswitch-gen1", "NVSwitch（第一代，DGX-2）", "NVSwitch").html
        assert "lang=" not in name_cell("dgx-h100", "NVIDIA DGX H100", "DGX H100").html
    assert marked(html, "第一代") == html
    assert "lang=" not in name_cell("nvswitch-gen1", "NVSwitch（第一代，DGX-2）", "NVSwitch").html
