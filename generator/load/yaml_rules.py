"""yaml: a spec file is untrusted input, read as plain YAML only. PyYAML accepts duplicate keys,
tags that build Python objects and alias bombs; the loader refuses each, and bounds size and depth.
Scalars are read as YAML 1.2, and the forms YAML 1.1 reads otherwise (0700, yes) are refused.

The checks run while a file is parsed (generator/load/parse.py and generator/load/scalars.py, and
generator/edge/specfiles.py refuses an oversized file before reading it); the rules are declared here, beside the others, so that the
rules page documents them and the loader names them by object rather than by string.
"""

from __future__ import annotations

from ..diagnostics import Rule

SYNTAX = Rule("yaml-syntax", "yaml", "文件必须是合法的 YAML；出错时给出解析器指出的位置。")
TAB = Rule("yaml-tab", "yaml", "缩进只能用空格，不能用制表符。")
DUPLICATE_KEY = Rule("yaml-duplicate-key", "yaml", "同一映射里的键不得重复（PyYAML 默认会静默覆盖，这里报错）。")
TAG = Rule("yaml-tag", "yaml", "只允许普通 YAML 值，拒绝 !!python/object 之类的标签和合并键。")
ALIAS = Rule("yaml-alias", "yaml", "不允许锚点别名（*name），防止“十亿笑声”式的展开攻击。")
TOO_LARGE = Rule("yaml-too-large", "yaml", "单个文件和单个值都有大小上限。")
TOO_DEEP = Rule("yaml-too-deep", "yaml", "嵌套层数有上限。")
ENCODING = Rule("yaml-encoding", "yaml", "文件必须是不带 BOM 的 UTF-8，且不含 YAML 不允许的控制字符。")
EMPTY = Rule("yaml-empty", "yaml", "文件不能为空。")
NUMBER_FORM = Rule("yaml-number-form", "yaml",
                   "数字按 YAML 1.2 读取；YAML 1.1 会读成别的值的写法（0700、0b1010、1_000、1:30）以及十六进制、八进制都报错，并给出十进制写法。")
BOOLEAN_FORM = Rule("yaml-boolean-form", "yaml",
                    "yes/no/on/off/y/n 在 YAML 1.1 里是布尔值、在 YAML 1.2 里是文本：布尔值写 true/false，文本加引号。")

RULES = (SYNTAX, TAB, DUPLICATE_KEY, TAG, ALIAS, TOO_LARGE, TOO_DEEP, ENCODING, EMPTY, NUMBER_FORM, BOOLEAN_FORM)
CHECKS: tuple[()] = ()  # the loader checks these while it parses
