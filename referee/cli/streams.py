"""``-`` in place of a file name: standard input to read, standard output to write.

Every command that reads or writes a file takes ``-`` the way Unix tools do,
so their output can be piped into each other.
"""

from __future__ import annotations

import sys

STDIO = "-"
"""The file name that means standard input (or output)."""


def describe(name: str) -> str:
    """How an error names the file: its name, or "standard input"."""
    return "standard input" if name == STDIO else name


def read_bytes(name: str, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of file ``name`` or of standard input, so the
    caller can tell a file that is too large without reading all of it."""
    if name == STDIO:
        return sys.stdin.buffer.read(limit + 1)
    with open(name, "rb") as file:
        return file.read(limit + 1)


def write_bytes(name: str, data: bytes) -> None:
    """Write ``data`` to file ``name``, or to standard output for ``-``."""
    if name == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    with open(name, "wb") as file:
        file.write(data)
