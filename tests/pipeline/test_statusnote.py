"""The daemon's status note, Memvault.md: what it shows, when it is written, and what it never causes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from conftest import FIXED_NOW, FakeDistiller

from daemon.app import build
from daemon.config import Config, load_config
from daemon.models import Card, DistillRequest
from daemon.pipeline import Context, auto_memory, tags
from daemon.pipeline.ingest import ingest_file
from daemon.pipeline.statusnote import StatusNote, open_steps
from daemon.runtime.jobs import STATUS_NOTE, make_scheduler, status_note_job

BODY = ("## Decisions\n- We chose JWT.\n\n## Current state and next steps\n- Deploy the gateway by Friday\n"
        "- [ ] Rotate the signing key\n- [x] Write the design doc\n\n## Facts\n- Tokens last 15 minutes.\n")


def card(request: DistillRequest) -> Card:
    return Card(name="jwt-decision", description="JWT for the gateway", body=BODY)


@pytest.fixture
def busy(config: Config) -> Context:
    """A vault with an imported file, a failed one, a broken link and an old card with open next steps."""
    ctx = build(config, distiller=FakeDistiller(make=card), clock=lambda: FIXED_NOW)
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "chat.json").write_text(json.dumps({"session_id": "s1", "messages": [
        {"role": "user", "content": "We chose JWT.", "created_at": "2023-01-19T08:00:00"}]}), encoding="utf-8")
    assert ingest_file(ctx, inbox / "chat.json", inbox).state == "imported"
    (inbox / "cut.json").write_text('[{"session_id": "s", "messages": [', encoding="utf-8")
    assert ingest_file(ctx, inbox / "cut.json", inbox).state == "failed"
    (ctx.config.vault / "notes").mkdir()
    (ctx.config.vault / "notes/plan.md").write_text("See [[nowhere]].\n", encoding="utf-8")
    ctx.graph.sync(["notes/plan.md"])
    return ctx


def note(ctx: Context) -> str:
    return (ctx.config.vault / "Memvault.md").read_text(encoding="utf-8")


def test_the_note_shows_state_imports_failures_broken_links_retag_and_old_next_steps(busy: Context) -> None:
    assert StatusNote(busy).refresh("running (watcher native)", now=0.0) is True
    text = note(busy)
    assert text.startswith("# Memvault\n\nThis vault is kept by **memvault**")  # the template's text stays
    assert "\n\n<!-- memvault:status -->\n**memvault " in text
    assert "· daemon running (watcher native)" in text
    assert "`chat.json` imported: [[daily/2023-01-19/jwt-decision|jwt-decision]]" in text
    assert "`cut.json` failed: " in text
    assert "### Failed inbox files (1)\n- `cut.json`: " in text
    assert "([[inbox/failed/cut.json.error.txt|why]])" in text
    assert "### Broken links (1)\n- [[notes/plan|plan]] line 1: `[[nowhere]]`" in text
    assert "### Re-tagging\nschedule `0 3 * * *`" in text
    steps = text.split("### Next steps older than 14 days (2)\n", 1)[1]
    assert steps.startswith("- [[daily/2023-01-19/jwt-decision|jwt-decision]] (2023-01-19): Deploy the gateway by "
                            "Friday\n- [[daily/2023-01-19/jwt-decision|jwt-decision]] (2023-01-19): Rotate the")
    assert "Write the design doc" not in text  # ticked: resolved


def test_written_at_most_once_a_minute_and_only_when_changed(busy: Context) -> None:
    status = StatusNote(busy)
    assert status.refresh("running", now=0.0) is True
    path = busy.config.vault / "Memvault.md"
    stamp = path.stat().st_mtime_ns
    assert status.refresh("running", now=30.0) is False  # within the minute: not even looked at
    assert status.refresh("running", now=61.0) is False and path.stat().st_mtime_ns == stamp  # nothing changed
    assert status.refresh("running (watcher polling)", now=90.0) is False  # changed, but within the minute
    assert status.refresh("running (watcher polling)", now=125.0) is True
    assert "daemon running (watcher polling)" in note(busy)


def test_the_users_text_around_the_block_is_kept(busy: Context) -> None:
    path = busy.config.vault / "Memvault.md"
    path.write_text("# My dashboard\n\nMy own line.\n", encoding="utf-8")
    assert StatusNote(busy).refresh("running", now=0.0) is True
    text = note(busy)
    assert text.startswith("# My dashboard\n\nMy own line.\n\n<!-- memvault:status -->")
    path.write_text(text + "\nBelow, mine too.\n", encoding="utf-8")
    assert StatusNote(busy).refresh("stopping", now=0.0) is True
    assert note(busy).startswith("# My dashboard\n\nMy own line.\n") and note(busy).endswith("\nBelow, mine too.\n")


def test_writing_it_is_no_change_for_the_index_or_retag(busy: Context) -> None:
    stale_before = tags.stale(busy, tags.cards(busy))
    assert StatusNote(busy).refresh("running", now=0.0) is True
    assert not busy.graph.changes()  # the index holds its bytes already: nothing new for reconcile
    row = busy.graph.index.note("Memvault.md")
    assert row is not None and row.hash == hashlib.sha256(note(busy).encode()).hexdigest()
    assert busy.graph.index.links_from("Memvault.md") == []  # its links are not read: no backlinks, no broken
    assert [r.source for r in busy.graph.index.broken()] == ["notes/plan.md"]
    assert "Memvault.md" not in tags.cards(busy) and tags.stale(busy, tags.cards(busy)) == stale_before
    (busy.config.vault / "notes/home.md").write_text("Start at [[Memvault]].\n", encoding="utf-8")
    busy.graph.sync(["notes/home.md"])
    assert [r.resolved for r in busy.graph.index.links_from("notes/home.md")] == ["Memvault.md"]  # still a target


def test_a_setting_turns_it_off(vault_root: Path) -> None:
    config = load_config(overrides=[f"vault={vault_root}", "timezone=UTC", "status_note.enabled=false"], environ={})
    ctx = build(config, distiller=FakeDistiller(make=card), clock=lambda: FIXED_NOW)
    auto_memory(ctx, "s1", [{"role": "user", "content": "We chose JWT.", "created_at": "2023-01-19T08:00:00"}])
    assert StatusNote(ctx).refresh("running", now=0.0) is False
    assert "memvault:status" not in (vault_root / "Memvault.md").read_text(encoding="utf-8")
    assert STATUS_NOTE not in {job.id for job in make_scheduler(config, type("R", (), {"ctx": ctx})()).get_jobs()}
    (vault_root / "Memvault.md").write_text("[[jwt-decision]]\n", encoding="utf-8")  # off: an ordinary note again
    ctx.graph.sync(["Memvault.md"])
    assert [r.resolved for r in ctx.graph.index.links_from("Memvault.md")] == ["daily/2023-01-19/jwt-decision.md"]


def test_the_job_refreshes_it_on_the_worker(busy: Context) -> None:
    class Worker:
        submitted = 0

        def submit(self, fn):  # type: ignore[no-untyped-def]
            from concurrent.futures import Future
            Worker.submitted += 1
            future: Future[object] = Future()
            future.set_result(fn())
            return future

    runtime = type("Runtime", (), {"ctx": busy, "worker": Worker(), "watcher": type("W", (), {"state": "native"})()})()
    scheduler = make_scheduler(busy.config, runtime)
    job = scheduler.get_job(STATUS_NOTE)
    assert job.trigger.interval.total_seconds() == 60
    assert status_note_job(runtime, job.args[1], scheduler) is True and Worker.submitted == 1
    assert "daemon running (watcher native)" in note(busy)


def test_open_steps_reads_the_next_steps_section_only() -> None:
    assert open_steps("---\nname: x\n---\n" + BODY) == ["Deploy the gateway by Friday", "Rotate the signing key"]
    assert open_steps("## Notes\n- not a step\n") == []


def test_the_daemon_says_stopped_when_it_stops(config: Config, vault_root: Path) -> None:
    from daemon.runner import Daemon

    daemon = Daemon(config, polling=True)
    daemon.start()
    try:
        job = daemon.scheduler.get_job(STATUS_NOTE)
        assert status_note_job(daemon, job.args[1], daemon.scheduler) is True
        assert "· daemon running (watcher polling)" in (vault_root / "Memvault.md").read_text(encoding="utf-8")
    finally:
        daemon.stop()
    text = (vault_root / "Memvault.md").read_text(encoding="utf-8")
    assert "· daemon stopped" in text and "daemon running" not in text
