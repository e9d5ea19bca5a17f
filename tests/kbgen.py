"""Knowledge bases in odd shapes, for the property that every one that passes `check` builds: the
fixture base (tests/fixtures/base/specs/) with its decision tree made very deep or very wide,
its texts very long or full of markup and unusual characters, odd but valid variables, a zero
where a derived column divides, a source URL with odd characters, copies of its entities added,
and new vocabulary values (a GPU from a new vendor, architecture, form factor, scale-up family
and precision, a network of a new family). Edits work on plain YAML data and name only what the
base's own tree declares (its variables, answers and leaves), never a value typed here; every new
id starts with `test-`."""

from __future__ import annotations

import copy
import datetime as dt
import re
from functools import cache
from typing import Any

import yaml
from hypothesis import strategies as st
from support import base_files

from generator.charsets import CHINESE
from generator.model.common import MAX_TEXT
from generator.model.selection import Selection
from generator.selection.tree import leaf_paths, range_on_path
from generator.validate import SpecFile

Tree = dict[str, Any]

# Pieces of text: Chinese, Latin, every ASCII punctuation mark, markup and template syntax,
# figure references of the base, and characters that trip layouts (zero-width, right-to-left
# override, combining accent, full-width, emoji, non-breaking and ideographic spaces).
# Zero-width and bidi characters and fullwidth letters are not among them: check refuses them
# (text-invisible, text-confusable; tests/invalid/text-*), so a base holding them never builds.
TOKENS = [*"模型多卡训练集群选型网络拓扑带宽，。：；（）「」", *"abcXYZ xyz", *"<>&\"'`*_[]()#|\\~!{}%$=+-:;.,/?@^",
          "\n", "\t", "e\u0301", "😀", "\u3000", "\u00a0", "<script>alert(1)</script>",
          "{{ 7*7 }}", "{% raw %}", "<!--", "-->", "]]>", "[x](javascript:alert(1))", "    indented",
          "[[test-ib-ndr#port_rate]]", "[[test-ib-ndr#port_rate GB/s]]", "InfiniBand", "A" * 70]
SHORT_LIMIT = 80  # the tightest limit of the short plain-text fields (`name`, a tier row's `said`)
SHORT_KEYS = {"name", "title", "publisher", "said", "command"}
COPYABLE = ("cases", "claims", "gpus", "interconnects", "layers", "networks", "pitfalls", "recommendations",
            "topologies", "vendors", "architectures", "form-factors", "scale-up-families", "network-families")  # a copy under a new id passes check on its own (no orphan, no tier table)


def one_language(text: str) -> str:
    """A drawn text for a field of one language (a model's name): without its Chinese, which
    the rule text-plain-chinese keeps out of such fields; every other token stays."""
    kept = CHINESE.sub("", text)
    return kept if kept.strip() else "x" + kept


