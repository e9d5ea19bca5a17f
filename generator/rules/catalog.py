"""The registry: every rule module in run order, and from them the one list of rules (`RULES`,
id -> rule) and of checks (`CHECKS`). The rules page lists each family's rules in this order.

A rule is declared in its own module, beside its check and its documentation; nothing is
written here but the module's place in the order, and each rule's sentence for the English rules
page (`RULE_EN`). An id declared twice, or a rule without its English, fails at import.
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

__all__ = ["CHECKS", "FAMILIES", "MODULES", "RULE_EN", "RULES"]


# Each rule's sentence for the English rules page, by id (the Chinese one is the rule's `zh`,
# declared beside it). Kept whole here rather than in forty-odd rule modules; an id missing here
# or left over fails at import, as a rule declared twice does.
RULE_EN: dict[str, str] = {
    "yaml-syntax": "A file must be valid YAML; an error gives the position the parser points to.",
    "yaml-tab": "Indent with spaces only, never tabs.",
    "yaml-duplicate-key": "No key may appear twice in one mapping (PyYAML silently keeps the last one by default; "
                          "here it is an error).",
    "yaml-tag": "Only plain YAML values are accepted: tags such as !!python/object and merge keys are refused.",
    "yaml-alias": "No anchors or aliases (*name), which guards against “billion laughs” expansion attacks.",
    "yaml-too-large": "A file and each single value have a size limit.",
    "yaml-too-deep": "Nesting depth has a limit.",
    "yaml-encoding": "A file must be UTF-8 without a BOM and hold no control characters YAML forbids.",
    "yaml-empty": "A file must not be empty.",
    "yaml-number-form": "Numbers are read as YAML 1.2; forms YAML 1.1 reads as another value (0700, 0b1010, 1_000, "
                        "1:30), hexadecimal and octal are errors, and the message gives the decimal form.",
    "yaml-boolean-form": "yes/no/on/off/y/n are booleans in YAML 1.1 but text in YAML 1.2: write booleans as "
                         "true/false and quote text.",
    "schema-required": "Required fields must be present.",
    "schema-type": "Each field must have the right type, with no implicit conversion (\"80\" is not 80).",
    "schema-enum": "An enumerated field takes only the listed values.",
    "schema-unknown-key": "An unknown key is an error, never silently ignored; the closest valid key is suggested.",
    "schema-value": "Numbers must be finite, non-negative and within a sensible range.",
    "schema-format": "Strings must match their format (for example a figure reference, entity#figure).",
    "schema-text-too-long": "Text fields have a length limit.",
    "schema-id-format": "An id must be a lowercase slug (letters, digits, single hyphens) and cannot hold a path.",
    "schema-id-filename": "An id must match its file name.",
    "schema-folder": "Spec files must sit in a known folder and end in .yaml.",
    "schema-symlink-outside": "A spec file cannot be a symbolic link to outside specs/.",
    "schema-symlink-loop": "Symbolic links cannot form a loop.",
    "schema-symlink-broken": "A symbolic link must point to a file that exists.",
    "schema-unreadable": "Spec files and folders must be readable (missing permissions are reported, not a crash).",
    "schema-special-file": "A spec file must be a regular file, not a named pipe, socket or device.",
    "text-invisible": "Keys and values cannot hold bidirectional controls or zero-width and other invisible "
                      "characters (they change what editors and diffs show).",
    "text-control": "Keys and values cannot hold control characters (C0, DEL, C1; tab and newline excepted), "
                    "not even written as YAML escapes (such as \\x9b, \\e).",
    "text-blank": "A text value cannot be empty or only blanks (full-width spaces included): such a name or note "
                  "shows nothing on the page.",
    "text-confusable": "Where ASCII belongs, no look-alike characters may slip in: Cyrillic or Greek letters in a "
                       "run of Latin ones, full-width letters and digits, mathematical letters.",
    "schema-future-date": "Dates (verified, retrieved, published and price dates) cannot be later than the build date.",
    "schema-too-many-problems": "Each file lists at most 50 diagnostics; the rest are merged into one that says how "
                                "many more there are, and that one is only a warning if all the rest are.",
    "gpu-precision-entry": "Each precision either gives the dense throughput (sparse optional) or states, with a "
                           "source, that it is not supported: one or the other.",
    "gpu-precision-duplicate": "A GPU's tensor throughput lists each precision only once.",
    "refs-unknown": "A referenced id must exist and be of the kind the field requires.",
    "vocab-reference-precision": "Exactly one value of the precision vocabulary is marked `reference: true`; a "
                                 "GPU's throughput per watt, per byte and per dollar is computed in it.",
    "refs-unknown-figure": "A referenced figure (entity#figure) must exist.",
    "text-figure-ref-malformed": "Every pair of double square brackets outside code must be a valid figure reference: "
                                 "all lowercase, no stray spaces, no zero-width or bidirectional controls, with a #, "
                                 "and a unit from the unit table.",
    "text-spec-id": "Prose cannot call another entity by its id (the kind made of two or more hyphenated parts): "
                    "readers should see its name, and an id does not follow a rename.",
    "refs-duplicate-id": "Ids are unique across the whole knowledge base.",
    "refs-unused-source": "Every source file must be cited at least once.",
    "units-unknown": "A unit must be in the unit table.",
    "units-dimension": "A field accepts only units of its dimension (a bandwidth field cannot be in TFLOPS).",
    "units-direction-missing": "A bandwidth must state its direction: per direction (per_direction), bidirectional "
                               "total (bidirectional) or aggregate (aggregate).",
    "units-direction-not-allowed": "The direction must be one the field allows (memory bandwidth is only aggregate; "
                                   "throughput and power have no direction).",
    "units-scope-not-allowed": "The scope must be one the field allows (a GPU's power and throughput are only "
                               "per_gpu).",
    "plausibility-range": "A value should fall within the range the model declares for its field; outside it is a "
                          "warning (an error in strict mode), most often a whole node's or rack's figure written "
                          "into a per-GPU field, or a wrong unit.",
    "node-port-direction": "Port rates of nodes and NICs are written per direction (direction: per_direction).",
    "units-bit-byte": "A written figure that equals the derived value in the other unit (Gb/s against GB/s) is "
                      "flagged as a bit/byte mix-up.",
    "units-direction-slip": "A written figure that is exactly twice or half the derived value is flagged as a "
                            "per-direction/bidirectional mix-up.",
    "text-missing-en": "Every text carries English (en) beside its Chinese (zh): the English pages and the data "
                       "downloads read it. A missing one is a warning (an error under strict mode), at the text's zh key.",
    "text-plain-chinese": "A field written in one language only (a name, a label other than a publisher, a revision) "
                          "holds no Chinese: the English pages show it as it is. Write a model name in a neutral form; "
                          "a field that takes {zh, en} (a publisher) gets both. A document's own title and a source's "
                          "words as quoted (quote, said) are exempt. A warning (an error under strict mode).",
    "text-en-numbers": "A text's English (en) states every number of its Chinese (zh) and none it lacks, by value "
                       "(a count in Chinese characters or English words is read as its value; figure references aside): the two editions' pages show the same "
                       "numbers. A difference is a warning (an error under strict mode), at the text's en value, "
                       "naming the numbers found on one side only.",
    "text-typed-figure": "Prose cannot hold a typed figure with a unit: write a figure reference (entity#figure), "
                         "which the build expands into the figure with its unit, direction and source; only fields "
                         "that record a source's own words (a claim as said, a source's note, a field report's "
                         "symptom, a recommendation as said) are exempt.",
    "arithmetic-pcie-bandwidth": "PCIe bandwidth = transfer rate per lane × lanes × encoding efficiency ÷ 8; "
                                 "bidirectional is twice that.",
    "arithmetic-pcie-generation": "Each PCIe generation doubles the previous one's transfer rate per lane (3.0 to "
                                  "6.0); a generation that matches neither neighbour is taken to be the wrong one.",
    "arithmetic-nvlink-total": "NVLink aggregate per GPU = links × bandwidth per link (converted to bidirectional).",
    "arithmetic-nvswitch-per-gpu": "NVSwitch bandwidth per GPU equals that NVLink generation's aggregate per GPU.",
    "arithmetic-port-rate": "Network port rate = lanes × rate per lane.",
    "arithmetic-memory-bandwidth": "Memory bandwidth = bus width × rate per pin ÷ 8.",
    "arithmetic-fp32": "FP32 peak = SMs × FP32 units per SM × 2 (FMA) × boost clock.",
    "arithmetic-gpu-scale-up": "A GPU's scale-up bandwidth = links × bandwidth per link (converted to the direction "
                               "written).",
    "arithmetic-node-scale-out": "A node's scale-out bandwidth = compute NICs × ports per NIC × port rate (per "
                                 "direction).",
    "arithmetic-zero-divisor": "A figure that divides in a derivation (single-GPU throughput, GPU count, power, BF16 "
                               "throughput, PCIe bandwidth) cannot be zero, or the checks that depend on it are "
                               "skipped.",
    "gpu-variant-mix": "One GPU file describes one variant: a figure that does not match but equals another "
                       "variant's of the same line is an error.",
    "gpu-form-factor": "A card (such as a PCIe card) uses direct GPU-to-GPU links only through a bridge; a module "
                       "on a baseboard (such as SXM or OAM) uses no bridge.",
    "claims-verdict": "An article claim's verdict (confirmed/approximate/corrected/unsupported) must equal the "
                      "verdict recomputed from the data.",
    "claims-unit-mismatch": "The unit a claim states must have the dimension of the figure it is compared with.",
    "claims-direction-mismatch": "Both sides of a ratio must have the same direction (bidirectional with "
                                 "bidirectional, per direction with per direction).",
    "claims-basis": "A claim's basis (independent: independent data / self_consistent: consistent with the article "
                    "only / unverifiable: nothing to check against) must equal the basis derived from the kinds of "
                    "the sources its operands cite.",
    "pitfalls-assert-rejected": "A pitfall cannot state as fact (stance: asserts) an article claim whose verdict is "
                                "“corrected” or “unverifiable”.",
    "pitfalls-article-claim": "A pitfall taken from an article must name, under restates, the article claim it "
                              "restates.",
    "claims-restated-source": "The claims a pitfall, recommendation or tier table restates must come from the same "
                              "article.",
    "tables-case-gpus": "A case's total GPUs = nodes × GPUs per node.",
    "tables-case-speedup": "Speed-up = cluster throughput ÷ single-GPU throughput.",
    "tables-case-share": "Communication share = 1 − speed-up ÷ GPUs.",
    "tables-tier-gap": "A tier table's ranges must start at 1 and join end to end, with no gap.",
    "tables-tier-overlap": "A tier table's ranges cannot overlap.",
    "tables-tier-mismatch": "Recommendations elsewhere (summaries, standard configurations) must agree with the tier "
                            "table, unless marked as a conflict.",
    "tables-stale-conflict": "A recommendation marked as a conflict that in fact agrees with the tier table carries a "
                             "stale mark.",
    "tree-single": "specs/selection/ holds a single decision tree: the flowchart and the command-line "
                   "recommendation walk the same one.",
    "tree-unknown-node": "The root must be a question, and the node each answer leads to must exist.",
    "tree-duplicate-node": "Node ids cannot repeat within a tree.",
    "tree-shared-node": "Each node has one parent: the decision tree is a tree, not a net.",
    "tree-cycle": "The decision tree cannot have a cycle.",
    "tree-unreachable": "Every node must be reachable from the root.",
    "tree-variable": "A question must ask about a variable the tree defines, and its answers (ranges or values) must "
                     "suit the variable's type.",
    "tree-coverage-gap": "A question's answers must cover the variable's whole range, with no gap.",
    "tree-coverage-overlap": "A question's answers cannot overlap.",
    "tree-example-range": "A leaf's example GPU count must fall within the GPU-count range that leads to the leaf.",
    "tree-goal-values": "The tree's goal variable takes only goals the planner knows: pretrain, finetune, lora.",
    "tree-market-coverage": "A market with no default status (default) must give a status for every GPU: a newly "
                            "added GPU cannot pass as available for want of one.",
    "tree-market-ruling": "Within one market, rule keys do not repeat, a rule does not list one part twice, and two "
                          "rules of the same day do not give one part two statuses.",
    "model-assumption-range": "A cost-model assumption's value must lie within its declared range, and both must lie "
                              "within the domain the model allows (which may have gaps).",
    "model-assumption-source": "An assumption that is not an estimate must cite a paper, standard, datasheet or "
                               "vendor documentation, not an article or an estimate.",
    "model-assumption-duplicate": "Each model parameter is set by one assumption only.",
    "model-workload-heads": "A workload's key-value heads must divide its attention heads; without a stated head "
                            "width (head_dim) and without latent attention (mla), the attention heads must also divide "
                            "the hidden size.",
    "model-workload-parameters": "A workload's stated parameter count must match the count computed from its shape "
                                 "(within 1%, plus half a unit of the stated figure's last digit, read to at least two "
                                 "significant digits, for round labels such as 671B and 30B).",
    "model-workload-experts": "A mixture-of-experts workload cannot select more experts per token than it has routed "
                              "experts, and its leading dense layers must be fewer than all its layers.",
    "model-workload-attention": "A workload's attention is either latent attention (mla) or states a head width "
                                "(head_dim), not both.",
    "model-workload-active-parameters": "A mixture-of-experts workload must state its parameters active per token; "
                                        "they cannot exceed the total and must match the active count computed from "
                                        "the shape (same tolerance as the total).",
    "model-assumption-missing": "When the knowledge base holds something that reads a cost-model parameter (a "
                                "workload, a selection-tree leaf, a published measurement, a mixture-of-experts "
                                "workload), specs/assumptions/ must hold an assumption setting that parameter: "
                                "deleting an assumption file cannot quietly stop an estimate, a warning or the "
                                "calibration.",
    "model-case-layout": "A parallel layout a scaling study gives the cost model must fit the study's cluster: tensor "
                         "parallel groups within one node and dividing the attention heads, pipeline parallelism "
                         "dividing the layers, and the global batch divisible by data parallelism × micro-batch.",
    "model-expert-study": "Every layout of a mixture-of-experts study must be estimable on each row's node and "
                          "network: the node, network and workload exist and the workload is a mixture-of-experts "
                          "model, the GPUs fill whole nodes, tensor, pipeline and expert parallelism fit the "
                          "cluster, and the global batch is divisible by data parallelism × micro-batch.",
    "model-run-model": "A measured training run gives exactly one model: it cites a workload (workload) or writes "
                       "out a shape (shape), one or the other.",
    "model-run-layout": "A measured run's parallel degrees must multiply to its GPU count: tp × pp × cp divides the "
                        "GPU count, and with dp given, tp × pp × cp × dp equals it.",
    "model-run-batch": "When a measured run gives both data parallelism and micro-batch, its global batch must be a "
                       "whole multiple of dp × micro-batch.",
    "model-run-measured": "Percentages in a measured run (MFU, HFU) cannot exceed 100: a utilisation above peak means "
                          "a table or convention was misread.",
    "model-run-convention": "A measured run's FLOP-based figures (TFLOP/s, PFLOP/s, MFU, HFU) must state their FLOP "
                            "convention, MFU a model-FLOPs one and HFU a hardware-FLOPs one (the same without "
                            "recomputation); other figures state none.",
    "model-run-heads": "In a measured run's model shape, the attention heads must divide the hidden size and the "
                       "key-value heads must divide the attention heads.",
    "model-run-parameters": "A measured run's stated parameter count must match the count computed from its shape "
                            "(within 3%).",
    "model-run-experts": "A measured run that states an expert-parallel degree or expert routing must train a "
                         "mixture-of-experts workload; the expert-parallel degree must divide the routed experts, and "
                         "the expert-parallel degree × the expert tensor-parallel degree the GPUs of one pipeline "
                         "stage. An inline shape's experts route a token to at most all of them and leave at least "
                         "one layer to experts.",
    "model-run-recompute-layers": "A measured run that states how many layers of each chunk it recomputes "
                                  "(recompute_layers) must recompute in full: those layers are fully recomputed.",
    "model-run-fp8-param-gather": "A measured run that states its weights were gathered in FP8 "
                                  "(fp8_param_gather) must run FP8 linear layers (precision fp8) and train every "
                                  "weight (no lora_rank): only FP8 linear layers have FP8 weights to gather, and LoRA "
                                  "gathers its 16-bit adapters.",
    "model-run-pipeline-schedule": "A measured run's pipeline schedule needs a pipeline to schedule (pipeline "
                                   "parallelism above 1) and must agree with the interleaving: only an interleaved "
                                   "schedule has several virtual chunks; DualPipe needs an even number of pipeline "
                                   "stages and of micro-batches per step.",
    "model-calibration-error": "The cost model's mean absolute error over all published measurements in specs/runs/ "
                               "(and over each source's) cannot exceed the limit declared in specs/assumptions/.",
    "sources-url-scheme": "A source's link must be an http or https address.",
    "sources-url-host": "A source's link must have a host name, and a port, if any, must be a number.",
    "sources-url-credentials": "A source's link cannot hold a user name or password.",
    "sources-url-characters": "A source's link cannot hold blanks, control characters, non-ASCII characters or "
                              "characters Markdown would interpret; percent-encode them first.",
    "sources-url-missing": "Every source except an article must have a link (a source read only through a copy may "
                           "give only the copy's link).",
    "sources-kind-publisher": "A source's kind must suit its publisher: datasheets come only from vendors, standards "
                              "only from standards bodies, and a kernel patch is not a datasheet.",
    "sources-read-and-copy": "A source is either read at its own address (retrieved) or through a third-party copy "
                             "(via): only one of the two.",
    "sources-not-primary": "Hardware specification figures must cite a primary source (datasheet, standard, vendor "
                           "documentation), not an article.",
    "sources-price": "A price must carry a date and cite an estimate, an article or a vendor announcement.",
    "sources-one-revision": "All figures of one entry cite the same revision of one document: a datasheet's "
                            "revisions (revision) are never mixed in one row.",
}
if set(RULE_EN) != set(RULES):
    raise ValueError(f"rules without English, or English without a rule: {sorted(set(RULE_EN) ^ set(RULES))}")
