"""The Chinese labels of the closed vocabularies the site, the CLI and the diff show: one table
per vocabulary, keyed by the value as the specs and the model spell it. Kept in one place so
that a value is named the same everywhere; tests/test_labels.py holds every table to the
values its vocabulary (a `Literal` of the typed model or of the cost model) allows.

The lowest layer: plain data, importing nothing of the generator. (The open vocabularies,
vendors, architectures, form factors, link and network families and precisions, are data in
specs/ with their own labels.)
"""

from __future__ import annotations

# model.common.Direction: what a bandwidth counts.
DIRECTION_ZH = {"per_direction": "单向", "bidirectional": "双向合计", "aggregate": "总带宽"}
# model.entities.SourceKind: what kind of document a source is.
SOURCE_KIND_ZH = {"datasheet": "数据手册", "standard": "标准", "documentation": "文档", "paper": "论文",
           "press": "新闻稿与公告", "patch": "代码补丁", "measurement": "实测", "article": "文章", "estimate": "估算",
           "regulation": "法规"}
# model.entities.PublisherRole: who published it.
PUBLISHER_ROLE_ZH = {"vendor": "厂商", "standards_body": "标准组织", "project": "开源项目", "academic": "学术机构",
           "press": "媒体", "third_party": "第三方", "author": "文章作者",
           "regulator": "监管机构"}
# diagnostics.Family: the rule families, in the rules page's order.
FAMILY_ZH = {"yaml": "YAML 语法与安全", "schema": "结构", "refs": "引用", "units": "单位", "arithmetic": "算术",
             "claims": "论断", "tables": "表格与分档", "tree": "选型决策树",
             "model": "成本模型", "sources": "来源"}
# diagnostics.Severity.
DIAGNOSTIC_SEVERITY_ZH = {"error": "错误", "warning": "警告"}
# model.KINDS: the spec folders.
SPEC_KIND_ZH = {"sources": "来源", "vendors": "词表：厂商", "architectures": "词表：架构", "form-factors": "词表：形态",
                "scale-up-families": "词表：scale-up 链路", "network-families": "词表：网络类型",
                "precisions": "词表：数值精度", "nics": "网卡", "nodes": "参考服务器与机柜",
                "gpus": "GPU", "interconnects": "机内互连", "networks": "节点间网络",
                "layers": "通信层次", "topologies": "网络拓扑", "tiers": "分档表", "recommendations": "选型推荐",
                "cases": "案例（扩展性与实战）", "pitfalls": "避坑条目", "claims": "文章论断", "selection": "选型决策树",
                "workloads": "训练负载（模型形状）", "assumptions": "成本模型假设",
                "runs": "实测训练记录", "markets": "市场与可购性"}
