"""Issue 12, item 6: inbox files written slowly are never taken early and never lose lines.

The writers are real (one open descriptor, written in steps); time is the
queue's explicit clock, so nothing sleeps.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue

WINDOW = 1.0


def line(n: int) -> bytes:
    return (json.dumps({"type": "user", "sessionId": "s-1", "uuid": f"u{n}", "timestamp": f"2026-01-05T10:0{n}:00Z",
                        "message": {"role": "user", "content": f"Step {n}: we deploy with Helm."}}) + "\n").encode()


def record_ids(vault_root: Path) -> list[str]:
    [record] = (vault_root / "session/dialog").glob("*.jsonl")
    return [json.loads(x)["id"] for x in record.read_text(encoding="utf-8").splitlines()]


def test_lines_appended_to_an_imported_jsonl_are_imported_when_it_changes_again(
        ctx: Context, vault_root: Path) -> None:
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    queue = InboxQueue(inbox, window=WINDOW)
    fd = os.open(inbox / "t.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.write(fd, line(1) + line(2))
        first = queue.tick(ctx, 0.0) + queue.tick(ctx, 10.0)
        assert [r.state for r in first] == ["imported"] and not (inbox / "t.jsonl").exists()
        assert len(record_ids(vault_root)) == 2
        os.write(fd, line(3) + line(4))  # the writer still holds the file, now in processed/
        assert queue.tick(ctx, 20.0) == []  # it just changed: wait for it to hold still
        later = queue.tick(ctx, 30.0)
        assert [r.state for r in later] == ["updated"]
        assert len(record_ids(vault_root)) == 4
        assert queue.tick(ctx, 40.0) == []  # nothing new: not imported again
    finally:
        os.close(fd)


def test_a_json_file_paused_at_a_brace_waits_for_its_writer(ctx: Context, vault_root: Path) -> None:
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    queue = InboxQueue(inbox, window=WINDOW)  # the default grace period: 10 minutes
    text = json.dumps({"session_id": "chat-1", "messages": [
        {"id": "m1", "role": "user", "content": "We picked Grafana.", "created_at": "2026-01-05T10:00:00"},
        {"id": "m2", "role": "user", "content": "And Loki.", "created_at": "2026-01-05T11:00:00"}]}).encode()
    pause = text.index(b"}") + 1  # the end of the first message: looks complete at both ends
    fd = os.open(inbox / "c.json", os.O_WRONLY | os.O_CREAT)
    try:
        os.write(fd, text[:pause])
        reports = queue.tick(ctx, 0.0) + queue.tick(ctx, 10.0) + queue.tick(ctx, 100.0)
        assert (inbox / "c.json").exists() and not (inbox / "failed").exists()
        assert all(r.state != "failed" for r in reports)
        os.write(fd, text[pause:])
    finally:
        os.close(fd)
    done = queue.tick(ctx, 200.0) + queue.tick(ctx, 210.0)
    assert [r.state for r in done] == ["imported"] and record_ids(vault_root) == ["m1", "m2"]


def test_a_truncated_file_goes_to_failed_after_the_grace_period(ctx: Context) -> None:
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    queue = InboxQueue(inbox, window=WINDOW)  # the default grace period: 10 minutes
    (inbox / "c.json").write_text('{"session_id": "x", "messages": [{"id": "m1", "role": "user", "content": "hi"}')
    assert queue.tick(ctx, 0.0) + queue.tick(ctx, 10.0) + queue.tick(ctx, 500.0) == []
    assert (inbox / "c.json").exists()
    [report] = queue.tick(ctx, 700.0)
    assert report.state == "failed" and (inbox / "failed" / "c.json").exists()
    assert "ends early" in (inbox / "failed" / "c.json.error.txt").read_text(encoding="utf-8")
