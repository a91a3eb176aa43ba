"""The watchdog adapter, with watchdog events built in code."""

from __future__ import annotations

import pytest
from watchdog.events import (DirMovedEvent, FileClosedEvent, FileCreatedEvent, FileDeletedEvent,
                             FileModifiedEvent, FileMovedEvent, DirModifiedEvent, FileOpenedEvent)

from daemon.runtime.watcher import CREATED, DELETED, MODIFIED, MOVED, FileEvent, to_event

ROOT = "/vault"


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (FileCreatedEvent("/vault/a.md"), FileEvent(CREATED, "a.md")),
        (FileModifiedEvent("/vault/d/a.md"), FileEvent(MODIFIED, "d/a.md")),
        (FileDeletedEvent("/vault/d/a.md"), FileEvent(DELETED, "d/a.md")),
        (FileMovedEvent("/vault/a.md", "/vault/b/A.md"), FileEvent(MOVED, "a.md", "b/A.md")),
        (DirMovedEvent("/vault/notes", "/vault/archive"), FileEvent(MOVED, "notes", "archive", True)),
        (FileMovedEvent("/elsewhere/a.md", "/vault/a.md"), FileEvent(CREATED, "a.md")),
        (FileMovedEvent("/vault/a.md", "/elsewhere/a.md"), FileEvent(DELETED, "a.md")),
        (FileMovedEvent("/vault/中文 note.md", "/vault/x.md"), FileEvent(MOVED, "中文 note.md", "x.md")),
        (DirModifiedEvent("/vault/d"), None),
        (FileOpenedEvent("/vault/a.md"), None),
        (FileClosedEvent("/vault/a.md"), None),
        (FileCreatedEvent("/elsewhere/a.md"), None),
        (FileCreatedEvent("/vault"), None),
    ],
)
def test_to_event(event: object, expected: FileEvent | None) -> None:
    assert to_event(ROOT, event) == expected  # type: ignore[arg-type]


def test_bytes_paths() -> None:
    assert to_event(ROOT, FileCreatedEvent(b"/vault/a.md")) == FileEvent(CREATED, "a.md")


def test_watchdogs_stop_race_is_not_reported_as_an_error(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    import daemon.runtime.watcher  # noqa: F401  (installs the filter)

    inotify = logging.getLogger("watchdog.observers.inotify")
    with caplog.at_level(logging.WARNING):
        inotify.error("InotifyEmitter.queue_events() called when the thread is inactive")
        inotify.error("a real inotify problem")
    assert [r.getMessage() for r in caplog.records] == ["a real inotify problem"]
