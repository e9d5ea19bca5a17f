"""The command line's own output under hostile conditions: a reader that stops reading, control
characters a spec wrote as YAML escapes, file names that are not UTF-8 under a standard output
that encodes strictly, and addresses from specs in the Markdown `diff` writes for a pull
request's job summary. Every command goes through the real interpreter (`python -m generator`),
on the fixture base or a copy of it, as a reader runs it. There is no new case for
tests/invalid/ here: the escapes have theirs (text-control-*), and the odd file names and malformed
references fail `check` by rules that have their cases already; what is tested is what is printed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import commit_all, spec_repo
from support import BASE, ROOT

from generator.edge.output import CLOSED_PIPE
from generator.render.escape import terminal

# Without PYTHONUNBUFFERED: a short output then waits in the stream's buffer until the
# interpreter flushes it at exit, the case where a closed pipe used to fail after `main` returned.
ENV = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(ROOT)}


def broken_tree(tmp_path: Path) -> Path:
    """The fixture base with a second copy of a GPU under another name (one diagnostic)."""
    tree = tmp_path / "specs"
    shutil.copytree(BASE, tree)
    shutil.copy(tree / "gpus" / "test-a100-sxm4.yaml", tree / "gpus" / "test-copy.yaml")
    return tree


# Each command as a reader runs it, on the fixture base; `{broken}` is a tree with a problem.
MODEL = ["--specs", str(BASE), "--workload", "test-llama-70b"]
COMMANDS: dict[str, list[str]] = {
    "check-github": ["check", "--format", "github", "{broken}"],
    "check-text": ["check", "{broken}"],
    "schema": ["schema"],
    "build": ["build", "--specs", str(BASE), "--out", "{out}"],
    "estimate-text": ["estimate", *MODEL, "--gpu", "test-a100-sxm4", "--gpus", "64", "--network", "test-ib-ndr",
                      "--tp", "8", "--pp", "2"],
    "estimate-json": ["estimate", *MODEL, "--gpu", "test-a100-sxm4", "--gpus", "64", "--network", "test-ib-ndr",
                      "--tp", "8", "--pp", "2", "--format", "json"],
    "plan": ["plan", *MODEL, "--gpus", "64", "--market", "test-restricted"],
    "recommend": ["recommend", "--specs", str(BASE), "--gpus", "16", "--budget", "low", "--model-size", "70B",
                  "--market", "test-restricted"],
    "calibrate": ["calibrate", "--specs", str(BASE), "--format", "json"],
    "diff": ["diff", str(BASE), "{broken}"],
    "help": ["--help"],
    "usage-error": ["estimate", "--gpus", "many"],
}
# The commands that write to standard output (the others write only to standard error).
TO_STDOUT = ("check-github", "schema", "estimate-text", "estimate-json", "plan", "recommend", "calibrate", "diff",
             "help")


def argv(name: str, tmp_path: Path) -> list[str]:
    broken = broken_tree(tmp_path) if any("{broken}" in arg for arg in COMMANDS[name]) else None
    return [arg.format(broken=broken, out=tmp_path / "out") for arg in COMMANDS[name]]


def run_closed(args: list[str], *, stderr_too: bool, env: dict[str, str] = ENV) -> tuple[int, str]:
    """Run the command with standard output (and standard error, with `stderr_too`) on a pipe
    whose reader has already gone, as `| true` or `| head -1` leave it: its exit status and
    what it wrote to a standard error that is still open."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, env=env, stdout=write,
                              stderr=write if stderr_too else subprocess.PIPE, timeout=120, check=False)
    finally:
        os.close(write)
    return done.returncode, (done.stderr or b"").decode("utf-8", "replace")


@pytest.mark.parametrize("name", TO_STDOUT)
def test_closed_stdout_ends_quietly(tmp_path: Path, name: str) -> None:
    """Output to a reader that has gone: exit CLOSED_PIPE (141, as a shell reports a command a
    closed pipe stopped), and nothing on standard error, not the traceback of the write nor the
    interpreter's "Exception ignored" for the flush at exit."""
    status, err = run_closed(argv(name, tmp_path), stderr_too=False)
    assert (status, err) == (CLOSED_PIPE, "")


