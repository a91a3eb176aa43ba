"""The spool: hook jobs waiting in ``<state dir>/claude-code/spool/``, and the drainer lock.

A job is one small JSON file, written to a temporary name and renamed, so a
reader never sees half of one. Names start with the time in nanoseconds, so
sorting them gives arrival order. Only one process drains at a time: it
holds ``.drain.lock`` (``flock``), and after letting go it looks again, so a
job that arrived while it was finishing is never stranded.

Light on purpose (standard library only): the hook imports it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Iterable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no drainer lock, the vault lock still serialises
    fcntl = None  # type: ignore[assignment]

SPOOL = "spool"
ERRORS = "errors.jsonl"
KEEP_ERRORS = 50


def folder(state_dir: Path) -> Path:
    """``<state dir>/claude-code``: the spool, the session records and the error list."""
    return state_dir / "claude-code"


def spool_dir(state_dir: Path) -> Path:
    return folder(state_dir) / SPOOL


def put(state_dir: Path, payload: dict[str, Any], at: float | None = None) -> Path:
    """Leave one job in the spool; returns its path."""
    where = spool_dir(state_dir)
    where.mkdir(parents=True, exist_ok=True)
    stamp = time.time_ns()
    name = f"{stamp:020d}-{os.getpid()}-{os.urandom(3).hex()}.json"
    temp = where / f".{name}.tmp"
    temp.write_text(json.dumps({"at": time.time() if at is None else at, "payload": payload}), encoding="utf-8")
    os.replace(temp, where / name)
    return where / name


def jobs(state_dir: Path) -> list[Path]:
    """The waiting jobs, oldest first."""
    try:
        return sorted(p for p in spool_dir(state_dir).iterdir() if p.suffix == ".json" and not p.name.startswith("."))
    except FileNotFoundError:
        return []


def read(path: Path) -> dict[str, Any] | None:
    """One job, or None when it is not a job (it is then left for a person to look at)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("payload"), dict):
        return None
    return value


class DrainLock:
    """Held by the one process draining the spool; ``try_acquire`` never waits."""

    def __init__(self, state_dir: Path) -> None:
        self.path = spool_dir(state_dir) / ".drain.lock"
        self._handle: Any = None

    def try_acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")
        if fcntl is not None:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                return False
        self._handle = handle
        return True

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def held_elsewhere(self) -> bool:
        """Whether another process drains right now (probing takes and drops the lock)."""
        if self.try_acquire():
            self.release()
            return False
        return True


def record_error(state_dir: Path, message: str, at: float | None = None) -> None:
    """Keep an error for ``memvault status`` (the last few only)."""
    path = folder(state_dir) / ERRORS
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps({"at": time.time() if at is None else at, "error": message[:1000]}, ensure_ascii=False)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    if path.stat().st_size > KEEP_ERRORS * 2000:
        kept = path.read_text(encoding="utf-8").splitlines()[-KEEP_ERRORS:]
        temp = path.with_name(f".{ERRORS}.tmp")
        temp.write_text("\n".join(kept) + "\n", encoding="utf-8")
        os.replace(temp, path)


def errors(state_dir: Path, limit: int = 10) -> list[dict[str, Any]]:
    """The most recent errors, newest last."""
    try:
        lines = (folder(state_dir) / ERRORS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return json_objects(lines[-limit:])


def json_objects(lines: Iterable[str | bytes]) -> list[dict[str, Any]]:
    """The lines that hold a JSON object, decoded; a line that does not (half written, say) is skipped."""
    found = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found
