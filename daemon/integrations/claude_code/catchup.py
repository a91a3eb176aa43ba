"""``memvault claude-code import``: every session already on disk, as if each had just ended.

Each transcript under the Claude projects folder goes through the same
increment as a hook (forced, like ``SessionEnd``), so running it again
records nothing: every uuid is already seen.
"""

from __future__ import annotations

import time
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Mapping

from daemon.integrations.claude_code.drain import process_safely
from daemon.integrations.claude_code.transcripts import projects_dir
from daemon.pipeline import Context


def session_files(folder: Path, since: date | None = None) -> list[Path]:
    """Top-level session transcripts (not subagents), oldest first; with ``since``, those touched on or after it."""
    found = [p for p in folder.glob("*/*.jsonl") if p.is_file() and not p.name.startswith("agent-")]
    if since is not None:
        found = [p for p in found if datetime.fromtimestamp(p.stat().st_mtime).date() >= since]
    return sorted(found, key=lambda p: (p.stat().st_mtime, str(p)))


def import_sessions(ctx: Context, state_dir: Path, since: date | None = None,
                    progress: Callable[[str, int], None] | None = None,
                    environ: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Import every session; one report per transcript, shaped like the inbox's."""
    reports = []
    for count, path in enumerate(session_files(projects_dir(environ), since), 1):
        payload = {"session_id": path.stem, "transcript_path": str(path), "hook_event_name": "import"}
        report = process_safely(ctx, state_dir, payload, time.time(), force=True, environ=environ)
        reports.append({**report, "name": f"{path.parent.name}/{path.name}"})
        if progress:
            progress(path.name, count)
    return reports
