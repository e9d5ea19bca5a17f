"""The labels of the closed vocabularies the site, the CLI and the diff show, in both of the
site's languages: one `Bilingual` table per vocabulary, keyed by the value as the specs and the
model spell it, read in the language being written (generator.language). Kept in one place so
that a value is named the same everywhere; tests/test_labels.py holds every table, in each
language, to the values its vocabulary (a `Literal` of the typed model or of the cost model)
allows.

Plain data: imports nothing of the generator but generator.language, the lowest layer. (The open
vocabularies, vendors, architectures, form factors, link and network families and precisions,
are data in specs/ with their own labels.)
"""

from __future__ import annotations

from .language import Bilingual

# model.common.Direction: what a bandwidth counts.
DIRECTION = Bilingual(
    zh={"per_direction": "单向", "bidirectional": "双向合计", "aggregate": "总带宽"},
    en={"per_direction": "per direction", "bidirectional": "bidirectional total", "aggregate": "aggregate"})
# model.entities.SourceKind: what kind of document a source is.
SOURCE_KIND = Bilingual(
    zh={"datasheet": "数据手册", "standard": "标准", "documentation": "文档", "paper": "论文",
        "press": "新闻稿与公告", "patch": "代码补丁", "measurement": "实测", "article": "文章", "estimate": "估算",
        "regulation": "法规"},
    en={"datasheet": "datasheet", "standard": "standard", "documentation": "documentation", "paper": "paper",
        "press": "press release or announcement", "patch": "code patch", "measurement": "measurement",
        "article": "article", "estimate": "estimate", "regulation": "regulation"})
# model.entities.PublisherRole: who published it.
PUBLISHER_ROLE = Bilingual(
    zh={"vendor": "厂商", "standards_body": "标准组织", "project": "开源项目", "academic": "学术机构",
        "press": "媒体", "third_party": "第三方", "author": "文章作者", "regulator": "监管机构"},
    en={"vendor": "vendor", "standards_body": "standards body", "project": "open-source project",
        "academic": "academic institution", "press": "press", "third_party": "third party",
        "author": "article author", "regulator": "regulator"})
# diagnostics.Family: the rule families, in the rules page's order.
FAMILY = Bilingual(
    zh={"yaml": "YAML 语法与安全", "schema": "结构", "refs": "引用", "units": "单位", "arithmetic": "算术",
        "claims": "论断", "tables": "表格与分档", "tree": "选型决策树", "model": "成本模型", "sources": "来源"},
    en={"yaml": "YAML syntax and safety", "schema": "Structure", "refs": "References", "units": "Units",
        "arithmetic": "Arithmetic", "claims": "Claims", "tables": "Tables and tiers", "tree": "Selection tree",
        "model": "Cost model", "sources": "Sources"})
# diagnostics.Severity.
DIAGNOSTIC_SEVERITY = Bilingual(zh={"error": "错误", "warning": "警告"}, en={"error": "error", "warning": "warning"})
# model.KINDS: the spec folders.
SPEC_KIND = Bilingual(
    zh={"sources": "来源", "vendors": "词表：厂商", "architectures": "词表：架构", "form-factors": "词表：形态",
        "scale-up-families": "词表：scale-up 链路", "network-families": "词表：网络类型",
        "precisions": "词表：数值精度", "nics": "网卡", "nodes": "参考服务器与机柜",
        "gpus": "GPU", "interconnects": "机内互连", "networks": "节点间网络",
        "layers": "通信层次", "topologies": "网络拓扑", "tiers": "分档表", "recommendations": "选型推荐",
        "cases": "案例（扩展性与实战）", "pitfalls": "避坑条目", "claims": "文章论断", "selection": "选型决策树",
        "workloads": "训练负载（模型形状）", "assumptions": "成本模型假设",
        "runs": "实测训练记录", "markets": "市场与可购性"},
    en={"sources": "Sources", "vendors": "Vocabulary: vendors", "architectures": "Vocabulary: architectures",
        "form-factors": "Vocabulary: form factors", "scale-up-families": "Vocabulary: scale-up links",
        "network-families": "Vocabulary: network types", "precisions": "Vocabulary: numeric precisions",
        "nics": "NICs", "nodes": "Reference servers and racks", "gpus": "GPUs",
        "interconnects": "Intra-node interconnects", "networks": "Inter-node networks",
        "layers": "Communication layers", "topologies": "Network topologies", "tiers": "Tier tables",
        "recommendations": "Recommendations", "cases": "Cases (scaling studies and field reports)",
        "pitfalls": "Pitfalls", "claims": "Article claims", "selection": "Selection tree",
        "workloads": "Training workloads (model shapes)", "assumptions": "Cost model assumptions",
        "runs": "Measured training runs", "markets": "Markets and availability"})
