"""The model's accuracy as an inline SVG scatter: each published run at (measured, predicted)
step time on log axes, the y = x line and the ±10 % band around it.

Coordinates are computed here and rounded, every element has an explicit id, so the output is
byte-identical across runs; svgwrite only serialises and escapes. Colours come from the page's
palette (`currentColor`, Material's variables), so the chart follows light and dark; sources are
told apart by marker shape as well as by position in the legend, not by colour alone. The legend
is an HTML list under the drawing, each entry with its marker drawn small: inside the SVG it
shrank with the drawing, to a few pixels on a phone, and long source titles had to be cut.
"""

from __future__ import annotations

import math

import svgwrite
from markupsafe import Markup, escape

from ..language import say
from ..units import fmt_number

SIZE, LEFT, BOTTOM, TOP, RIGHT = 560, 64, 48, 30, 16
KEY = 12  # the side of a legend entry's marker drawing, in CSS pixels
BAND = 0.10  # the ±10 % band DESIGN.md sets as the model's accuracy target
SHAPES = ("circle", "square", "diamond", "triangle", "cross", "ring", "bar", "star")


def _ticks(low: float, high: float) -> list[float]:
    """Powers of ten and their 2× and 5× that fall inside [low, high] (a log axis' labels)."""
    out = []
    for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for mantissa in (1, 2, 5):
            value = mantissa * 10.0 ** exponent
            if low <= value <= high:
                out.append(value)
    return out


def _style(shape: str) -> str:
    """The class a marker of this shape is drawn with (extra.css: filled or outlined)."""
    return "chart-line-mark" if shape in ("ring", "cross") else "chart-mark"


def _marker(dwg: svgwrite.Drawing, shape: str, x: float, y: float, styled: bool = False) -> svgwrite.base.BaseElement:
    # Styled by class (extra.css: .chart-mark, .chart-line-mark), not inline: a page holds hundreds
    # of points, so the chart gives the class to each source's group and a point carries none
    # (`styled`: a legend's key is a drawing of its own, its marker with the class). No ids either:
    # nothing links to a point.
    style = {"class_": _style(shape)} if styled else {}
    r = 3.5
    if shape == "circle":
        return dwg.circle(center=(x, y), r=r, **style)
    if shape == "ring":
        return dwg.circle(center=(x, y), r=r, **style)
    if shape == "square":
        return dwg.rect(insert=(round(x - r, 1), round(y - r, 1)), size=(7, 7), **style)
    points = {
        "diamond": [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
        "triangle": [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)],
        "star": [(x, y - r - 1), (x + 1.2, y - 1.2), (x + r + 1, y), (x + 1.2, y + 1.2), (x, y + r + 1),
                 (x - 1.2, y + 1.2), (x - r - 1, y), (x - 1.2, y - 1.2)],
    }.get(shape)
    if points is not None:
        return dwg.polygon([(round(px, 1), round(py, 1)) for px, py in points], **style)
    if shape == "bar":
        return dwg.rect(insert=(round(x - r - 1, 1), round(y - 1.5, 1)), size=(2 * r + 2, 3), **style)
    return dwg.path(d=f"M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}M{x - r:.1f},{y + r:.1f}L{x + r:.1f},{y - r:.1f}",
                    **style)


