"""What memvault remembers per Claude Code session, in ``<state dir>/claude-code/sessions/``.

One small JSON file per session: the uuids already recorded (the increment
is computed against them), the transcript and working folder, when the last
hook ran, when the card was last written, and the days whose card waits for
the throttle. State, not vault: deleting it costs one re-read of each
transcript, which records nothing twice (the source record merges by id).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from daemon.integrations.claude_code import spool
from daemon.integrations.claude_code.spool import folder

_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")


@dataclass
class SessionState:
    """One session's bookkeeping."""

    session_id: str
    transcript: str = ""
    cwd: str = ""
    seen: list[str] = field(default_factory=list)
    last_hook: float = 0.0
    last_event: str = ""
    last_distilled: float = 0.0
    hooks: int = 0
    waiting: dict[str, list[str]] = field(default_factory=dict)  # vault session id → days whose card waits

    @property
    def project(self) -> str:
        return Path(self.cwd).name if self.cwd else ""


def sessions_dir(state_dir: Path) -> Path:
    return folder(state_dir) / "sessions"


def _file(state_dir: Path, session_id: str) -> Path:
    name = session_id if _SAFE.match(session_id) else "s-" + hashlib.sha256(session_id.encode()).hexdigest()[:24]
    return sessions_dir(state_dir) / f"{name}.json"


def load(state_dir: Path, session_id: str) -> SessionState:
    try:
        data = json.loads(_file(state_dir, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return SessionState(session_id)
    known = {k: v for k, v in data.items() if k in SessionState.__dataclass_fields__} if isinstance(data, dict) else {}
    try:
        return SessionState(**{**known, "session_id": session_id})
    except TypeError:
        return SessionState(session_id)


def save(state_dir: Path, state: SessionState) -> None:
    path = _file(state_dir, state.session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(json.dumps(asdict(state), ensure_ascii=False), encoding="utf-8")
    os.replace(temp, path)
    marker = waiting_dir(state_dir) / path.name  # a small list to look at, instead of every session
    if state.waiting:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(state.session_id, encoding="utf-8")
    else:
        marker.unlink(missing_ok=True)


def waiting_dir(state_dir: Path) -> Path:
    return folder(state_dir) / "waiting"


def overdue(state_dir: Path, now: float, interval: float) -> list[SessionState]:
    """Sessions whose card has waited at least ``interval`` seconds (their session may have died quietly)."""
    found = []
    for marker in sorted(waiting_dir(state_dir).glob("*.json")) if waiting_dir(state_dir).is_dir() else ():
        try:
            state = load(state_dir, marker.read_text(encoding="utf-8"))
        except OSError:
            continue
        if state.waiting and now - state.last_distilled >= interval:
            found.append(state)
    return found


def summary(state_dir: Path) -> dict[str, Any]:
    """How many sessions are recorded and when the last hook ran (epoch seconds, or None)."""
    count, last = 0, 0.0
    for path in sessions_dir(state_dir).glob("*.json") if sessions_dir(state_dir).is_dir() else ():
        count += 1
        try:
            last = max(last, float(json.loads(path.read_text(encoding="utf-8")).get("last_hook") or 0))
        except (OSError, ValueError, AttributeError, TypeError):
            continue
    return {"sessions": count, "last_hook": last or None}


def overview(state_dir: Path, errors: int = 5) -> dict[str, Any]:
    """For ``memvault status``: sessions recorded, the last hook (local time), jobs waiting, recent errors."""
    found = summary(state_dir)
    last = found["last_hook"]
    return {
        "sessions": found["sessions"],
        "last_hook": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(last)) if last else None,
        "waiting_jobs": len(spool.jobs(state_dir)),
        "errors": spool.errors(state_dir, errors),
    }
