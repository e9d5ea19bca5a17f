"""The command line as a contributor and CI use it: exit status, formats, no traceback. Broken
trees are copies of the fixture knowledge base with a file of the invalid corpus dropped in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from support import BASE, INVALID, ROOT, Case

from generator.spec_schema import spec_schemas


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=60)


def test_check_passes_on_committed_specs() -> None:
    """`check` exits 0 on the committed knowledge base."""
    done = _run("check", "specs")
    assert done.returncode == 0, done.stderr
    assert "no problems" in done.stderr


def _tree_with_case(tmp_path: Path, name: str) -> Path:
    """The fixture base with the file of the invalid corpus's case `name` put in."""
    tree = tmp_path / "specs"
    shutil.copytree(BASE, tree)
    case = Case.read(INVALID / f"{name}.yaml")
    assert case.raw is not None, f"{name} deletes a file; these tests write one"
    (tree / case.target.removeprefix("specs/")).write_bytes(case.raw)
    return tree


def _broken_tree(tmp_path: Path) -> Path:
    """The fixture base with the article's NDR port rate in GB/s (a case of the invalid corpus)."""
    return _tree_with_case(tmp_path, "article-ib-ndr-port-in-gbytes")


def test_check_reports_gcc_style_and_exits_1(tmp_path: Path) -> None:
    """A bit/byte slip gives file:line:col, the hint and the rule id; exit 1; no traceback."""
    done = _run("check", str(_broken_tree(tmp_path)), cwd=tmp_path)
    assert done.returncode == 1
    assert "specs/networks/test-ib-ndr.yaml:" in done.stderr
    assert "did you mean 400 Gb/s?" in done.stderr and "[units-bit-byte]" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_github_format_annotations(tmp_path: Path) -> None:
    """--format github prints workflow annotations on stdout."""
    _broken_tree(tmp_path)
    done = _run("check", "--format", "github", "specs", cwd=tmp_path)
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if line.startswith("::error file=specs/networks/test-ib-ndr.yaml")]
    assert any("title=units-bit-byte" in line for line in lines)


def test_missing_folder_is_a_diagnostic(tmp_path: Path) -> None:
    """A spec folder that does not exist: exit 1 with a diagnostic, not a traceback."""
    done = _run("check", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 1 and "schema-folder" in done.stderr and "Traceback" not in done.stderr


def test_symlink_out_of_tree_is_refused(tmp_path: Path) -> None:
    """A spec that is a symbolic link to a file outside specs/ is refused, not read."""
    tree = tmp_path / "specs"
    shutil.copytree(BASE, tree)
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: test-secret\n")
    (tree / "networks" / "test-secret.yaml").symlink_to(secret)
    done = _run("check", str(tree), cwd=tmp_path)
    assert done.returncode == 1
    assert ("specs/networks/test-secret.yaml:1:1: error: symbolic link to a file outside the spec folder "
            "[schema-symlink-outside]") in done.stderr


def test_schema_is_generated_from_the_model() -> None:
    """The committed JSON Schemas equal what the model generates (run `make schema` to refresh)."""
    for kind, schema in spec_schemas().items():
        committed = json.loads((ROOT / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8"))
        assert committed == schema, f"schema/{kind}.schema.json is stale: run `make schema`"
    assert spec_schemas()["gpus"]["additionalProperties"] is False


def test_determinism() -> None:
    """The same specs give the same diagnostics and figures, run after run."""
    first, second = _run("check", "specs"), _run("check", "specs")
    assert first.stderr == second.stderr


def _warning_tree(tmp_path: Path) -> Path:
    """The fixture base with a 75 kW GPU: its one diagnostic is a plausibility-range warning."""
    return _tree_with_case(tmp_path, "plausibility-range-power")


def test_a_warning_passes_check_but_not_strict_check(tmp_path: Path) -> None:
    """A warning prints as `file:line:col: warning:` and exits 0; under --strict it exits 1, in
    text and github formats alike."""
    _warning_tree(tmp_path)
    plain = _run("check", "specs", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    ((path, line, col, _rule),) = Case.read(INVALID / "plausibility-range-power.yaml").expected  # where the case says
    assert f"{path}:{line}:{col}: warning: power = 75 kW" in plain.stderr
    assert "[plausibility-range]" in plain.stderr and "1 warning(s)" in plain.stderr
    strict = _run("check", "--strict", "specs", cwd=tmp_path)
    assert strict.returncode == 1 and "--strict: warnings count as errors" in strict.stderr
    github = _run("check", "--format", "github", "--strict", "specs", cwd=tmp_path)
    assert github.returncode == 1
    assert github.stdout.startswith(f"::warning file={path},line={line},col={col},title=plausibility-range::")
    assert "Traceback" not in plain.stderr + strict.stderr + github.stderr


def test_a_missing_english_text_passes_check_but_not_strict_check(tmp_path: Path) -> None:
    """A text with Chinese but no English is a warning at its zh key: `check` prints it and exits
    0, `check --strict` (the gate of the English edition) exits 1."""
    _tree_with_case(tmp_path, "text-missing-en")
    plain = _run("check", "specs", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    for path, line, col, rule in sorted(Case.read(INVALID / "text-missing-en.yaml").expected):
        assert f"{path}:{line}:{col}: warning: " in plain.stderr and f"[{rule}]" in plain.stderr
    assert "2 warning(s)" in plain.stderr
    strict = _run("check", "--strict", "specs", cwd=tmp_path)
    assert strict.returncode == 1 and "--strict: warnings count as errors" in strict.stderr
    assert "[text-missing-en]" in strict.stderr and "Traceback" not in plain.stderr + strict.stderr


def test_a_warning_builds_but_not_strictly(tmp_path: Path) -> None:
    """`build` writes the site and prints the warning; `build --strict` writes nothing."""
    _warning_tree(tmp_path)
    strict = _run("build", "--strict", "--out", "out", cwd=tmp_path)
    assert strict.returncode == 1 and "[plausibility-range]" in strict.stderr and "nothing written" in strict.stderr
    assert not (tmp_path / "out").exists()
    plain = _run("build", "--out", "out", cwd=tmp_path)
    assert plain.returncode == 0 and "[plausibility-range]" in plain.stderr, plain.stderr
    assert (tmp_path / "out" / "gpus.md").is_file()
