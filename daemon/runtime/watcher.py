"""The watchdog adapter: file-system events in, small ``FileEvent`` values out, onto one queue.

No decisions happen here; ``links.moves.Tracker`` decides what events mean. The
heartbeat in ``jobs`` restarts an observer that died or went silent.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

from daemon.links.events import CREATED, DELETED, MODIFIED, MOVED, FileEvent

log = logging.getLogger("memvault.watcher")


class _QuietStop(logging.Filter):
    """watchdog logs an ERROR when an event races the observer's own stop; nothing is wrong, so say nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "called when the thread is inactive" not in record.getMessage()


logging.getLogger("watchdog.observers.inotify").addFilter(_QuietStop())



def relative(root: str, path: str | bytes) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when it is outside."""
    text = os.fsdecode(path)
    try:
        rel = os.path.relpath(text, root)
    except ValueError:
        return None
    if rel == "." or rel.startswith(".." + os.sep) or rel == "..":
        return None
    return Path(rel).as_posix()


def to_event(root: str, event: FileSystemEvent) -> FileEvent | None:
    """Translate a watchdog event; None for kinds we do not care about (opened, closed…)."""
    kind = event.event_type
    if kind not in (CREATED, MODIFIED, DELETED, MOVED):
        return None
    path = relative(root, event.src_path)
    if kind == MOVED:
        dest = relative(root, event.dest_path)
        if path is None and dest is None:
            return None
        if path is None:  # moved in from outside: a creation
            return FileEvent(CREATED, dest or "", None, event.is_directory)
        if dest is None:  # moved out of the vault: a deletion
            return FileEvent(DELETED, path, None, event.is_directory)
        return FileEvent(MOVED, path, dest, event.is_directory)
    if path is None or (kind == MODIFIED and event.is_directory):
        return None
    return FileEvent(kind, path, None, event.is_directory)


class _Handler(FileSystemEventHandler):
    def __init__(self, root: str, put: Callable[[FileEvent], None]) -> None:
        self.root = root
        self.put = put

    def on_any_event(self, event: FileSystemEvent) -> None:
        value = to_event(self.root, event)
        if value is not None:
            self.put(value)


class Watcher:
    """A recursive observer on one folder; ``polling`` for network and cloud drives."""

    def __init__(self, root: Path, put: Callable[[FileEvent], None], polling: bool = False,
                 interval: float = 1.0) -> None:
        self.root = str(root.resolve())
        self.put = put
        self.polling = polling
        self.interval = interval
        self.observer: Observer | PollingObserver | None = None

    def start(self) -> None:
        observer = PollingObserver(timeout=self.interval) if self.polling else Observer()
        observer.schedule(_Handler(self.root, self.put), self.root, recursive=True)
        observer.daemon = True
        observer.start()
        self.observer = observer

    def alive(self) -> bool:
        return self.observer is not None and self.observer.is_alive()

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=10)
            self.observer = None

    def restart(self) -> None:
        log.warning("restarting the watcher on %s", self.root)
        self.stop()
        self.start()

    @property
    def state(self) -> str:
        if not self.alive():
            return "stopped"
        return "polling" if self.polling else "native"
