"""How far a reader can trust what the site shows: the provenance summary (counts of figures by
what they rest on), the verdict badge of an article's claim, and what a source's reading status
looks like beside a figure or a date. Counts come from the data (generator.provenance)."""

from __future__ import annotations

from typing import NamedTuple, get_args

from markupsafe import Markup, escape

from ..charsets import chinese
from ..knowledge import KnowledgeBase
from ..labels import BASIS, FOOTING, VERDICT
from ..language import Bilingual, current, say
from ..model.entities import Claim, Source, SourceKind
from ..provenance import FIGURE_KINDS, FOOTINGS, access, summarize
from .escape import attr


def access_link(reached: str) -> tuple[str, str]:
    """What a figure's source link says about how the source was reached (`access`): the link's
    text, and what a link title adds after the source's title."""
    if reached == "copy":
        return say("源·副本", "src·copy"), say("（只在第三方副本中读到）", " (read only in a third-party copy)")
    if reached == "unread":
        return say("源·未读", "src·unread"), say("（本项目未能打开原文）", " (this project could not open the original)")
    return say("源", "src"), ""


def as_written(text: Markup) -> Markup:
    """Escaped spec text that may be Chinese (a source's title, its publisher), marked as Chinese
    when it holds any on an English page, where a reader's tools (a screen reader, a translator)
    must know it is not English. A Chinese page is left as it is."""
    if current() == "en" and chinese(text):
        return Markup('<span lang="zh">{}</span>').format(text)
    return text


def summary_html(kb: KnowledgeBase, *, kinds: tuple[str, ...] = FIGURE_KINDS, title: str, root: str = "../") -> Markup:
    """An info box with the figures of `kinds` counted by footing; `root` leads from the page to
    the site root (links to the sources page)."""
    summary = summarize(kb, kinds)
    items = "".join(
        f'<li data-footing="{f}"><strong class="provenance-count">{summary.counts[f]}</strong>'
        f'{say(" 个", " ")}{escape(FOOTING[f])}</li>'
        for f in FOOTINGS if summary.counts[f])
    if current() == "en":
        text = (f"<p>The figures below are counted by the sources they rest on, {summary.total} in all (each "
                "figure entered in the knowledge base counts once):</p>\n"
                f'<ul class="provenance-counts">{items}</ul>\n'
                "<p>The “src” link beside a figure leads to where it comes from: one marked “src·copy” was read "
                "only in a third-party copy; one marked “src·unread” rests on a source this project could not read "
                "in the original, and carries no date checked. A source article's own figures (the author's "
                "measurements, for example) are not independent data: a verdict on such a claim only says the "
                f'article agrees with itself. See <a href="{root}sources/">sources</a> and '
                f'<a href="{root}claims/">article claims checked</a>.</p>\n')
    else:
        text = (f"<p>下面的数字按它所依据的来源分类计数，共 {summary.total} 个（每个写入知识库的数字计一次）：</p>\n"
                f'<ul class="provenance-counts">{items}</ul>\n'
                "<p>数字旁的“源”链接指向出处：写着“源·副本”的只在第三方副本中读到，写着“源·未读”的，本项目没有读到原文，"
                "不给核对日期。来源文章自己的数字（例如作者的实测）不算独立数据，对应论断的结论只说明文章前后一致。"
                f'详见<a href="{root}sources/">来源</a>与<a href="{root}claims/">文章论断核对</a>。</p>\n')
    return Markup(
        f'<div class="admonition info provenance-summary" id="provenance" data-total="{summary.total}">\n'
        f'<p class="admonition-title">{escape(title)}</p>\n{text}</div>')


def verdict_badge(kb: KnowledgeBase, claim_id: str, *, root: str = "../") -> Markup:
    """The verdict of a claim with what it was checked against, linked to its row on the claims page."""
    claim = kb.get(claim_id, Claim)
    if claim is None:
        return escape(claim_id)
    m = claim.model
    return Markup(f'<a class="verdict verdict-{m.verdict} basis-{m.basis}" href="{root}claims/#{escape(claim_id)}" '
                  f'title="{attr(m.said.shown())}">{VERDICT[m.verdict]}{say("｜", " | ")}{BASIS[m.basis]}</a>')


