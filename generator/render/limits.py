"""The limits a spec tree is held to, as the contributing page lists them. The figures are the
code's own constants, rendered here where `<!-- limits -->` stands on a hand-written page (the
MkDocs hook calls `insert_limits`), so a limit is written once, in the code that enforces it.
Pure: Markdown in, Markdown out, in the language being written (generator.language)."""

from __future__ import annotations

from ..language import say
from ..load.parse import MAX_DEPTH, MAX_FILE_BYTES, MAX_SCALAR_CHARS
from ..model.common import MAX_TEXT
from ..rules.diagnostic_cap import MAX_PER_FILE

MARKER = "<!-- limits -->"


def limits_markdown() -> str:
    """One list item per limit: what is limited, the figure and the rule that reports it."""
    items = [
        say(f"**文件大小**：单个规格文件最多 {MAX_FILE_BYTES // 1024} KiB（{MAX_FILE_BYTES:,} 字节）；"
            "更大的文件只读到超出上限的第一个字节就停下，报 `yaml-too-large`。",
            f"**File size**: a spec file holds at most {MAX_FILE_BYTES // 1024} KiB ({MAX_FILE_BYTES:,} bytes); "
            "a larger file is read only up to the first byte past the limit, then reported as `yaml-too-large`."),
        say(f"**单个值**：一个值最多 {MAX_SCALAR_CHARS:,} 个字符（`yaml-too-large`）。",
            f"**A single value**: at most {MAX_SCALAR_CHARS:,} characters (`yaml-too-large`)."),
        say(f"**嵌套深度**：映射和列表最多嵌套 {MAX_DEPTH} 层（`yaml-too-deep`）。",
            f"**Nesting depth**: mappings and lists nest at most {MAX_DEPTH} levels deep (`yaml-too-deep`)."),
        say(f"**文本字段**：`zh`、`en` 这类说明文字每段最多 {MAX_TEXT:,} 个字符（`schema-text-too-long`）。",
            f"**Text fields**: each text such as `zh` or `en` holds at most {MAX_TEXT:,} characters "
            "(`schema-text-too-long`)."),
        say("**决策树深度**：没有单独的层数上限。整棵树写在一个文件里，深度受上面的文件大小限制；"
            "测试会构建文件大小所允许的最深的一条问题链，确认它能通过校验并生成流程图。",
            "**Decision tree depth**: there is no separate limit on levels. The whole tree is one file, so "
            "its depth is bounded by the file size above; a test builds the deepest chain of questions the "
            "file size allows and checks that it validates and yields a flowchart."),
        say(f"**每个文件的诊断条数**：最多列出 {MAX_PER_FILE} 条，其余的合并成一条 `schema-too-many-problems`，"
            "写明还有多少条、属于哪些规则。",
            f"**Diagnostics per file**: at most {MAX_PER_FILE} are listed; the rest are merged into one "
            "`schema-too-many-problems` that says how many more there are and which rules they belong to."),
    ]
    return "\n".join(f"- {item}" for item in items) + "\n"


def insert_limits(markdown: str) -> str:
    """`markdown` with each line that is exactly the marker replaced by the list."""
    if MARKER not in markdown:
        return markdown
    return "".join(limits_markdown() if line.strip() == MARKER else line
                   for line in markdown.splitlines(keepends=True))
