"""Render: a validated knowledge base in, every generated file out, as `{relative path: text}`.

Pure: no file is read or written here (templates come from the package), so the MkDocs hook
and `python -m generator build` produce exactly the same bytes, and golden tests compare strings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, partial
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from markupsafe import Markup, escape

from ..derive import FigureIndex
from ..fanout import Shared, worth_forking
from ..gcpause import without_cycle_collection
from ..jsonschema import schema_files
from ..knowledge import KnowledgeBase
from . import advice, hardware, reference, selection
from .context import Site
from .text import md

# Generated page -> the function that computes its template context.
PAGES: dict[str, Callable[[Site], dict[str, Any]]] = {
    "gpus.md": hardware.gpus,
    "interconnects.md": hardware.interconnects,
    "networks.md": hardware.networks,
    "layers.md": hardware.layers,
    "topologies.md": advice.topologies,
    "tiers.md": advice.tiers,
    "flowchart.md": selection.flowchart,
    "scaling.md": advice.scaling,
    "field-reports.md": advice.field_reports,
    "pitfalls.md": advice.pitfalls,
    "claims.md": reference.claims,
    "sources.md": reference.sources,
    "rules.md": reference.rules,
    "downloads.md": reference.downloads,
}


@cache
def environment() -> Environment:
    env = Environment(loader=PackageLoader("generator", "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = _md_filter
    env.filters["html"] = _html_filter
    env.filters["yaml_str"] = yaml_str
    return env


@pass_context
def _md_filter(ctx: Any, text: object) -> Markup:
    """Spec text in a Markdown context, with figure references expanded when a site is known."""
    site = ctx.get("site")
    return site.md(text) if isinstance(site, Site) else md(text)


@pass_context
def _html_filter(ctx: Any, text: object) -> Markup:
    """Spec text inside an HTML block (tables, admonitions), figure references expanded."""
    site = ctx.get("site")
    return site.html(text) if isinstance(site, Site) else escape(str(text))


def yaml_str(text: object) -> Markup:
    """A front-matter value: a JSON string is a valid YAML double-quoted scalar; <, > and & are
    written as escapes so the value is also inert as HTML."""
    quoted = json.dumps(str(text), ensure_ascii=False)
    return Markup(quoted.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


# Every output, most expensive first (measured at 100 times the real knowledge base): on a big
# knowledge base a helper process and this one both take the next output from this list, so each
# ends on small ones and they finish close together.
_TASKS = ("data", "gpus.md", "pitfalls.md", "sources.md", "interconnects.md", "scaling.md", "networks.md",
          "field-reports.md", "tiers.md", "topologies.md", "layers.md", "flowchart.md", "schema", "rules.md",
          "downloads.md")
# Rendered by this process before it joins the others: the claims page shows the outcomes the
# claims rule has just worked out here (FigureIndex.memo); a helper forked before the rules ran
# would work them all out again (a third of the page's cost).
_AFTER_RULES = ("claims.md",)


@without_cycle_collection
def render_site(kb: KnowledgeBase, figures: FigureIndex) -> dict[str, str]:
    return PendingRender(Site(kb, figures)).finish()


class PendingRender:
    """A render started now: on a big knowledge base a forked helper begins on the outputs at
    once (the parent may run the rules meanwhile); `finish` joins in on what is left and collects
    it all; `cancel` drops it all (the knowledge base failed its rules)."""

    def __init__(self, site: Site) -> None:
        self._site = site
        self._work = Shared(partial(_render, site), _TASKS, parallel=worth_forking(len(site.kb.entities)))

    def finish(self) -> dict[str, str]:
        files: dict[str, str] = {}
        try:
            for task in _AFTER_RULES:
                files.update(_render(self._site, task))
        except BaseException:
            self._work.cancel()
            raise
        for part in self._work.results():
            files.update(part)
        return {name: files[name] for name in sorted(files)}

    def cancel(self) -> None:
        self._work.cancel()


def _render(site: Site, task: str) -> dict[str, str]:
    if task == "data":
        return reference.data_files(site)
    if task == "schema":
        return {f"schema/{name}": text for name, text in schema_files().items()}
    return {task: environment().get_template(task + ".j2").render(site=site, **PAGES[task](site))}
