"""The context a Claude Code session starts with: that project's most recent memory cards.

Called by ``memvault hook claude-code`` for the SessionStart event, which must answer
quickly and without a daemon: it opens the index read-only, reads one indexed query's
rows (no vault file), and formats them within a character budget.
"""

from __future__ import annotations

from typing import Any

from daemon.config import Config
from daemon.errors import MemvaultError
from daemon.links.fulltext import project_key
from daemon.links.index import Index

CONTEXT_CHARS = 4000  # claude_code.context_chars when the setting is absent
DESCRIPTION_CHARS = 600  # one card's description at most, so one long card cannot fill the budget
HEADER = "Recent memories of this project (memvault cards; read one with the read_memory tool or in Obsidian):"


def session_start_context(config: Config, cwd: str, budget_chars: int | None = None) -> str:
    """The project's most recent cards as Markdown, at most ``budget_chars`` long ("" when there is none).

    ``cwd`` is the folder Claude Code runs in; a card belongs to it when its ``project``
    property names that folder or its last component. ``budget_chars`` defaults to
    ``claude_code.context_chars`` (4,000). Never raises for a missing or old index.
    """
    if budget_chars is None:
        budget_chars = _configured_budget(config)
    try:
        index = Index.open_readonly(config.state_dir() / "index.sqlite3")
    except MemvaultError:
        return ""
    try:
        return project_context(index, cwd, budget_chars)
    finally:
        index.close()


def _configured_budget(config: Config) -> int:
    try:
        return int(config.get("claude_code.context_chars"))
    except (KeyError, TypeError, ValueError):
        return CONTEXT_CHARS


def project_context(index: Index, cwd: str, budget_chars: int) -> str:
    """The formatted list for ``cwd``'s project from an open index."""
    key = project_key(str(cwd))
    if not key or budget_chars <= len(HEADER):
        return ""
    rows = index.db.execute(
        "SELECT d.path, d.day, s.name, s.description FROM search_docs d JOIN search s ON s.rowid = d.rowid "
        "WHERE d.project_key = ? AND d.kind = 'card' ORDER BY d.day DESC, d.path DESC LIMIT 50", (key,))
    lines = [HEADER]
    used = len(HEADER)
    for path, day, name, description in rows:
        line = _entry(path, day, name, description)
        if used + 1 + len(line) > budget_chars:
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines) if len(lines) > 1 else ""


def _entry(path: str, day: str | None, name: str, description: str) -> str:
    text = " ".join(description.split())
    if len(text) > DESCRIPTION_CHARS:
        text = text[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    link = path[:-3] if path.endswith(".md") else path
    return f"- {name} ({day or 'undated'}) [[{link}]]: {text}" if text else f"- {name} ({day or 'undated'}) [[{link}]]"


def session_start_output(config: Config, cwd: str, budget_chars: int | None = None) -> dict[str, Any]:
    """The SessionStart hook's JSON answer (``hookSpecificOutput.additionalContext``)."""
    return {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                   "additionalContext": session_start_context(config, cwd, budget_chars)}}

