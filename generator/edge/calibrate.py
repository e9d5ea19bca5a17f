"""`python -m generator calibrate`: the cost model against every published run, as text (tables a
reader scans) or JSON (what a script or a pull-request job reads). The numbers are computed in
generator/estimates/calibration.py; this module only formats them."""

from __future__ import annotations

import json
from collections import Counter

from ..estimates.calibration import Calibration, RunError, Summary


def _pct(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.1%}" if signed else f"{value:.1%}"


def _summary_json(s: Summary) -> dict[str, object]:
    return {"runs": s.runs, "expressed": s.expressed, "mean_abs_error": s.mean_abs_error, "bias": s.bias}


def _run_json(r: RunError) -> dict[str, object]:
    return {"id": r.id, "name": r.name, "source": r.source, "measured_step_s": r.measured_s,
            "predicted_step_s": r.predicted_s, "error": r.error, "fits": r.fits, "why": r.why,
            "assumed": list(r.assumed)}


def to_json(cal: Calibration) -> str:
    data = {
        "error": "measured step time ÷ predicted step time − 1",
        "overall": _summary_json(cal.overall),
        "sources": [{"source": s.source, "title": s.title, **_summary_json(s.summary)} for s in cal.sources],
        "does_not_fit": [r.id for r in cal.runs if r.fits is False],
        "worst": [r.id for r in cal.worst()],
        "runs": [_run_json(r) for r in cal.runs],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


def to_text(cal: Calibration, worst: int = 10) -> str:
    o = cal.overall
    lines = [f"cost model against {o.runs} published runs: {o.expressed} expressed, "
             f"mean absolute error {_pct(o.mean_abs_error)}, bias {_pct(o.bias, signed=True)} "
             "(error = measured ÷ predicted − 1; + means slower than predicted)", "",
             f"{'source':40} {'runs':>5} {'expr.':>5} {'MAE':>7} {'bias':>7}"]
    for s in cal.sources:
        lines.append(f"{s.source[:40]:40} {s.summary.runs:5d} {s.summary.expressed:5d} "
                     f"{_pct(s.summary.mean_abs_error):>7} {_pct(s.summary.bias, signed=True):>7}")
    lines += ["", f"worst {worst}:", f"  {'run':44} {'measured':>10} {'predicted':>10} {'error':>8}"]
    for r in cal.worst(worst):
        lines.append(f"  {r.id[:44]:44} {r.measured_s or 0.0:9.3f}s {r.predicted_s or 0.0:9.3f}s {_pct(r.error, True):>8}")
    unfit = [r.id for r in cal.runs if r.fits is False]
    lines += ["", f"reported as not fitting in memory, though they ran: {len(unfit)}"]
    lines += [f"  {run_id}" for run_id in unfit[:worst]] + ([f"  … and {len(unfit) - worst} more"] if len(unfit) > worst else [])
    reasons = Counter(r.why for r in cal.runs if r.why is not None)
    lines += ["", f"not expressed: {sum(reasons.values())}"]
    lines += [f"  {count:4d}  {why}" for why, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0] or ""))]
    return "\n".join(lines)
