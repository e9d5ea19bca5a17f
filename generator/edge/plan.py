"""`python -m generator plan`: the planner's answer as JSON or text. The JSON keeps the keys
`recommend` had for its answer (`picks` with `gpu`, `intra_node`, `network` and `topology`, each
`{id, name}` or null, and `estimate`, now at the reader's own GPU count) and adds `options` (the
ranked options, the first the answer), `excluded` (`{id, why}`, with the rule's `source` and
`ruling` where a market excluded it) and `fewest_gpus` (when nothing fits). Formatting only: the
planner (generator/planner/) decides."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from ..knowledge import KnowledgeBase
from ..labels import BOTTLENECK_ZH, RECOMPUTE_ZH
from ..planner.plan import Excluded, Option, Plan, energy_kwh, gpu_hours, time_to_train_s
from ..render.escape import json_terminal, terminal
from ..selection.advice import point_data
from ..selection.leafcheck import Point

TOPOLOGY = "rail-optimized-fat-tree"
"""The topology the model prices a multi-node cluster on: rail-aligned NICs on a non-blocking fabric."""


def _ref(kb: KnowledgeBase, entity_id: str | None) -> dict[str, str] | None:
    if entity_id is None:
        return None
    entity = kb.get(entity_id)
    return {"id": entity_id, "name": entity.label if entity is not None else entity_id}


def picks(kb: KnowledgeBase, option: Option | None) -> dict[str, Any] | None:
    if option is None:
        return None
    c = option.candidate
    return {"gpu": _ref(kb, c.gpu), "node": _ref(kb, c.node), "intra_node": _ref(kb, option.resolved.ids.get("scale_up")),
            "network": _ref(kb, c.network),
            "topology": _ref(kb, TOPOLOGY if c.network is not None and kb.get(TOPOLOGY) is not None else None)}


def option_data(kb: KnowledgeBase, option: Option, tokens: float | None, rank: int | None) -> dict[str, Any]:
    c, e, lay = option.candidate, option.estimate, option.layout
    m = e.memory
    data: dict[str, Any] = {
        "rank": rank, "id": c.id, "family": c.family, **(picks(kb, option) or {}),
        "equivalent_networks": [_ref(kb, n) for n in c.equivalent_networks],
        "market_status": None if option.standing is None else option.standing.status,
        "gpus": option.gpus, "fits": m.fits,
        "memory_per_gpu_gb": {"model_states_gb": (m.weights_bytes + m.gradients_bytes + m.optimizer_bytes) / 1e9,
                              "activations_gb": m.activations_bytes / 1e9, "total_gb": m.total_bytes / 1e9,
                              "usable_gb": m.usable_bytes / 1e9},
        "step_time_s": e.step.step_s, "tokens_per_s": e.step.tokens_per_s, "comm_share": e.step.comm_share,
        "bottleneck": e.bottleneck,
        "layout": {"tp": lay.tensor_parallel, "pp": lay.pipeline_parallel, "zero": lay.zero_stage,
                   "recompute": lay.recompute, "sequence_parallel": lay.sequence_parallel,
                   "micro_batch": lay.micro_batch_size, "global_batch": lay.global_batch_size,
                   "seq": lay.sequence_length},
        "networks_tried": [{"network": n, "step_time_s": s} for n, s in option.networks_tried],
        "time_to_train_s": None, "gpu_hours": None, "energy_kwh": None,
    }
    if tokens is not None:
        data.update(time_to_train_s=time_to_train_s(option, tokens), gpu_hours=gpu_hours(option, tokens),
                    energy_kwh=energy_kwh(option, tokens))
    return data


def estimate_data(option: Option | None, workload_id: str | None) -> dict[str, Any] | None:
    """The `estimate` command's JSON for an option, at the reader's count: the object `recommend`
    gives for a checked point (selection/advice.py `point_data`), the same keys."""
    if option is None:
        return None
    r = option.resolved
    point = Point(workload_id or "", r.workload.name, option.gpus, r.cluster.node.gpus_per_node, option.layout,
                  option.estimate, "" if option.fits else "no layout fits in memory", r)
    data = point_data(point)
    data["workload"] = workload_id
    return data


def excluded_data(e: Excluded) -> dict[str, Any]:
    return {"id": e.id, "why": e.why, "status": e.status, "ruling": e.ruling, "source": e.source}


def range_data(ladder: list[Plan]) -> list[dict[str, Any]] | None:
    """One row per count a range was planned at: its answer and how fast it trains per GPU."""
    if not ladder:
        return None
    rows = []
    for p in ladder:
        best = p.options[0] if p.options else None
        rows.append({"gpus": p.request.gpus, "best": None if best is None else best.candidate.id,
                     "step_time_s": None if best is None else best.estimate.step.step_s,
                     "tokens_per_s": None if best is None else best.estimate.step.tokens_per_s,
                     "tokens_per_s_per_gpu": None if best is None else best.estimate.step.tokens_per_s / best.gpus})
    return rows


def as_data(kb: KnowledgeBase, found: Plan, as_of: dt.date, accuracy: dict[str, object],
            ladder: list[Plan] | None = None) -> dict[str, Any]:
    req = found.request
    best = found.options[0] if found.options else None
    shown = best or found.closest
    workload_id = None if shown is None else shown.resolved.ids.get("workload")
    return {
        "as_of": as_of.isoformat(),
        "market": {"id": req.market, "name": found.market_name},
        "request": {"workload": workload_id, "workload_name": None if shown is None else shown.resolved.workload.name,
                    "parameters": None if shown is None else shown.resolved.workload.parameter_count,
                    "workload_note": found.workload_note or None, "gpus": req.gpus, "goal": req.goal,
                    "tokens": req.tokens, "licensed": req.licensed},
        "picks": picks(kb, best),
        "estimate": estimate_data(shown, workload_id),
        "options": [option_data(kb, o, req.tokens, i + 1) for i, o in enumerate(found.options)],
        "excluded": [excluded_data(e) for e in found.excluded],
        "fewest_gpus": None if found.fewest is None else {
            "gpus": found.fewest[0], "option": option_data(kb, found.fewest[1], req.tokens, None)},
        "range": range_data(ladder or []),
        "accuracy": accuracy,
    }


def to_json(kb: KnowledgeBase, found: Plan, as_of: dt.date, accuracy: dict[str, object],
            ladder: list[Plan] | None = None) -> str:
    return json_terminal(json.dumps(as_data(kb, found, as_of, accuracy, ladder), ensure_ascii=False, indent=2))


def _days(seconds: float) -> str:
    days = seconds / 86400
    return f"{days:,.0f} 天" if days >= 10 else f"{days:.1f} 天" if days >= 1 else f"{seconds / 3600:.1f} 小时"


def _option_lines(kb: KnowledgeBase, o: dict[str, Any]) -> list[str]:
    where = o["node"]["name"] if o["node"] else f"{o['gpus']} × {o['gpu']['name']}"
    net = f"，网络 {o['network']['name']}" if o["network"] else "，单台，无需节点间网络"
    if o["equivalent_networks"]:
        net += f"（与 {'、'.join(n['name'] for n in o['equivalent_networks'])} 等价）"
    lay = o["layout"]
    mem = o["memory_per_gpu_gb"]
    lines = [f"{where}{net}",
             f"    布局：张量并行 {lay['tp']}，流水线并行 {lay['pp']}，ZeRO-{lay['zero']}，{RECOMPUTE_ZH[lay['recompute']]}，"
             f"全局批 {lay['global_batch']} × {lay['seq']} token",
             f"    显存：每卡 {mem['total_gb']:.1f} GB / 可用 {mem['usable_gb']:.1f} GB；"
             f"每步 {o['step_time_s']:.3g} s，{o['tokens_per_s']:.4g} token/s，通信占比 {o['comm_share']:.1%}，"
             f"瓶颈：{BOTTLENECK_ZH.get(o['bottleneck'], o['bottleneck'])}"]
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
    req = data["request"]
    goal = {"pretrain": "预训练", "finetune": "全参数微调", "lora": "LoRA 微调"}[req["goal"]]
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
    lines.append(f"模型的精度：{accuracy['statement']}")
    return terminal("\n".join(lines))

