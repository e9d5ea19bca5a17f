"""schema: what a reader cannot see or tell apart is not allowed in a spec's text.

- text-invisible: bidi controls (they reorder what an editor and a diff show, "Trojan Source",
  CVE-2021-42574) and zero-width or otherwise invisible characters (they split a number or an id
  without showing) anywhere in a key or a value;
- text-control: a control character written as a YAML escape (`"\\x9b2J"`, `"\\e]0;title\\a"`): the
  YAML reader refuses the raw byte (yaml-encoding), but an escape decodes to it; C0 controls but
  tab and line feed, DEL and C1 controls are refused, whatever would print them;
- text-blank: a text value that is empty or only white space (a name `" "`, a note of one
  ideographic space): it passes a schema's minimum length and shows as nothing;
- text-confusable: characters that look like ASCII but are not, where ASCII is meant: Cyrillic or
  Greek letters inside a run of Latin letters and digits (an id `tеst` with a Cyrillic `е`, a unit
  `ТFLOPS`, a name `Tеst RTX`), fullwidth letters and digits (`ＧＢ/s`, `８`) and mathematical
  alphanumerics (`𝐆𝐁`). A whole word in Greek or Cyrillic, and fullwidth punctuation of Chinese
  text (，：（）), are fine.

Checked on the parsed file, before its schema: a look-alike id would otherwise only be reported as
an id of the wrong format, or a reference to nothing. `scan` is called by generator/validate.py.
"""

from __future__ import annotations

import re
import unicodedata

from ..charsets import INVISIBLE as _INVISIBLE
from ..diagnostics import DataPath, Diagnostic, Rule
from ..load.parse import ParsedFile
from .base import Check

INVISIBLE = Rule("text-invisible", "schema", "键和值里不能有双向控制字符或零宽等不可见字符（它们会改变编辑器和差异里显示的内容）。")
CONTROL = Rule("text-control", "schema", "键和值里不能有控制字符（C0、DEL、C1；制表符与换行除外），写成 YAML 转义（如 \\x9b、\\e）也不行。")
BLANK = Rule("text-blank", "schema", "文本值不能为空或只有空白（包括全角空格）：这样的名称、说明在页面上什么也不显示。")
CONFUSABLE = Rule("text-confusable", "schema",
                  "该写 ASCII 的地方不能混入形似的字符：拉丁字母串里的西里尔或希腊字母、全角字母和数字、数学字母。")

# C0 controls but tab and line feed, DEL, C1 controls: what a terminal acts on (ESC, CSI U+009B).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FULLWIDTH_OR_MATH = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff]")
# A run of letters and digits with the punctuation of ids, units and figure references.
_RUN = re.compile("[A-Za-z0-9\u0370-\u03ff\u0400-\u04ff._#/+-]+")
_LATIN = re.compile("[A-Za-z0-9]")
_LOOKALIKE = re.compile("[\u0370-\u03ff\u0400-\u04ff]")
# The ASCII letter each common look-alike passes for (Greek mu is the micro of `us`).
_ASCII_TWIN = dict(zip("\u0430\u0435\u043e\u0440\u0441\u0445\u0443\u0456\u0458\u0455\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425"  # Cyrillic
                       "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u03bf\u03b9\u03bd\u03ba\u03c1\u03bc",  # Greek
                       "aeopcxyijsABEKMHOPCTX"
                       "ABEZHIKMNOPTYXoivkpu", strict=True))


def scan(parsed: ParsedFile) -> list[Diagnostic]:
    """Every key and text value of the file with an invisible or confusable character."""
    found: list[Diagnostic] = []
    stack: list[tuple[DataPath, object]] = [((), parsed.data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                problem = _problem(key)
                if problem is not None:
                    mark = parsed.key_mark(path + (key,))
                    found.append(problem[0].at(parsed.path, mark.line, mark.col, f"key {problem[1]}"))
                stack.append((path + (key,), value))
        elif isinstance(node, list):
            stack.extend((path + (i,), item) for i, item in enumerate(node))
        elif isinstance(node, str):
            problem = _blank(node) or _problem(node)
            if problem is not None:
                mark = parsed.value_mark(path)
                found.append(problem[0].at(parsed.path, mark.line, mark.col, problem[1]))
    return found


def _blank(text: str) -> tuple[Rule, str] | None:
    # str.strip() removes Unicode white space too: U+3000 IDEOGRAPHIC SPACE, U+00A0, tabs, lines.
    if text.strip():
        return None
    return BLANK, "the text is empty or only white space: write it, or leave the field out where it is optional"


def _problem(text: str) -> tuple[Rule, str] | None:
    control = _CONTROL.search(text)
    if control is not None:
        return CONTROL, f"{_where(text, control.start())} is a control character ({_name(control.group())}): delete it"
    if text.isascii():
        return None
    invisible = _INVISIBLE.search(text)
    if invisible is not None:
        return INVISIBLE, f"{_where(text, invisible.start())} is invisible ({_name(invisible.group())}): delete it"
    odd = _FULLWIDTH_OR_MATH.search(text)
    if odd is not None:
        plain = unicodedata.normalize("NFKC", odd.group())
        return CONFUSABLE, f"{_where(text, odd.start())} looks like {plain!r} but is {_name(odd.group())}: type {plain!r}"
    if _LOOKALIKE.search(text) is None:  # most non-ASCII text (Chinese) has no Greek or Cyrillic to mix in
        return None
    for run in _RUN.finditer(text):
        lookalike = _LOOKALIKE.search(run.group())
        if lookalike is not None and _LATIN.search(run.group()):
            at, char = run.start() + lookalike.start(), lookalike.group()
            twin = _ASCII_TWIN.get(char)
            fix = f"type {twin!r}" if twin else "type the ASCII letter it looks like"
            return CONFUSABLE, f"{_where(text, at)} in {run.group()!r} is {_name(char)} among Latin letters: {fix}"
    return None


def _where(text: str, index: int) -> str:
    return f"character {index + 1}"


def _name(char: str) -> str:
    name = unicodedata.name(char, "")  # controls have no name in the Unicode database
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


RULES = (INVISIBLE, CONTROL, BLANK, CONFUSABLE)
CHECKS: tuple[Check, ...] = ()  # generator/validate.py scans each parsed file
