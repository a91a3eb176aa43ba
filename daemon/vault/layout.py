"""Whether a folder is a vault: every command but ``init`` refuses one that is not.

A mistyped ``vault=`` path must never become a new, empty vault: hooks and
services run unattended, and their writes would land where nobody looks.
Light on purpose (``pathlib`` only): the Claude Code hook calls it.
"""

from __future__ import annotations

from pathlib import Path


def vault_problem(root: Path, daily_dir: str = "daily", session_dir: str = "session") -> str | None:
    """Why ``root`` is not a vault (a one-line message naming ``memvault init``), or None when it is one.

    A vault is a folder with ``.obsidian/`` (Obsidian's own) or memvault's
    ``daily/`` or ``session/`` folder.
    """
    if not root.exists():
        return f"vault folder not found: {root} (create it with `memvault init {root}`)"
    if not root.is_dir():
        return f"the vault {root} is not a folder"
    markers = (".obsidian", daily_dir, session_dir)
    if not any((root / marker).is_dir() for marker in markers):
        return (f"{root} is not a vault (no .obsidian/, {daily_dir}/ or {session_dir}/ folder); "
                f"make it one with `memvault init {root}`")
    return None
