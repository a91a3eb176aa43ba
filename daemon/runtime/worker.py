"""One worker drains one queue, in order: file-event batches, submitted jobs, inbox imports.

Everything that reads or writes the vault while the daemon runs goes through
here, so nothing ever writes beside another job.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from daemon.links.moves import Tracker
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue
from daemon.pipeline.renames import apply_actions
from daemon.links.events import FileEvent

log = logging.getLogger("memvault.worker")
_STOP = object()


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
        self.queue.put(_STOP)
        self.thread.join(timeout=60)

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
            for report in self.inbox.tick(self.ctx, self.clock()):
                log.info("inbox: %s %s %s", report.name, report.state, report.counts)
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
            apply_actions(self.ctx, self.tracker.feed(batch, self.clock()))
        except Exception:  # one bad batch must not stop the daemon
            log.exception("handling %d file events failed", len(batch))

    @staticmethod
    def _run_job(fn: Callable[[], Any], future: Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to the caller through the future
            future.set_exception(exc)
