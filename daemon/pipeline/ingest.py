"""The inbox flow, in order: an export file → its conversations → the memory flow for
each day of each conversation → the original to ``processed/`` (or ``failed/``).

The original leaves the inbox only after every conversation in it is recorded,
so a crash at any point is recovered by importing the file again, which is
idempotent: messages merge by id, unchanged cards are not rewritten.
"""

from __future__ import annotations

import logging
import threading
import time
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path
from typing import Callable, NoReturn, Sequence

from daemon.conversations import inbox
from daemon.conversations.spill import pick
from daemon.errors import (BusyError, DistillError, InputError, Interrupted, ReadOnlyError, RejectedDistillError,
                           TransientDistillError, VaultError)
from daemon.models import Conversation, Message
from daemon.vault.names import validate_component
from daemon.pipeline.context import Context
from daemon.pipeline.statusnote import remember_import
from daemon.pipeline.memory import card_for_day, note_read_only, refresh_daily_listing, save_record
from daemon.pipeline.tags import ADDED, MODIFIED, auto_tag, untagged_card
from daemon.conversations.sessions import record_ids, record_path
from daemon.timeutil import day_of, today

log = logging.getLogger("memvault.inbox")
IMPORTED, UPDATED, UNCHANGED, FAILED, RETRY = "imported", "updated", "unchanged", "failed", "retry"
WAITING = "waiting"  # ends early, but its writer may only have paused: left in the inbox for now
INTERRUPTED = "interrupted"  # the daemon is stopping: the rest of the file is imported on the next start
TRUNCATED = "the file ends early"  # in the ExportError of a file cut short
GRACE = 600.0  # seconds a truncated file may stay unchanged before it goes to failed/
GROWING = (".jsonl", ".ndjson")  # append-only transcripts: lines written after the import are imported too
SKIPPED = "skipped"  # readable, but no conversation in it on purpose (``FileReport.note`` says why)
NO_VISIBLE_MESSAGE = "no conversation with a visible message in it"
SHOWN_CARDS = 10  # a log line names this many cards of a file, then counts the rest
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
    note: str = ""  # for a skipped file: "skipped: <why>"
    cards: list[str] = field(default_factory=list)  # vault paths of the cards this file created or changed

    def summary(self) -> str:
        """One log line: the result, the counts, then why it failed or was skipped, or where the cards went."""
        counts = ", ".join(f"{n} {state}" for state, n in self.counts.items() if n)
        line = f"{self.name}: {self.note or self.state}" + (f" ({counts})" if counts else "")
        if self.reasons:  # an ExportError already starts with the file's name: name it once
            line += ": " + "; ".join(r.removeprefix(f"{self.name}: ") for r in self.reasons)
        if self.cards:
            more = len(self.cards) - SHOWN_CARDS
            line += "; cards: " + ", ".join(self.cards[:SHOWN_CARDS]) + (f" and {more} more" if more > 0 else "")
        return line


def ingest_conversation(ctx: Context, conversation: Conversation, cards: list[str] | None = None,
                        stop: Callable[[], bool] | None = None) -> str:
    """Record a conversation and update one card per day of its new messages; returns its state.

    The paths of the cards it created or changed are appended to ``cards``.
    ``stop`` is asked between days and between the parts of a huge day; once it
    says True, ``Interrupted`` is raised and the messages not yet distilled stay
    pending (they are already in the record).
    """
    validate_component(conversation.session_id, "session_id")
    tz = ctx.config.tz
    timed = {day_of(m.time, tz) for m in conversation.messages if m.time is not None}
    # Messages without a time go to the conversation's latest day, else to today.
    fallback = max(timed) if timed else today(tz, ctx.clock())

    def day_of_message(message: Message) -> str:
        return (day_of(message.time, tz) if message.time else fallback).isoformat()

    new = save_record(ctx, conversation.session_id, conversation.messages, day_of_message)
    every_day = {day.isoformat() for day in timed} | {fallback.isoformat()}
    by_day = _days(ctx, conversation.session_id, every_day, new, day_of_message)
    touched = [record_path(ctx.config.session_dir, conversation.session_id)]
    changes: list[tuple[str, str]] = []
    state = UNCHANGED
    for n, day in enumerate(sorted(every_day | set(by_day))):
        if day in by_day:
            if n and stop is not None and stop():
                _interrupt(ctx, changes, touched)
            try:
                outcome = card_for_day(ctx, conversation.session_id, day, by_day[day], None, stop=stop,
                                       title=conversation.title)
            except Interrupted:
                _interrupt(ctx, changes, touched)
            if outcome.path and outcome.modified:
                touched.append(outcome.path)
                if cards is not None and outcome.path not in cards:
                    cards.append(outcome.path)
                changes.append((ADDED if outcome.created else MODIFIED, outcome.path))
            if outcome.created:
                state = IMPORTED
            elif outcome.modified and state == UNCHANGED:
                state = UPDATED
        touched.extend(_finish_day(ctx, conversation.session_id, day, changes))
    auto_tag(ctx, changes)  # before indexing, so each card is read into the index once
    ctx.graph.sync(touched + [path for _, path in changes])
    return state


