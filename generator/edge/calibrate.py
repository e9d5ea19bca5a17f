"""`python -m generator calibrate`: the cost model against every published run, as text (tables a
reader scans) or JSON (what a script or a pull-request job reads). The numbers are computed in
generator/estimates/calibration.py; this module only formats them."""

from __future__ import annotations

from collections import Counter

from .. import strict_json
from ..estimates.calibration import Calibration, RunError, Summary
from ..estimates.fit import Point, Scan
from ..figure_format import percent


def _summary_json(s: Summary) -> dict[str, object]:
    return {"runs": s.runs, "expressed": s.expressed, "mean_abs_error": s.mean_abs_error, "bias": s.bias}


def _run_json(r: RunError) -> dict[str, object]:
    inferred = None if r.inferred is None else {
        "fields": list(r.inferred.fields), "chosen": list(r.inferred.chosen),
        "accepted": [list(values) for values in r.inferred.accepted]}
    return {"id": r.id, "name": r.name, "source": r.source, "measured_step_s": r.measured_s,
            "predicted_step_s": r.predicted_s, "error": r.error, "fits": r.fits, "why": r.why,
            "assumed": list(r.assumed), "inferred": inferred,
            "kind": None if r.kind is None else r.kind._asdict(), "architecture": r.architecture}


def to_json(cal: Calibration) -> str:
    data = {
        "error": "measured step time ÷ predicted step time − 1",
        "overall": _summary_json(cal.overall),
        "without_inferred": _summary_json(cal.without_inferred),
        "sources": [{"source": s.source, "title": s.title, **_summary_json(s.summary)} for s in cal.sources],
        "kinds": [{**k.kind._asdict(), **_summary_json(k.summary)} for k in cal.kinds],
        "architectures": [{"architecture": a.architecture, **_summary_json(a.summary)} for a in cal.architectures
                          if a.summary.runs],
        "does_not_fit": [r.id for r in cal.runs if r.fits is False],
        "worst": [r.id for r in cal.worst()],
        "runs": [_run_json(r) for r in cal.runs],
    }
    return strict_json.dumps(data, "calibrate's JSON", ensure_ascii=False, indent=2)


def to_text(cal: Calibration, worst: int = 10) -> str:
    o = cal.overall
    lines = [f"cost model against {o.runs} published runs: {o.expressed} expressed, "
             f"mean absolute error {percent(o.mean_abs_error)}, bias {percent(o.bias, signed=True)} "
             "(error = measured ÷ predicted − 1; + means slower than predicted)",
             f"without the runs whose layout the model chose (below): {cal.without_inferred.expressed} expressed, "
             f"mean absolute error {percent(cal.without_inferred.mean_abs_error)}, "
             f"bias {percent(cal.without_inferred.bias, signed=True)}", "",
             f"{'source':40} {'runs':>5} {'expr.':>5} {'MAE':>7} {'bias':>7}"]
    for s in cal.sources:
        lines.append(f"{s.source[:40]:40} {s.summary.runs:5d} {s.summary.expressed:5d} "
                     f"{percent(s.summary.mean_abs_error):>7} {percent(s.summary.bias, signed=True):>7}")
    lines += ["", f"{'block, precision and training':40} {'runs':>5} {'expr.':>5} {'MAE':>7} {'bias':>7}"]
    for k in cal.kinds:
        lines.append(f"{' '.join(k.kind):40} {k.summary.runs:5d} {k.summary.expressed:5d} "
                     f"{percent(k.summary.mean_abs_error):>7} {percent(k.summary.bias, signed=True):>7}")
    lines += ["", f"{'GPU architecture':40} {'runs':>5} {'expr.':>5} {'MAE':>7} {'bias':>7}"]
    for a in cal.architectures:
        if a.summary.runs:
            lines.append(f"{a.architecture[:40]:40} {a.summary.runs:5d} {a.summary.expressed:5d} "
                         f"{percent(a.summary.mean_abs_error):>7} {percent(a.summary.bias, signed=True):>7}")
    lines += ["", f"worst {worst}:", f"  {'run':44} {'measured':>10} {'predicted':>10} {'error':>8}"]
    for r in cal.worst(worst):
        lines.append(f"  {r.id[:44]:44} {r.measured_s or 0.0:9.3f}s {r.predicted_s or 0.0:9.3f}s {percent(r.error, True):>8}")
    inferred = [r for r in cal.runs if r.inferred is not None]
    lines += ["", f"layout choices left unstated by the run, taken as the model's fastest: {len(inferred)}"]
    lines += [f"  {r.id[:44]:44} {percent(r.error, True):>8}  {r.inferred}" for r in inferred]
    unfit = [r.id for r in cal.runs if r.fits is False]
    lines += ["", f"reported as not fitting in memory, though they ran: {len(unfit)}"]
    lines += [f"  {run_id}" for run_id in unfit[:worst]] + ([f"  … and {len(unfit) - worst} more"] if len(unfit) > worst else [])
    reasons = Counter(r.why for r in cal.runs if r.why is not None)
    lines += ["", f"not expressed: {sum(reasons.values())}"]
    lines += [f"  {count:4d}  {why}" for why, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0] or ""))]
    return "\n".join(lines)


def _point_values(scan: Scan, point: Point) -> str:
    return ", ".join(f"{name} {value:g}" for name, value in zip(scan.names, point.values, strict=True))


def scan_text(scan: Scan) -> str:
    """The grid as a table (one row a point, with its overall error and each source's), the best
    point, and each source held out in turn."""
    sources = scan.sources()
    head = "  ".join(f"{name[:24]:>24}" for name in scan.names)
    lines = [f"calibration at {len(scan.points)} points of {' × '.join(scan.names)} "
             "(mean absolute error; error = measured ÷ predicted − 1)", "",
             "sources: " + ", ".join(f"[{i + 1}] {s}" for i, s in enumerate(sources)), "",
             f"{head}  {'MAE':>7} {'bias':>7}  " + " ".join(f"{'[' + str(i + 1) + ']':>7}" for i in range(len(sources)))]
    for point in scan.points:
        overall = point.summary()
        cells = "  ".join(f"{value:24g}" for value in point.values)
        per = " ".join(f"{percent(point.summary(only=s).mean_abs_error):>7}" for s in sources)
        lines.append(f"{cells}  {percent(overall.mean_abs_error):>7} {percent(overall.bias, signed=True):>7}  {per}")
    best = scan.best()
    lines += ["", f"best: {_point_values(scan, best)}: mean absolute error {percent(best.summary().mean_abs_error)} "
                  f"on {best.summary().expressed} runs", "", "each source held out (fitted on the others):"]
    for held in scan.held_out():
        lines.append(f"  {held.source[:40]:40} fitted at {_point_values(scan, held.fitted)}: "
                     f"{percent(held.summary.mean_abs_error)} on its {held.summary.expressed} runs")
    return "\n".join(lines)


def scan_json(scan: Scan) -> str:
    def point(p: Point) -> dict[str, object]:
        return {"values": dict(zip(scan.names, p.values, strict=True)), "overall": _summary_json(p.summary()),
                "sources": {s: _summary_json(p.summary(only=s)) for s in scan.sources()}}
    data = {
        "error": "measured step time ÷ predicted step time − 1",
        "names": list(scan.names),
        "points": [point(p) for p in scan.points],
        "best": point(scan.best()),
        "held_out": [{"source": h.source, "fitted": dict(zip(scan.names, h.fitted.values, strict=True)),
                      **_summary_json(h.summary)} for h in scan.held_out()],
    }
    return strict_json.dumps(data, "calibrate --scan's JSON", ensure_ascii=False, indent=2)