@st.composite
def texts(draw: st.DrawFn, limit: int = MAX_TEXT) -> str:
    """A text of 1 to `limit` characters made of TOKENS; long ones repeat a drawn stretch."""
    stretch = "".join(draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12)))
    length = draw(st.sampled_from([1, 5, 40, limit // 2, limit]))
    return (stretch * (length // len(stretch) + 1))[:length]


@cache
def _parsed() -> dict[str, Any]:
    """Each file of the fixture base parsed once per process, by path. Generating a base parsed
    them again each time: two fifths of the time of test_valid_bases_build's property test went
    to pure-Python YAML reading the same files."""
    return {f.path: yaml.safe_load(f.raw) for f in base_files()}


def parsed(spec: SpecFile) -> Any:
    """A base file's data, a copy of its own to edit."""
    return copy.deepcopy(_parsed()[spec.path])


def dumped(data: Any) -> bytes:
    """YAML text of `data` as a contributor's file holds it (key order kept, Unicode as itself),
    written by libyaml's emitter: the same documents as PyYAML's pure-Python one, read back the
    same, at a fraction of its time."""
    return yaml.dump(data, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False).encode("utf-8")


def base_tree() -> Tree:
    selection = next(f for f in base_files() if f.kind == "selection")
    return dict(parsed(selection))


def fit_examples(tree: Tree) -> Tree:
    """Each leaf's example GPU count moved into the range of counts its path allows (its least),
    as a contributor who reshapes the tree does (rule tree-example-range); a leaf no count
    reaches (its path contradicts itself) keeps its example."""
    counts = next((v for v in tree["variables"] if v["id"] == "gpus"), None)
    if counts is None:
        return tree
    sel = Selection.model_validate(tree)
    tree = copy.deepcopy(tree)
    paths = leaf_paths(sel)
    for leaf in tree["leaves"]:
        path = paths.get(leaf["id"])
        if path is None:
            continue
        reach = range_on_path(path, "gpus", counts.get("min") or 1)
        if not reach.empty and not reach.contains(leaf["example"]["gpus"]):
            leaf["example"] = {"gpus": reach.min}
    return tree


def assemble(tree: Tree, extra: list[SpecFile] = ()) -> list[SpecFile]:  # type: ignore[assignment]
    """The fixture base with its selection tree replaced by `tree` (its examples fitted to its
    branches), and `extra` files replacing or added to its own."""
    tree = fit_examples(tree)
    replaced = {f.path for f in extra}
    files = [f for f in base_files() if f.kind != "selection" and f.path not in replaced]
    selection = next(f for f in base_files() if f.kind == "selection")
    raw = dumped(tree)
    return [*files, SpecFile(selection.path, selection.kind, selection.stem, raw), *extra]


def _counts(tree: Tree) -> list[dict[str, Any]]:
    return [v for v in tree["variables"] if v["kind"] == "count"]


def deepen(tree: Tree, tag: str, answer_at: int, depth: int, variable_at: int = 0) -> Tree:
    """`depth` questions in a chain before the node answer number `answer_at` leads to; each
    has one answer covering its (count) variable's whole domain."""
    tree = copy.deepcopy(tree)
    answers = [a for q in tree["questions"] for a in q["answers"]]
    answer = answers[answer_at % len(answers)]
    variable = _counts(tree)[variable_at % len(_counts(tree))]
    target = answer["next"]
    for i in range(depth):
        node = f"test-gen-{tag}-{i}"
        answer["next"] = node
        answer = {"range": {"min": variable.get("min") or 0}, "next": target}
        tree["questions"].append({"id": node, "ask": {"zh": f"第 {i + 1} 问", "en": f"Question {i + 1}"}, "variable": variable["id"],
                                  "answers": [answer]})
    return tree


def widen(tree: Tree, tag: str, leaf_at: int, cuts: list[int], variable_at: int = 0) -> Tree:
    """The answer that leads to leaf number `leaf_at` leads instead to a new question whose
    answers split a count variable's domain at `cuts`: the first to the leaf, each other one to
    a copy of it."""
    tree = copy.deepcopy(tree)
    leaf = tree["leaves"][leaf_at % len(tree["leaves"])]
    variable = _counts(tree)[variable_at % len(_counts(tree))]
    low = variable.get("min") or 0
    bounds = [low, *sorted({c for c in cuts if c > low})]
    question = f"test-gen-{tag}"
    answers = []
    for i, start in enumerate(bounds):
        target = leaf["id"] if i == 0 else f"test-gen-{tag}-{i}"
        answer: dict[str, Any] = {"range": {"min": start}, "next": target}
        if i + 1 < len(bounds):
            answer["range"]["max"] = bounds[i + 1]
        answers.append(answer)
        if i:
            tree["leaves"].append({**copy.deepcopy(leaf), "id": target})
    for q in tree["questions"]:
        for a in q["answers"]:
            if a["next"] == leaf["id"]:
                a["next"] = question
    tree["questions"].append({"id": question, "ask": {"zh": "再细分一次？", "en": "Split once more?"}, "variable": variable["id"],
                              "answers": answers})
    return tree


def retext(data: Any, new_text: Any) -> Any:
    """`data` with every Text (`zh`/`en`) replaced by `new_text(limit)`, and every short plain
    text by one of at most SHORT_LIMIT characters."""
    if isinstance(data, dict):
        return {k: new_text(MAX_TEXT) if k in ("zh", "en") and isinstance(v, str) else
                new_text(SHORT_LIMIT) if k in SHORT_KEYS and isinstance(v, str) else retext(v, new_text)
                for k, v in data.items()}
    if isinstance(data, list):
        return [retext(v, new_text) for v in data]
    return data


def copy_entity(kind: str, tag: str, new_text: Any) -> SpecFile:
    """A copy of the base's first entity of `kind` under the id test-gen-<tag>, texts replaced."""
    original = next(f for f in base_files() if f.kind == kind)
    data = retext(parsed(original), new_text)
    data["id"] = f"test-gen-{tag}"
    raw = dumped(data)
    return SpecFile(f"specs/{kind}/test-gen-{tag}.yaml", kind, f"test-gen-{tag}", raw)


def zeroed_case(denominator: str, row_at: int) -> SpecFile:
    """The base's first scaling study with a denominator of its derived columns at zero: its
    GPUs per node (and so its stated GPU count), or one row's single-GPU throughput."""
    original = next(f for f in base_files() if f.kind == "cases" and b"type: scaling_study" in f.raw)
    data = parsed(original)
    if denominator == "gpus_per_node":
        data["gpus_per_node"]["value"] = data["gpus"]["value"] = 0
    else:
        data["rows"][row_at % len(data["rows"])]["single_gpu"]["value"] = 0
    raw = dumped(data)
    return SpecFile(original.path, original.kind, original.stem, raw)


def _spec(kind: str, data: dict[str, Any]) -> SpecFile:
    raw = dumped(data)
    return SpecFile(f"specs/{kind}/{data['id']}.yaml", kind, data["id"], raw)


def new_vocabulary(tag: str, label: Any, *, released: int = 2030, mounting: str = "module", bits: int = 6,
                   reference: bool = False, memory: bool = True) -> list[SpecFile]:
    """A GPU from a new vendor: new vendor, architecture, form factor, scale-up family and
    precision values (labels from `label(limit)`), the base's first module GPU copied onto them
    with a figure at the new precision, and the base's first network copied onto a new network
    family. Only YAML: nothing of the generator names any of these. `memory=False`: the GPU
    states no memory figure at all (a vendor that publishes none)."""
    base: dict[str, list[dict[str, Any]]] = {}
    for f in base_files():  # read, never changed: what is edited below is a deep copy
        base.setdefault(f.kind, []).append(_parsed()[f.path])
    gpu = copy.deepcopy(next(g for g in base["gpus"] if g.get("scale_up") and not g["scale_up"].get("bridge")))
    source = gpu["power"]["source"]  # a primary source, of the revision the copied GPU already cites
    ids = {k: f"test-gen-{tag}-{k}" for k in ("vendor", "arch", "form", "link", "prec", "net", "gpu", "network")}

    def value(key: str, **extra: Any) -> dict[str, Any]:
        return {"id": ids[key], "last_verified": dt.date(2026, 11, 30), "label": {"zh": label(MAX_TEXT), "en": label(MAX_TEXT)}, "source": source, **extra}

    files = [_spec("vendors", value("vendor")),
             _spec("architectures", value("arch", vendor=ids["vendor"], released=released)),
             _spec("form-factors", value("form", mounting=mounting)),
             _spec("scale-up-families", value("link", vendor=ids["vendor"])),
             _spec("precisions", value("prec", bits=bits, reference=reference)),
             _spec("network-families", value("net"))]
    gpu.update(id=ids["gpu"], name=one_language(label(SHORT_LIMIT)), vendor=ids["vendor"], architecture=ids["arch"],
               form_factor=ids["form"])
    gpu["compute"]["tensor"].append({"key": ids["prec"], "dense": {"value": 1234.5, "unit": "TFLOPS", "source": source},
                                     "sparse": {"value": 2469, "unit": "TFLOPS", "source": source}})
    if not memory:
        gpu["memory"] = {}
    if mounting == "card":
        gpu["scale_up"] = None  # a card without a bridge has no scale-up link
    else:
        gpu["scale_up"]["family"] = ids["link"]
    network = copy.deepcopy(base["networks"][0])
    network.update(id=ids["network"], name=one_language(label(SHORT_LIMIT)), fabric=ids["net"])
    return [*files, _spec("gpus", gpu), _spec("networks", network)]


# A source URL: the base's own with a drawn tail of characters the URL rules allow or refuse
# (Markdown, attr_list and HTML syntax, percent-escapes, invisible ones).
_URL_TAIL = st.lists(st.sampled_from([*"aZ09-._~:/?#@$&+,;=%", "%20", "%3C", "%7B", *"<>\"'`*_[]()!{}|\\^ ",
                                      "\u200b", "{: onclick=x }", "[x](javascript:x)", "/__x__/", "中"]), max_size=12)


def reurled(tag: str, tail: list[str]) -> SpecFile:
    """The base's first source with a URL, that URL followed by `tail`."""
    original = next(f for f in base_files() if f.kind == "sources" and b"\nurl:" in f.raw)
    data = parsed(original)
    data["url"] = data["url"].rstrip("/") + "/" + tag + "".join(tail)
    raw = dumped(data)
    return SpecFile(original.path, original.kind, original.stem, raw)


_SUFFIX_CHARS = st.sampled_from([*"B<>&\"'|*_`\\[]#%", "亿", "😀", " "])


@st.composite
def knowledge_bases(draw: st.DrawFn) -> list[SpecFile]:
    """The fixture base after a few drawn edits: deepen, widen, new texts, odd variables, copies,
    a zero denominator, an odd source URL."""
    tree = base_tree()
    extra: list[SpecFile] = []

    def new_text(limit: int) -> str:
        return draw(texts(limit))

    edits = ["deep", "wide", "text", "variable", "copy", "zero", "url", "vocab"]
    for step, edit in enumerate(draw(st.lists(st.sampled_from(edits), min_size=1, max_size=4))):
        tag = f"{edit}{step}"
        if edit == "deep":
            tree = deepen(tree, tag, draw(st.integers(0, 50)), draw(st.sampled_from([1, 2, 30, 300])),
                          draw(st.integers(0, 3)))
        elif edit == "wide":
            cuts = draw(st.lists(st.integers(1, 10_000_000), min_size=1, max_size=draw(st.sampled_from([3, 150]))))
            tree = widen(tree, tag, draw(st.integers(0, 50)), cuts, draw(st.integers(0, 3)))
        elif edit == "text":
            tree = retext(tree, new_text)
        elif edit == "variable":
            for variable in _counts(tree):
                variable["suffix"] = "".join(draw(st.lists(_SUFFIX_CHARS, max_size=8)))
                variable["name"] = {"zh": new_text(MAX_TEXT), "en": new_text(MAX_TEXT)}
        elif edit == "vocab":
            extra += new_vocabulary(tag, new_text, released=draw(st.integers(1990, 2100)),
                                    mounting=draw(st.sampled_from(["module", "card"])), bits=draw(st.integers(1, 64)),
                                    memory=draw(st.booleans()))
        elif edit == "url":
            extra = [f for f in extra if f.kind != "sources"] + [reurled(tag, draw(_URL_TAIL))]
        elif edit == "zero":
            extra.append(zeroed_case(draw(st.sampled_from(["gpus_per_node", "single_gpu"])), draw(st.integers(0, 9))))
        else:
            extra.append(copy_entity(draw(st.sampled_from(COPYABLE)), tag, new_text))
    return assemble(tree, extra)


def leaf_anchors(flowchart_md: str) -> tuple[set[str], set[str]]:
    """The leaf sections the flowchart's SVG links to, and those the page has."""
    linked = set(re.findall(r'href="#leaf-([a-z0-9-]+)"', flowchart_md))
    present = set(re.findall(r"\{ #leaf-([a-z0-9-]+) \}", flowchart_md))
    return linked, present