def _interrupt(ctx: Context, changes: list[tuple[str, str]], touched: list[str]) -> NoReturn:
    """Tag and index the cards written so far, then stop (``Interrupted``)."""
    auto_tag(ctx, changes)
    ctx.graph.sync(touched + [path for _, path in changes])
    raise Interrupted("stopped between parts of a conversation")


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


def _days(ctx: Context, session_id: str, every_day: set[str], new: Sequence[Message],
          day_of_message: Callable[[Message], str]) -> dict[str, Sequence[Message]]:
    """The new messages by calendar day; days with messages left pending by a failure come too.

    Only positions are collected: a huge conversation's messages stay where they are.
    """
    at: dict[str, array[int]] = defaultdict(lambda: array("q"))
    for n, message in enumerate(new):
        at[day_of_message(message)].append(n)
    by_day = {day: pick(new, positions) for day, positions in at.items()}
    for day in sorted(every_day):
        if day not in by_day and ctx.bases.pending(session_id, day):
            by_day[day] = ()
    return by_day


def ingest_file(
    ctx: Context,
    path: Path,
    inbox_dir: Path | None,
    progress: Callable[[int], None] | None = None,
    now: float | None = None,
    hold_truncated: bool = False,
    stop: Callable[[], bool] | None = None,
) -> FileReport:
    """Import every conversation of one file, then archive or quarantine the original.

    With ``inbox_dir`` None (a file imported from elsewhere) the original stays where it is.
    With ``hold_truncated`` a file that ends early is left where it is, in state
    ``waiting`` (its writer may only have paused), instead of going to ``failed/``.
    ``stop`` is asked between conversations: once it says True the import ends
    there, in state ``interrupted``, and the file stays in the inbox (importing
    it again later is idempotent).
    """
    from daemon.conversations.exports import BadConversation, ExportError, read_export

    report = FileReport(path.name)
    now = ctx.clock().timestamp() if now is None else now
    index = ctx.graph.index
    digest = inbox.file_hash(path)
    known = index.ledger(digest)
    if known and known["state"] == IMPORTED and _still_recorded(ctx, index.ledger_outputs(digest)):
        report.counts[UNCHANGED] += 1
        report.moved_to = _archive(ctx, inbox_dir, path)
        return _log(ctx, report, digest)
    produced: dict[str, list[str]] = {}  # session id → message ids: what must stay recorded
    skips: list[str] = []  # why a readable file (or part of a ZIP) holds no conversation
    try:
        with ctx.vault.batch():  # one flush before the original leaves the inbox, not one per write
            for item in read_export(path, on_skip=skips.append):
                if stop is not None and stop():
                    report.state = INTERRUPTED
                    return _log(ctx, report, digest)
                if isinstance(item, BadConversation):
                    report.counts[FAILED] += 1
                    report.reasons.append(f"{item.label}: {item.reason}")
                elif _one(ctx, item, report, stop):
                    produced[item.session_id] = [m.id for m in item.messages]
                if progress:
                    progress(sum(report.counts.values()))
    except ExportError as exc:
        if hold_truncated and TRUNCATED in str(exc):
            report.state = WAITING
            report.reasons.append(f"{exc}; waiting for it to be written completely")
            return report
        report.reasons.insert(0, str(exc))
        report.counts[FAILED] += 1
    except Interrupted:  # stopped inside a conversation: the file stays in the inbox, the rest is pending
        report.state = INTERRUPTED
        return _log(ctx, report, digest)
    except BusyError as exc:  # a card mid-save in an editor, a file that kept changing: later, not failed/
        attempts = int(known["attempts"]) + 1 if known and known["state"] == RETRY else 1  # type: ignore[call-overload]
        return _retry(ctx, report, digest, path, str(exc), attempts, now, "the vault was busy")
    except DistillError as exc:
        attempts = int(known["attempts"]) + 1 if known and known["state"] == RETRY else 1  # type: ignore[call-overload]
        if isinstance(exc, RejectedDistillError):  # the same request fails the same way: no retry
            report.reasons.insert(0, f"the model server rejected the request: {exc}")
        elif inbox_dir is None:  # nothing retries a file outside the inbox
            report.reasons.insert(0, f"not imported: the model failed ({exc}); run memvault ingest again later")
        elif isinstance(exc, TransientDistillError) or attempts < PERMANENT_ATTEMPTS:
            return _retry(ctx, report, digest, path, str(exc), attempts, now)
        else:
            report.reasons.insert(0, f"the model kept failing ({attempts} attempts): {exc}")
        report.counts[FAILED] += 1
    if report.reasons:
        # The reason goes to the ledger and the import log (the state folder) before the file moves:
        # when the inbox's disk is full and no error file can be written, ``status`` still says why.
        report.state = FAILED
        index.set_ledger(digest, path.name, FAILED, now, detail=report.reasons[0][:500])
        _log(ctx, report, digest)
        if inbox_dir is not None:
            report.moved_to = inbox.quarantine(inbox_dir, path, _reason(path, report))
        return report
    report.state = _overall(report)
    if not any(report.counts.values()):  # nothing imported, nothing failed: say so, never "unchanged"
        report.state, report.note = SKIPPED, f"skipped: {skips[0] if skips else NO_VISIBLE_MESSAGE}"
    index.set_ledger(digest, path.name, IMPORTED, now)
    index.set_ledger_outputs(digest, produced)
    report.moved_to = _archive(ctx, inbox_dir, path)
    return _log(ctx, report, digest)


