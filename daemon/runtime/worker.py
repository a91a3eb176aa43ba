"""One worker drains one queue, in order: file-event batches, submitted jobs, inbox imports.

Everything that reads or writes the vault while the daemon runs goes through
here, so nothing ever writes beside another job. The worker says what it is
doing and since when (``busy``), so a job that runs past a limit is reported as
stuck in ``status`` and the log instead of the daemon looking healthy.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from daemon.links.moves import Tracker
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue
from daemon.pipeline.renames import apply_actions
from daemon.links.events import FileEvent

log = logging.getLogger("memvault.worker")
_STOP = object()
INBOX_TICK = "importing the inbox"


class Worker:
    def __init__(self, ctx: Context, tracker: Tracker, settle: float = 0.3,
                 clock: Callable[[], float] = time.monotonic, inbox: InboxQueue | None = None) -> None:
        self.ctx = ctx
        self.tracker = tracker
        self.inbox = inbox
        self.settle = settle
        self.clock = clock
        self.queue: queue.Queue[Any] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="memvault-worker", daemon=True)
        self.last_event: float | None = None
        self._held: Any = None  # a job that ended a batch, run next (keeps queue order)
        self.busy: tuple[str, float] | None = None  # what the worker is doing, since when (``clock``)

    def start(self) -> None:
        self.thread.start()

    def put_event(self, event: FileEvent) -> None:
        self.queue.put(event)

    def submit(self, fn: Callable[[], Any]) -> Future[Any]:
        """Run ``fn`` on the worker thread after everything queued before it."""
        future: Future[Any] = Future()
        self.queue.put((fn, future))
        return future

    def stop(self) -> None:
        """Stop after the current conversation, or the current part of a huge one.

        An import in progress ends there: its file stays in the inbox, its undistilled messages pending.
        """
        if self.inbox is not None:
            self.inbox.stopping.set()
        self.queue.put(_STOP)
        self.thread.join(timeout=60)

    def stuck(self, limit: float) -> str | None:
        """What the worker has been doing for more than ``limit`` seconds, or None."""
        busy = self.busy
        if busy is None or self.clock() - busy[1] <= limit:
            return None
        current = self.inbox.current if self.inbox is not None else None
        what = f"{busy[0]} ({current})" if current and busy[0] == INBOX_TICK else busy[0]
        return f"{what} for {int(self.clock() - busy[1])} s"

    @contextmanager
    def _doing(self, what: str) -> Iterator[None]:
        self.busy = (what, self.clock())
        try:
            yield
        finally:
            self.busy = None

    def _timeout(self) -> float:
        if self.inbox is not None and self.inbox.waiting():
            return 0.25  # a file is settling: look again soon, to import it right after the window
        return self.tracker.grace / 2 if self.tracker.pending() else 1.0

    def _run(self) -> None:
        self._inbox_tick()  # files already in the inbox at start-up
        while True:
            try:
                item, self._held = (self._held, None) if self._held is not None else (
                    self.queue.get(timeout=self._timeout()), None)
            except queue.Empty:
                if self.tracker.pending():
                    self._handle([])
                self._inbox_tick()
                continue
            if item is _STOP:
                return
            if isinstance(item, FileEvent):
                self._handle(self._batch(item))
                self._inbox_tick()
            else:
                self._run_job(*item)
                self._inbox_tick()

    def nudge(self) -> None:
        """Wake the worker to look at the inbox now (an inbox event arrived)."""
        self.submit(lambda: None)

    def _inbox_tick(self) -> None:
        if self.inbox is None:
            return
        try:
            with self._doing(INBOX_TICK):
                reports = self.inbox.tick(self.ctx, self.clock())
            for report in reports:
                log.log(logging.WARNING if report.reasons else logging.INFO, "inbox: %s", report.summary())
        except Exception:  # a broken file must not stop the daemon; it is retried on the next tick
            log.exception("inbox import failed")

    def _batch(self, first: FileEvent) -> list[FileEvent]:
        """Collect events until none arrives for ``settle`` seconds (a burst becomes one batch)."""
        batch = [first]
        deadline = self.clock() + 5 * self.settle
        while self.clock() < deadline:
            try:
                item = self.queue.get(timeout=self.settle)
            except queue.Empty:
                break
            if not isinstance(item, FileEvent):
                self._held = item  # a job or stop: it runs right after this batch
                break
            batch.append(item)
        self.last_event = time.time()
        return batch

    def _handle(self, batch: list[FileEvent]) -> None:
        try:
            with self._doing(f"handling {len(batch)} file events"):
                apply_actions(self.ctx, self.tracker.feed(batch, self.clock()))
        except Exception:  # one bad batch must not stop the daemon
            log.exception("handling %d file events failed", len(batch))

    def _run_job(self, fn: Callable[[], Any], future: Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            with self._doing(f"running {getattr(fn, '__qualname__', 'a job')}"):
                result = fn()
            future.set_result(result)
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