# model.entities.Pitfall.severity (the admonition kinds).
PITFALL_SEVERITY_ZH = {"danger": "严重", "warning": "警告", "tip": "提示", "info": "说明"}
# model.entities.TierTable.subject: what a tier table picks.
TIER_SUBJECT_ZH = {"network": "节点间网络", "topology": "拓扑", "intra_node": "机内互连"}
# model.entities.Recommendation.layer.
LAYER_ZH = {"gpu": "GPU", "intra_node": "机内互连", "network": "节点间网络", "topology": "拓扑", "rdma": "RDMA"}
# model.entities.Recommendation.model.
MODEL_SIZE_ZH = {"small": "小模型", "medium": "中等模型", "large": "大模型"}
# model.entities.NetworkFamily.rdma.
RDMA_ZH = {"native": "原生", "rocev2": "RoCEv2", "none": "无（TCP/IP）"}
# the role of a node's NICs (model.entities).
NIC_ROLE_ZH = {"scale_out": "计算网络", "storage": "存储网络", "management": "管理网络"}
# model.entities.ComputeNode.kind.
NODE_KIND_ZH = {"server": "服务器", "rack": "机柜"}
# model.entities.Verdict: a claim's verdict.
VERDICT_ZH = {"confirmed": "属实", "approximate": "近似", "corrected": "已更正", "unsupported": "无法核实"}
# model.entities.Basis: what a verdict was checked against.
BASIS_ZH = {"independent": "对照独立数据", "self_consistent": "仅与原文自洽", "unverifiable": "无从核对"}
# provenance.Footing: what a figure rests on.
FOOTING_ZH: dict[str, str] = {
    "read_primary": "出自已读到原文的一手来源（厂商文档、数据手册、标准、论文、官方公告）",
    "read_secondary": "出自已读到、但不是一手资料的来源（如内核补丁）",
    "copy": "只在第三方副本（镜像、转载、引文）中读到",
    "unread": "来源原文未能打开，按出版方目录引用，待人工复核",
    "article": "只有来源文章的说法（作者自测、未公开数据）",
    "estimate": "估算或实测值",
}
# model.runs.Metric: what a measured training run's figure is.
METRIC_ZH = {"step_time_s": "每步秒数", "tokens_per_s": "token/s（整个任务）", "tokens_per_s_per_gpu": "token/s（每 GPU）",
             "gpu_hours_per_trillion_tokens": "每万亿 token 的 GPU 小时",
             "tflops_per_gpu": "TFLOP/s（每 GPU）", "pflops_total": "PFLOP/s（整个任务）", "mfu_pct": "MFU %",
             "hfu_pct": "HFU %", "peak_memory_gib": "峰值显存 GiB（每 GPU）"}
# model.runs.PipelineSchedule: the pipeline schedule a run names.
SCHEDULE_ZH = {"1f1b": "1F1B 调度", "interleaved": "交错 1F1B 调度", "dualpipe": "DualPipe 调度",
               "zero-bubble": "零气泡调度"}
# model.runs.ExpertRouting: how a mixture-of-experts run routed its tokens.
ROUTING_ZH = {"balanced": "强制均衡路由", "learned": "按学习到的路由"}
# model.runs.Convention: how a FLOP figure counts a step's FLOPs.
CONVENTION_ZH = {"narayanan_eq3": "Narayanan 式 3（含重计算）", "korthikanti_eq7_model": "Korthikanti 式 7（模型 FLOPs）",
                 "korthikanti_eq8_hardware": "Korthikanti 式 8（硬件 FLOPs）",
                 "per_token_6n_attention": "每 token 6N + 12lhs（模型 FLOPs）",
                 "per_token_8n_attention": "每 token 8N + 16lhs（含重计算）", "unstated": "口径未说明"}
# costmodel.step.Bottleneck.
BOTTLENECK_ZH = {"memory": "显存", "compute": "计算", "intra_node": "机内互连", "network": "节点间网络"}
# planner.plan.Goal: what the reader trains.
GOAL_ZH = {"pretrain": "预训练", "finetune": "全参数微调", "lora": "LoRA 微调"}
# selection.advice.parallelism: the kinds of parallelism an answer's layout uses.
PARALLELISM_ZH = {"data": "数据并行", "tensor": "张量并行", "pipeline": "流水线并行"}
# costmodel.inputs.Recompute.
RECOMPUTE_ZH = {"none": "不重计算", "selective": "选择性重计算", "full": "完全重计算"}
# planner.report.picks: the fields of an answer.
PICK_ZH = {"gpu": "GPU", "node": "整机", "intra_node": "机内互连", "network": "节点间网络", "topology": "拓扑"}
# estimates.calibration.Block: what kind of transformer block a published run trains.
BLOCK_ZH = {"dense": "稠密模型", "moe": "混合专家（MoE）"}
# edge.diff: how a row of `generator diff` changed.
CHANGE_ZH = {"added": "新增", "removed": "删除", "changed": "修改"}
# model.markets.Status: where a part stands in a market.
MARKET_STATUS_ZH = {"available": "可以购买", "licence-required": "需出口许可", "barred": "买不到",
                    "end-of-life": "已停售"}
