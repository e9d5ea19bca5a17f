"""The model's answer beside the articles' on the flowchart and tier pages: each leaf's estimate
at its branch's hardest point (generator/selection/leafcheck.py, the same record `recommend` prints), and
for each row of an article's tier table, what the site's own leaves for those GPU counts pick.

Every number here is computed by the cost model from specs/, never typed: the page formats it."""

from __future__ import annotations

from markupsafe import Markup, escape

from ..derive import FigureIndex
from ..knowledge import Loaded
from ..labels import BOTTLENECK_ZH, NEED_ZH, RECOMPUTE_ZH
from ..model.common import Range
from ..model.entities import TierTable
from ..model.selection import Selection
from ..planner.plan import GENERIC_GPUS_PER_NODE
from ..selection.advice import leaf_estimate
from ..selection.leafcheck import LeafCheck, check_tree
from ..selection.tree import leaf_paths, range_on_path, variables
from .context import Site
from .table import Cell, Row, Table
from .text import inert


def leaf_checks(site: Site) -> dict[str, LeafCheck]:
    """Every leaf of every tree, checked once per page context."""
    found: dict[str, LeafCheck] = {}
    for entity in site.kb.of_type(Selection):
        if entity.model.root in {q.id for q in entity.model.questions}:
            found.update(check_tree(site.kb, entity.model))
    return found


def estimate_view(checked: LeafCheck | None, figures: FigureIndex) -> dict[str, object] | None:
    """The leaf's estimate as the flowchart page shows it; None where the model cannot judge the
    leaf (a knowledge base without the model's assumptions or a workload in the leaf's range)."""
    if checked is None or checked.unchecked:
        return None
    est = leaf_estimate(checked, figures)
    rows: list[tuple[str, str]] = []
    view: dict[str, object] = {"where": f"{est['workload_name']}，{est['gpus']} 块 GPU（每台 {est['gpus_per_node']} 块）",
                               "needs": None, "warning": None, "rows": rows}
    if "inputs" in est:
        i, m = est["inputs"], est["memory_per_gpu_gb"]
        rows.append(("并行布局", f"张量并行 {i['tp']} × 流水线并行 {i['pp']}，ZeRO-{i['zero']}，"
                              f"{RECOMPUTE_ZH[i['recompute']]}，全局批 {i['global_batch']} 条 × {i['seq']} token"))
        rows.append(("每卡显存", f"{m['total_gb']:.1f} GB，可用 {m['usable_gb']:.1f} GB："
                             f"{'放得下' if est['fits'] else '放不下'}"))
        if est["fits"]:
            rows.append(("每步时间", f"{est['step_time_s']:.3g} s"))
            share = f"{est['comm_share']:.1%}"
            if est["comm_share_threshold"] is not None:
                share += f"（警戒线 {est['comm_share_threshold']:.0%}）"
            rows.append(("通信占比", share))
        rows.append(("瓶颈", BOTTLENECK_ZH.get(est["bottleneck"], est["bottleneck"])))
    else:
        rows.append(("结果", str(est["why"])))
    for point in est["points"]:
        state = "放得下" if point["fits"] else "放不下"
        if point["fits"] and point["comm_share"] is not None:
            state += f"，通信占比 {point['comm_share']:.1%}"
        rows.append((f"{point['gpus']} 块 GPU", state))
    leaf = checked.leaf
    if leaf.needs is not None:
        view["needs"] = (NEED_ZH[leaf.needs.what], leaf.needs.note.zh)
    if leaf.comm_warning is not None and checked.max_comm_share is not None:
        view["warning"] = (f"{checked.max_comm_share:.1%}", leaf.comm_warning.note.zh)
    return view


def side_by_side(site: Site, table: Loaded[TierTable], checks: dict[str, LeafCheck]) -> Table | None:
    """For each row of an article's tier table: the article's picks, and the picks of the site's
    leaves reached with those GPU counts, each with the model's largest communication share."""
    subject = table.model.subject
    reached = _leaf_ranges(site)
    if not reached:
        return None
    out = Table([("GPU 数", True), ("文章建议", False), ("按模型估算（本站的叶子）", False)])
    for row in sorted(table.model.rows, key=lambda r: r.gpus.min):
        article = Markup("、").join(site.link(p) for p in row.picks) if row.picks else Markup("（未给出建议）")
        if subject in ("network", "topology") and row.gpus.max is not None and row.gpus.max - 1 <= GENERIC_GPUS_PER_NODE:
            # Counts that fit in one server use no network: a leaf's network pick says nothing about them.
            out.rows.append(Row([Cell(escape(row.gpus.label()), str(row.gpus.min), numeric=True), Cell(article),
                                 Cell(Markup("这些 GPU 装在一台服务器里，用不到节点间网络"))]))
            continue
        ours = []
        for leaf_id, (gpus, picks) in reached.items():
            pick = picks.get(subject)
            if not gpus.overlaps(row.gpus) or pick is None:
                continue
            checked = checks.get(leaf_id)
            share = checked.max_comm_share if checked is not None and not checked.unchecked else None
            note = "" if share is None else f"，通信占比至多 {share:.1%}"
            ours.append(Markup('<a href="../flowchart/#leaf-{}">{}</a>：{}{}').format(
                leaf_id, inert(_leaf_title(site, leaf_id)), site.link(pick), note))
        out.rows.append(Row([Cell(escape(row.gpus.label()), str(row.gpus.min), numeric=True), Cell(article),
                             Cell(Markup("<br>").join(ours) if ours else Markup("—"))]))
    return out


def _leaf_ranges(site: Site) -> dict[str, tuple[Range, dict[str, str | None]]]:
    """Leaf id -> (the GPU counts that reach it, its picks by subject)."""
    found: dict[str, tuple[Range, dict[str, str | None]]] = {}
    for entity in site.kb.of_type(Selection):
        sel = entity.model
        counts = variables(sel).get("gpus")
        paths = leaf_paths(sel)
        for leaf in sel.leaves:
            path = paths.get(leaf.id)
            if path is None or leaf.id in found:
                continue
            picks = leaf.picks.by_field()
            found[leaf.id] = (range_on_path(path, "gpus", (counts.min or 1) if counts else 1),
                              {"network": picks["network"], "topology": picks["topology"],
                               "intra_node": picks["intra_node"]})
    return found


def _leaf_title(site: Site, leaf_id: str) -> str:
    for entity in site.kb.of_type(Selection):
        for leaf in entity.model.leaves:
            if leaf.id == leaf_id:
                return leaf.title.zh
    return leaf_id
