"""schema: the spec folder holds plain files. What the file system can put there besides (a
symbolic link that loops, leads nowhere or leaves specs/, a file or folder that cannot be read,
a named pipe, socket or device) is refused by the spec tree reader (generator/edge/specfiles.py), from
a folder on disk or from a git revision alike, before any byte is parsed: a named pipe would
block the reader, a device could be endless. None of these can be written as one file of
tests/invalid/; tests/test_spec_tree_hostile.py builds each case on disk."""

from __future__ import annotations

from ..diagnostics import Rule
from .base import Check

SYMLINK_OUTSIDE = Rule("schema-symlink-outside", "schema", "规格文件不能是指向 specs/ 之外的符号链接。")
SYMLINK_LOOP = Rule("schema-symlink-loop", "schema", "符号链接不能绕成环。")
SYMLINK_BROKEN = Rule("schema-symlink-broken", "schema", "符号链接必须指向存在的文件。")
UNREADABLE = Rule("schema-unreadable", "schema", "规格文件和目录必须可读（权限不足时报错，而不是崩溃）。")
SPECIAL_FILE = Rule("schema-special-file", "schema", "规格文件必须是普通文件，不能是命名管道、套接字或设备文件。")

RULES = (SYMLINK_OUTSIDE, SYMLINK_LOOP, SYMLINK_BROKEN, UNREADABLE, SPECIAL_FILE)
CHECKS: tuple[Check, ...] = ()  # the spec tree reader checks these while it lists the files