# model.entities.Pitfall.severity (the admonition kinds).
PITFALL_SEVERITY = Bilingual(zh={"danger": "严重", "warning": "警告", "tip": "提示", "info": "说明"},
                             en={"danger": "Serious", "warning": "Warning", "tip": "Tip", "info": "Note"})
# model.entities.TierTable.subject: what a tier table picks.
TIER_SUBJECT = Bilingual(zh={"network": "节点间网络", "topology": "拓扑", "intra_node": "机内互连"},
                         en={"network": "inter-node network", "topology": "topology",
                             "intra_node": "intra-node interconnect"})
# model.entities.Recommendation.layer.
LAYER = Bilingual(
    zh={"gpu": "GPU", "intra_node": "机内互连", "network": "节点间网络", "topology": "拓扑", "rdma": "RDMA"},
    en={"gpu": "GPU", "intra_node": "intra-node interconnect", "network": "inter-node network",
        "topology": "topology", "rdma": "RDMA"})
# model.entities.Recommendation.model.
MODEL_SIZE = Bilingual(zh={"small": "小模型", "medium": "中等模型", "large": "大模型"},
                       en={"small": "small models", "medium": "medium models", "large": "large models"})
# model.entities.NetworkFamily.rdma.
RDMA = Bilingual(zh={"native": "原生", "rocev2": "RoCEv2", "none": "无（TCP/IP）"},
                 en={"native": "native", "rocev2": "RoCEv2", "none": "none (TCP/IP)"})
# the role of a node's NICs (model.entities).
NIC_ROLE = Bilingual(zh={"scale_out": "计算网络", "storage": "存储网络", "management": "管理网络"},
                     en={"scale_out": "compute network", "storage": "storage network",
                         "management": "management network"})
# model.entities.ComputeNode.kind.
NODE_KIND = Bilingual(zh={"server": "服务器", "rack": "机柜"}, en={"server": "server", "rack": "rack"})
# model.entities.Verdict: a claim's verdict.
VERDICT = Bilingual(zh={"confirmed": "属实", "approximate": "近似", "corrected": "已更正", "unsupported": "无法核实"},
                    en={"confirmed": "confirmed", "approximate": "approximate", "corrected": "corrected",
                        "unsupported": "unverifiable"})
# model.entities.Basis: what a verdict was checked against.
BASIS = Bilingual(zh={"independent": "对照独立数据", "self_consistent": "仅与原文自洽", "unverifiable": "无从核对"},
                  en={"independent": "checked against independent data",
                      "self_consistent": "consistent with the article only", "unverifiable": "nothing to check against"})
