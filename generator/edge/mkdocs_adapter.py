"""What the MkDocs hook (generator/edge/mkdocs_hooks.py) does, event by event: the thin adapter between
MkDocs and the pure generator.

- on_config: read and validate specs/ (I/O at the edge), render every generated file in memory;
  any error stops the build with the same report as `python -m generator check`. Warnings
  (plausibility-range, text-plain-chinese, text-missing-en, text-en-numbers, ...) are logged as MkDocs warnings;
  `mkdocs build --strict` stops on them at once, as `check --strict` does, rather than building
  a site it then refuses.
- on_files: add the generated pages and data files (File.generated: nothing is written into
  docs/, so `mkdocs serve` does not loop).
- on_page_markdown: expand `[[entity#figure]]` references in hand-written pages.
- on_page_context: point each page's edit button at what to edit in the repository: the
  Markdown file of a hand-written page, the spec folder of a generated one.
- Under `mkdocs serve` nothing stops the build (a failed rebuild would leave the server waiting
  for it and answering no request): a knowledge base that does not validate gets a page listing
  the diagnostics in place of every generated page and at the top of every hand-written one, and
  a hand-written page's unresolved references are listed at its top; livereload then reloads the
  browser after each rebuild, the one that fixes the specs included. Warnings are listed the same
  way at the top of every page, generated or not, of a site that is otherwise built as usual.
- The site folder is replaced whole or not at all (`mkdocs build`, `gh-deploy`): the build writes
  into a sibling folder that takes the old site's place in on_post_build, after every other
  plugin and only if strict mode has nothing to abort on; a failed build deletes it
  (on_build_error, or on_shutdown after an interrupt). `mkdocs serve` builds into its own
  temporary folder and is left alone.
- The English edition (issue 27): the Chinese build renders both languages' pages at once (one
  validation; what the pages compute without words is computed once), and at its end, before
  the site takes its place, builds mkdocs.en.yml into the site's `en/` folder: a nested MkDocs
  build whose events reach this adapter again (`nested()`), written in English
  (generator.language), with the Chinese build's knowledge base and pages. Its strict-mode
  warnings count for the whole build, so both editions land together or not at all.
`specs/`, `generator/` and `includes/` are watched by the hook (generator/edge/serve_watch.py), so
an edit rebuilds once, and a replaced or deleted folder is noticed too.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.toc import TableOfContents
from mkdocs.utils import CountHandler

from ..diagnostics import Diagnostic, format_all
from ..language import DEFAULT, LANGUAGES, say, speaking
from ..render import page_source
from ..render.abbreviations import first_use_only
from ..render.expand import body_first_line, expand_blocks, expand_figures
from ..render.limits import insert_limits
from ..render.problems import problems_banner, problems_pages
from ..render.search_index import as_utf8
from ..render.trust import source_targets, summary_html
from . import sitedir
from .cli import find_repository, run_build
from .files import replace_file
from .template_cache import keep_compiled_templates

log = get_plugin_logger("generator")
_state: dict[str, Any] = {"command": "build", "dirty": False}
ENGLISH_CONFIG = "mkdocs.en.yml"  # beside mkdocs.yml: the English edition, built into en/


def on_startup(*, command: str, dirty: bool) -> None:
    _state.update(command=command, dirty=dirty)


def nested() -> bool:
    """Whether the build under way is the English edition's, inside the Chinese build."""
    return bool(_state.get("nested"))


def on_config(config: Any) -> Any:
    project = Path(config.config_file_path).resolve().parent
    docs = Path(config.docs_dir).resolve()
    _state["docs"] = docs.relative_to(project).as_posix() if docs.is_relative_to(project) else None
    if nested():
        return config  # the Chinese build has validated and rendered the English pages
    if config.theme["language"] != DEFAULT:
        raise PluginError(f"{Path(config.config_file_path).name} is the English edition: `mkdocs build` (mkdocs.yml) "
                          "builds it into en/, with the Chinese site")
    english = project / ENGLISH_CONFIG
    languages = LANGUAGES if english.is_file() else (DEFAULT,)
    repository = find_repository(project)
    result, files = run_build(project / "specs", repository, languages)
    if files is None or result.kb is None or result.figures is None:
        _invalid(result.diagnostics, project)
        editions = {}
        for lang in languages:  # the problems pages, in each edition's language
            with speaking(lang):
                editions[lang] = problems_pages(_state["problems"])
    else:
        editions = _editions(files, languages)
        _state.update(figures=result.figures, problems=_warnings(result.warnings, project, config),
                      kb=result.kb, titles=source_targets(result.kb))
    _state.update(language=DEFAULT, files=editions[DEFAULT], repository=repository,
                  english=(english, editions["en"]) if "en" in editions else None)
    if not _serving():
        _build_beside(config)
    return config