def _still_recorded(ctx: Context, outputs: dict[str, list[str]]) -> bool:
    """True while every session a file produced still has its record holding the file's messages.

    A deleted vault, or a record the user deleted, makes the file count as new
    again, so a re-drop imports it instead of answering "unchanged".
    """
    if not outputs:
        return False  # nothing known (an older ledger entry): importing again is idempotent
    for session_id, ids in outputs.items():
        held = _recorded_ids(ctx, record_path(ctx.config.session_dir, session_id))
        if held is None or not held.issuperset(ids):
            return False
    return True


def _recorded_ids(ctx: Context, rel: str) -> set[str] | None:
    """The message ids in a record, read a line at a time (a record may be hundreds of MB); None when gone."""
    try:
        with open(ctx.vault.abspath(rel), encoding="utf-8", newline="\n") as lines:
            return record_ids(lines)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise VaultError(f"{rel}: cannot read: {getattr(exc, 'strerror', None) or 'not UTF-8 text'}") from exc


def _archive(ctx: Context, inbox_dir: Path | None, path: Path) -> Path | None:
    if inbox_dir is None:
        return None
    return inbox.archive(inbox_dir, path, today(ctx.config.tz, ctx.clock()).isoformat())


def _one(ctx: Context, conversation: Conversation, report: FileReport,
         stop: Callable[[], bool] | None = None) -> bool:
    """Ingest one conversation into the report's counts; False when it failed."""
    try:
        report.counts[ingest_conversation(ctx, conversation, report.cards, stop)] += 1
        return True
    except BusyError:
        raise
    except (InputError, VaultError) as exc:
        if isinstance(exc, ReadOnlyError):
            note_read_only(ctx, str(exc))
        report.counts[FAILED] += 1
        report.reasons.append(f"conversation {conversation.session_id}: {exc}")
        return False


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
           now: float, what: str = "the model failed") -> FileReport:
    """A model failure or a busy vault is retried later, with backoff; the file stays in the inbox meanwhile."""
    delay = BACKOFF[min(attempts - 1, len(BACKOFF) - 1)]
    ctx.graph.index.set_ledger(digest, path.name, RETRY, now, attempts, now + delay, error)
    report.state = RETRY
    report.reasons.append(f"{what} ({error}); retrying in {int(delay)} s")
    return _log(ctx, report, digest)


def _log(ctx: Context, report: FileReport, digest: str) -> FileReport:
    counts = (report.counts[IMPORTED], report.counts[UPDATED], report.counts[UNCHANGED], report.counts[FAILED])
    detail = "; ".join(report.reasons) or report.note
    ctx.graph.index.log_import(time.time(), report.name, report.state, counts, detail[:2000])
    remember_import(ctx, report)  # with its cards, for the status note
    return report


def _stamp(path: Path) -> tuple[int, int]:
    """(size, mtime) of a file, (-1, -1) when it is gone."""
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_size, st.st_mtime_ns)


def due(ctx: Context, path: Path, now: float) -> bool:
    """False while a file waits out its retry backoff."""
    try:
        entry = ctx.graph.index.ledger(inbox.file_hash(path))
    except (OSError, InputError):
        return False
    return not (entry and entry["state"] == RETRY and float(entry["retry_at"] or 0) > now)  # type: ignore[arg-type]


