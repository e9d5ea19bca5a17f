"""The injection corpus: Markdown, attr_list, HTML and Jinja payloads for every text field, URLs
that pass the source URL rules yet are full of characters that matter somewhere, and a knowledge
base carrying them all (the fixture base, every text and URL field poisoned) for the built-HTML
test (tests/test_injection.py) and the Chromium test (tests/browser/test_hostile_pages.py).

Every payload is marked with `xss` so a page can be searched for what it left behind: an element
or attribute named `xss…`, a class or id `xss…`, a link to `xss.example` that is not exactly one
of URL_PAYLOADS, or a script that set `window.__xss`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from support import base_files, fixture_project

from generator.model.common import MAX_TEXT
from generator.validate import SpecFile, validate

RUN = "window.__xss=1"
TEXT_PAYLOADS = [
    # HTML
    f"<script>{RUN}</script>",
    f'<img src=x onerror="{RUN}" class=xss-img>',
    f"<xss-el onclick={RUN}>xss</xss-el>",
    f'"><svg onload={RUN} class=xss-svg>',
    f"<a href=\"javascript:{RUN}\" class=xss-a>xss</a>",
    f"<iframe src=\"javascript:{RUN}\" class=xss-frame></iframe>",
    '<div markdown="1" class=xss-div>*xss-md-in-html*</div>',
    "&#x3C;xss-entity onclick=x&#x3E; &lt;xss-ent2&gt;",
    "<!-- xss-comment",
    "-->",
    # Markdown
    f"[xss-link](javascript:{RUN})",
    f"![xss-img](javascript:{RUN})",
    "<https://xss.example/autolink>",
    "https://xss.example/bare",
    f"[xss-ref][r]\n\n[r]: javascript:{RUN}",
    "*xss-em* **xss-strong** `xss-code` ~~xss-del~~ ==xss-mark== ^^xss-ins^^ ~xss-sub~ ^xss-sup^",
    "# xss-heading",
    "| xss-col | xss-col |\n|---|---|\n| a | b |",
    "> xss-quote",
    "- xss-item\n1. xss-item",
    "    xss-indented-code",
    "```\nxss-fence\n```",
    "[^xss-note]\n\n[^xss-note]: xss",
    "*[xss-abbr]: abbreviation",
    "xss-term\n:   xss-definition",
    "!!! xss-admonition \"xss\"\n    body",
    "??? xss-details\n    body",
    '=== "xss-tab"\n    body',
    '--8<-- "abbreviations.md"',
    "trailing backslash \\",
    # attr_list
    f"{{: onclick=\"{RUN}\" .xss-class #xss-id }}",
    f"{{ onmouseover={RUN} }}",
    "xss-word{: .xss-class2 }",
    # Jinja and MkDocs macros
    "{{ xss_jinja }} {{ 7*7 }} {% raw %} {%- endraw %} {# xss #}",
    "${xss} $xss$ $$xss$$",
]
# Fields limited to a few dozen characters (a name, a title) get these, one each in turn.
SHORT_PAYLOADS = [
    f"<xss-el onclick={RUN}>",
    "{: .xss-class #xss-id }",
    f"[xss](javascript:{RUN})",
    "<script>xss</script>",
    "a | xss-pipe | b",
    "ends in backslash \\",
    "{{ xss_jinja }}",
    "*xss-em* `xss-code`",
]
SUFFIX_PAYLOAD = "<xss-s>"
# Addresses that pass every source URL rule but carry Markdown, attr_list, HTML and template
# syntax in the characters the rules allow (`_ ~ & = ; $ + , @ :` and percent-escapes).
URL_PAYLOADS = [
    "https://xss.example/__init__~~del~~?q=1&amp=$x$#:~:text=xss",
    "https://xss.example/%3Cscript%3Ewindow.__xss=1%3C/script%3E",
    "https://xss.example/%22%20onclick=%22window.__xss=1",
    "https://xss.example/%7B:%20onclick=window.__xss=1%20.xss-class%20%7D",
    "https://xss.example/%5Bx%5D%28javascript:window.__xss=1%29",
    "HTTPS://XSS.EXAMPLE:443/a;b,c@d+e=%7B%7B7*7%7D%7D".replace("*", "%2A"),
    "https://xss.example/ends-in-backslash%5C",
    "https://xss.example/a/__xss-strong__/_xss-em_/b",
]
# Addresses the rules must refuse (each one reached a page, or could have, before they existed).
HOSTILE_URLS = [
    f"javascript:{RUN}",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    f"https://xss.example/{{: onclick={RUN} }}",
    f"https://xss.example/[x](javascript:{RUN})",
    "https://xss.example/\"onmouseover=\"alert(1)",
    "https://xss.example/'onmouseover='alert(1)",
    "https://xss.example/<script>alert(1)</script>",
    "https://xss.example/ x",
    "https://xss.example/\tx",
    "https://xss.example/\u200bx",
    "https://xss.example/\u202ex",
    "https://xss.example/\\x",
    "https://xss.example/`x`",
    "https://xss.example/*x*",
    "https://xss.example/!x",
    "https://xss.example/{{ 7*7 }}",
    "https://xss.example/%zz",
    "https://user:pass@xss.example/",
    "https://nvidia.com@xss.example/",
    "https:///no-host",
    "https://xss.example:port/",
    "//xss.example/",
    "xss.example/path",
]
SHORT_KEYS = {"name", "title", "publisher", "said", "command"}
SHORT_LIMIT = 80  # the tightest limit among SHORT_KEYS


class _Poisoner:
    """Walks spec data, replacing texts and URLs with payloads taken in turn, so every payload
    reaches many kinds of field and every field gets a payload."""

    def __init__(self) -> None:
        self.short = 0
        self.url = 0

    def text(self) -> str:
        joined = " ".join(TEXT_PAYLOADS)
        assert len(joined) <= MAX_TEXT, "the text payloads no longer fit one text field"
        return joined

    def next_short(self) -> str:
        self.short += 1
        return SHORT_PAYLOADS[self.short % len(SHORT_PAYLOADS)][:SHORT_LIMIT]

    def next_url(self) -> str:
        self.url += 1
        return URL_PAYLOADS[self.url % len(URL_PAYLOADS)]

    def poison(self, node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("zh", "en") and isinstance(value, str):
                    out[key] = self.text()
                elif key in SHORT_KEYS and isinstance(value, str):
                    out[key] = self.next_short()
                elif key == "suffix" and isinstance(value, str):  # a count's suffix: 8 characters
                    out[key] = SUFFIX_PAYLOAD
                elif key == "url" and isinstance(value, str):
                    out[key] = self.next_url()
                else:
                    out[key] = self.poison(value)
            return out
        if isinstance(node, list):
            return [self.poison(v) for v in node]
        return node


def hostile_base() -> list[SpecFile]:
    """The fixture base with every text, short text and URL field replaced by payloads."""
    poisoner = _Poisoner()
    files = []
    for spec in base_files():
        data = poisoner.poison(yaml.safe_load(spec.raw))
        raw = yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")
        files.append(SpecFile(spec.path, spec.kind, spec.stem, raw))
    assert poisoner.url >= len(URL_PAYLOADS), "the fixture base has too few source URLs for every payload"
    return files


def build_hostile_site(tmp_path: Path) -> Path:
    """`hostile_base()` checked (it must pass) and built with the real `mkdocs build --strict`;
    returns the site folder."""
    files = hostile_base()
    result = validate(files)
    assert result.ok, [d.as_text() for d in result.diagnostics][:5]
    project = fixture_project(tmp_path, files)
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    done = subprocess.run([mkdocs, "build", "--strict"], cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    return project / "site"
