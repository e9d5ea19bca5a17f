"""schema: each file has the shape of its folder's model: required fields present, types exact
("80" is not 80), enums and formats respected, no unknown key (with the closest allowed one as a
hint), ids that are slugs and match their file names, files in known folders only.

Pydantic checks the shape (generator/build.py maps its error types to these rules), the spec
tree reader refuses unknown folders and files (generator/edge/specfiles.py, generator/validate.py);
the rules are declared here so that the rules page documents them and those stages name them by
object rather than by string.
"""

from __future__ import annotations

from ..diagnostics import Rule

REQUIRED = Rule("schema-required", "schema", "必填字段不能缺。")
TYPE = Rule("schema-type", "schema", "字段类型必须正确，不做隐式转换（\"80\" 不是 80）。")
ENUM = Rule("schema-enum", "schema", "枚举字段只能取列出的值。")
UNKNOWN_KEY = Rule("schema-unknown-key", "schema", "不认识的键是错误，不会被静默忽略；会提示最接近的合法键。")
VALUE = Rule("schema-value", "schema", "数值必须有限、非负、在合理范围内。")
FORMAT = Rule("schema-format", "schema", "字符串必须符合格式（例如数字引用 entity#figure）。")
TEXT_TOO_LONG = Rule("schema-text-too-long", "schema", "文本字段有长度上限。")
ID_FORMAT = Rule("schema-id-format", "schema", "id 必须是小写 slug（字母、数字、单个连字符），不能包含路径。")
ID_FILENAME = Rule("schema-id-filename", "schema", "id 必须与文件名一致。")
FOLDER = Rule("schema-folder", "schema",
              "规格文件必须放在已知的目录里，扩展名为 .yaml。")

RULES = (REQUIRED, TYPE, ENUM, UNKNOWN_KEY, VALUE, FORMAT, TEXT_TOO_LONG, ID_FORMAT, ID_FILENAME, FOLDER)
CHECKS: tuple[()] = ()  # the schema stage checks these while it builds each entity
