"""A live session's increment (Claude Code hooks), in order: record every time, the card when due.

``record`` is stage 2 alone: the new messages merge into the source record
and are marked pending for their own day (the day comes from each message's
timestamp, not from when the hook ran). ``write_cards`` runs the rest of the
flow for the days waiting: distil (pending messages included) → card →
card properties → daily page → tags → index. Between the two nothing is
lost: the pending list is the same one a crash recovery uses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from daemon.conversations.sessions import record_path
from daemon.errors import ConflictError
from daemon.models import Conversation, Message
from daemon.pipeline.context import Context
from daemon.pipeline.memory import ATTEMPTS, card_for_day, refresh_daily_listing, save_record
from daemon.pipeline.tags import ADDED, MODIFIED, auto_tag
from daemon.timeutil import day_of, today
from daemon.vault import props
from daemon.vault.names import validate_component


def record(ctx: Context, conversation: Conversation, extra: Mapping[str, Any] | None = None) -> dict[str, list[Message]]:
    """Merge the conversation into its source record; returns the new messages by day.

    ``extra`` is added to each message's record line (e.g. the ``cwd`` the session ran in).
    """
    validate_component(conversation.session_id, "session_id")
    messages = conversation.messages
    if extra:
        messages = tuple(replace(m, record={**m.record, **extra}) for m in messages)
    fallback = today(ctx.config.tz, ctx.clock()).isoformat()

    def day_of_message(message: Message) -> str:
        return day_of(message.time, ctx.config.tz).isoformat() if message.time else fallback

    new = save_record(ctx, conversation.session_id, messages, day_of_message)
    by_day: dict[str, list[Message]] = {}
    for message in new:
        by_day.setdefault(day_of_message(message), []).append(message)
    if new:
        ctx.graph.sync([record_path(ctx.config.session_dir, conversation.session_id)])
    return by_day


def write_cards(ctx: Context, session_id: str, days: Mapping[str, list[Message]],
                properties: Mapping[str, Any] | None = None) -> list[tuple[str, str]]:
    """Distil each waiting day (its new and pending messages) into the session's card; returns the changes."""
    changes: list[tuple[str, str]] = []
    touched: list[str] = []
    for day in sorted(days):
        outcome = card_for_day(ctx, session_id, day, tuple(days[day]), None)
        path = outcome.path
        if path and properties and _set_properties(ctx, path, properties):
            changes.append((ADDED if outcome.created else MODIFIED, path))
        elif path and outcome.modified:
            changes.append((ADDED if outcome.created else MODIFIED, path))
        page, _ = refresh_daily_listing(ctx, day)
        if page["changed"]:
            touched.append(page["path"])
    auto_tag(ctx, changes)  # before indexing, so each card is read into the index once
    ctx.graph.sync(touched + [path for _, path in changes])
    return changes


def _set_properties(ctx: Context, path: str, properties: Mapping[str, Any]) -> bool:
    """Set card properties memvault owns (``project``); True when the file changed."""
    for _ in range(ATTEMPTS):
        snapshot = ctx.vault.read(path)
        if snapshot is None:
            return False
        current = props.read(snapshot.text)
        updates = {k: v for k, v in properties.items() if v not in (None, "") and current.get(k) != v}
        if not updates:
            return False
        try:
            ctx.vault.write(path, props.set_props(snapshot.text, updates), snapshot.digest)
            return True
        except ConflictError:
            continue
    return False
