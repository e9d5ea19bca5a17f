"""The rows of `generator diff` as GitHub-flavoured Markdown (a pull request's job summary) or
JSON. Pure functions of a `Diff`. Labels are Chinese like the site and `recommend`; values keep
the spelling of the spec files (ids, units, `per_direction`, verdicts), which is what a reviewer
compares with the YAML. Everything that comes from the specs or the command line is escaped:
spec text is hostile input, and one `|` or newline would break the table."""

from __future__ import annotations

import json
import math
import re
import unicodedata
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from ..diagnostics import Diagnostic
from ..figure_format import percent
from ..labels import CHANGE_ZH
from .diff import ClaimRow, Diff, FigureRow, Shown, Status, Verdict

MAX_DIAGNOSTICS = 10

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;",
                          **{c: "\\" + c for c in "\\`*_[]|~!#$"}})
# GitHub's Markdown (cmark-gfm) also links bare addresses, which the escapes above leave alone: a
# URL (`http://`, `https://`, `ftp://`, also inside `<...>` or `[x](...)` once those are inert), a
# `www.` host, and an e-mail address (with `mailto:` or `xmpp:` before it, or not).
_SCHEME_OR_WWW = re.compile(r":(?=//)|(?<=www)\.", re.IGNORECASE)
_AT = re.compile("@+")


def md(text: str) -> str:
    """Plain text for one Markdown table cell or list item: no line breaks, no control or
    bidirectional-override characters, nothing that starts a link, an emphasis, a code span,
    HTML or math, and no address GitHub would link by itself (`unlink`)."""
    flat = " ".join("".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace()).split())
    return unlink(flat.translate(_ESCAPES))


def unlink(escaped: str) -> str:
    """Markdown (escaped as `md` does) in which GitHub finds no address to link. A URL's scheme
    and a `www.` host are found in the source text, so a backslash before their `:` or `.` (which
    shows as the plain character) hides them; an e-mail address is found in the text after the
    escapes are read, so the `@` goes into a code span of its own, in which GitHub links nothing,
    not even an @mention. Everything stays visible and copies as the spec wrote it, which an
    invisible joiner inside the address would not (and such characters are what the text rules
    refuse in specs)."""
    return _AT.sub(lambda at: f"`{at.group()}`", _SCHEME_OR_WWW.sub(lambda m: "\\" + m.group(), escaped))


def number(value: Fraction) -> str:
    """Up to eight significant digits, never an exponent: a diff must show small moves."""
    if value.denominator == 1:
        return str(value.numerator)
    with localcontext() as context:
        context.prec = 8
        text = format((Decimal(value.numerator) / Decimal(value.denominator)).normalize(), "f")
    return "0" if text in ("0", "-0") else text


def _with_unit(text: str, unit: str) -> str:
    return text + unit if unit in ("", "%", "x") else f"{text} {unit}"


def _value(shown: Shown | None) -> str:
    if shown is None:
        return "—"
    if shown.in_unit is None:
        return "单位无效"
    text = _with_unit(number(shown.in_unit), shown.unit)
    return f"{text}，{shown.direction}" if shown.direction else text


def _change(row: FigureRow) -> str:
    if row.change != "changed":
        return CHANGE_ZH[row.change]
    if "value" not in row.fields:
        return "数值不变"
    delta, pct, new = row.delta, row.delta_pct, row.new
    if delta is None or new is None:
        return "已改变"
    sign = "+" if delta > 0 else "-"
    text = f"{sign}{number(abs(delta))} 个百分点" if new.unit == "%" else _with_unit(sign + number(abs(delta)), new.unit)
    if pct is not None:
        text += f"（{pct:+.1f}%）" if abs(pct) >= 0.05 else f"（{sign}<0.1%）"
    return text


