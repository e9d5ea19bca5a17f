"""`python -m generator plan`: the planner's answer as JSON (generator/planner/report.py builds
the object) or as text. Formatting only: the planner (generator/planner/) decides."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .. import strict_json
from ..knowledge import KnowledgeBase
from ..labels import BOTTLENECK_ZH, GOAL_ZH, RECOMPUTE_ZH
from ..planner.plan import Plan
from ..planner.report import as_data


def to_json(kb: KnowledgeBase, found: Plan, as_of: dt.date, accuracy: dict[str, object],
            ladder: list[Plan] | None = None) -> str:
    return strict_json.dumps(as_data(kb, found, as_of, accuracy, ladder), "plan's JSON", ensure_ascii=False, indent=2)


def _days(seconds: float) -> str:
    days = seconds / 86400
    return f"{days:,.0f} 天" if days >= 10 else f"{days:.1f} 天" if days >= 1 else f"{seconds / 3600:.1f} 小时"


def _recompute(lay: dict[str, Any]) -> str:
    layers = lay["recompute_layers"]
    return f"每块重计算 {layers} 层" if layers else RECOMPUTE_ZH[lay["recompute"]]


def _option_lines(kb: KnowledgeBase, o: dict[str, Any]) -> list[str]:
    where = o["node"]["name"] if o["node"] else f"{o['gpus']} × {o['gpu']['name']}"
    net = f"，网络 {o['network']['name']}" if o["network"] else "，单台，无需节点间网络"
    if o["equivalent_networks"]:
        net += f"（与 {'、'.join(n['name'] for n in o['equivalent_networks'])} 等价）"
    lay = o["layout"]
    mem = o["memory_per_gpu_gb"]
    lines = [f"{where}{net}",
             f"    布局：张量并行 {lay['tp']}，流水线并行 {lay['pp']}，"
             + (f"专家并行 {lay['ep']}，" if lay["ep"] > 1 else "")
             + (f"专家张量并行 {lay['etp']}，" if lay["etp"] > 1 else "") + f"ZeRO-{lay['zero']}，{_recompute(lay)}，"
             f"全局批 {lay['global_batch']} × {lay['seq']} token",
             f"    显存：每卡 {mem['total_gb']:.1f} GB / 可用 {mem['usable_gb']:.1f} GB；"
             f"每步 {o['step_time_s']:.3g} s，{o['tokens_per_s']:.4g} token/s，通信占比 {o['comm_share']:.1%}，"
             + (f"其中专家全互联 {o['all_to_all_share']:.1%}，" if o["all_to_all_share"] is not None else "")
             + f"瓶颈：{BOTTLENECK_ZH.get(o['bottleneck'], o['bottleneck'])}"]
    if o["time_to_train_s"] is not None:
        energy = "" if o["energy_kwh"] is None else f"，GPU 耗电约 {o['energy_kwh']:,.0f} kWh（只计板卡功耗）"
        lines.append(f"    训练时间 {_days(o['time_to_train_s'])}，{o['gpu_hours']:,.0f} GPU 小时{energy}")
    if len(o["networks_tried"]) > 1:
        tried = "，".join(f"{t['network']} {t['step_time_s']:.3g} s" for t in o["networks_tried"])
        lines.append(f"    试过的网络（每步）：{tried}；取慢 5% 以内最便宜的一种")
    return lines


def to_text(kb: KnowledgeBase, found: Plan, as_of: dt.date, accuracy: dict[str, object],
            ladder: list[Plan] | None = None) -> str:
    data = as_data(kb, found, as_of, accuracy, ladder)
    strict_json.require_finite(data, "plan's answer")  # the figures the JSON would refuse, refused here too
    req = data["request"]
    goal = GOAL_ZH[req["goal"]]
    lines = [f"{req['workload_name'] or '（无可估算的模型）'}，{req['gpus']} 块 GPU，{goal}，市场：{data['market']['name']}"
             f"（截至 {data['as_of']}）"]
    if req["workload_note"]:
        lines.append(f"模型：{req['workload_note']}")
    if data["range"]:
        lines.append("各个 GPU 数下的最佳选择（答案取每个 token 花的 GPU 小时最少的一档）：")
        lines += [f"  {row['gpus']} 块：" + (f"{row['best']}，每步 {row['step_time_s']:.3g} s，"
                                           f"每 GPU {row['tokens_per_s_per_gpu']:.4g} token/s" if row["best"] else "放不下")
                  for row in data["range"]]
    if data["options"]:
        best = data["options"][0]
        lines.append("推荐：")
        lines += ["  " + line for line in _option_lines(kb, best)]
        if len(data["options"]) > 1:
            lines.append("其他 GPU 系列里最好的（按每步时间排序）：")
            for o in data["options"][1:]:
                lines += [f"  {o['rank']}. " + _option_lines(kb, o)[0],
                          f"     每步 {o['step_time_s']:.3g} s，比推荐慢 "
                          f"{(o['step_time_s'] / best['step_time_s'] - 1):.0%}，通信占比 {o['comm_share']:.1%}"]
    else:
        lines.append(f"在这个市场里能买到的配置，{req['gpus']} 块 GPU 都放不下这个模型。")
        if data["estimate"] is not None:
            est = data["estimate"]
            mem = est["memory_per_gpu_gb"]
            lines.append(f"  最接近的是 {est['inputs']['ids'].get('node') or est['inputs']['ids']['gpu']}：每卡需要 "
                         f"{mem['total_gb']:.1f} GB，只有 {mem['usable_gb']:.1f} GB 可用")
        if data["fewest_gpus"] is not None:
            f = data["fewest_gpus"]
            lines.append(f"  至少要 {f['gpus']} 块 GPU 才放得下：")
            lines += ["    " + line for line in _option_lines(kb, f["option"])]
    by_rule: dict[tuple[str, str], list[str]] = {}
    for e in found.excluded:
        if e.status is not None:
            by_rule.setdefault((e.why_zh.split("：", 1)[-1], e.source or ""), []).append(e.id)
    if by_rule:
        lines.append("这个市场里买不到或需要许可的（依据见站点的“各市场能买到什么”页）：")
        lines += [f"  - {rule}（{source}）：{'、'.join(ids)}" for (rule, source), ids in by_rule.items()]
    others = [e for e in found.excluded if e.status is None]
    if others:
        lines.append("其余未入选的：")
        lines += [f"  - {e.id}：{e.why_zh}" for e in others]
    shown = data["accuracy"]
    kind, on = shown.get("kind"), shown.get("architecture")
    lines.append(f"模型的精度：{shown['statement']}" + (kind["statement"] if isinstance(kind, dict) else "")
                 + (on["statement"] if isinstance(on, dict) else ""))
    return "\n".join(lines)

