"""Issue 12, the inbox side: hostile entries never block the worker, nothing is lost or stuck.

Real FIFOs, symlinks and devices are built in each test; a call that could
block runs on a helper thread joined with a timeout, so a regression fails
instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue

EXPORT = {"session_id": "chat-1", "messages": [
    {"id": "m1", "role": "user", "content": "We picked Grafana for dashboards.", "created_at": "2026-01-05T10:00:00"}]}


def finishes(fn: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Run ``fn`` on a thread; fail (not hang) when it does not return within ``timeout``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # re-raised on the test thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the call blocked (a FIFO or device was opened)"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def drain(queue: InboxQueue, ctx: Context) -> list[Any]:
    """Two ticks a window apart: whatever is stable and ready gets imported."""
    return queue.tick(ctx, 0.0) + queue.tick(ctx, 100.0)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_and_a_device_link_in_the_inbox_never_block_and_are_reported_once(
        ctx: Context, caplog: pytest.LogCaptureFixture) -> None:
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    os.mkfifo(inbox / "x.json")
    (inbox / "z.json").symlink_to("/dev/zero")
    (inbox / "good.json").write_text(json.dumps(EXPORT), encoding="utf-8")
    queue = InboxQueue(inbox, window=1.0)
    caplog.set_level("WARNING", logger="memvault.inbox")
    reports = finishes(lambda: drain(queue, ctx))
    assert [r.name for r in reports] == ["good.json"] and reports[0].state == "imported"
    assert (inbox / "x.json").exists() and (inbox / "z.json").is_symlink()  # left alone, never moved
    assert set(queue.refused) == {str(inbox / "x.json"), str(inbox / "z.json")}
    assert "FIFO" in queue.refused[str(inbox / "x.json")]
    assert "symbolic link" in queue.refused[str(inbox / "z.json")]
    finishes(lambda: drain(queue, ctx))
    warned = [r.getMessage() for r in caplog.records if "is skipped" in r.getMessage()]
    assert len(warned) == 2  # once each, not once per tick


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_ingesting_a_fifo_by_name_is_a_clear_error(ctx: Context, tmp_path: Path) -> None:
    from daemon import ops
    from daemon.errors import InputError

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="pipe.json: a FIFO, not a regular file"):
        finishes(lambda: ops.ingest(ctx, [str(fifo)]))


def drop(inbox: Path, name: str, data: Any) -> Path:
    inbox.mkdir(parents=True, exist_ok=True)
    path = inbox / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def card_files(root: Path) -> list[Path]:
    return sorted((root / "daily").glob("*/*.md"))


def test_the_ledger_does_not_outlive_the_vault(ctx: Context, config: Any, fake: Any, vault_root: Path) -> None:
    import shutil

    from conftest import FIXED_NOW

    from daemon.app import build, init_vault
    from daemon.pipeline.ingest import ingest_file

    assert ingest_file(ctx, drop(ctx.config.inbox, "c.json", EXPORT), ctx.config.inbox).state == "imported"
    ctx.graph.index.close()
    shutil.rmtree(vault_root)
    init_vault(vault_root)
    again = build(config, distiller=fake, clock=lambda: FIXED_NOW)  # same state folder: same ledger
    try:
        report = ingest_file(again, drop(again.config.inbox, "c.json", EXPORT), again.config.inbox)
        assert report.state == "imported"
        assert len(card_files(vault_root)) == 1 and (vault_root / "session/dialog/chat-1.jsonl").exists()
    finally:
        again.graph.index.close()


def test_a_deleted_card_and_record_are_imported_again_on_a_redrop(ctx: Context, vault_root: Path) -> None:
    from daemon.pipeline.ingest import ingest_file

    assert ingest_file(ctx, drop(ctx.config.inbox, "c.json", EXPORT), ctx.config.inbox).state == "imported"
    assert ingest_file(ctx, drop(ctx.config.inbox, "c.json", EXPORT), ctx.config.inbox).state == "unchanged"
    for card in card_files(vault_root):
        card.unlink()
    (vault_root / "session/dialog/chat-1.jsonl").unlink()
    report = ingest_file(ctx, drop(ctx.config.inbox, "c.json", EXPORT), ctx.config.inbox)
    assert report.state == "imported" and len(card_files(vault_root)) == 1
    assert "Grafana" in (vault_root / "session/dialog/chat-1.jsonl").read_text(encoding="utf-8")


def test_a_failing_file_with_a_long_name_gets_its_error_file(ctx: Context) -> None:
    from daemon.pipeline.ingest import ingest_file

    name = "é" * 121 + ".json"  # 247 bytes: "<name>.error.txt" would be 257
    report = ingest_file(ctx, drop(ctx.config.inbox, name, "[{\"broken\": "), ctx.config.inbox)
    assert report.state == "failed" and report.moved_to == ctx.config.inbox / "failed" / name
    [note] = [p for p in (ctx.config.inbox / "failed").iterdir() if p.name.endswith(".error.txt")]
    assert len(note.name.encode("utf-8")) <= 255 and note.name.startswith("éé")
    assert name in note.read_text(encoding="utf-8")


def test_the_failure_reason_survives_an_error_file_that_cannot_be_written(
        ctx: Context, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins
    import errno
    import io

    from daemon import ops
    from daemon.pipeline.ingest import ingest_file

    real_open = builtins.open

    def full_disk(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "failed" in str(file) and "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", full_disk)
    monkeypatch.setattr(io, "open", full_disk)  # ``Path.write_text`` opens through ``io``
    report = ingest_file(ctx, drop(ctx.config.inbox, "bad.json", "[{\"broken\": "), ctx.config.inbox)
    monkeypatch.undo()
    failed = ctx.config.inbox / "failed"
    assert report.state == "failed" and (failed / "bad.json").exists()
    assert not any(p.name.endswith(".error.txt") for p in failed.iterdir())  # none rather than an empty one
    [shown] = ops.status(ctx)["failures"]
    assert shown["name"] == "bad.json" and "bad.json" in str(shown["detail"])


def test_a_read_only_card_or_record_is_left_alone_and_status_says_so(ctx: Context, vault_root: Path) -> None:
    from daemon import ops
    from daemon.pipeline.ingest import ingest_file

    assert ingest_file(ctx, drop(ctx.config.inbox, "c.json", EXPORT), ctx.config.inbox).state == "imported"
    [card] = card_files(vault_root)
    card.chmod(0o444)
    before = card.read_bytes()
    grown = {**EXPORT, "messages": EXPORT["messages"] + [
        {"id": "m2", "role": "user", "content": "And Loki for logs.", "created_at": "2026-01-05T11:00:00"}]}
    report = ingest_file(ctx, drop(ctx.config.inbox, "c.json", grown), ctx.config.inbox)
    assert report.state != "failed" and card.read_bytes() == before and card_files(vault_root) == [card]
    assert (card.stat().st_mode & 0o777) == 0o444
    assert any(card.name in entry and "read-only" in entry for entry in ops.status(ctx)["read_only"])
    record = vault_root / "session/dialog/chat-1.jsonl"
    assert "Loki" in record.read_text(encoding="utf-8")  # the messages are kept (and stay pending)
    record.chmod(0o444)
    locked = record.read_bytes()
    third = {**grown, "messages": grown["messages"] + [
        {"id": "m3", "role": "user", "content": "Tempo for traces.", "created_at": "2026-01-05T12:00:00"}]}
    report = ingest_file(ctx, drop(ctx.config.inbox, "c.json", third), ctx.config.inbox)
    assert record.read_bytes() == locked and "read-only" in " ".join(report.reasons)
    assert any("chat-1.jsonl" in entry for entry in ops.status(ctx)["read_only"])
