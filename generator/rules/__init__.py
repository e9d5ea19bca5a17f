"""The registered cross-entity rules, run in this order on a loaded knowledge base."""

from __future__ import annotations

from .arithmetic import check_derived_values, check_form_factor, check_pcie_generations
from .base import Context, Rule
from .claims import check_claims
from .refs import check_references, check_unused_sources
from .sources import check_prices, check_primary_figures, check_source_urls
from .tables import check_recommendations, check_tier_tables
from .text import check_text_figures
from .tree import check_tree_answers, check_tree_leaves, check_tree_structure
from .units import check_units

RULE_CHECKS: tuple[Rule, ...] = (
    check_references,
    check_unused_sources,
    check_units,
    check_derived_values,
    check_form_factor,
    check_pcie_generations,
    check_claims,
    check_tier_tables,
    check_recommendations,
    check_source_urls,
    check_primary_figures,
    check_prices,
    check_text_figures,
    check_tree_structure,
    check_tree_answers,
    check_tree_leaves,
)

__all__ = ["Context", "RULE_CHECKS"]
