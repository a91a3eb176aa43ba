"""The inbox flow, in order: an export file → its conversations → the memory flow for
each day of each conversation → the original to ``processed/`` (or ``failed/``).

The original leaves the inbox only after every conversation in it is recorded,
so a crash at any point is recovered by importing the file again, which is
idempotent: messages merge by id, unchanged cards are not rewritten.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path
from typing import Callable

from daemon.conversations import inbox
from daemon.errors import DistillError, InputError, TransientDistillError, VaultError
from daemon.models import Conversation, Message
from daemon.vault.names import validate_component
from daemon.pipeline.context import Context
from daemon.pipeline.memory import card_for_day, refresh_daily_listing, save_record
from daemon.pipeline.tags import ADDED, MODIFIED, auto_tag, untagged_card
from daemon.conversations.sessions import record_path
from daemon.timeutil import day_of, today

log = logging.getLogger("memvault.inbox")
IMPORTED, UPDATED, UNCHANGED, FAILED, RETRY = "imported", "updated", "unchanged", "failed", "retry"
BACKOFF = (60.0, 300.0, 1800.0, 7200.0)
# A transient failure (timeout, 429, 5xx) is retried for as long as it takes; any other model
# error (a rejected request, output that stays invalid) this many times, then the file fails.
PERMANENT_ATTEMPTS = 3


@dataclass
class FileReport:
    """What happened to one inbox file, counted per conversation."""

    name: str
    state: str = UNCHANGED
    counts: dict[str, int] = field(default_factory=lambda: {IMPORTED: 0, UPDATED: 0, UNCHANGED: 0, FAILED: 0})
    reasons: list[str] = field(default_factory=list)
    moved_to: Path | None = None


def ingest_conversation(ctx: Context, conversation: Conversation) -> str:
    """Record a conversation and update one card per day of its new messages; returns its state."""
    validate_component(conversation.session_id, "session_id")
    fallback = _fallback_day(ctx, conversation.messages)
    tz = ctx.config.tz

    def day_of_message(message: Message) -> str:
        return (day_of(message.time, tz) if message.time else fallback).isoformat()

    new = save_record(ctx, conversation.session_id, conversation.messages, day_of_message)
    every_day = {day_of_message(m) for m in conversation.messages} | {fallback.isoformat()}
    by_day = _days(ctx, conversation.session_id, every_day, new, day_of_message)
    touched = [record_path(ctx.config.session_dir, conversation.session_id)]
    changes: list[tuple[str, str]] = []
    state = UNCHANGED
    for day in sorted(every_day | set(by_day)):
        if day in by_day:
            outcome = card_for_day(ctx, conversation.session_id, day, tuple(by_day[day]), None)
            if outcome.path and outcome.modified:
                touched.append(outcome.path)
                changes.append((ADDED if outcome.created else MODIFIED, outcome.path))
            if outcome.created:
                state = IMPORTED
            elif outcome.modified and state == UNCHANGED:
                state = UPDATED
        touched.extend(_finish_day(ctx, conversation.session_id, day, changes))
    auto_tag(ctx, changes)  # before indexing, so each card is read into the index once
    ctx.graph.sync(touched + [path for _, path in changes])
    return state


def _finish_day(ctx: Context, session_id: str, day: str, changes: list[tuple[str, str]]) -> list[str]:
    """Bring the day's page and the card's tags up to date; a no-op unless a crash left them behind.

    Refreshing writes nothing when the page already lists the day's cards; a card
    that was written but never tagged (the process died in between) is tagged now.
    """
    page, day_cards = refresh_daily_listing(ctx, day)
    found = untagged_card(ctx, session_id, day, day_cards)
    if found and all(path != found for _, path in changes):
        changes.append((MODIFIED, found))
    return [page["path"]] if page["changed"] else []


def _days(ctx: Context, session_id: str, every_day: set[str], new: tuple[Message, ...],
          day_of_message: Callable[[Message], str]) -> dict[str, list[Message]]:
    """The new messages by calendar day; days with messages left pending by a failure come too."""
    by_day: dict[str, list[Message]] = defaultdict(list)
    for message in new:
        by_day[day_of_message(message)].append(message)
    for day in sorted(every_day):
        if day not in by_day and ctx.bases.pending(session_id, day):
            by_day[day] = []
    return by_day


def _fallback_day(ctx: Context, messages: tuple[Message, ...]) -> Date:
    """The day for messages without a time: the conversation's latest day, else today."""
    known = [day_of(m.time, ctx.config.tz) for m in messages if m.time is not None]
    return max(known) if known else today(ctx.config.tz, ctx.clock())


