"""Render: a validated knowledge base in, every generated file out, as `{relative path: text}`.

Pure: no file is read or written here (templates come from the package), so the MkDocs hook
and `python -m generator build` produce exactly the same bytes, and golden tests compare strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial

from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from .. import strict_json
from ..derive import FigureIndex
from ..knowledge import KnowledgeBase
from ..language import DEFAULT, current, say, speaking
from ..repository import Repository
from ..spec_schema import schema_files
from . import (
    accuracy,
    advice,
    calculator,
    compare,
    costmodel,
    expert_study,
    hardware,
    markets,
    nodes,
    primer,
    reference,
    runs,
    selection,
)
from .context import RUN_PAGE_PREFIX, Site
from .escape import attr, inert, md, md_cell
from .trust import SOURCE_GROUPS

# Generated page -> the function that computes its template context.
PAGES: dict[str, Callable[[Site], dict[str, object]]] = {
    "gpus.md": hardware.gpus,
    "interconnects.md": hardware.interconnects,
    "networks.md": hardware.networks,
    "nodes.md": nodes.nodes,
    "compare.md": compare.compare,
    "layers.md": hardware.layers,
    "topologies.md": advice.topologies,
    "tiers.md": advice.tiers,
    "flowchart.md": selection.flowchart,
    "scaling.md": advice.scaling,
    "moe.md": expert_study.page,
    "field-reports.md": advice.field_reports,
    "pitfalls.md": advice.pitfalls,
    "costmodel.md": costmodel.costmodel,
    "parallelism.md": primer.primer,
    "calculator.md": calculator.calculator,
    "runs.md": runs.runs,
    "accuracy.md": accuracy.accuracy,
    "markets.md": markets.markets,
    "claims.md": reference.claims,
    "sources.md": reference.sources,
    "rules.md": reference.rules,
    "vocabularies.md": reference.vocabularies,
    "downloads.md": reference.downloads,
    # One page per kind of publisher (trust.SOURCE_GROUPS), all from source-list.md.j2.
    **{f"{page}.md": partial(reference.source_list, page=page) for page, *_ in SOURCE_GROUPS},
}

# Generated page -> where its content is edited in the repository (the page's "edit" button); the
# pages of runs by source (runs-<source>.md) are edited in specs/runs too (`page_source`).
PAGE_SOURCES: dict[str, str] = {
    "gpus.md": "specs/gpus",
    "interconnects.md": "specs/interconnects",
    "networks.md": "specs/networks",
    "nodes.md": "specs/nodes",
    "compare.md": "specs/gpus",
    "layers.md": "specs/layers",
    "topologies.md": "specs/topologies",
    "tiers.md": "specs/tiers",
    "flowchart.md": "specs/selection",
    "scaling.md": "specs/cases",
    "moe.md": "specs/cases",
    "field-reports.md": "specs/cases",
    "pitfalls.md": "specs/pitfalls",
    "costmodel.md": "specs/assumptions",
    "parallelism.md": "specs/cases",
    "calculator.md": "specs/workloads",
    "runs.md": "specs/runs",
    "accuracy.md": "specs/runs",
    "markets.md": "specs/markets",
    "claims.md": "specs/claims",
    "sources.md": "specs/sources",
    "rules.md": "generator/rules",
    "vocabularies.md": "specs",
    "downloads.md": "specs",
    **{f"{page}.md": "specs/sources" for page, *_ in SOURCE_GROUPS},
}


def page_source(page: str) -> str | None:
    """Where a generated page's content is edited in the repository, if known."""
    return PAGE_SOURCES.get(page) or ("specs/runs" if page.startswith(RUN_PAGE_PREFIX) else None)


@cache
def environment() -> Environment:
    env = Environment(loader=PackageLoader("generator", "templates"), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = _md_filter
    env.filters["html"] = _html_filter
    env.filters["yaml_str"] = yaml_str
    env.filters["md_cell"] = md_cell  # a cell of a Markdown pipe table
    env.filters["attr"] = attr  # an HTML attribute value
    env.globals["say"] = say  # a phrase of a template shared by both languages (_macros.j2)
    return env


@pass_context
def _md_filter(ctx: Context, text: object) -> Markup:
    """Spec text in a Markdown context, with figure references expanded when a site is known."""
    site = ctx.get("site")
    return site.md(text) if isinstance(site, Site) else md(text)


@pass_context
def _html_filter(ctx: Context, text: object) -> Markup:
    """Spec text inside an HTML block (tables, admonitions), figure references expanded."""
    site = ctx.get("site")
    return site.html(text) if isinstance(site, Site) else inert(text)


def yaml_str(text: object) -> Markup:
    """A front-matter value: a JSON string is a valid YAML double-quoted scalar; <, > and & are
    written as escapes so the value is also inert as HTML."""
    quoted = strict_json.dumps(str(text), "a page's front matter", ensure_ascii=False)
    return Markup(quoted.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


_SOURCE_LISTS = {f"{page}.md" for page, *_ in SOURCE_GROUPS}


def _template(page: str) -> str:
    """The page's template in the language being written: the Chinese ones at the top of
    templates/, each English one under templates/en/ (written on its own, not translated line by
    line, so the two may differ in wording but draw the same figures from the same context)."""
    name = "source-list.md.j2" if page in _SOURCE_LISTS else page + ".j2"
    return name if current() == DEFAULT else f"{current()}/{name}"


def render_site(kb: KnowledgeBase, figures: FigureIndex, repository: Repository | None = None,
                languages: Sequence[str] = (DEFAULT,)) -> dict[str, str]:
    """Every generated file, in each of `languages`: the default language's at the top, any
    other's under its own folder (`en/gpus.md`), each a complete site. With a `repository`, each
    entity links to its spec file there. The languages share one Site, so what a page computes
    without words (the planner's answers, the calibration) is computed once."""
    site = Site(kb, figures, repository)
    # The exports and schemas hold both languages already: each edition gets the same files.
    neutral = {**reference.data_files(site), **{f"schema/{name}": text for name, text in schema_files().items()}}
    files: dict[str, str] = {}
    for language in languages:
        prefix = "" if language == DEFAULT else f"{language}/"
        with speaking(language):
            files.update({prefix + name: text for name, text in {**_files(site), **neutral}.items()})
    return dict(sorted(files.items()))


def render_page(site: Site, name: str) -> str:
    """One page of PAGES (`gpus.md`) in the language being written (generator.language.current):
    what render_site writes under that name, without rendering the others."""
    return environment().get_template(_template(name)).render(site=site, **PAGES[name](site))


def _files(site: Site) -> dict[str, str]:
    """One language's pages and the data files the page scripts read (generator.language.current)."""
    env = environment()
    files = {name: render_page(site, name) for name in PAGES}
    # A page per source of measured runs (runs-<source>.md): as many as the knowledge base holds.
    template = env.get_template(_template("runs-source.md"))
    files.update({name: template.render(site=site, **context) for name, context in runs.source_pages(site).items()})
    files.update(selection.data_files(site))
    files.update(calculator.data_files(site))
    return files
