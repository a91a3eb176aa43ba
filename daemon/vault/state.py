"""Rebuildable state kept outside the vault: the vault lock and the last-written card bodies.

Deleting the state directory loses nothing but time: without a remembered
base, the card merge treats every line in the vault as the user's and keeps it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Protocol

from daemon.errors import LockError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class CardStateStore(Protocol):
    """Where card state is kept: the index database (``links.index.Index``)."""

    def card_state(self, session_id: str, day: str) -> str | None: ...

    def set_card_state(self, session_id: str, day: str, value: str) -> None: ...


NOTICE_AFTER = 2.0  # seconds of waiting for the vault lock before saying who holds it


class VaultLock:
    """An exclusive, process-wide lock on one vault (one writer: the daemon or one CLI process)."""

    def __init__(self, state_dir: Path, role: str) -> None:
        self.path = state_dir / "vault.lock"
        self.role = role
        self._handle: Any = None

    def acquire(self, wait: float = 0.0, notice: Callable[[str], None] | None = None,
                give_up: Callable[[], bool] | None = None) -> bool:
        """Take the lock, waiting up to ``wait`` seconds for its holder to finish.

        ``notice`` hears once, after NOTICE_AFTER seconds, who is being waited for;
        ``give_up`` is asked on each try and ends the wait early (returns False), e.g.
        when a daemon that can do the work instead has come up.

        Raises:
            LockError: still held after ``wait`` seconds, naming the process that holds it.
        """
        started = time.monotonic()
        delay, noticed = 0.01, notice is None
        while True:
            holder = self._try()
            if holder is None:
                return True
            if give_up is not None and give_up():
                return False
            waited = time.monotonic() - started
            if waited >= wait:
                after = f" (waited {wait:g} s; lock.wait_seconds sets how long)" if wait else ""
                raise LockError(f"the vault is in use by {holder}; stop it or wait for it to finish{after}")
            if not noticed and waited >= NOTICE_AFTER:
                notice(f"waiting for the vault: it is in use by {holder} (at most {wait:g} s)")  # type: ignore[misc]
                noticed = True
            time.sleep(min(delay, wait - waited))  # polling: flock cannot wait with a timeout
            delay = min(delay * 2, 0.2)

    def _try(self) -> str | None:
        """Take the lock without waiting; None on success, else who holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")
        try:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            return holder
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()} ({self.role})")
        handle.flush()
        self._handle = handle
        return None

    def release(self) -> None:
        if self._handle is not None:
            self._handle.seek(0)
            self._handle.truncate()
            self._handle.close()
            self._handle = None

    def __enter__(self) -> "VaultLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class BaseStore:
    """The card content memvault last wrote, per session and day (the merge base), and the
    messages recorded but not yet distilled — kept in the index database (state, not vault)."""

    def __init__(self, index: CardStateStore) -> None:
        self.index = index

    def get(self, session_id: str, day: str) -> dict[str, Any] | None:
        try:
            value = json.loads(self.index.card_state(session_id, day) or "null")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def put(self, session_id: str, day: str, base: dict[str, Any]) -> None:
        """Remember what was written (keeping the pending list)."""
        current = self.get(session_id, day) or {}
        self._save(session_id, day, {**base, "pending": current.get("pending", [])})

    def pending(self, session_id: str, day: str) -> list[str]:
        """Ids of messages saved in the record but not yet distilled into the card."""
        value = (self.get(session_id, day) or {}).get("pending", [])
        return [str(v) for v in value] if isinstance(value, list) else []

    def set_pending(self, session_id: str, day: str, ids: list[str]) -> None:
        current = self.get(session_id, day)
        if (current is None and not ids) or (current is not None and current.get("pending", []) == ids):
            return
        self._save(session_id, day, {**(current or {}), "pending": ids})

    def _save(self, session_id: str, day: str, value: dict[str, Any]) -> None:
        self.index.set_card_state(session_id, day, json.dumps(value, ensure_ascii=False))
