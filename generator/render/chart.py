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
