"""Scheduler wiring (asserted without starting threads) and job functions called directly."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from apscheduler.triggers.interval import IntervalTrigger

from daemon.config import load_config
from daemon.runtime.jobs import (HEARTBEAT, RECONCILE, RETAG, STATUS_NOTE, heartbeat_job, make_scheduler,
                                 reconcile_job)
from daemon.pipeline import Context


@dataclass
class FakeWatcher:
    is_alive: bool = True
    restarts: int = 0

    def alive(self) -> bool:
        return self.is_alive

    def restart(self) -> None:
        self.restarts += 1
        self.is_alive = True


@dataclass
class FakeTracker:
    has_pending: bool = False

    def pending(self) -> bool:
        return self.has_pending


@dataclass
class InlineWorker:
    tracker: FakeTracker = field(default_factory=FakeTracker)

    def submit(self, fn: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn())
        return future

    def stuck(self, limit: float) -> str | None:
        return None


@dataclass
class Runtime:
    ctx: Any
    worker: Any = field(default_factory=InlineWorker)
    watcher: Any = field(default_factory=FakeWatcher)


def test_scheduler_has_the_jobs_with_their_triggers() -> None:
    config = load_config(overrides=["watch.reconcile_minutes=7", "watch.heartbeat_seconds=11"], environ={})
    scheduler = make_scheduler(config, Runtime(ctx=None))
    jobs = {job.id: job for job in scheduler.get_jobs()}
    assert set(jobs) == {RECONCILE, HEARTBEAT, RETAG, STATUS_NOTE}
    assert jobs[STATUS_NOTE].trigger.interval.total_seconds() == 60  # the status note: at most once a minute
    assert isinstance(jobs[RECONCILE].trigger, IntervalTrigger)
    assert jobs[RECONCILE].trigger.interval.total_seconds() == 7 * 60
    assert jobs[HEARTBEAT].trigger.interval.total_seconds() == 11
    assert all(job.coalesce and job.max_instances == 1 for job in jobs.values())
    assert not scheduler.running


def test_heartbeat_restarts_a_dead_watcher() -> None:
    runtime = Runtime(ctx=None, watcher=FakeWatcher(is_alive=False))
    assert heartbeat_job(runtime) is True and runtime.watcher.restarts == 1
    assert heartbeat_job(runtime) is False and runtime.watcher.restarts == 1


def test_reconcile_restarts_a_silent_watcher(ctx: Context, vault_root: Any) -> None:
    runtime = Runtime(ctx=ctx)
    assert reconcile_job(runtime) is False and runtime.watcher.restarts == 0
    (vault_root / "missed.md").write_text("[[Memvault]]")
    assert reconcile_job(runtime) is True and runtime.watcher.restarts == 1
    assert ctx.graph.index.note("missed.md") is not None
    (vault_root / "missed.md").unlink()
    runtime.worker.tracker.has_pending = True
    assert reconcile_job(runtime) is True and runtime.watcher.restarts == 1