def _editions(files: dict[str, str], languages: Sequence[str]) -> dict[str, dict[str, str]]:
    """The rendered files of each language (render_site puts all but the default under
    `<language>/`), each named from its own edition's root."""
    editions: dict[str, dict[str, str]] = {lang: {} for lang in languages}
    for path, text in files.items():
        head, _slash, rest = path.partition("/")
        if head in editions and head != DEFAULT and rest:
            editions[head][rest] = text
        else:
            editions[DEFAULT][path] = text
    return editions


def _invalid(diagnostics: Sequence[Diagnostic], project: Path) -> None:
    """Stop the build with every diagnostic; under `mkdocs serve`, give the pages the list instead."""
    report = format_all(diagnostics)
    if not _serving():
        raise PluginError(f"the knowledge base does not validate:\n{report}")
    # Logged as info: a warning would make strict mode abort the build this page is for.
    log.info(f"the knowledge base does not validate; the site lists the problems:\n{report}")
    problems = [_relative(d, project) for d in diagnostics]
    _state.update(files=problems_pages(problems), figures=None, titles={}, problems=problems)


def _warnings(warnings: Sequence[Diagnostic], project: Path, config: Any) -> list[Diagnostic]:
    """Report the warnings of a knowledge base that validates: strict mode stops here; a plain
    build logs them; `mkdocs serve` returns them, for the banner at the top of every page."""
    if not warnings:
        return []
    report = format_all(warnings)
    if _serving():
        log.info(f"the knowledge base has warnings; every page lists them:\n{report}")
        return [_relative(d, project) for d in warnings]
    if config.strict:
        raise PluginError(f"the knowledge base has warnings, which strict mode counts as errors:\n{report}")
    log.warning(f"the knowledge base has warnings:\n{report}")
    return []


def _serving() -> bool:
    return bool(_state["command"] == "serve")


def _relative(diagnostic: Diagnostic, project: Path) -> Diagnostic:
    """The diagnostic with its file named from the project folder (specs/...), as `check` names it."""
    path = Path(diagnostic.path)
    return replace(diagnostic, path=str(path.relative_to(project))) if path.is_relative_to(project) else diagnostic


def on_env(env: Any, config: Any, files: Files) -> Any:
    """The theme's templates drop the line a block tag (`{% if %}`, `{% for %}`) stands on, and
    its indentation: Material's templates put each on a line of its own, which left every page
    with some 8 KB of blank, indented lines around the content (an HTML page reads the same).
    They are compiled once and kept, as the generator's own are (template_cache): each build, each
    edition and each rebuild under `mkdocs serve` compiled Material's again."""
    env.trim_blocks = True
    env.lstrip_blocks = True
    keep_compiled_templates(env)  # after the settings above, which name its entries
    return env


