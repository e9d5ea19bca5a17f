"""The registry: every rule module in run order, and from them the one list of rules (`RULES`,
id -> rule) and of checks (`CHECKS`). The rules page lists each family's rules in this order.

A rule is declared in its own module, beside its check and its documentation; nothing is
written here but the module's place in the order. An id declared twice fails at import.
"""

from __future__ import annotations

from typing import Protocol

from ..diagnostics import FAMILIES, Rule
from ..load import schema_rules, yaml_rules
from . import (
    arithmetic_divisors,
    arithmetic_gpu,
    arithmetic_node,
    arithmetic_nvlink,
    arithmetic_nvswitch,
    arithmetic_pcie,
    arithmetic_port_rate,
    assumptions_required,
    calibration,
    case_table,
    claim_basis,
    claims,
    costmodel_cases,
    costmodel_specs,
    diagnostic_cap,
    direction_allowed,
    figure_slips,
    future_dates,
    gpu_form_factor,
    gpu_precisions,
    markets,
    pcie_generations,
    pitfall_claims,
    plausibility,
    price_sources,
    primary_sources,
    quantity_units,
    recommendation_tiers,
    references,
    runs,
    scope_allowed,
    source_provenance,
    source_urls,
    sources_one_revision,
    spec_tree,
    text_en_numbers,
    text_english,
    text_figures,
    text_hygiene,
    text_ids,
    tier_tables,
    tree_coverage,
    tree_examples,
    tree_structure,
    unique_ids,
    unused_sources,
    vocabulary,
)
from .base import Check


class RuleModule(Protocol):
    """What a module of generator/rules/ provides: the rules it declares and the checks that
    emit them (none when another stage checks them, as the loader does the yaml-* rules)."""

    @property
    def RULES(self) -> tuple[Rule, ...]: ...  # read-only: any tuple of rules will do
    @property
    def CHECKS(self) -> tuple[Check, ...]: ...


MODULES: tuple[RuleModule, ...] = (
    yaml_rules,
    schema_rules,
    spec_tree,
    text_hygiene,
    text_english,
    text_en_numbers,
    future_dates,
    diagnostic_cap,
    references,
    vocabulary,
    gpu_precisions,
    quantity_units,
    direction_allowed,
    scope_allowed,
    plausibility,
    arithmetic_pcie,
    pcie_generations,
    arithmetic_nvlink,
    arithmetic_nvswitch,
    arithmetic_port_rate,
    arithmetic_gpu,
    arithmetic_node,
    arithmetic_divisors,
    figure_slips,
    gpu_form_factor,
    text_figures,
    text_ids,
    unique_ids,
    unused_sources,
    claims,
    claim_basis,
    pitfall_claims,
    case_table,
    tier_tables,
    recommendation_tiers,
    tree_structure,
    tree_coverage,
    tree_examples,
    markets,
    costmodel_specs,
    assumptions_required,
    costmodel_cases,
    runs,
    calibration,
    source_urls,
    source_provenance,
    primary_sources,
    price_sources,
    sources_one_revision,
)


def _registry(modules: tuple[RuleModule, ...]) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for module in modules:
        for rule in module.RULES:
            if rule.id in rules:
                raise ValueError(f"rule {rule.id!r} is declared twice")
            rules[rule.id] = rule
    return rules


RULES: dict[str, Rule] = _registry(MODULES)
CHECKS: tuple[Check, ...] = tuple(check for module in MODULES for check in module.CHECKS)

__all__ = ["CHECKS", "FAMILIES", "MODULES", "RULES"]