# provenance.Footing: what a figure rests on.
FOOTING = Bilingual(
    zh={"read_primary": "出自已读到原文的一手来源（厂商文档、数据手册、标准、论文、官方公告）",
        "read_secondary": "出自已读到、但不是一手资料的来源（如内核补丁）",
        "copy": "只在第三方副本（镜像、转载、引文）中读到",
        "unread": "来源原文未能打开，按出版方目录引用，待人工复核",
        "article": "只有来源文章的说法（作者自测、未公开数据）",
        "estimate": "估算或实测值"},
    en={"read_primary": "from primary sources read in the original (vendor documentation, datasheets, standards, "
                        "papers, official announcements)",
        "read_secondary": "from sources that were read but are not primary (such as kernel patches)",
        "copy": "read only in a third-party copy (a mirror, reprint or citation)",
        "unread": "from sources whose original could not be opened, cited from the publisher's catalogue and "
                  "awaiting review by hand",
        "article": "resting only on a source article's word (the author's own measurements, unpublished data)",
        "estimate": "estimates or measured values"})
# model.runs.Metric: what a measured training run's figure is.
METRIC = Bilingual(
    zh={"step_time_s": "每步秒数", "tokens_per_s": "token/s（整个任务）", "tokens_per_s_per_gpu": "token/s（每 GPU）",
        "gpu_hours_per_trillion_tokens": "每万亿 token 的 GPU 小时",
        "tflops_per_gpu": "TFLOP/s（每 GPU）", "pflops_total": "PFLOP/s（整个任务）", "mfu_pct": "MFU %",
        "hfu_pct": "HFU %", "peak_memory_gib": "峰值显存 GiB（每 GPU）"},
    en={"step_time_s": "Seconds per step", "tokens_per_s": "tokens/s (whole job)",
        "tokens_per_s_per_gpu": "tokens/s (per GPU)", "gpu_hours_per_trillion_tokens": "GPU hours per trillion tokens",
        "tflops_per_gpu": "TFLOP/s (per GPU)", "pflops_total": "PFLOP/s (whole job)", "mfu_pct": "MFU %",
        "hfu_pct": "HFU %", "peak_memory_gib": "Peak memory GiB (per GPU)"})
# model.runs.PipelineSchedule: the pipeline schedule a run names.
SCHEDULE = Bilingual(
    zh={"1f1b": "1F1B 调度", "interleaved": "交错 1F1B 调度", "dualpipe": "DualPipe 调度", "zero-bubble": "零气泡调度"},
    en={"1f1b": "1F1B schedule", "interleaved": "interleaved 1F1B schedule", "dualpipe": "DualPipe schedule",
        "zero-bubble": "zero-bubble schedule"})
# model.runs.ExpertRouting: how a mixture-of-experts run routed its tokens.
ROUTING = Bilingual(zh={"balanced": "强制均衡路由", "capacity": "按容量截断并补齐（容量因子 1）", "learned": "按学习到的路由"},
                    en={"balanced": "forced balanced routing", "capacity": "cut and padded to capacity (factor 1)",
                        "learned": "learned routing"})
# model.runs.Convention: how a FLOP figure counts a step's FLOPs.
CONVENTION = Bilingual(
    zh={"narayanan_eq3": "Narayanan 式 3（含重计算）", "korthikanti_eq7_model": "Korthikanti 式 7（模型 FLOPs）",
        "korthikanti_eq8_hardware": "Korthikanti 式 8（硬件 FLOPs）",
        "per_token_6n_attention": "每 token 6N + 12lhs（模型 FLOPs）",
        "per_token_8n_attention": "每 token 8N + 16lhs（含重计算）", "unstated": "口径未说明"},
    en={"narayanan_eq3": "Narayanan eq. 3 (with recomputation)",
        "korthikanti_eq7_model": "Korthikanti eq. 7 (model FLOPs)",
        "korthikanti_eq8_hardware": "Korthikanti eq. 8 (hardware FLOPs)",
        "per_token_6n_attention": "6N + 12lhs per token (model FLOPs)",
        "per_token_8n_attention": "8N + 16lhs per token (with recomputation)", "unstated": "convention not stated"})
# costmodel.step.Bottleneck.
BOTTLENECK = Bilingual(zh={"memory": "显存", "compute": "计算", "intra_node": "机内互连", "network": "节点间网络"},
                       en={"memory": "memory", "compute": "compute", "intra_node": "intra-node interconnect",
                           "network": "inter-node network"})