class SourceGroup(NamedTuple):
    """One page of the source lists: the sources whose publisher has one of `roles` and, where
    `kinds` is given, whose kind is one of them."""

    page: str
    title: str
    roles: tuple[str, ...]
    kinds: tuple[str, ...] | None = None


# The sources are listed on one page per kind of publisher: a single page of every source, each
# with its provenance, notes and back-links, outgrew the page-weight budget (DESIGN §8) and only
# grows with the knowledge base. /sources/ is the index of all of them. The vendors' documents,
# the largest group, outgrew one page in turn: their technical documentation (manuals, framework
# docs and repositories) has its own.
SOURCE_GROUPS: tuple[SourceGroup, ...] = (
    SourceGroup("sources-vendor", "厂商数据手册、产品页与实测", ("vendor",),
                tuple(kind for kind in get_args(SourceKind) if kind != "documentation")),
    SourceGroup("sources-docs", "厂商技术文档", ("vendor",), ("documentation",)),
    SourceGroup("sources-standards", "标准、规范与法规", ("standards_body", "regulator")),
    SourceGroup("sources-papers", "论文", ("academic",)),
    SourceGroup("sources-other", "开源项目、媒体、第三方与来源文章", ("project", "press", "third_party", "author")),
)
_GROUP_TITLE = Bilingual(zh={g.page: g.title for g in SOURCE_GROUPS},
                         en={"sources-vendor": "Vendor datasheets, product pages and measurements",
                             "sources-docs": "Vendor technical documentation",
                             "sources-standards": "Standards, specifications and regulations",
                             "sources-papers": "Papers",
                             "sources-other": "Open-source projects, press, third parties and the source articles"})


def group_title(page: str) -> str:
    """The title of one page of SOURCE_GROUPS in the language being written."""
    return _GROUP_TITLE[page]


def source_page(source: Source) -> str:
    """The page a source is listed on (`sources-vendor`), relative to the site's root: the first
    group that takes its publisher's role and its kind."""
    return next(g.page for g in SOURCE_GROUPS
                if source.publisher_role in g.roles and (g.kinds is None or source.kind in g.kinds))


def source_targets(kb: KnowledgeBase) -> dict[str, tuple[str, str]]:
    """Where a hand-written page's figure links to its source: id -> (the link's title, saying
    how the source was read, and the page the source is listed on)."""
    return {e.id: (e.model.title + access_link(access(e.model))[1], source_page(e.model)) for e in kb.of_type(Source)}


def source_link(source: Source) -> Markup:
    """The small link after a figure to its source, saying how the source was reached (源,
    源·副本, 源·未读; src, src·copy, src·unread in English). No hover title: a data page carries hundreds of these links, and the
    source's title on each was a fifth of the GPU page (DESIGN §8: under 150 KB); the address
    the browser shows on hover names the source (`#src-nvidia-h100-datasheet`)."""
    reached = access(source)
    # One class a link: "fig-src" for a source that was read, "fig-src-copy" or "fig-src-unread"
    # for one that was not (extra.css styles the three alike, the last two underlined dotted).
    kind = "fig-src" if reached == "read" else f"fig-src-{reached}"
    return Markup(f'<a class="{kind}" href="../{source_page(source)}/#src-{escape(source.id)}">'
                  f'{access_link(reached)[0]}</a>')


def checked_on(sources: list[Source], date: str) -> str:
    """A verification date that the sources behind it can support: the date when every source
    was read (at its own address or through a copy), otherwise what was not read."""
    reached = {access(s) for s in sources}
    if "unread" in reached:
        return say("来源未读", "source not read") if reached == {"unread"} else say("部分来源未读", "some sources not read")
    return date + say("（含副本）", " (incl. copies)") if "copy" in reached else date
