"""The daemon's log line per inbox file names the result, a failure's reason and the cards written."""

from __future__ import annotations

import json
import logging

import pytest

from daemon.links.moves import Tracker
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue
from daemon.runtime.worker import Worker


def test_each_file_gets_one_line_with_its_cards_or_its_reason(ctx: Context, caplog: pytest.LogCaptureFixture) -> None:
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "two.json").write_text(json.dumps({"session_id": "s2", "messages": [
        {"role": "user", "content": "Day one: we chose JWT.", "created_at": "2023-01-19T08:00:00"},
        {"role": "user", "content": "Day two: tokens last 15 min.", "created_at": "2023-01-20T08:00:00"}]}),
        encoding="utf-8")
    (inbox / "odd.json").write_text('{"hello": "world"}', encoding="utf-8")
    now = [0.0]
    worker = Worker(ctx, Tracker(ctx.graph, grace=2.0), inbox=InboxQueue(inbox, window=1.0), clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="memvault.worker"):
        worker._inbox_tick()  # sees the files
        now[0] = 5.0
        worker._inbox_tick()  # they held still: imported
    lines = {r.getMessage(): r.levelno for r in caplog.records if r.name == "memvault.worker"}
    assert lines.get("inbox: two.json: imported (1 imported); "
                     "cards: daily/2023-01-19/topic.md, daily/2023-01-20/topic.md") == logging.INFO, lines
    failed = [line for line in lines if line.startswith("inbox: odd.json: failed (1 failed): ")]
    assert len(failed) == 1 and lines[failed[0]] == logging.WARNING
    assert failed[0].count("odd.json") == 1 and len(failed[0]) > len("inbox: odd.json: failed (1 failed): ") + 10
