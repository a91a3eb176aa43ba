"""APScheduler wiring: periodic reconcile, the watcher heartbeat, scheduled re-tagging.

Job functions are plain functions of their inputs, so tests call them
directly; the scheduler only decides when. Every job that touches the vault
runs on the worker's queue, never beside another job.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from daemon.config import Config
from daemon.pipeline.renames import reconcile
from daemon.pipeline.statusnote import MIN_INTERVAL, StatusNote
from daemon.pipeline.tags import retag

log = logging.getLogger("memvault.jobs")

RECONCILE = "reconcile"
HEARTBEAT = "heartbeat"
RETAG = "retag"
STATUS_NOTE = "status_note"


class Runtime(Protocol):
    """What the jobs need from the running daemon."""

    ctx: Any
    worker: Any
    watcher: Any


def reconcile_job(runtime: Runtime, timeout: float = 600.0) -> bool:
    """Catch up with changes the watcher missed; a silent watcher is restarted. Returns True if any."""
    changes = runtime.worker.submit(lambda: reconcile(runtime.ctx)).result(timeout=timeout)
    # Deletions still inside the move grace period are known, not missed.
    if changes and not runtime.worker.tracker.pending():
        log.warning("reconcile found changes the watcher did not report: %s", changes)
        runtime.watcher.restart()
    return bool(changes)


def heartbeat_job(runtime: Runtime, stuck_after: float = 600.0) -> bool:
    """Restart a watcher whose observer thread died; warn about a stuck worker. True when it restarted one.

    A worker busy with one job for more than ``stuck_after`` seconds cannot be
    interrupted safely (it may be mid-write); it is reported, in the log here
    and as "stuck" in ``status``, so the user can act.
    """
    stuck = runtime.worker.stuck(stuck_after)
    if stuck:
        log.warning("the worker is stuck: %s", stuck)
    if runtime.watcher.alive():
        return False
    runtime.watcher.restart()
    return True


def retag_job(runtime: Runtime, now: float | None = None, timeout: float = 3600.0) -> dict[str, Any]:
    """Re-tag cards whose content changed since they were last tagged, on the worker queue."""
    return runtime.worker.submit(lambda: retag(runtime.ctx, now=now)).result(timeout=timeout)


def status_note_job(runtime: Runtime, note: StatusNote, scheduler: Any = None, timeout: float = 600.0) -> bool:
    """Refresh the status block in ``Memvault.md`` on the worker queue; True when it was written."""
    retag = scheduler.get_job(RETAG) if scheduler is not None else None
    state = f"running (watcher {runtime.watcher.state})"
    nxt = getattr(retag, "next_run_time", None)
    return bool(runtime.worker.submit(lambda: note.refresh(state, nxt)).result(timeout=timeout))


def status_note_stopped(scheduler: Any, runtime: Runtime, timeout: float = 30.0) -> bool:
    """The status note's last word as the daemon stops, so the block never says "running" after it."""
    job = scheduler.get_job(STATUS_NOTE) if scheduler is not None else None
    thread = getattr(runtime.worker, "thread", None)
    if job is None or thread is None or not thread.is_alive():
        return False
    note: StatusNote = job.args[1]
    try:
        return bool(runtime.worker.submit(lambda: note.refresh("stopped", force=True)).result(timeout=timeout))
    except Exception:  # stopping goes on whatever the note does
        log.warning("could not write the status note on stop", exc_info=True)
        return False


def retag_trigger(config: Config) -> CronTrigger:
    """The re-tagging schedule: a crontab line in ``tagging.schedule`` (default nightly at 03:00)."""
    return CronTrigger.from_crontab(config.data["tagging"]["schedule"], timezone=config.tz)


def make_scheduler(config: Config, runtime: Runtime) -> BackgroundScheduler:
    """A scheduler with the daemon's jobs registered (not started)."""
    scheduler = BackgroundScheduler(daemon=True)
    watch = config.data["watch"]
    defaults: dict[str, Any] = {"coalesce": True, "max_instances": 1, "misfire_grace_time": None}
    scheduler.add_job(reconcile_job, IntervalTrigger(minutes=watch["reconcile_minutes"]), id=RECONCILE,
                      args=[runtime], replace_existing=True, **defaults)
    scheduler.add_job(heartbeat_job, IntervalTrigger(seconds=watch["heartbeat_seconds"]), id=HEARTBEAT,
                      args=[runtime, 60 * watch["stuck_minutes"]], replace_existing=True, **defaults)
    if config.data["tagging"]["enabled"]:
        # A laptop asleep at 03:00 runs the missed re-tag once on waking (coalesce, no grace limit).
        scheduler.add_job(retag_job, retag_trigger(config), id=RETAG, args=[runtime], replace_existing=True,
                          **defaults)
    if config.data["status_note"]["enabled"]:  # at most once a minute, and written only when it changed
        scheduler.add_job(status_note_job, IntervalTrigger(seconds=MIN_INTERVAL), id=STATUS_NOTE,
                          args=[runtime, StatusNote(runtime.ctx), scheduler], replace_existing=True, **defaults)
    return scheduler
