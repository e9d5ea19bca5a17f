"""File-system oddities in a spec folder, one builder per case: what no single file of
tests/invalid/ can hold (links, permissions, pipes, devices, names). Each builder changes a copy
of the fixture base (tests/fixtures/base/specs/) and returns the diagnostics it must produce, as
(path relative to the spec folder, line, col, rule). tests/test_spec_tree_hostile.py runs them;
tests/test_invalid_corpus.py counts their rules as shown failing."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

Expected = set[tuple[str, int, int, str]]


def symlink_loop(tree: Path) -> Expected:
    (tree / "gpus" / "test-loop-a.yaml").symlink_to("test-loop-b.yaml")
    (tree / "gpus" / "test-loop-b.yaml").symlink_to("test-loop-a.yaml")
    (tree / "networks" / "test-self.yaml").symlink_to("test-self.yaml")
    return {("gpus/test-loop-a.yaml", 1, 1, "schema-symlink-loop"), ("gpus/test-loop-b.yaml", 1, 1, "schema-symlink-loop"),
            ("networks/test-self.yaml", 1, 1, "schema-symlink-loop")}


def symlink_outside(tree: Path) -> Expected:
    secret = tree.parent / "secret.yaml"
    secret.write_text("id: test-secret\n")
    (tree / "networks" / "test-secret.yaml").symlink_to(secret)
    (tree / "networks" / "test-passwd.yaml").symlink_to("/etc/passwd")
    (tree / "networks" / "test-gone.yaml").symlink_to("../../nowhere/gone.yaml")  # outside, and missing too
    return {("networks/test-secret.yaml", 1, 1, "schema-symlink-outside"),
            ("networks/test-passwd.yaml", 1, 1, "schema-symlink-outside"),
            ("networks/test-gone.yaml", 1, 1, "schema-symlink-outside")}


def symlink_broken(tree: Path) -> Expected:
    (tree / "gpus" / "test-dangling.yaml").symlink_to("test-nowhere.yaml")
    return {("gpus/test-dangling.yaml", 1, 1, "schema-symlink-broken")}


def named_pipe(tree: Path) -> Expected:
    os.mkfifo(tree / "gpus" / "test-pipe.yaml")  # reading it would block forever
    (tree / "gpus" / "test-pipe-link.yaml").symlink_to("test-pipe.yaml")
    return {("gpus/test-pipe.yaml", 1, 1, "schema-special-file"), ("gpus/test-pipe-link.yaml", 1, 1, "schema-special-file")}


def socket_node(tree: Path) -> Expected:
    os.mknod(tree / "gpus" / "test-socket.yaml", stat.S_IFSOCK | 0o600)
    return {("gpus/test-socket.yaml", 1, 1, "schema-special-file")}


def unreadable_file(tree: Path) -> Expected:
    """Mode 000: unreadable for anyone but root (see `unreadable_paths` for the root case)."""
    (tree / "gpus" / "test-a100-sxm4.yaml").chmod(0)
    return {("gpus/test-a100-sxm4.yaml", 1, 1, "schema-unreadable")}


def unreadable_folder(tree: Path) -> Expected:
    (tree / "networks").chmod(0)
    return {("networks", 1, 1, "schema-unreadable")}


def folder_link_loop(tree: Path) -> Expected:
    """A spec folder replaced by a link to itself, and a second one to nowhere."""
    shutil.rmtree(tree / "layers")
    (tree / "layers").symlink_to("layers")
    shutil.rmtree(tree / "topologies", ignore_errors=True)
    (tree / "topologies").symlink_to("gone")
    return {("layers", 1, 1, "schema-symlink-loop"), ("topologies", 1, 1, "schema-symlink-broken")}


def unreadable_root(tree: Path) -> Expected:
    tree.chmod(0)
    return {(".", 1, 1, "schema-unreadable")}


CASES: dict[str, Callable[[Path], Expected]] = {
    f.__name__: f for f in (symlink_loop, symlink_outside, symlink_broken, named_pipe, socket_node,
                            unreadable_file, unreadable_folder, folder_link_loop, unreadable_root)
}
# The rules these cases show failing (each case's builder is run by the test, not here).
RULES = {"schema-symlink-loop", "schema-symlink-outside", "schema-symlink-broken", "schema-special-file",
         "schema-unreadable"}
