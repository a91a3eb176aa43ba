"""The daemon's lifecycle: lock, catch up, watch, work, schedule — and one clean stop path.

SIGINT and SIGTERM set one stop event; stopping shuts the scheduler down,
stops and joins the observer, then drains and joins the worker.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from types import SimpleNamespace

import platformdirs

from daemon import ops
from daemon.runtime.api import ApiServer
from daemon.app import build
from daemon.links.index import Index
from daemon.integrations.claude_code import catchup as claude_catchup, drain as claude_drain
from daemon.config import Config
from daemon.runtime.jobs import make_scheduler, status_note_stopped
from daemon.links.moves import Tracker
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue
from daemon.vault.state import VaultLock
from daemon.runtime.watcher import Watcher
from daemon.runtime.worker import Worker

log = logging.getLogger("memvault")


class Daemon:
    """A running memvault for one vault."""

    def __init__(self, config: Config, polling: bool | None = None, ctx: Context | None = None) -> None:
        self.config = config
        self.polling = config.data["watch"]["polling"] if polling is None else polling
        self.lock = VaultLock(config.state_dir(), f"memvault start, pid {os.getpid()}")
        self.stop_event = threading.Event()
        self._ctx = ctx
        self.ctx: Any = None
        self.worker: Any = None
        self.watcher: Any = None
        self.inbox_watcher: Any = None
        self.scheduler: Any = None
        self.api: Any = None

    def start(self) -> None:
        """Take the lock (waiting for a command that holds it), catch up with changes made while
        stopped, then start watching."""
        self.lock.acquire(self.config.get("lock.wait_seconds"), notice=log.warning)
        try:
            self.ctx = self._ctx or build(self.config)
            watch = self.config.data["watch"]
            tracker = Tracker(self.ctx.graph, grace=watch["move_grace_seconds"])
            inbox = InboxQueue(self.config.inbox, window=watch["inbox_stable_seconds"])
            self.config.inbox.mkdir(parents=True, exist_ok=True)
            self.worker = Worker(self.ctx, tracker, settle=watch["settle_seconds"], inbox=inbox)
            self.watcher = Watcher(self.config.vault, self.worker.put_event, self.polling, watch["polling_interval"])
            self.worker.start()
            self.watcher.start()
            if not _inside(self.config.inbox, self.config.vault):
                self.inbox_watcher = Watcher(self.config.inbox, lambda _: self.worker.nudge(), self.polling,
                                             watch["polling_interval"])
                self.inbox_watcher.start()
            self.scheduler = make_scheduler(self.config, self)
            self.scheduler.start()
            self.api = ApiServer(self.config.state_dir(), self._routes())
            self.api.start()
            self.worker.submit(self._drain_claude_code)  # hook jobs left while nothing ran
        except BaseException:
            self.stop()
            raise

    def _routes(self) -> dict[str, Any]:
        def on_worker(fn: Any) -> Any:
            return lambda body: self.worker.submit(lambda: fn(body)).result()

        return {
            "/auto_memory": on_worker(lambda body: ops.run_auto_memory(self.ctx, body)),
            "/mv": on_worker(lambda body: ops.move(self.ctx, body["src"], body["dst"], bool(body.get("dry_run")))),
            "/ingest": on_worker(lambda body: ops.ingest(self.ctx, list(body["paths"]))),
            "/reindex": on_worker(lambda body: {"files": self.ctx.graph.rebuild()}),
            "/retag": on_worker(lambda body: ops.retag(self.ctx, list(body.get("paths") or []),
                                                       bool(body.get("all")))),
            "/status": lambda body: self._status(),
            # A hook waits for nothing: its job is queued on the worker and answered at once.
            "/claude_code": lambda body: bool(self.worker.submit(self._drain_claude_code)),
            "/claude_code_import": on_worker(lambda body: claude_catchup.import_sessions(
                self.ctx, self.config.state_dir(), _day(body.get("since")))),
        }

    def _drain_claude_code(self) -> list[dict[str, Any]]:
        return claude_drain.drain(self.ctx, self.config.state_dir())

    def _status(self) -> dict[str, Any]:
        """Answered off the worker (it may be busy importing), on a connection of its own."""
        index = Index(self.config.state_dir() / "index.sqlite3")
        try:
            view = SimpleNamespace(config=self.config, graph=SimpleNamespace(index=index))
            return ops.status(view, runtime=self)
        finally:
            index.close()

    def stop(self) -> None:
        """Stop everything started, in reverse order; safe to call twice."""
        if self.api is not None:
            self.api.stop()
            self.api = None
        if self.scheduler is not None:
            status_note_stopped(self.scheduler, self)  # while the worker still runs
            self.scheduler.shutdown(wait=True)
            self.scheduler = None
        if self.watcher is not None:
            self.watcher.stop()
        if self.inbox_watcher is not None:
            self.inbox_watcher.stop()
            self.inbox_watcher = None
        if self.worker is not None and self.worker.thread.is_alive():
            self.worker.stop()
        if self.ctx is not None and self._ctx is None:
            self.ctx.graph.index.close()  # built here, so closed here; an injected context is the caller's
            self.ctx = None
        self.watcher = None
        self.lock.release()

    def run(self) -> None:
        """Run in the foreground until SIGINT or SIGTERM."""
        previous = {sig: signal.signal(sig, lambda *_: self.stop_event.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.start()
            log.info("watching %s (%s)", self.config.vault, self.watcher.state)
            while not self.stop_event.wait(1.0):
                pass
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _day(value: Any) -> Any:
    from datetime import date

    return date.fromisoformat(value) if value else None


def _inside(path: Any, folder: Any) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def log_file() -> Path:
    return Path(platformdirs.user_log_dir("memvault")) / "memvault.log"


class _PrivateLog(RotatingFileHandler):
    """A rotating log whose files, the current one and each new one after a rollover, are 0600."""

    def _open(self):  # type: ignore[no-untyped-def]
        stream = super()._open()
        os.chmod(self.baseFilename, 0o600)
        return stream


def setup_logging() -> Path:
    """The daemon logs to stderr and to a rotating file in the user log folder."""
    path = log_file()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)  # the log names files and holds error text: the user's alone
    handler = _PrivateLog(path, maxBytes=1_000_000, backupCount=5, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("memvault")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return path