def ingest_file(
    ctx: Context,
    path: Path,
    inbox_dir: Path | None,
    progress: Callable[[int], None] | None = None,
    now: float | None = None,
) -> FileReport:
    """Import every conversation of one file, then archive or quarantine the original.

    With ``inbox_dir`` None (a file imported from elsewhere) the original stays where it is.
    """
    from daemon.conversations.exports import BadConversation, ExportError, read_export

    report = FileReport(path.name)
    now = ctx.clock().timestamp() if now is None else now
    index = ctx.graph.index
    digest = inbox.file_hash(path)
    known = index.ledger(digest)
    if known and known["state"] == IMPORTED:
        report.counts[UNCHANGED] += 1
        report.moved_to = _archive(ctx, inbox_dir, path)
        return _log(ctx, report, digest)
    try:
        with ctx.vault.batch():  # one flush before the original leaves the inbox, not one per write
            for item in read_export(path):
                if isinstance(item, BadConversation):
                    report.counts[FAILED] += 1
                    report.reasons.append(f"{item.label}: {item.reason}")
                else:
                    _one(ctx, item, report)
                if progress:
                    progress(sum(report.counts.values()))
    except ExportError as exc:
        report.reasons.insert(0, str(exc))
        report.counts[FAILED] += 1
    except DistillError as exc:
        attempts = int(known["attempts"]) + 1 if known and known["state"] == RETRY else 1  # type: ignore[call-overload]
        if isinstance(exc, TransientDistillError) or attempts < PERMANENT_ATTEMPTS:
            return _retry(ctx, report, digest, path, str(exc), attempts, now)
        report.reasons.insert(0, f"the model kept failing ({attempts} attempts): {exc}")
        report.counts[FAILED] += 1
    if report.reasons:
        report.state = FAILED
        index.set_ledger(digest, path.name, FAILED, now, detail=report.reasons[0][:500])
        if inbox_dir is not None:
            report.moved_to = inbox.quarantine(inbox_dir, path, _reason(path, report))
    else:
        report.state = _overall(report)
        index.set_ledger(digest, path.name, IMPORTED, now)
        report.moved_to = _archive(ctx, inbox_dir, path)
    return _log(ctx, report, digest)


def _archive(ctx: Context, inbox_dir: Path | None, path: Path) -> Path | None:
    if inbox_dir is None:
        return None
    return inbox.archive(inbox_dir, path, today(ctx.config.tz, ctx.clock()).isoformat())


def _one(ctx: Context, conversation: Conversation, report: FileReport) -> None:
    try:
        report.counts[ingest_conversation(ctx, conversation)] += 1
    except (InputError, VaultError) as exc:
        report.counts[FAILED] += 1
        report.reasons.append(f"conversation {conversation.session_id}: {exc}")


def _overall(report: FileReport) -> str:
    for state in (IMPORTED, UPDATED):
        if report.counts[state]:
            return state
    return UNCHANGED


def _reason(path: Path, report: FileReport) -> str:
    ok = report.counts[IMPORTED] + report.counts[UPDATED] + report.counts[UNCHANGED]
    head = f"{path.name}: {report.counts[FAILED]} conversation(s) could not be imported"
    if ok:
        head += f"; the other {ok} were imported"
    return head + ".\n\n" + "\n".join(f"- {r}" for r in report.reasons) + "\n"


def _retry(ctx: Context, report: FileReport, digest: str, path: Path, error: str, attempts: int,
           now: float) -> FileReport:
    """A model failure is retried later, with backoff; the file stays in the inbox meanwhile."""
    delay = BACKOFF[min(attempts - 1, len(BACKOFF) - 1)]
    ctx.graph.index.set_ledger(digest, path.name, RETRY, now, attempts, now + delay, error)
    report.state = RETRY
    report.reasons.append(f"the model failed ({error}); retrying in {int(delay)} s")
    return _log(ctx, report, digest)


def _log(ctx: Context, report: FileReport, digest: str) -> FileReport:
    counts = (report.counts[IMPORTED], report.counts[UPDATED], report.counts[UNCHANGED], report.counts[FAILED])
    ctx.graph.index.log_import(time.time(), report.name, report.state, counts, "; ".join(report.reasons)[:2000])
    return report


def due(ctx: Context, path: Path, now: float) -> bool:
    """False while a file waits out its retry backoff."""
    try:
        entry = ctx.graph.index.ledger(inbox.file_hash(path))
    except OSError:
        return False
    return not (entry and entry["state"] == RETRY and float(entry["retry_at"] or 0) > now)  # type: ignore[arg-type]


@dataclass
class InboxQueue:
    """The daemon's view of the inbox: files become ready when stable and complete, then import in order.

    A file that stays incomplete long after it stopped changing is imported
    anyway, so a truncated export ends in ``failed/`` with its reason instead
    of waiting forever.
    """

    folder: Path
    window: float = 2.0
    reports: list[FileReport] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stability = inbox.Stability(self.window)

    def waiting(self) -> bool:
        return bool(self.stability.seen)

    def tick(self, ctx: Context, now: float, wall: float | None = None) -> list[FileReport]:
        """Import what is ready now; returns the reports of this tick.

        ``now`` is the monotonic clock for stability; ``wall`` the time for the
        ledger and retry backoff (default: the context's clock).
        """
        if not self.folder.is_dir():
            return []
        wall = ctx.clock().timestamp() if wall is None else wall
        done = []
        for path in self.stability.ready(inbox.pending_files(self.folder), now):
            stable_for = now - self.stability.seen[path][2]
            if inbox.incomplete(path) and stable_for < max(30.0, 10 * self.window):
                continue
            if not due(ctx, path, wall):
                continue
            try:
                report = ingest_file(ctx, path, self.folder, now=wall)
            except Exception as exc:  # never loop on a file that breaks the importer: quarantine it
                log.exception("importing %s failed", path)
                report = FileReport(path.name, FAILED, reasons=[f"memvault could not import it: {exc!r}"])
                report.moved_to = inbox.quarantine(self.folder, path, _reason(path, report))
            if report.state != RETRY:
                self.stability.forget(path)
            done.append(report)
        self.reports = (self.reports + done)[-50:]
        return done