@pytest.mark.parametrize("name", COMMANDS)
def test_closed_stdout_and_stderr_end_quietly(tmp_path: Path, name: str) -> None:
    """`2>&1 | head -1`: both streams closed. A traceback would exit 1 and the interpreter's
    failed flush at exit 120; the command exits CLOSED_PIPE."""
    status, _ = run_closed(argv(name, tmp_path), stderr_too=True)
    assert status == CLOSED_PIPE


def test_closed_stdout_unbuffered(tmp_path: Path) -> None:
    """With PYTHONUNBUFFERED the write itself fails, inside the command: the same quiet end."""
    status, err = run_closed(argv("estimate-text", tmp_path), stderr_too=False, env={**ENV, "PYTHONUNBUFFERED": "1"})
    assert (status, err) == (CLOSED_PIPE, "")


def test_open_pipe_is_untouched(tmp_path: Path) -> None:
    """A reader that reads everything: the command's own status and output, in full."""
    done = subprocess.run([sys.executable, "-m", "generator", *argv("check-github", tmp_path)], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1 and done.stdout.startswith("::error file=") and done.stderr == ""


# --- control characters written as YAML escapes ---------------------------------------------------

# The escapes, as a spec writes them inside a double-quoted YAML string: a one-character
# CSI that clears the screen, an OSC that retitles the window (ESC ... BEL), and DEL. The file
# holds only printable ASCII, so the byte check of the file lets them through; text-control then
# refuses the decoded text.
YAML_ESCAPES = r"\x9b2J\e]0;title\a\x7f"
DECODED = "\x9b2J\x1b]0;title\x07\x7f"
SHOWN = r"\u009b2J\u001b]0;title\u0007\u007f"  # what a reader sees instead
# Every character a terminal acts on: C0 but tab and newline, DEL, C1.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _with_escapes(line: re.Match[str]) -> str:
    """A top-level name, title, publisher or summary line with YAML_ESCAPES at the end of its
    text (its Chinese text for a `{zh: ...}` value)."""
    key, value = line.group(1), line.group(2)

    def quoted(text: str) -> str:
        return '"' + text.strip().strip('"') + YAML_ESCAPES + '"'
    if value.startswith("{"):
        return f"{key}: " + re.sub(r'zh: ("[^"]*"|[^,}]+)', lambda m: "zh: " + quoted(m.group(1)), value)
    return f"{key}: {quoted(value)}"


@pytest.fixture(scope="module")
def escaped_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture base with YAML_ESCAPES in every name, title, publisher and summary."""
    tree = tmp_path_factory.mktemp("escapes") / "specs"
    shutil.copytree(BASE, tree)
    for path in tree.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^(name|title|publisher|summary): (.+)$", _with_escapes, text, flags=re.M),
                        encoding="utf-8")
    return tree


def run(*args: str, env: dict[str, str] = ENV) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=ROOT, env=env, capture_output=True,
                          timeout=120, check=False)


def strings(data: object) -> list[str]:
    """Every string of a JSON value, keys and values."""
    if isinstance(data, dict):
        return [*data, *(s for value in data.values() for s in strings(value))]
    if isinstance(data, list):
        return [s for value in data for s in strings(value)]
    return [data] if isinstance(data, str) else []


def test_check_refuses_yaml_escapes(escaped_tree: Path) -> None:
    """`check` refuses each escaped text (text-control, at its line), so no command prints one;
    its own report shows them inert."""
    done = run("check", str(escaped_tree))
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1 and "Traceback" not in err, err
    assert "[text-control]" in err and not RAW_CONTROL.search(err)
    escaped = sum(len(re.findall(r"^(?:name|title|publisher|summary): ", p.read_text(encoding="utf-8"), re.M))
                  for p in escaped_tree.rglob("*.yaml"))
    assert err.count("[text-control]") == escaped


ARGUMENT = "\x9b2J\x1b]0;title\x07\x7f"  # the same controls, typed on the command line
ECHOED = {  # each command, with an argument it repeats in its one-line refusal
    "estimate": ["--workload", "x" + ARGUMENT, "--gpu", "test-a100-sxm4", "--gpus", "8", "--network", "test-ib-ndr"],
    "plan": ["--workload", "x" + ARGUMENT, "--gpus", "64", "--market", "test-restricted"],
    "recommend": ["--gpus", "16", "--market", "x" + ARGUMENT],
    "calibrate": ["--scan", "x" + ARGUMENT + "=1"],
}


@pytest.mark.parametrize("command", ECHOED)
def test_refusals_show_control_characters_inert(command: str) -> None:
    """What a command repeats of its arguments reaches neither stream as a control character: a
    one-line refusal, no traceback, the argument shown (as its repr, \\xNN, or through the one
    escape, \\uXXXX)."""
    done = run(command, "--specs", str(BASE), *ECHOED[command])
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert done.returncode == 2 and "Traceback" not in err, err
    assert not RAW_CONTROL.search(out + err)
    assert "]0;title" in err and len(err.strip().splitlines()) == 1, err


def test_json_through_the_escape_stays_valid_and_exact() -> None:
    """JSON through the one escape: no control character, valid JSON, the text read back exactly
    (a specs text can no longer carry one; an argument, a path or a future field still could)."""
    text = "Test " + DECODED + " \udcff"
    shown = terminal(json.dumps({"name": text}, ensure_ascii=False))
    assert not RAW_CONTROL.search(shown)
    assert json.loads(shown)["name"] == text


def test_a_crash_is_escaped_too(tmp_path: Path) -> None:
    """A bug's traceback may quote spec text: `python -m generator` prints it through the same
    escape. The crash is made by a sitecustomize that replaces the command line's body."""
    (tmp_path / "sitecustomize.py").write_text(
        "import generator.edge.cli as cli\n\n"
        "def crash(argv):\n    raise ValueError('spec text " + YAML_ESCAPES.replace("\\e", "\\x1b") + "')\n\n"
        "cli._run = crash\n", encoding="utf-8")
    done = run("check", env={**ENV, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"})
    err = readable(done.stderr)
    assert done.returncode == 1 and f"ValueError: spec text {SHOWN}" in err, err


# --- file names that are not UTF-8, and a standard output that encodes strictly ---------------------

STRICT = {**ENV, "PYTHONIOENCODING": "utf-8:strict"}
# Copies of a GPU under names os.listdir gives back with surrogates (an undecodable byte) and
# with control characters: each is a diagnostic (its id differs from its file name).
ODD_NAMES = (b"\xff.yaml", b"\x1b]0;x\x07.yaml")
# How each output shows them: the surrogate as \udcff everywhere; the controls as the one escape
# of the streams (\u001b) in annotations, as a diagnostic line writes them (\x1b, one line each)
# in text, and that again with Markdown's backslashes in `diff`'s report.
ODD_SHOWN = {
    "github": ("gpus/\\udcff.yaml", "gpus/\\u001b]0;x\\u0007.yaml"),
    "text": ("gpus/\\udcff.yaml", "gpus/\\x1b]0;x\\x07.yaml"),
    "markdown": ("gpus/\\udcff.yaml", "gpus/\\\\x1b\\]0;x\\\\x07.yaml"),
}


def add_odd_names(tree: Path) -> Path:
    gpus = os.fsencode(tree / "gpus")
    for name in ODD_NAMES:
        shutil.copyfile(os.path.join(gpus, b"test-a100-sxm4.yaml"), os.path.join(gpus, name))
    return tree


@pytest.fixture
def odd_tree(tmp_path: Path) -> Path:
    """The fixture base with ODD_NAMES added, in a folder whose own name is not UTF-8 either (so
    a label of `diff`, which is the folder as given, holds a surrogate too)."""
    tree = tmp_path / os.fsdecode(b"\xfe") / "specs"
    shutil.copytree(BASE, tree)
    return add_odd_names(tree)


def readable(stream: bytes) -> str:
    """The stream as UTF-8 (strict: a surrogate could not have been written) without controls."""
    text = stream.decode("utf-8")
    assert not RAW_CONTROL.search(text), text
    return text


@pytest.mark.parametrize("fmt", ["github", "text"])
def test_check_names_odd_files_readably(odd_tree: Path, fmt: str) -> None:
    """`check` under a strict UTF-8 stdout: exit 1 with one line per odd file, each name shown with
    its undecodable bytes and controls escaped; no UnicodeEncodeError."""
    done = run("check", "--format", fmt, str(odd_tree), env=STRICT)
    out, err = readable(done.stdout), readable(done.stderr)
    assert done.returncode == 1 and "Traceback" not in err, err
    shown = out if fmt == "github" else err
    assert all(f"\\udcfe/specs/{name}" in shown for name in ODD_SHOWN[fmt]), shown


def test_diff_markdown_names_odd_files_readably(odd_tree: Path) -> None:
    """`diff`'s report under a strict UTF-8 stdout: HEAD's diagnostics and its label, escaped."""
    done = run("diff", str(BASE), str(odd_tree), env=STRICT)
    out = readable(done.stdout)
    assert done.returncode == 1 and "Traceback" not in readable(done.stderr)
    assert "\\udcfe/specs" in out.splitlines()[0]  # the heading's label
    assert all(f"\\udcfe/specs/{name}" in out for name in ODD_SHOWN["markdown"]), out


def test_diff_json_gives_back_the_file_names(odd_tree: Path) -> None:
    """`diff --format json` under a strict UTF-8 stdout: valid JSON whose paths read back to
    the very bytes of the file names (os.fsencode of the path)."""
    done = run("diff", str(BASE), str(odd_tree), "--format", "json", env=STRICT)
    data = json.loads(readable(done.stdout))
    assert done.returncode == 1 and "Traceback" not in readable(done.stderr)
    names = {os.fsencode(d["path"]).rsplit(b"/", 1)[-1] for d in data["head"]["diagnostics"]}
    assert set(ODD_NAMES) <= names
    assert os.fsencode(data["head"]["label"]) == os.fsencode(odd_tree)


def test_diff_of_revisions_names_odd_files_readably(tmp_path: Path) -> None:
    """The same names read from git objects (`diff HEAD~1 HEAD`, as the pull-request job runs it)."""
    repo = spec_repo(tmp_path, BASE)
    add_odd_names(repo / "specs")
    commit_all(repo, "odd names")
    done = subprocess.run([sys.executable, "-m", "generator", "diff", "HEAD~1", "HEAD"], cwd=repo, env=STRICT,
                          capture_output=True, timeout=120, check=False)
    out = readable(done.stdout)
    assert done.returncode == 1 and "Traceback" not in readable(done.stderr)
    assert all(f"\n- specs/{name}:1:5: error:" in out for name in ODD_SHOWN["markdown"]), out


# --- addresses from specs in `diff`'s Markdown (a pull request's job summary) -----------------------

# Each form of address GitHub's Markdown links, inside a figure reference of a summary: `check`
# reports each reference as malformed and quotes it, so each reaches the report of `diff`.
# Ten: the report lists HEAD's first ten diagnostics.
ADDRESSES = ("https://evil.example/x", "HTTP://evil.example/y", "ftp://evil.example/z", "www.evil.example",
             "<http://evil.example/a>", "[x](https://evil.example/b)", "![i](https://evil.example/c)",
             "a@evil.example", "mailto:b@evil.example", "xmpp:c@evil.example")


def test_diff_report_links_no_address_from_specs(tmp_path: Path) -> None:
    """In the Markdown of `diff`: no URL scheme (`://`) or `www.` but with its `:` or `.`
    backslash-escaped (shown as written, but not found by GitHub's autolinker), no `@` outside a
    code span of its own (an e-mail address is linked from the text after escapes are read), no
    raw `<` or unescaped `[`; and every address is still there to read."""
    head = tmp_path / "specs"
    shutil.copytree(BASE, head)
    network = head / "networks" / "test-ib-ndr.yaml"
    references = " ".join(f"[[{address}]]" for address in ADDRESSES)
    network.write_text(re.sub(r'^(summary: \{zh: ".*)("\})$', lambda m: f"{m.group(1)} {references}{m.group(2)}",
                              network.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    done = run("diff", str(BASE), str(head))
    out = readable(done.stdout)
    assert done.returncode == 1 and "Traceback" not in readable(done.stderr)
    assert out.count("text-figure-ref-malformed") == len(ADDRESSES), out
    assert not re.search(r"(?<!\\)://|(?<!\\)www\.|(?<!\\)\[|<", out, re.IGNORECASE), out
    assert "@" not in re.sub("`@+`", "", out), out
    shown = re.sub(r"\\(.)", r"\1", out.replace("`@`", "@")).replace("&lt;", "<").replace("&gt;", ">")
    assert all(address in shown for address in ADDRESSES), shown