@dataclass
class InboxQueue:
    """The daemon's view of the inbox: files become ready when stable and complete, then import in order.

    A file that stays incomplete long after it stopped changing is imported
    anyway, so a truncated export ends in ``failed/`` with its reason instead
    of waiting forever. A file that looked complete but reads as truncated (its
    writer paused at a ``}``) stays in the inbox while it keeps changing, and
    goes to ``failed/`` only after ``grace`` seconds without a change. A JSONL
    transcript keeps being watched after its import (in ``processed/``, where a
    writer holding it open goes on appending): lines added later are imported
    when it changes again, until it has been still for ``grace`` seconds.
    """

    folder: Path
    window: float = 2.0
    reports: list[FileReport] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # inbox entries that are not regular files, and why
    current: str | None = None  # the file being imported now
    told: dict[Path, str] = field(default_factory=dict)  # incomplete files already logged as waiting, and why
    grace: float = GRACE
    stopping: threading.Event = field(default_factory=threading.Event)  # set by the worker's ``stop``
    held: dict[Path, tuple[int, int, float]] = field(default_factory=dict)  # truncated: size, mtime, since
    growing: dict[Path, tuple[int, int, float, bool]] = field(default_factory=dict)  # JSONL: …, imported

    def __post_init__(self) -> None:
        self.stability = inbox.Stability(self.window)

    def waiting(self) -> bool:
        return bool(self.stability.seen)

    def _say_waiting(self, path: Path, why: str, patience: float) -> None:
        """Log once, as soon as a still file looks incomplete, that it waits and why (not 30 s of silence)."""
        if self.told.get(path) != why:
            self.told[path] = why
            log.warning("inbox: %s: %s; waiting up to %d s for the writer to finish", path.name, why, patience)

    def tick(self, ctx: Context, now: float, wall: float | None = None) -> list[FileReport]:
        """Import what is ready now; returns the reports of this tick.

        ``now`` is the monotonic clock for stability; ``wall`` the time for the
        ledger and retry backoff (default: the context's clock).
        """
        if not self.folder.is_dir():
            return []
        wall = ctx.clock().timestamp() if wall is None else wall
        done = []
        for path in self.stability.ready(self._candidates(), now):
            stable_for = now - self.stability.seen[path][2]
            patience = max(30.0, 10 * self.window)
            why = inbox.incomplete(path)
            if why and stable_for < patience:
                self._say_waiting(path, why, patience)
                continue
            self.told.pop(path, None)
            if not due(ctx, path, wall):
                continue
            if self.stopping.is_set():
                break
            hold = self._hold(path, now)
            if hold is None:
                continue  # truncated before, unchanged since: wait for its writer
            self.current = path.name
            try:
                report = ingest_file(ctx, path, self.folder, now=wall, hold_truncated=hold,
                                     stop=self.stopping.is_set)
            except Exception as exc:  # never loop on a file that breaks the importer: quarantine it
                log.exception("importing %s failed", path)
                report = FileReport(path.name, FAILED, reasons=[f"memvault could not import it: {exc!r}"])
                _log(ctx, report, "")  # the reason is kept before the file moves
                report.moved_to = inbox.quarantine(self.folder, path, _reason(path, report))
            finally:
                self.current = None
            if report.state == INTERRUPTED:
                done.append(report)
                break
            if report.state == WAITING:
                self.held[path] = (*_stamp(path), now)  # the grace period runs from its last change
                continue
            self.held.pop(path, None)
            if report.state != RETRY:
                self.stability.forget(path)
            if report.moved_to is not None and path.suffix.lower() in GROWING and report.state != FAILED:
                self.growing[report.moved_to] = (*_stamp(report.moved_to), now, True)
            done.append(report)
        done.extend(self._grown(ctx, now, wall))
        self.reports = (self.reports + done)[-50:]
        return done

    def _hold(self, path: Path, now: float) -> bool | None:
        """For a file that read as truncated before: None to skip it now, else whether to hold it again."""
        held = self.held.get(path)
        if held is None:
            return True
        if _stamp(path) != held[:2]:
            return True  # it changed (and is stable again): its writer is still at work
        return None if now - held[2] < self.grace else False

    def _grown(self, ctx: Context, now: float, wall: float) -> list[FileReport]:
        """Import the lines appended to already imported JSONL files once they hold still."""
        done = []
        for path, (size, mtime, since, imported) in list(self.growing.items()):
            stamp = _stamp(path)
            if stamp == (-1, -1) or (stamp == (size, mtime) and now - since >= self.grace):
                del self.growing[path]  # gone, or still for long enough: no longer watched
            elif stamp != (size, mtime):
                self.growing[path] = (*stamp, now, False)  # it grew: import it once it holds still
            elif not imported and now - since >= self.window:
                done.append(ingest_file(ctx, path, None, now=wall))  # merged by message id: only new lines
                self.growing[path] = (size, mtime, since, True)
        return done

    def _candidates(self) -> list[Path]:
        """The inbox's regular files; anything else is reported once (log and ``status``), never read."""
        files, refused = inbox.scan(self.folder)
        now_refused = {str(path): why for path, why in refused.items()}
        for name, why in now_refused.items():
            if name not in self.refused:
                log.warning("inbox: %s is skipped: %s", name, why)
        self.refused = now_refused
        return files