def _other(row: FigureRow) -> str:
    """What else changed (unit, direction, scope, source); for a new or removed figure, where it
    applies and its source, which a reviewer checks first."""
    if row.old is None or row.new is None:
        shown = row.new or row.old
        assert shown is not None  # a row has at least one side
        return "；".join(f"{name} {value}" for name, value in (("scope", shown.scope), ("source", shown.source)) if value)
    return "；".join(f"{name} {getattr(row.old, name) or '—'} → {getattr(row.new, name) or '—'}"
                    for name in row.fields if name != "value")


def _verdict(verdict: Verdict | None) -> str:
    if verdict is None:
        return "—"
    return verdict.computed or "无法计算"


def _verdict_change(row: ClaimRow) -> str:
    old, new = _verdict(row.old), _verdict(row.new)
    if row.change != "changed":
        return f"{CHANGE_ZH[row.change]}：{new if row.new else old}"
    return f"{old} → {new}" if old != new else f"{new}（不变）"


def _data(verdict: Verdict | None) -> str:
    if verdict is None or verdict.computed is None:
        return "—"
    deviation = verdict.deviation_pct
    suffix = f"（偏差 {deviation:.1f}%）" if deviation is not None and math.isfinite(deviation) else ""
    return verdict.actual + suffix


def _recorded(row: ClaimRow) -> str:
    if row.new is None:
        return "—"
    mismatch = row.new.computed is not None and row.new.computed != row.new.recorded
    return row.new.recorded + ("（与数据不符）" if mismatch else "")


def _figure_table(rows: tuple[FigureRow, ...]) -> list[str]:
    lines = ["| 实体 | 数值 | 类型 | 旧值 | 新值 | 变化 | 其他变化 |", "| --- | --- | --- | --- | --- | --- | --- |"]
    previous = None
    for row in rows:
        entity = "" if row.entity == previous else f"{row.entity}（{row.kind}）"
        previous = row.entity
        cells = [entity, row.figure, "推导" if row.derived else "标称", _value(row.old), _value(row.new),
                 _change(row), _other(row)]
        lines.append("| " + " | ".join(md(cell) for cell in cells) + " |")
    return lines