def accuracy_chart(chart_id: str, title: str, sources: list[str],
                   points: list[tuple[float, float, int, str]]) -> Markup:
    """`points` is [(measured s, predicted s, index into `sources`, run label)]; both axes are
    seconds per step on a log scale sharing one range, so the diagonal is y = x."""
    values = [v for m, p, _s, _l in points for v in (m, p)] or [1.0]
    low = 10.0 ** math.floor(math.log10(min(values) / (1 + BAND)))
    high = 10.0 ** math.ceil(math.log10(max(values) * (1 + BAND)))
    plot = SIZE - LEFT - RIGHT
    height = TOP + plot + BOTTOM

    def at(value: float) -> float:
        return math.log10(value / low) / math.log10(high / low) * plot

    def xy(measured: float, predicted: float) -> tuple[float, float]:
        return round(LEFT + at(measured), 1), round(TOP + plot - at(predicted), 1)

    dwg = svgwrite.Drawing(size=("100%", None), profile="full", debug=False, id=f"chart-{chart_id}")
    dwg.viewbox(0, 0, SIZE, height)
    dwg.attribs.update({"role": "img", "aria-label": title, "class": "chart-svg chart-scatter"})
    within = sum(1 for m, p, _s, _l in points if abs(m / p - 1) <= BAND)
    dwg.set_desc(title=title, desc=say(f"{len(points)} 条已发表实测运行的实测与预测单步时间（对数坐标），"
                                       f"其中 {within} 条落在 ±10% 带内。",
                                       f"Measured and predicted step time of {len(points)} published measured runs "
                                       f"(log scales); {within} of them lie within the ±10% band."))
    text = "fill: currentColor; font-size: 12px"
    grid = "stroke: currentColor; stroke-opacity: .15; stroke-width: 1"
    for tick in _ticks(low, high):
        x, y = xy(tick, tick)
        label = fmt_number(tick)
        dwg.add(dwg.line(start=(x, TOP), end=(x, TOP + plot), style=grid))
        dwg.add(dwg.line(start=(LEFT, y), end=(LEFT + plot, y), style=grid))
        dwg.add(dwg.text(label, insert=(x, TOP + plot + 16), style=text + "; text-anchor: middle"))
        dwg.add(dwg.text(label, insert=(LEFT - 6, round(y + 4, 1)), style=text + "; text-anchor: end"))
    band = [xy(low, low * (1 + BAND)), xy(high / (1 + BAND), high), xy(high, high / (1 + BAND)), xy(low * (1 + BAND), low)]
    dwg.add(dwg.polygon(band, style="fill: var(--md-primary-fg-color, #4051b5); fill-opacity: .12; stroke: none"))
    dwg.add(dwg.line(start=xy(low, low), end=xy(high, high), style="stroke: currentColor; stroke-width: 1; stroke-dasharray: 4 3"))
    dwg.add(dwg.text(say("实测单步时间（秒）", "Measured step time (s)"), insert=(LEFT + plot / 2, TOP + plot + 36),
                     style=text + "; text-anchor: middle"))
    dwg.add(dwg.text(say("预测单步时间（秒）", "Predicted step time (s)"), insert=(LEFT, 14), style=text))
    groups: dict[int, svgwrite.container.Group] = {}
    for measured, predicted, source, label in points:
        x, y = xy(measured, predicted)
        shape = SHAPES[source % len(SHAPES)]
        if source not in groups:
            groups[source] = dwg.add(dwg.g(class_=_style(shape)))
        marker = _marker(dwg, shape, x, y)
        shown, guessed = fmt_number(measured, 3), fmt_number(predicted, 3)
        marker.set_desc(title=say(f"{label}：实测 {shown} 秒，预测 {guessed} 秒",
                                  f"{label}: measured {shown} s, predicted {guessed} s"))
        groups[source].add(marker)
    return Markup(dwg.tostring()) + _legend(chart_id, sources)


def _legend(chart_id: str, sources: list[str]) -> Markup:
    """The sources, each after its marker, as a list that wraps and reads at the page's size."""
    items = []
    for index, name in enumerate(sources):
        key = svgwrite.Drawing(size=(KEY, KEY), profile="full", debug=False)
        key.viewbox(0, 0, KEY, KEY)
        key.attribs.update({"aria-hidden": "true", "class": "chart-svg chart-key", "focusable": "false"})
        key.add(_marker(key, SHAPES[index % len(SHAPES)], KEY / 2, KEY / 2, styled=True))
        items.append(f"<li>{key.tostring()} {escape(name)}</li>")
    return Markup(f'<ul class="chart-legend" aria-label="{say("图例", "Legend")}">{"".join(items)}</ul>')