def on_files(files: Files, config: Any) -> Files:
    for path, content in sorted(_state["files"].items()):
        files.append(File.generated(config, path, content=content))
    assets = _state.get("assets")
    if assets is not None:  # the English edition: the Chinese docs' stylesheets and scripts
        for path in sorted(p for p in assets.rglob("*") if p.is_file()):
            uri = path.relative_to(assets.parent).as_posix()
            if files.get_file_from_path(uri) is None:
                files.append(File(uri, str(assets.parent), config.site_dir, config.use_directory_urls,
                                  inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.generated_by is not None:  # its page, or the problems page
        warnings = _state["figures"] is not None and _state["problems"]  # serving a base with warnings
        return problems_banner(_state["problems"]) + markdown if warnings else markdown
    markdown = insert_limits(markdown)  # the limits the code enforces, in its own figures
    if _state["figures"] is None:  # serving a knowledge base that does not validate
        return problems_banner(_state["problems"]) + markdown
    depth = page.file.src_uri.count("/")
    first_line = body_first_line(page.file.content_string, markdown)  # lines of front matter
    # Pages are served as folders (use_directory_urls), the home page at the root.
    root = "" if page.file.src_uri == "index.md" else "../" * (depth + 1)
    where = f"{_state['docs'] or 'docs'}/{page.file.src_uri}"
    expanded, problems = expand_figures(markdown, _state["figures"], _state["titles"], where, depth, first_line)
    # Generated blocks go in after the references are expanded, so line numbers stay the file's.
    title = say("全站数字的来源", "Where the site's figures come from")
    expanded, unknown = expand_blocks(expanded, {"provenance": summary_html(_state["kb"], title=title, root=root)})
    if unknown:
        raise PluginError(f"{where}: unknown generated block(s): {', '.join(unknown)}")
    if problems and not _serving():
        raise PluginError("figure references that do not resolve:\n" + format_all(problems))
    if problems:
        log.info("figure references that do not resolve:\n" + format_all(problems))
    problems += _state["problems"]  # the knowledge base's warnings, when serving
    return problems_banner(problems) + expanded if problems else expanded


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return first_use_only(html)


def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    if "toc" in (page.meta.get("hide") or ()):
        # Material's `hide: [toc]` only hides the sidebar; the entries would still be written
        # twice (sidebar and phone menu). Dropped after the search plugin has indexed the page
        # (the hook runs last), whose sections keep their own anchors.
        page.toc = TableOfContents([])
    repository = _state.get("repository")
    if repository is not None:
        source = page_source(page.file.src_uri)
        if page.file.generated_by is not None:
            page.edit_url = repository.folder(source) if source else None
        elif _state["docs"] is not None:
            page.edit_url = repository.edit(f"{_state['docs']}/{page.file.src_uri}")
    return context


def _build_beside(config: Any) -> None:
    """Point the build at a fresh folder beside the site, and count warnings as strict mode does."""
    sibling = sitedir.start(config.site_dir, dirty=_state["dirty"])
    if sibling is None:
        return  # no folder can be made beside it: MkDocs writes in place, as it always did
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(counter)
    _state["pending"] = (config, config.site_dir, sibling, counter)
    config.site_dir = str(sibling)


def on_post_build(config: Any) -> None:
    if nested():
        _rewrite_search_index(Path(config.site_dir))
        return
    pending = _end_pending()
    site = Path(config.site_dir if pending is None else pending[2])
    _rewrite_search_index(site)
    if _state.get("english") is not None:
        try:
            _build_english(config, site / "en")
        except BaseException:
            if pending is not None:
                sitedir.discard(pending[2])  # neither edition lands
            raise
    if pending is None:
        return
    _config, site_dir, sibling, counter = pending
    if config.strict and counter.get_counts():
        sitedir.discard(sibling)  # MkDocs aborts right after this hook: the old site stays
        return
    try:
        sitedir.finish(sibling, site_dir)
    except OSError as err:
        sitedir.discard(sibling)
        raise PluginError(f"the new site could not replace {site_dir}: {err}") from None


def _build_english(config: Any, target: Path) -> None:
    """Build the English edition (mkdocs.en.yml) into `target`, the `en/` folder of the site
    being built, with the pages rendered in on_config. The nested configuration's hook is the
    same module (MkDocs loads a hook file once per process), so its events reach this adapter,
    which sees the English edition's state (`nested()`) until the build ends."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    english_config, files = _state["english"]
    saved = dict(_state)
    _state.clear()
    _state.update(command=saved["command"], dirty=False, nested=True, language="en", files=files,
                  figures=saved.get("figures"), kb=saved.get("kb"), repository=saved.get("repository"),
                  problems=saved.get("problems", []), assets=Path(config.docs_dir).resolve() / "assets")
    try:
        with speaking("en"):
            if _state["kb"] is not None:
                _state["titles"] = source_targets(_state["kb"])
            english = load_config(str(english_config), site_dir=str(target), strict=config.strict)
            build(english, dirty=False)
    finally:
        _state.clear()
        _state.update(saved)


def _rewrite_search_index(site: Path) -> None:
    """The search plugin's index, rewritten as UTF-8 (render/search_index.py). It runs after the
    plugin's own on_post_build (the hook's priority is -100) and before the site takes its place."""
    index = site / "search" / "search_index.json"
    # Only the search plugin's own file: not one reached through a linked folder or at a link
    # (a site folder written in place may hold them), and written back through a fresh file
    # renamed over it, so that nothing outside the site is read or written.
    if index.parent.resolve().is_relative_to(site.resolve()) and index.is_file() and not index.is_symlink():
        replace_file(index, as_utf8(index.read_text(encoding="utf-8")).encode("utf-8"))


def on_build_error(error: Exception) -> None:
    _abandon_pending()


def on_shutdown() -> None:
    _abandon_pending()  # a build interrupted by Ctrl-C is no build error, but ends here too


def _abandon_pending() -> None:
    pending = _end_pending()
    if pending is not None:
        sitedir.discard(pending[2])


def _end_pending() -> tuple[Any, str, Path, CountHandler] | None:
    """The build in progress, if any, with the site folder given back to the configuration
    (`gh-deploy` publishes `config.site_dir` after the build) and the counter detached."""
    pending = _state.pop("pending", None)
    if pending is not None:
        config, site_dir, _sibling, counter = pending
        config.site_dir = site_dir
        logging.getLogger("mkdocs").removeHandler(counter)
    return pending
