"""The scaling case study as an inline SVG bar chart: speed-up per network, against the ideal.

Layout is computed here with rounded coordinates and explicit element ids, so the output is
byte-identical across runs; svgwrite only serialises (and escapes) it. Colours come from the
page's palette (`currentColor`, Material's CSS variables), so the chart follows light and dark.
"""

from __future__ import annotations

import svgwrite
from markupsafe import Markup

from ..units import fmt_number

WIDTH, LABEL_W, ROW_H, TOP, RIGHT = 640, 190, 34, 40, 70


def scaling_chart(chart_id: str, title: str, bars: list[tuple[str, float]], ideal: int) -> Markup:
    """Horizontal bars of speed-up (x) per row, with a dashed line at the ideal speed-up."""
    plot_w = WIDTH - LABEL_W - RIGHT
    height = TOP + ROW_H * len(bars) + 30
    scale = plot_w / max([ideal, 1, *(value for _l, value in bars)])
    dwg = svgwrite.Drawing(size=("100%", None), profile="full", debug=False, id=f"chart-{chart_id}")
    dwg.viewbox(0, 0, WIDTH, height)
    dwg.attribs.update({"role": "img", "aria-label": title, "class": "chart-svg"})
    desc = "；".join(f"{label}：{fmt_number(value)} 倍" for label, value in bars)
    dwg.set_desc(title=title, desc=f"各网络方案的加速比（理想值 {ideal} 倍）。{desc}")
    text_style = "fill: currentColor; font-size: 13px"
    dwg.add(dwg.text(f"加速比（倍），虚线为理想值 {ideal}", insert=(LABEL_W, 20), id=f"chart-{chart_id}-axis",
                     style=text_style))
    for index, (label, value) in enumerate(bars):
        y = TOP + index * ROW_H
        width = round(value * scale, 1)
        dwg.add(dwg.text(label, insert=(LABEL_W - 8, y + 18), id=f"chart-{chart_id}-label-{index}",
                         style=text_style + "; text-anchor: end"))
        dwg.add(dwg.rect(insert=(LABEL_W, y + 4), size=(max(width, 0.5), ROW_H - 12),
                         id=f"chart-{chart_id}-bar-{index}",
                         style="fill: var(--md-primary-fg-color, #4051b5)"))
        dwg.add(dwg.text(f"{fmt_number(value)}×", insert=(round(LABEL_W + width + 6, 1), y + 18),
                         id=f"chart-{chart_id}-value-{index}", style=text_style))
    x_ideal = round(LABEL_W + ideal * scale, 1)
    dwg.add(dwg.line(start=(x_ideal, TOP - 6), end=(x_ideal, TOP + ROW_H * len(bars)), id=f"chart-{chart_id}-ideal",
                     style="stroke: currentColor; stroke-dasharray: 4 3; stroke-width: 1"))
    return Markup(dwg.tostring())


SHARE_LABEL_W, SHARE_ROW_H, SHARE_GROUP_GAP = 170, 22, 14


def comm_share_chart(chart_id: str, title: str, groups: list[tuple[str, list[tuple[str, float | None, bool]]]]) -> Markup:
    """Communication share (0-100 %) per network: for each group (a network) one bar per series
    (a modelled layout, or the article's figure, drawn as an outline so it does not rely on colour
    alone), each labelled by name and value. A series without a value (not estimable) reads "—".
    `groups` is [(network label, [(series label, share 0-1 or None, is_article), ...]), ...]."""
    plot_w = WIDTH - SHARE_LABEL_W - RIGHT
    rows = sum(len(series) for _n, series in groups)
    height = TOP + rows * SHARE_ROW_H + len(groups) * (SHARE_ROW_H + SHARE_GROUP_GAP) + 10
    dwg = svgwrite.Drawing(size=("100%", None), profile="full", debug=False, id=f"chart-{chart_id}")
    dwg.viewbox(0, 0, WIDTH, height)
    dwg.attribs.update({"role": "img", "aria-label": title, "class": "chart-svg"})
    desc = "；".join(f"{network}：" + "，".join(f"{label} {_percent(value)}" for label, value, _a in series)
                    for network, series in groups)
    dwg.set_desc(title=title, desc=f"各网络下的通信占比（0–100%）。{desc}")
    text_style = "fill: currentColor; font-size: 13px"
    dwg.add(dwg.text("通信占比（%），实线为模型估算，空心框为文章数字", insert=(SHARE_LABEL_W, 20),
                     id=f"chart-{chart_id}-axis", style=text_style))
    for tick in (0, 25, 50, 75, 100):
        x = round(SHARE_LABEL_W + plot_w * tick / 100, 1)
        dwg.add(dwg.line(start=(x, TOP - 6), end=(x, height - 10), id=f"chart-{chart_id}-tick-{tick}",
                         style="stroke: currentColor; stroke-opacity: .25; stroke-width: 1"))
    y = TOP
    for g_index, (network, series) in enumerate(groups):
        dwg.add(dwg.text(network, insert=(8, y + 15), id=f"chart-{chart_id}-group-{g_index}",
                         style=text_style + "; font-weight: 700"))
        y += SHARE_ROW_H
        for s_index, (label, value, article) in enumerate(series):
            key = f"chart-{chart_id}-{g_index}-{s_index}"
            dwg.add(dwg.text(label, insert=(SHARE_LABEL_W - 8, y + 15), id=f"{key}-label",
                             style=text_style + "; text-anchor: end"))
            width = 0.0 if value is None else round(plot_w * value, 1)
            style = ("fill: none; stroke: currentColor; stroke-width: 1.5" if article
                     else "fill: var(--md-primary-fg-color, #4051b5)")
            dwg.add(dwg.rect(insert=(SHARE_LABEL_W, y + 4), size=(max(width, 0.5), SHARE_ROW_H - 8), id=f"{key}-bar",
                             style=style))
            dwg.add(dwg.text(_percent(value), insert=(round(SHARE_LABEL_W + width + 6, 1), y + 15),
                             id=f"{key}-value", style=text_style))
            y += SHARE_ROW_H
        y += SHARE_GROUP_GAP
    return Markup(dwg.tostring())


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{fmt_number(share * 100, 3)}%"
