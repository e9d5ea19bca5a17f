"""A training cost model: memory, compute and communication of one step of a transformer on a
GPU cluster, from a workload, a cluster, a parallel layout and stated assumptions.

Pure functions over plain floats, no I/O and no imports from the rest of the generator: an
adapter builds the inputs from the knowledge base. `estimate` gives the numbers; `explain` gives
the same numbers as chains of figures (inputs, formula, value) for a page or the CLI.

Modules: `inputs` (the records), `shape` (a block's width ratio and parameter count, for GPT- and
Llama-style blocks), `feasibility` (problems), `memory`, `compute`, `collectives`,
`traffic` (what each parallelism sends), `step` (schedule, overlap, outputs), `wiring` (which
formula takes which inputs, written once against an evaluator), `evaluate` (the evaluators:
floats, or figures), `result` (the estimate: the wiring on floats), `chain` and `explain` (the
figures behind each output: the wiring on figures), `grid` (the benchmark's grid).
"""

from __future__ import annotations

from .chain import Formula, Term, explain_lines, walk
from .explain import explain
from .feasibility import Problem, check
from .inputs import (
    Assumptions,
    AttentionKernel,
    Cluster,
    GpuSpec,
    Layout,
    Mla,
    Moe,
    Node,
    Norm,
    Precision,
    Recompute,
    Workload,
    ZeroGather,
)
from .result import Estimate, Result, estimate
from .shape import parameters_chain, parameters_from_shape

__all__ = [
    "Assumptions", "AttentionKernel", "Cluster", "Estimate", "Term", "Formula", "GpuSpec", "Layout", "Mla", "Moe", "Node", "Norm",
    "Precision", "Problem", "Recompute", "Result", "Workload", "ZeroGather", "check", "estimate", "explain",
    "explain_lines", "parameters_chain", "parameters_from_shape", "walk",
]
