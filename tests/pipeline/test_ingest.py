"""The inbox flow end to end: corpus files, malformed files, re-drops, multi-day, retries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXED_NOW, FakeDistiller, snapshot_tree

from daemon.app import build
from daemon.config import Config
from daemon.errors import TransientDistillError
from daemon.models import Card, DistillRequest, Skip
from daemon.pipeline import Context
from daemon.pipeline.ingest import InboxQueue, ingest_file

from shared_corpus import CORPUS, files

REAL_FILES = files(".json", ".jsonl", exclude="locomo")


def drop(inbox: Path, name: str, data: Any) -> Path:
    inbox.mkdir(parents=True, exist_ok=True)
    path = inbox / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def outside_inbox(tree: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in tree.items() if not k.startswith("inbox/")}


def cards(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in (root / "daily").glob("*/*.md"))


@pytest.mark.corpus
@pytest.mark.parametrize("source", REAL_FILES, ids=lambda p: p.name)
def test_every_real_export_imports(ctx: Context, vault_root: Path, source: Path) -> None:
    path = drop(ctx.config.inbox, source.name, source.read_bytes())
    report = ingest_file(ctx, path, ctx.config.inbox)
    assert report.state in ("imported", "unchanged", "skipped") and not report.reasons, report.reasons
    assert (report.state == "skipped") == (source.name.endswith(("_users.json", "_projects.json", "_memories.json"))
                                           or "acompact" in source.name), report.note
    assert report.moved_to is not None and report.moved_to.read_bytes() == source.read_bytes()
    assert not path.exists()


@pytest.mark.corpus
def test_locomo_imports_each_session_at_its_own_date(ctx: Context, vault_root: Path, tmp_path: Path) -> None:
    sample = json.loads((CORPUS / "locomo" / "locomo10.json").read_text(encoding="utf-8"))[:1]
    sample[0]["conversation"] = {k: v for k, v in sample[0]["conversation"].items()
                                 if not k.startswith("session_") or k.split("_")[1] in ("1", "2")}
    report = ingest_file(ctx, drop(ctx.config.inbox, "locomo.json", sample), ctx.config.inbox)
    assert report.counts["imported"] == 2
    assert cards(vault_root) == ["daily/2023-05-08/" + Path(cards(vault_root)[0]).name,
                                 "daily/2023-05-25/" + Path(cards(vault_root)[1]).name]
    assert (vault_root / "session/dialog/locomo-conv-26-s1.jsonl").exists()


def test_a_redropped_export_changes_nothing_and_a_grown_one_updates(ctx: Context, vault_root: Path) -> None:
    export = {"session_id": "chat-1", "messages": [
        {"id": "m1", "role": "user", "content": "We picked Grafana for dashboards.", "created_at": "2026-01-05T10:00:00"}]}
    first = ingest_file(ctx, drop(ctx.config.inbox, "a.json", export), ctx.config.inbox)
    assert first.state == "imported"
    before = outside_inbox(snapshot_tree(vault_root))
    second = ingest_file(ctx, drop(ctx.config.inbox, "a.json", export), ctx.config.inbox)
    assert second.state == "unchanged" and outside_inbox(snapshot_tree(vault_root)) == before
    assert sorted(p.name for p in (ctx.config.inbox / "processed").rglob("*.json")) == ["a (2).json", "a.json"]
    export["messages"].append({"id": "m2", "role": "user", "content": "And Loki for logs.",
                               "created_at": "2026-01-05T11:00:00"})
    third = ingest_file(ctx, drop(ctx.config.inbox, "a.json", export), ctx.config.inbox)
    assert third.state == "updated"
    record = (vault_root / "session/dialog/chat-1.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in record] == ["m1", "m2"]


def test_a_conversation_over_several_days_gets_one_card_per_day(ctx: Context, vault_root: Path) -> None:
    export = {"session_id": "long", "messages": [
        {"role": "user", "content": "Day one plan.", "created_at": "2026-01-05T10:00:00"},
        {"role": "user", "content": "Day two result.", "created_at": "2026-01-06T10:00:00"}]}
    ingest_file(ctx, drop(ctx.config.inbox, "long.json", export), ctx.config.inbox)
    assert [c.split("/")[1] for c in cards(vault_root)] == ["2026-01-05", "2026-01-06"]
    assert len((vault_root / "session/dialog/long.jsonl").read_text().splitlines()) == 2


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.json", b"", "empty"),
        ("truncated.json", b'[{"title": "x", "mapping": {', "truncated"),
        ("binary.json", bytes(range(256)) * 4, "not"),
        ("latin1.json", '{"session_id": "s", "messages": [{"role": "user", "content": "café"}]}'.encode("latin-1"),
         "UTF-8"),
        ("unknown.json", b'{"hello": "world"}', "not a supported export"),
        ("wrong.json", b'{"session_id": "s", "messages": [{"role": "user", "content": 5}]}', "content"),
    ],
)
def test_malformed_files_go_to_failed_with_a_reason_and_leave_the_vault(ctx: Context, vault_root: Path, name: str,
                                                                        data: bytes, reason: str) -> None:
    before = snapshot_tree(vault_root)
    report = ingest_file(ctx, drop(ctx.config.inbox, name, data), ctx.config.inbox)
    assert report.state == "failed"
    failed = ctx.config.inbox / "failed" / name
    assert failed.read_bytes() == data
    note = (ctx.config.inbox / "failed" / f"{name}.error.txt").read_text()
    assert name in note and reason in note
    assert outside_inbox(snapshot_tree(vault_root)) == outside_inbox(before)


def test_one_bad_conversation_fails_the_file_but_the_others_import(ctx: Context, vault_root: Path) -> None:
    good = {"session_id": "good", "messages": [{"role": "user", "content": "Keep me: the budget is 4000 EUR.",
                                                "created_at": "2026-01-05T10:00:00"}]}
    bad = {"session_id": "bad", "messages": [{"role": "user", "content": 7}]}
    report = ingest_file(ctx, drop(ctx.config.inbox, "mixed.json", [good, bad]), ctx.config.inbox)
    assert report.state == "failed" and report.counts["imported"] == 1 and report.counts["failed"] == 1
    note = (ctx.config.inbox / "failed" / "mixed.json.error.txt").read_text()
    assert "bad" in note and "the other 1 were imported" in note
    assert (vault_root / "session/dialog/good.jsonl").exists()


def test_a_transient_model_error_is_retried_later_not_failed(config: Config, vault_root: Path) -> None:
    class Down(FakeDistiller):
        def distill(self, request: DistillRequest) -> Card | Skip:
            raise TransientDistillError("HTTP 503 from the model")

    ctx = build(config, distiller=Down(), clock=lambda: FIXED_NOW)
    path = drop(ctx.config.inbox, "later.json", {"session_id": "s", "messages": [
        {"role": "user", "content": "Remember the VPN code.", "created_at": "2026-01-05T10:00:00"}]})
    queue = InboxQueue(ctx.config.inbox, window=1.0)
    assert queue.tick(ctx, now=0.0, wall=1000.0) == []
    (report,) = queue.tick(ctx, now=1.5, wall=1000.0)
    assert report.state == "retry" and path.exists() and not (ctx.config.inbox / "failed").exists()
    assert queue.tick(ctx, now=2.0, wall=1030.0) == []  # still inside the backoff
    ctx.distiller = FakeDistiller()
    (report,) = queue.tick(ctx, now=3.0, wall=1100.0)
    assert report.state == "imported" and not path.exists()
    assert "Remember the VPN code." in (vault_root / cards(vault_root)[0]).read_text()


def test_the_queue_waits_for_stability_and_completeness(ctx: Context) -> None:
    queue = InboxQueue(ctx.config.inbox, window=2.0)
    partial = drop(ctx.config.inbox, "big.json", '[{"session_id": "s", "messages": [')
    drop(ctx.config.inbox, ".DS_Store", "junk")
    assert queue.tick(ctx, now=0.0) == [] and queue.tick(ctx, now=2.5) == []
    assert partial.exists()
    partial.write_text(json.dumps([{"session_id": "s", "messages": [
        {"role": "user", "content": "Finished writing: the deadline is March 3.", "created_at": "2026-01-05T10:00"}]}]))
    assert queue.tick(ctx, now=3.0) == []
    (report,) = queue.tick(ctx, now=5.5)
    assert report.state == "imported" and (ctx.config.inbox / ".DS_Store").exists()


def test_a_file_that_stays_truncated_is_failed_eventually(ctx: Context) -> None:
    queue = InboxQueue(ctx.config.inbox, window=1.0)
    drop(ctx.config.inbox, "cut.json", '[{"session_id": "s", "messages": [')
    assert queue.tick(ctx, now=0.0) == [] and queue.tick(ctx, now=5.0) == []
    assert queue.tick(ctx, now=40.0) == []  # its writer may only have paused: it has the grace period
    (report,) = queue.tick(ctx, now=40.0 + queue.grace)
    assert report.state == "failed" and (ctx.config.inbox / "failed" / "cut.json").exists()


@pytest.mark.corpus
def test_a_dropped_folder_is_imported(ctx: Context, vault_root: Path) -> None:
    folder = ctx.config.inbox / "claude-export"
    shutil.copytree(CORPUS / "claude_code", folder)
    queue = InboxQueue(ctx.config.inbox, window=1.0)
    queue.tick(ctx, now=0.0)
    reports = queue.tick(ctx, now=2.0)
    assert len(reports) == 5 and all(r.state in ("imported", "unchanged", "skipped") for r in reports)
    assert [r.note for r in reports if r.state == "skipped"] == [
        "skipped: compaction helper, its content is in the session transcript"]
    assert not folder.exists()
    assert len(list((ctx.config.inbox / "processed").rglob("*.jsonl"))) == 5


def test_a_permanent_model_error_fails_the_file_after_a_few_attempts(config: Config, vault_root: Path) -> None:
    from daemon.errors import DistillError

    class Rejects(FakeDistiller):
        def distill(self, request: DistillRequest) -> Card | Skip:
            raise DistillError("HTTP 400: model 'x' does not exist")

    ctx = build(config, distiller=Rejects(), clock=lambda: FIXED_NOW)
    path = drop(ctx.config.inbox, "p.json", {"session_id": "s", "messages": [
        {"role": "user", "content": "Keep the backup key in the safe.", "created_at": "2026-01-05T10:00:00"}]})
    states = [ingest_file(ctx, path, ctx.config.inbox, now=1000.0 + 10_000 * i).state for i in range(2)]
    assert states == ["retry", "retry"] and path.exists()
    assert ingest_file(ctx, path, ctx.config.inbox, now=50_000.0).state == "failed"
    note = (ctx.config.inbox / "failed" / "p.json.error.txt").read_text()
    assert "3 attempts" in note and "does not exist" in note
    assert (vault_root / "session/dialog/s.jsonl").exists()


def test_small_talk_is_recorded_but_makes_no_card(ctx: Context, vault_root: Path) -> None:
    from daemon.distill.extractive import ExtractiveDistiller
    from daemon.pipeline import auto_memory

    ctx.distiller = ExtractiveDistiller()
    result = auto_memory(ctx, "chat", [{"role": "user", "content": "hi!", "created_at": "2026-01-05T10:00:00"},
                                       {"role": "assistant", "content": "Hello! How are you?"},
                                       {"role": "user", "content": "good, thanks"}])
    assert result["success"] and result["answer"].startswith("Skipped:") and result["metadata"]["path"] is None
    assert len((vault_root / "session/dialog/chat.jsonl").read_text().splitlines()) == 3
    assert not (vault_root / "daily" / "2026-01-05").exists()
