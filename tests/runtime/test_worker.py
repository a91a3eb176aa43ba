"""The worker's liveness guard: a job running past the limit is "stuck" in ``status`` and the log."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import pytest

from daemon import ops
from daemon.links.moves import Tracker
from daemon.models import Card, DistillRequest
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue
from daemon.runtime.jobs import heartbeat_job
from daemon.runtime.worker import Worker


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_job_running_past_the_limit_is_reported_stuck(ctx: Context, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    worker = Worker(ctx, Tracker(ctx.graph, grace=2.0), clock=clock)
    started, release = threading.Event(), threading.Event()

    def hang() -> str:
        started.set()
        release.wait(30)
        return "done"

    worker.start()
    try:
        runtime = SimpleNamespace(worker=worker, watcher=SimpleNamespace(alive=lambda: True, state="native"),
                                  scheduler=None)
        assert ops.status(ctx, runtime=runtime)["daemon"] == "running"
        future = worker.submit(hang)
        assert started.wait(10)
        clock.now += 9 * 60
        assert worker.stuck(600) is None and ops.status(ctx, runtime=runtime)["daemon"] == "running"
        clock.now += 2 * 60
        assert "hang" in (worker.stuck(600) or "")
        shown = ops.status(ctx, runtime=runtime)["daemon"]
        assert shown.startswith("stuck: running") and "hang" in shown and "660 s" in shown
        caplog.set_level("WARNING", logger="memvault.jobs")
        heartbeat_job(runtime, stuck_after=600)
        assert any("stuck" in r.getMessage() and "hang" in r.getMessage() for r in caplog.records)
        release.set()
        assert future.result(10) == "done"
        assert worker.stuck(600) is None and ops.status(ctx, runtime=runtime)["daemon"] == "running"
    finally:
        release.set()
        worker.stop()


def test_the_limit_is_configurable() -> None:
    from daemon.config import load_config

    assert load_config(overrides=["watch.stuck_minutes=3"], environ={}).data["watch"]["stuck_minutes"] == 3


def stop_mid_import(ctx: Context, fake: object, name: str, export: object,
                    card: Callable[[DistillRequest], Card]) -> Path:
    """Drop ``export`` into the inbox, and stop the worker while its first distiller call is running.

    Returns the inbox file, after asserting that the stop waited for that call and then ended.
    """
    started, go = threading.Event(), threading.Event()

    def slow(request: DistillRequest) -> Card:
        started.set()
        assert go.wait(30)
        return card(request)

    fake.make = slow  # type: ignore[attr-defined]
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / name).write_text(json.dumps(export), encoding="utf-8")
    worker = Worker(ctx, Tracker(ctx.graph, grace=2.0), inbox=InboxQueue(inbox, window=0.01))
    worker.start()
    stopper = threading.Thread(target=worker.stop)
    try:
        assert started.wait(30), "the import never started"
        stopper.start()
        assert worker.inbox is not None and worker.inbox.stopping.wait(10)
        go.set()
        stopper.join(10)
        assert not stopper.is_alive() and not worker.thread.is_alive()
    finally:
        go.set()
        if not stopper.is_alive() and worker.thread.is_alive():
            worker.stop()
    return inbox / name


def test_stop_during_a_long_import_ends_after_the_current_conversation(ctx: Context, fake: object) -> None:
    export = [{"session_id": f"s{n}", "messages": [{"id": "m1", "role": "user", "content": f"Fact {n}.",
                                                    "created_at": "2026-01-05T10:00:00"}]} for n in range(5)]
    path = stop_mid_import(ctx, fake, "big.json", export,
                           lambda request: Card("topic", "d", "- " + request.messages[0].text + "\n"))
    assert len(fake.calls) == 1  # type: ignore[attr-defined]
    assert path.exists() and not (path.parent / "failed").exists()
    assert len(list((ctx.config.vault / "daily").glob("*/*.md"))) == 1


def test_stop_during_one_huge_conversation_ends_after_the_current_part(
        ctx: Context, fake: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from daemon.pipeline import bounded

    monkeypatch.setattr(bounded, "PART_MESSAGES", 4)
    export = {"session_id": "huge", "messages": [{"id": f"m{n}", "role": "user", "content": f"Fact {n}.",
                                                  "created_at": "2026-01-05T10:00:00"} for n in range(10)]}
    path = stop_mid_import(ctx, fake, "huge.json", export,
                           lambda request: Card("topic", "d", "".join(f"- {m.text}\n" for m in request.messages)))
    assert len(fake.calls) == 1  # type: ignore[attr-defined]  # parts 2 and 3 never started
    assert path.exists() and not (path.parent / "failed").exists()
    assert ctx.bases.pending("huge", "2026-01-05") == [f"m{n}" for n in range(4, 10)]
