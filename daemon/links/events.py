"""File events as plain values: what the watcher reports and ``moves`` decides on.

They live here, below the drivers, so that move detection can be driven by
events built in code without importing watchdog.
"""

from __future__ import annotations

from dataclasses import dataclass

CREATED, MODIFIED, DELETED, MOVED = "created", "modified", "deleted", "moved"


@dataclass(frozen=True)
class FileEvent:
    """One change below the vault root; paths are vault-relative POSIX strings."""

    kind: str
    path: str
    dest: str | None = None
    is_dir: bool = False
