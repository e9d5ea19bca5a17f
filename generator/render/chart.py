"""The scaling case study as an inline SVG bar chart: speed-up per network, against the ideal.

Layout is computed here with rounded coordinates and explicit element ids, so the output is
byte-identical across runs; svgwrite only serialises (and escapes) it. Colours come from the
page's palette (`currentColor`, Material's CSS variables), so the chart follows light and dark.
"""

from __future__ import annotations

import svgwrite
from markupsafe import Markup

from ..language import say
from ..units import fmt_number

# Each bar has its label on the line above it, not in a column to its left: the drawing is then
# narrow enough (WIDTH user units) to show at phone width with its text still legible, and
# extra.css caps how far it grows on a wide screen. RIGHT keeps room for the value after the
# longest bar.
WIDTH, LEFT, TOP, RIGHT = 420, 8, 34, 64
LABEL_H, BAR_H, ROW_GAP = 16, 14, 10
ROW_H = LABEL_H + BAR_H + ROW_GAP
TEXT_STYLE = "fill: currentColor; font-size: 13px"


def scaling_chart(chart_id: str, title: str, bars: list[tuple[str, float]], ideal: int) -> Markup:
    """Horizontal bars of speed-up (x) per row, with a dashed line at the ideal speed-up."""
    plot_w = WIDTH - LEFT - RIGHT
    height = TOP + ROW_H * len(bars) + 8
    scale = plot_w / max([ideal, 1, *(value for _l, value in bars)])
    dwg = svgwrite.Drawing(size=("100%", None), profile="full", debug=False, id=f"chart-{chart_id}")
    dwg.viewbox(0, 0, WIDTH, height)
    dwg.attribs.update({"role": "img", "aria-label": title, "class": "chart-svg"})
    desc = say("；", "; ").join(say(f"{label}：{fmt_number(value)} 倍", f"{label}: {fmt_number(value)}×") for label, value in bars)
    dwg.set_desc(title=title, desc=say(f"各网络方案的加速比（理想值 {ideal} 倍）。{desc}",
                                       f"Speed-up of each network (ideal {ideal}×). {desc}"))
    dwg.add(dwg.text(say(f"加速比（倍），虚线为理想值 {ideal}", f"Speed-up (×), dashed line = ideal {ideal}"),
                     insert=(LEFT, 18), id=f"chart-{chart_id}-axis",
                     style=TEXT_STYLE))
    for index, (label, value) in enumerate(bars):
        y = TOP + index * ROW_H
        width = round(value * scale, 1)
        dwg.add(dwg.text(label, insert=(LEFT, y + 12), id=f"chart-{chart_id}-label-{index}", style=TEXT_STYLE))
        dwg.add(dwg.rect(insert=(LEFT, y + LABEL_H), size=(max(width, 0.5), BAR_H),
                         id=f"chart-{chart_id}-bar-{index}",
                         style="fill: var(--md-primary-fg-color, #4051b5)"))
        dwg.add(dwg.text(f"{fmt_number(value)}×", insert=(round(LEFT + width + 6, 1), y + LABEL_H + 12),
                         id=f"chart-{chart_id}-value-{index}", style=TEXT_STYLE))
    x_ideal = round(LEFT + ideal * scale, 1)
    dwg.add(dwg.line(start=(x_ideal, TOP - 6), end=(x_ideal, TOP + ROW_H * len(bars)), id=f"chart-{chart_id}-ideal",
                     style="stroke: currentColor; stroke-dasharray: 4 3; stroke-width: 1"))
    return Markup(dwg.tostring())


INDENT, GROUP_H, GROUP_GAP = 12, 20, 10


def comm_share_chart(chart_id: str, title: str, groups: list[tuple[str, list[tuple[str, float | None, bool]]]]) -> Markup:
    """Communication share (0-100 %) per network: for each group (a network, its name in bold) one
    bar per series (a modelled layout, or the article's figure, drawn as an outline so it does not
    rely on colour alone), each labelled by name above it and by value after it. A series without
    a value (not estimable) reads "—".
    `groups` is [(network label, [(series label, share 0-1 or None, is_article), ...]), ...]."""
    x0 = LEFT + INDENT
    plot_w = WIDTH - x0 - RIGHT
    rows = sum(len(series) for _n, series in groups)
    height = TOP + rows * ROW_H + len(groups) * (GROUP_H + GROUP_GAP) + 4
    dwg = svgwrite.Drawing(size=("100%", None), profile="full", debug=False, id=f"chart-{chart_id}")
    dwg.viewbox(0, 0, WIDTH, height)
    dwg.attribs.update({"role": "img", "aria-label": title, "class": "chart-svg"})
    desc = say("；", "; ").join(say(f"{network}：", f"{network}: ")
                               + say("，", ", ").join(f"{label} {_percent(value)}" for label, value, _a in series)
                               for network, series in groups)
    dwg.set_desc(title=title, desc=say(f"各网络下的通信占比（0–100%）。{desc}",
                                       f"Communication share on each network (0–100%). {desc}"))
    dwg.add(dwg.text(say("通信占比（%），实心为模型估算，空心框为文章数字",
                         "Comm. share (%): solid = model, outline = article"),
                     insert=(LEFT, 18),
                     id=f"chart-{chart_id}-axis", style=TEXT_STYLE))
    for tick in (0, 25, 50, 75, 100):
        x = round(x0 + plot_w * tick / 100, 1)
        dwg.add(dwg.line(start=(x, TOP - 6), end=(x, height - 4), id=f"chart-{chart_id}-tick-{tick}",
                         style="stroke: currentColor; stroke-opacity: .25; stroke-width: 1"))
    y = TOP
    for g_index, (network, series) in enumerate(groups):
        dwg.add(dwg.text(network, insert=(LEFT, y + 14), id=f"chart-{chart_id}-group-{g_index}",
                         style=TEXT_STYLE + "; font-weight: 700"))
        y += GROUP_H
        for s_index, (label, value, article) in enumerate(series):
            key = f"chart-{chart_id}-{g_index}-{s_index}"
            dwg.add(dwg.text(label, insert=(x0, y + 12), id=f"{key}-label", style=TEXT_STYLE))
            width = 0.0 if value is None else round(plot_w * value, 1)
            style = ("fill: none; stroke: currentColor; stroke-width: 1.5" if article
                     else "fill: var(--md-primary-fg-color, #4051b5)")
            dwg.add(dwg.rect(insert=(x0, y + LABEL_H), size=(max(width, 0.5), BAR_H), id=f"{key}-bar",
                             style=style))
            dwg.add(dwg.text(_percent(value), insert=(round(x0 + width + 6, 1), y + LABEL_H + 12),
                             id=f"{key}-value", style=TEXT_STYLE))
            y += ROW_H
        y += GROUP_GAP
    return Markup(dwg.tostring())


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{fmt_number(share * 100, 3)}%"
