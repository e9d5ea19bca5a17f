"""Every rule the validator knows: stable id, family and what it checks (shown on the site's
rules page). A rule id that is emitted but missing here fails the test suite."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    id: str
    family: str
    zh: str  # one sentence for the rules reference page


_RULES = [
    ("yaml-syntax", "yaml", "文件必须是合法的 YAML；出错时给出解析器指出的位置。"),
    ("yaml-tab", "yaml", "缩进只能用空格，不能用制表符。"),
    ("yaml-duplicate-key", "yaml", "同一映射里的键不得重复（PyYAML 默认会静默覆盖，这里报错）。"),
    ("yaml-tag", "yaml", "只允许普通 YAML 值，拒绝 !!python/object 之类的标签和合并键。"),
    ("yaml-alias", "yaml", "不允许锚点别名（*name），防止“十亿笑声”式的展开攻击。"),
    ("yaml-too-large", "yaml", "单个文件和单个值都有大小上限。"),
    ("yaml-too-deep", "yaml", "嵌套层数有上限。"),
    ("yaml-encoding", "yaml", "文件必须是不带 BOM 的 UTF-8，且不含 YAML 不允许的控制字符。"),
    ("yaml-empty", "yaml", "文件不能为空。"),
    ("yaml-number-form", "yaml", "数字按 YAML 1.2 读取；YAML 1.1 会读成别的值的写法（0700、0b1010、1_000、1:30）以及十六进制、八进制都报错，并给出十进制写法。"),
    ("yaml-boolean-form", "yaml", "yes/no/on/off/y/n 在 YAML 1.1 里是布尔值、在 YAML 1.2 里是文本：布尔值写 true/false，文本加引号。"),
    ("schema-required", "schema", "必填字段不能缺。"),
    ("schema-type", "schema", "字段类型必须正确，不做隐式转换（\"80\" 不是 80）。"),
    ("schema-enum", "schema", "枚举字段只能取列出的值。"),
    ("schema-unknown-key", "schema", "不认识的键是错误，不会被静默忽略；会提示最接近的合法键。"),
    ("schema-value", "schema", "数值必须有限、非负、在合理范围内。"),
    ("schema-format", "schema", "字符串必须符合格式（例如数字引用 entity#figure）。"),
    ("schema-text-too-long", "schema", "文本字段有长度上限。"),
    ("schema-id-format", "schema", "id 必须是小写 slug（字母、数字、单个连字符），不能包含路径。"),
    ("schema-id-filename", "schema", "id 必须与文件名一致。"),
    ("schema-folder", "schema", "规格文件必须放在已知的目录里，扩展名为 .yaml，且不能是指向 specs/ 之外的符号链接。"),
    ("refs-unknown", "refs", "引用的 id 必须存在，且属于该字段要求的类别。"),
    ("refs-unknown-figure", "refs", "引用的数字（entity#figure）必须存在。"),
    ("text-figure-ref-malformed", "refs", "代码之外的每一处双方括号都必须是合法的数字引用：全部小写、没有多余空格、没有零宽或双向控制字符、含 #，单位在单位表里。"),
    ("refs-duplicate-id", "refs", "整个知识库里 id 唯一。"),
    ("refs-unused-source", "refs", "每个来源文件都必须至少被引用一次。"),
    ("units-unknown", "units", "单位必须在单位表里。"),
    ("units-dimension", "units", "字段只接受其量纲的单位（带宽字段不能写 TFLOPS）。"),
    ("units-direction-missing", "units", "带宽必须注明方向：单向（per_direction）、双向合计（bidirectional）或总量（aggregate）。"),
    ("units-bit-byte", "units", "写出的数字恰好等于另一种单位（Gb/s 与 GB/s）下的推导值时，提示比特/字节混淆。"),
    ("units-direction-slip", "units", "写出的数字恰好是推导值的两倍或一半时，提示单向/双向混淆。"),
    ("arithmetic-pcie-bandwidth", "arithmetic", "PCIe 带宽 = 每通道传输率 × 通道数 × 编码效率 ÷ 8，双向为其两倍。"),
    ("arithmetic-pcie-generation", "arithmetic", "每一代 PCIe 的每通道传输率是上一代的两倍（3.0 到 6.0）；与前后两代都对不上的那一代被认为写错。"),
    ("arithmetic-nvlink-total", "arithmetic", "NVLink 每 GPU 总带宽 = 链路数 × 单链路带宽（换算为双向）。"),
    ("arithmetic-nvswitch-per-gpu", "arithmetic", "NVSwitch 给每个 GPU 的带宽等于该代 NVLink 的每 GPU 总带宽。"),
    ("arithmetic-port-rate", "arithmetic", "网络端口速率 = 通道数 × 每通道速率。"),
    ("arithmetic-memory-bandwidth", "arithmetic", "显存带宽 = 位宽 × 每针脚速率 ÷ 8。"),
    ("arithmetic-fp32", "arithmetic", "FP32 峰值 = SM 数 × 每 SM 的 FP32 单元 × 2（FMA）× 加速频率。"),
    ("arithmetic-gpu-nvlink", "arithmetic", "GPU 的 NVLink 带宽 = 链路数 × 该代单链路带宽。"),
    ("gpu-variant-mix", "arithmetic", "一个 GPU 文件只描述一个版本：某个数字对不上、却等于同系列另一版本的数字时报错。"),
    ("gpu-form-factor", "arithmetic", "PCIe 卡只能经桥接器使用 NVLink；SXM 模块不需要桥接器。"),
    ("claims-verdict", "claims", "文章论断的结论（confirmed/approximate/corrected/unsupported）必须等于按数据重新计算的结论。"),
    ("claims-unit-mismatch", "claims", "论断写出的单位必须与被比较数字的量纲一致。"),
    ("claims-direction-mismatch", "claims", "求比值前两边的方向必须一致（双向对双向，单向对单向）。"),
    ("tables-case-gpus", "tables", "案例的 GPU 总数 = 节点数 × 每节点 GPU 数。"),
    ("tables-case-speedup", "tables", "加速比 = 集群吞吐 ÷ 单卡吞吐。"),
    ("tables-case-share", "tables", "通信占比 = 1 − 加速比 ÷ GPU 数。"),
    ("tables-tier-gap", "tables", "分档表的区间必须从 1 开始、首尾相接、没有空档。"),
    ("tables-tier-overlap", "tables", "分档表的区间不能重叠。"),
    ("tables-tier-mismatch", "tables", "别处的推荐（总结、标准配置）必须与分档表一致，除非明确标注了冲突。"),
    ("tables-stale-conflict", "tables", "标注为冲突的推荐若其实与分档表一致，标注就是过时的。"),
    ("text-typed-figure", "units", "正文里不能手敲带单位的数字，要写成数字引用（entity#figure 的写法），构建时展开为带单位、方向和来源的数字；只有记录来源原话的字段（论断原文、来源备注、实战现象、推荐原话）例外。"),
    ("tree-single", "tree", "specs/selection/ 里只能有一棵决策树：流程图和命令行推荐走的是同一棵。"),
    ("tree-unknown-node", "tree", "根节点必须是问题，每个回答指向的节点必须存在。"),
    ("tree-duplicate-node", "tree", "同一棵树里节点 id 不能重复。"),
    ("tree-shared-node", "tree", "每个节点只能有一个上级：决策树是树，不是网。"),
    ("tree-cycle", "tree", "决策树不能有环。"),
    ("tree-unreachable", "tree", "每个节点都必须能从根节点走到。"),
    ("tree-variable", "tree", "问题必须针对树里定义的变量，回答的形式（区间或取值）要与变量类型一致。"),
    ("tree-coverage-gap", "tree", "一个问题的回答必须覆盖变量的整个取值范围，不能有空档。"),
    ("tree-coverage-overlap", "tree", "一个问题的回答之间不能重叠。"),
    ("tree-tier-mismatch", "tree", "叶子的网络、拓扑和机内互连必须与分档表一致，除非明确标注并解释了冲突。"),
    ("tree-stale-conflict", "tree", "叶子标注的冲突若其实不存在，标注就是过时的。"),
    ("tree-missing-pick", "tree", "超出一台服务器的叶子必须给出节点间网络和拓扑。"),
    ("tree-leaf-hardware", "tree", "叶子推荐的机内互连必须是这块 GPU 能用的（没有 NVLink 的卡不能配 NVSwitch）。"),
    ("tree-no-nvlink-pitfall", "tree", "推荐没有 NVLink 的 GPU 的叶子，必须带上说明这一点的避坑条目。"),
    ("sources-url-scheme", "sources", "来源链接只能是 http(s) 地址。"),
    ("sources-url-missing", "sources", "除文章外，每个来源都必须有链接。"),
    ("sources-not-primary", "sources", "硬件规格数字必须引用一手来源（数据手册、标准、厂商文档），不能引用文章。"),
    ("sources-price", "sources", "价格必须带日期，并引用估算、文章或厂商公告类来源。"),
]

RULES: dict[str, RuleInfo] = {rid: RuleInfo(rid, family, zh) for rid, family, zh in _RULES}
FAMILIES = ("yaml", "schema", "refs", "units", "arithmetic", "claims", "tables", "tree", "sources")