def _claim_table(rows: tuple[ClaimRow, ...]) -> list[str]:
    lines = ["| 论断 | 结论（按数据） | 旧数据 | 新数据 | 文件中的结论 |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        cells = [row.claim, _verdict_change(row), _data(row.old), _data(row.new), _recorded(row)]
        lines.append("| " + " | ".join(md(cell) for cell in cells) + " |")
    return lines


def _status_lines(name: str, status: Status) -> list[str]:
    if status.ok:
        return []
    if not status.loaded:
        head = f"**{name} 未能载入**（{status.errors} 个错误），无法比较数值。"
    else:
        head = f"**{name} 未通过校验**（{status.errors} 个错误）；下面的比较仍按它的数据计算。"
    if name != "HEAD":
        return [head, ""]
    shown = [f"- {md(d.as_text())}" for d in status.diagnostics[:MAX_DIAGNOSTICS]]
    rest = len(status.diagnostics) - len(shown)
    if rest > 0:
        shown.append(f"- ……另有 {rest} 条，运行 `python -m generator check` 查看全部")
    return [head, "", *shown, ""]


def _summary(diff: Diff) -> str:
    added = sum(1 for row in diff.entities if row.change == "added")
    derived = sum(1 for row in diff.figures if row.derived)
    flipped = sum(1 for row in diff.claims if row.old and row.new and row.old.computed != row.new.computed)
    return (f"实体：新增 {added}，删除 {len(diff.entities) - added}；数值：{len(diff.figures)} 个"
            f"（标称 {len(diff.figures) - derived}，推导 {derived}）；论断：{len(diff.claims)} 条（结论改变 {flipped} 条）。")


def to_markdown(diff: Diff, base_label: str, head_label: str) -> str:
    """A heading, the validation problems of HEAD (the first few), then one table each for
    entities, figures and claims; one line when nothing changed."""
    title = f"### 规格差异：{md(base_label)} → {md(head_label)}"
    if diff.unchanged and diff.head.ok and diff.base.ok:
        return f"{title}：无变化（实体、标称值、推导值与论断结论均未改变）\n"
    lines = [title, "", *_status_lines("BASE", diff.base), *_status_lines("HEAD", diff.head)]
    if diff.unchanged:
        lines.append("实体、标称值、推导值与论断结论均未改变。")
    elif diff.compared:
        lines += [_summary(diff), ""]
        if diff.entities:
            lines += ["#### 实体", "", "| 实体 | 类别 | 变化 |", "| --- | --- | --- |"]
            lines += [f"| {md(r.entity)} | {md(r.kind)} | {CHANGE_ZH[r.change]} |" for r in diff.entities] + [""]
        if diff.figures:
            lines += ["#### 数值（标称值与推导值）", "", *_figure_table(diff.figures), ""]
        if diff.claims:
            lines += ["#### 论断", "", *_claim_table(diff.claims), ""]
        if diff.accuracy is not None:
            lines += ["#### 成本模型在已发表实测上的精度", "", "| | 可表达的运行 | 平均绝对误差 | 平均偏差 |",
                      "| --- | --- | --- | --- |"]
            for label, s in (("BASE", diff.accuracy.old), ("HEAD", diff.accuracy.new)):
                lines.append(f"| {label} | {s.expressed} / {s.runs} | {percent(s.mean_abs_error)} | {percent(s.bias, True)} |")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def to_json(diff: Diff, base_label: str, head_label: str) -> str:
    """The same rows as data; keys are listed in the `diff` command's help."""
    data = {
        "base": _status_data(diff.base, base_label),
        "head": _status_data(diff.head, head_label),
        "compared": diff.compared,
        "changed": None if not diff.compared else not diff.unchanged,
        "entities": [{"entity": r.entity, "kind": r.kind, "change": r.change} for r in diff.entities],
        "figures": [_figure_data(row) for row in diff.figures],
        "claims": [{"claim": r.claim, "change": r.change, "old": _verdict_data(r.old), "new": _verdict_data(r.new)}
                   for r in diff.claims],
        "accuracy": None if diff.accuracy is None else {
            side: {"runs": s.runs, "expressed": s.expressed, "mean_abs_error": s.mean_abs_error, "bias": s.bias}
            for side, s in (("old", diff.accuracy.old), ("new", diff.accuracy.new))},
    }
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def _status_data(status: Status, label: str) -> dict[str, Any]:
    return {"label": label, "loaded": status.loaded, "ok": status.ok, "errors": status.errors,
            "diagnostics": [_diagnostic_data(d) for d in status.diagnostics[:MAX_DIAGNOSTICS]]}


def _diagnostic_data(d: Diagnostic) -> dict[str, Any]:
    return {"path": d.path, "line": d.line, "col": d.col, "rule": d.rule, "severity": d.severity.value,
            "message": d.message}


def _figure_data(row: FigureRow) -> dict[str, Any]:
    delta = row.delta
    return {"entity": row.entity, "kind": row.kind, "figure": row.figure,
            "origin": "derived" if row.derived else "stated", "change": row.change, "fields": list(row.fields),
            "old": _shown_data(row.old), "new": _shown_data(row.new),
            "delta": None if delta is None else float(delta), "delta_pct": row.delta_pct}


def _shown_data(shown: Shown | None) -> dict[str, Any] | None:
    if shown is None:
        return None
    value = shown.in_unit
    return {"value": None if value is None else float(value), "exact": None if value is None else str(value),
            "unit": shown.unit, "dimension": shown.dimension, "direction": shown.direction, "scope": shown.scope,
            "source": shown.source}


def _verdict_data(verdict: Verdict | None) -> dict[str, Any] | None:
    if verdict is None:
        return None
    deviation = verdict.deviation_pct
    return {"verdict": verdict.computed, "recorded": verdict.recorded, "actual": verdict.actual or None,
            "deviation_pct": deviation if deviation is not None and math.isfinite(deviation) else None}