# planner.plan.Goal: what the reader trains.
GOAL = Bilingual(zh={"pretrain": "预训练", "finetune": "全参数微调", "lora": "LoRA 微调"},
                 en={"pretrain": "pretraining", "finetune": "full fine-tuning", "lora": "LoRA fine-tuning"})
# selection.advice.parallelism: the kinds of parallelism an answer's layout uses.
PARALLELISM = Bilingual(zh={"data": "数据并行", "tensor": "张量并行", "pipeline": "流水线并行"},
                        en={"data": "data parallelism", "tensor": "tensor parallelism",
                            "pipeline": "pipeline parallelism"})
# costmodel.inputs.Recompute.
RECOMPUTE = Bilingual(zh={"none": "不重计算", "selective": "选择性重计算", "full": "完全重计算"},
                      en={"none": "no recomputation", "selective": "selective recomputation",
                          "full": "full recomputation"})
# planner.report.picks: the fields of an answer.
PICK = Bilingual(zh={"gpu": "GPU", "node": "整机", "intra_node": "机内互连", "network": "节点间网络", "topology": "拓扑"},
                 en={"gpu": "GPU", "node": "server", "intra_node": "intra-node interconnect",
                     "network": "inter-node network", "topology": "topology"})
# estimates.calibration.Block: what kind of transformer block a published run trains.
BLOCK = Bilingual(zh={"dense": "稠密模型", "moe": "混合专家（MoE）"},
                  en={"dense": "dense model", "moe": "mixture of experts (MoE)"})
# estimates.calibration.Training: what a published run trains.
TRAINING = Bilingual(zh={"full": "全部权重", "lora": "LoRA 适配器"}, en={"full": "every weight", "lora": "LoRA adapters"})
# edge.diff: how a row of `generator diff` changed.
CHANGE = Bilingual(zh={"added": "新增", "removed": "删除", "changed": "修改"},
                   en={"added": "added", "removed": "removed", "changed": "changed"})
# model.markets.Status: where a part stands in a market.
MARKET_STATUS = Bilingual(
    zh={"available": "可以购买", "licence-required": "需出口许可", "barred": "买不到", "end-of-life": "已停售"},
    en={"available": "available", "licence-required": "export licence required", "barred": "not available",
        "end-of-life": "end of life"})

# The names the tables had while the site was written in Chinese only, kept so that the modules
# importing them need no change: the same tables, read in the language being written.
DIRECTION_ZH = DIRECTION
SOURCE_KIND_ZH = SOURCE_KIND
PUBLISHER_ROLE_ZH = PUBLISHER_ROLE
FAMILY_ZH = FAMILY
DIAGNOSTIC_SEVERITY_ZH = DIAGNOSTIC_SEVERITY
SPEC_KIND_ZH = SPEC_KIND
PITFALL_SEVERITY_ZH = PITFALL_SEVERITY
TIER_SUBJECT_ZH = TIER_SUBJECT
LAYER_ZH = LAYER
MODEL_SIZE_ZH = MODEL_SIZE
RDMA_ZH = RDMA
NIC_ROLE_ZH = NIC_ROLE
NODE_KIND_ZH = NODE_KIND
VERDICT_ZH = VERDICT
BASIS_ZH = BASIS
FOOTING_ZH = FOOTING
METRIC_ZH = METRIC
SCHEDULE_ZH = SCHEDULE
ROUTING_ZH = ROUTING
CONVENTION_ZH = CONVENTION
BOTTLENECK_ZH = BOTTLENECK
GOAL_ZH = GOAL
PARALLELISM_ZH = PARALLELISM
RECOMPUTE_ZH = RECOMPUTE
PICK_ZH = PICK
BLOCK_ZH = BLOCK
CHANGE_ZH = CHANGE
MARKET_STATUS_ZH = MARKET_STATUS
