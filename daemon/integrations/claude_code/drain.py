"""The spool's jobs → the pipeline's live flow, one session at a time, throttled.

Jobs for one session are merged (the strongest event wins), so twenty Stops
that piled up cost one read of the transcript. Per session:

1. read the transcript (and its subagents) and take the increment by uuid;
2. record it every time (``pipeline.live.record``): nothing is lost;
3. write the card only when due: always on ``SessionEnd`` and ``PreCompact``,
   on ``Stop`` at most once per ``claude_code.min_interval_seconds``;
4. remember the uuids, the project and the times.

A card left waiting by the throttle is written by the session's next hook, or by
the next drain once the interval has passed (a session killed without
SessionEnd), or by ``memvault claude-code import``.

Errors are logged and kept for ``memvault status``; a job is never retried
forever (its messages are safe in the transcript and, once read, in the record).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from daemon.conversations.exports.base import BadConversation
from daemon.conversations.exports.claude_code import read as read_transcript
from daemon.errors import InputError, MemvaultError
from daemon.integrations.claude_code import sessions, spool, transcripts
from daemon.pipeline import Context
from daemon.pipeline import live
from daemon.pipeline.tags import ADDED

log = logging.getLogger("memvault.claude_code")
FORCING = ("SessionEnd", "PreCompact")
EVENTS = ("Stop", "SubagentStop", "SessionEnd", "PreCompact")


def drain(ctx: Context, state_dir: Path, environ: Any = None) -> list[dict[str, Any]]:
    """Process every job in the spool, then any session whose card waited too long; one report per session."""
    paths = spool.jobs(state_dir)
    groups: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        job = spool.read(path)
        sid = job["payload"].get("session_id") if job else None
        if job is None or not isinstance(sid, str) or not sid:
            _error(state_dir, f"spool job {path.name} is not a hook job; removed")
        else:
            groups.setdefault(sid, []).append(job)
    reports = []
    for sid, jobs in groups.items():
        payload = {**jobs[0]["payload"]}
        for job in jobs[1:]:
            payload.update({k: v for k, v in job["payload"].items() if v not in (None, "")})
        events = {str(j["payload"].get("hook_event_name") or "") for j in jobs}
        force = bool(events & set(FORCING))
        at = max(float(j.get("at") or 0) for j in jobs) or time.time()
        reports.append(process_safely(ctx, state_dir, payload, at, force, environ))
    for path in paths:
        path.unlink(missing_ok=True)
    now = time.time()
    for state in sessions.overdue(state_dir, now, _interval(ctx)):  # no hook came since: write the card now
        if state.session_id not in groups:
            flush = {"session_id": state.session_id, "transcript_path": state.transcript, "cwd": state.cwd,
                     "hook_event_name": "flush"}
            reports.append(process_safely(ctx, state_dir, flush, now, True, environ))
    return reports


def process_safely(ctx: Context, state_dir: Path, payload: dict[str, Any], at: float, force: bool,
                   environ: Any = None) -> dict[str, Any]:
    """``process``, with any failure logged, kept for status and reported rather than raised."""
    sid = str(payload.get("session_id"))
    try:
        return process(ctx, state_dir, payload, at, force, environ)
    except MemvaultError as exc:
        message = f"session {sid}: {exc}"
    except Exception as exc:  # one broken session must not stop the others
        log.debug("session %s failed", sid, exc_info=True)
        message = f"session {sid}: memvault could not record it: {exc!r}"
    _error(state_dir, message)
    return _report(sid, "failed", {"failed": 1}, [message])


def process(ctx: Context, state_dir: Path, payload: dict[str, Any], at: float, force: bool = False,
            environ: Any = None) -> dict[str, Any]:
    """Record one session's increment and, when due, write its card(s)."""
    sid = payload["session_id"]
    state = sessions.load(state_dir, sid)
    found = transcripts.find(sid, payload.get("transcript_path") or state.transcript or None, environ)
    if found is None:
        raise InputError(f"transcript not found: {payload.get('transcript_path') or sid + '.jsonl'}")
    event = str(payload.get("hook_event_name") or "")
    state.transcript, state.last_hook, state.hooks = str(found), max(state.last_hook, at), state.hooks + 1
    state.last_event = event or state.last_event
    entries = transcripts.read_lines(found)
    for extra in transcripts.subagent_files(found, sid):
        entries.extend(transcripts.read_lines(extra))
    state.cwd = str(payload.get("cwd") or "") or transcripts.cwd_of(entries) or state.cwd
    step = transcripts.increment(entries, set(state.seen))
    notes: list[str] = []
    counts = {"imported": 0, "updated": 0, "unchanged": 0, "failed": 0}
    recorded = 0
    written: list[str] = []
    for item in read_transcript(step.lines, found.name):
        if isinstance(item, BadConversation):
            counts["failed"] += 1
            notes.append(f"{item.label}: {item.reason}")
            continue
        by_day = live.record(ctx, item, {"cwd": state.cwd} if state.cwd else None)
        recorded += sum(len(v) for v in by_day.values())
        waiting = state.waiting.setdefault(item.session_id, [])
        waiting.extend(day for day in by_day if day not in waiting)
    state.seen = sorted(set(state.seen) | step.uuids)
    sessions.save(state_dir, state)  # recorded: if the card fails now (a model down), it still waits
    due = force or not state.last_distilled or at - state.last_distilled >= _interval(ctx)
    if due:
        for vault_sid, days in sorted(state.waiting.items()):
            changes = live.write_cards(ctx, vault_sid, {d: [] for d in days}, {"project": state.project})
            written.extend(path for _, path in changes)
            counts["imported" if any(c == ADDED for c, _ in changes) else
                   "updated" if changes else "unchanged"] += 1
        state.waiting, state.last_distilled = {}, at
    elif state.waiting:
        notes.append(f"{recorded} new message(s) recorded; the card waits (at most one every "
                     f"{_interval(ctx):.0f} s while the session runs)")
    if step.compacted and not recorded:
        notes.append("compaction: the summary restates earlier turns, so nothing new was recorded")
    sessions.save(state_dir, state)
    if counts["failed"]:
        _error(state_dir, f"session {sid}: " + "; ".join(notes))
    return _report(sid, _state(counts, due, recorded), counts, notes, recorded=recorded, project=state.project,
                   cards=written)


def _interval(ctx: Context) -> float:
    return float(ctx.config.data["claude_code"]["min_interval_seconds"])


def _state(counts: dict[str, int], due: bool, recorded: int) -> str:
    for name in ("failed", "imported", "updated"):
        if counts[name]:
            return name
    return "recorded" if recorded and not due else "unchanged"


def _report(sid: str, state: str, counts: dict[str, int], reasons: list[str], **extra: Any) -> dict[str, Any]:
    full = {"imported": 0, "updated": 0, "unchanged": 0, "failed": 0, **counts}
    if not any(full.values()):
        full["unchanged"] = 1
    return {"name": sid, "state": state, **full, "reasons": reasons, "moved_to": None, **extra}


def _error(state_dir: Path, message: str) -> None:
    log.error("%s", message)
    spool.record_error(state_dir, message)
