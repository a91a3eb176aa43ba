"""A session's transcript files on disk, and the increment by ``uuid`` (reference §1.3, items 34–35).

Transcripts live in ``$CLAUDE_CONFIG_DIR`` (default ``~/.claude``) under
``projects/<encoded cwd>/<session id>.jsonl``; subagents write
``<session id>/subagents/agent-<id>.jsonl`` beside it (older versions:
``agent-<id>.jsonl`` in the same folder, naming the session inside).
Compaction helpers (``agent-acompact-*``) only restate the session.

The increment is every entry with a ``uuid`` not seen before. An API reply
is spread over several lines sharing ``message.id``; when any of them is new,
all of them come along, so the merged reply is recorded whole.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from daemon.integrations.claude_code.spool import json_objects


def claude_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$CLAUDE_CONFIG_DIR`` or ``~/.claude``."""
    environ = os.environ if environ is None else environ
    given = environ.get("CLAUDE_CONFIG_DIR", "").strip()
    return Path(given).expanduser() if given else Path.home() / ".claude"


def projects_dir(environ: Mapping[str, str] | None = None) -> Path:
    base = claude_home(environ)
    return base if base.name == "projects" else base / "projects"


def find(session_id: str, given: Any = None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The session's transcript: the hook's ``transcript_path`` when it exists, else the newest match."""
    if isinstance(given, str) and given and Path(given).expanduser().is_file():
        return Path(given).expanduser()
    if not session_id or "/" in session_id or "\\" in session_id:
        return None
    found = [p for p in projects_dir(environ).glob(f"*/{session_id}.jsonl") if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The transcript's JSON objects in file order.

    A line that is not JSON is skipped (the last one may be half-written while
    the session runs); its uuid is then not seen, so it is read next time.
    """
    with open(path, "rb") as handle:
        return json_objects(handle)


def subagent_files(transcript: Path, session_id: str) -> list[Path]:
    """The session's subagent transcripts (compaction helpers left out)."""
    found = sorted((transcript.parent / session_id / "subagents").glob("agent-*.jsonl"))
    for path in sorted(transcript.parent.glob("agent-*.jsonl")):
        if _first_session(path) == session_id:
            found.append(path)
    return [p for p in found if not p.name.startswith("agent-acompact")]


def _first_session(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            first = json.loads(handle.readline() or b"null")
    except (OSError, ValueError):
        return None
    return first.get("sessionId") if isinstance(first, dict) else None


@dataclass(frozen=True)
class Increment:
    """The lines to record now, the uuids they bring, and whether a compaction boundary or summary is among them."""

    lines: tuple[dict[str, Any], ...]
    uuids: frozenset[str]
    compacted: bool


def increment(entries: list[dict[str, Any]], seen: set[str]) -> Increment:
    """The entries whose ``uuid`` is new, plus the other lines of any reply they belong to."""
    fresh = [e for e in entries if isinstance(e.get("uuid"), str) and e["uuid"] and e["uuid"] not in seen]
    replies = {_reply_id(e) for e in fresh} - {None}
    chosen = [e for e in entries if (isinstance(e.get("uuid"), str) and e["uuid"] and e["uuid"] not in seen)
              or _reply_id(e) in replies]
    compacted = any(_is_compaction(e) for e in fresh)
    return Increment(tuple(chosen), frozenset(e["uuid"] for e in fresh), compacted)


def _reply_id(entry: Mapping[str, Any]) -> str | None:
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict):
        return None
    value = message.get("id")
    return value if isinstance(value, str) and value else None


def _is_compaction(entry: Mapping[str, Any]) -> bool:
    return (entry.get("type") == "system" and entry.get("subtype") == "compact_boundary") or \
        entry.get("isCompactSummary") is True or entry.get("type") == "summary"


def cwd_of(entries: list[dict[str, Any]]) -> str | None:
    """The working folder the session ran in (the last line that names one)."""
    for entry in reversed(entries):
        if isinstance(entry.get("cwd"), str) and entry["cwd"]:
            return entry["cwd"]
    return None
