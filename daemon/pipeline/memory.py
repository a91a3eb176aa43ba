"""The memory flow, in order.

``auto_memory``: validate everything → save the source record → find the
session's card for the day → distill → write the card (merge, rename with
link retargeting) → refresh the daily page. Bad input is rejected before the
first write, so it never leaves a trace in the vault.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date as Date
from itertools import chain
from typing import Any, Callable, Sequence

from daemon.conversations.formats import parse_messages
from daemon.conversations.images import AttachmentPlan
from daemon.conversations.sessions import merge_record, record_link, record_messages, record_path
from daemon.conversations.spill import Spilled
from daemon.errors import BusyError, ConflictError, DistillError, InputError, PartialDistillError, ReadOnlyError
from daemon.models import Card, DistillRequest, Message, Skip
from daemon.pipeline import attachments, bounded
from daemon.pipeline.context import Context
from daemon.pipeline.dailypage import refresh_daily, refresh_daily_listing  # noqa: F401 (ingest, live)
from daemon.pipeline.renames import move_note
from daemon.pipeline.tags import ADDED, MODIFIED, auto_tag
from daemon.timeutil import day_of, parse_day, today
from daemon.vault import cards, props
from daemon.vault.cardmerge import merge_body
from daemon.vault.files import ABSENT
from daemon.vault.names import safe_name, validate_component

ATTEMPTS = 3
READ_ONLY_KEY = "read_only"  # index meta: the read-only files memvault left alone, for ``status``


@dataclass(frozen=True)
class Outcome:
    """What happened to the card."""

    path: str | None
    created: bool
    modified: bool
    answer: str


def auto_memory(
    ctx: Context,
    session_id: Any,
    messages: Any,
    date: Any = None,
    memory_hint: Any = None,
    include_images: bool = False,
) -> dict[str, Any]:
    """Distill ``messages`` into the session's card for one day. Returns the JSON result."""
    n_messages = len(messages) if isinstance(messages, list) else 0
    try:
        parsed, day = _validate(ctx, session_id, messages, date)
        plan = attachments.prepare(ctx, session_id, parsed) if include_images else None
    except InputError as exc:
        return _failure(str(exc), date, n_messages)
    if not parsed:
        return {"success": True, "answer": "Skipped: no messages",
                "metadata": {"date": day.isoformat(), "modified": False, "n_messages": 0}}
    hint = str(memory_hint) if memory_hint not in (None, "") else None
    try:
        attachments.save(ctx, plan)
        outcome = _remember(ctx, session_id, parsed, day, hint, plan)
    except DistillError as exc:
        # The source record is kept; the messages stay pending for the next run.
        return _failure(str(exc), day.isoformat(), len(parsed))
    index = refresh_daily(ctx, day.isoformat())
    changes = [(ADDED if outcome.created else MODIFIED, outcome.path)] if outcome.modified and outcome.path else []
    tagged = auto_tag(ctx, changes)  # before indexing, so the card is read into the index once
    touched = [record_path(ctx.config.session_dir, session_id), index["path"]]
    ctx.graph.sync(touched + ([outcome.path] if outcome.path else []))
    return {
        "success": True,
        "answer": outcome.answer,
        "metadata": {
            "date": day.isoformat(),
            "path": outcome.path,
            "created": outcome.created,
            "modified": outcome.modified,
            "n_messages": len(parsed),
            "source_conversation": record_link(ctx.config.session_dir, session_id),
            "index": index,
            "auto_tag": tagged,
        },
    }


def _failure(message: str, date: Any, n_messages: int) -> dict[str, Any]:
    return {"success": False, "answer": f"Error: {message}",
            "metadata": {"date": date, "modified": False, "n_messages": n_messages}}


def _validate(ctx: Context, session_id: Any, messages: Any, date: Any) -> tuple[tuple[Message, ...], Date]:
    if not isinstance(session_id, str) or not session_id:
        raise InputError("session_id is required")
    validate_component(session_id, "session_id")
    day: Date | None = None
    if date not in (None, ""):
        try:
            day = parse_day(date)
        except ValueError as exc:
            raise InputError("date must be YYYY-MM-DD") from exc
    parsed = parse_messages(messages)
    tz = ctx.config.tz
    if day is None:
        days = [day_of(m.time, tz) for m in parsed if m.time is not None]
        day = max(days) if days else today(tz, ctx.clock())
    return parsed, day


def _remember(ctx: Context, session_id: str, messages: tuple[Message, ...], day: Date, hint: str | None,
              plan: AttachmentPlan | None = None) -> Outcome:
    """Save the record, then create or update the card of ``day`` with the new messages."""
    new = save_record(ctx, session_id, messages, lambda message: day.isoformat())
    return card_for_day(ctx, session_id, day.isoformat(), new, hint, plan)


def card_for_day(ctx: Context, session_id: str, day: str, new: Sequence[Message], hint: str | None,
                 plan: AttachmentPlan | None = None, stop: Callable[[], bool] | None = None,
                 title: str = "") -> Outcome:
    """Distill ``new`` messages (plus any left pending by an earlier failure) into the day's card.

    The pending list is written before the distiller runs and cleared after the
    card is written, so a crash, a model failure or a stop between parts
    (``stop``, raising ``Interrupted``) never loses messages: they are already
    in the record, and the next run distills them.
    """
    link = record_link(ctx.config.session_dir, session_id)
    day_cards = cards.list_cards(ctx.vault, ctx.config.daily_dir, day)
    found = cards.find_session_card(day_cards, session_id, link)
    todo = _with_pending(ctx, session_id, day, new)
    if not todo:
        ctx.bases.set_pending(session_id, day, [])
        if found is not None:
            return Outcome(found.path, False, False, f"No new messages; {found.path} is unchanged")
        return Outcome(None, False, False, "Skipped: no new messages")
    # The distiller sees a bounded view: huge messages capped, a huge conversation in parts.
    request = DistillRequest(session_id, parse_day(day), bounded.view(todo), found.card() if found else None, hint,
                             ctx.config.tz, include_images=plan is not None, image_sources=plan.sources if plan else {},
                             title=title)
    try:
        result = bounded.distill(ctx.distiller, request, stop)
    except PartialDistillError as exc:  # keep what the finished parts produced; the rest stays pending
        if isinstance(exc.card, Card):
            _write_card(ctx, session_id, day, exc.card, day_cards)
            done = set(exc.done)
            ctx.bases.set_pending(session_id, day, [m.id for m in todo if m.id not in done])
        raise exc.cause from exc
    if isinstance(result, Skip):
        outcome = Outcome(found.path if found else None, False, False, f"Skipped: {result.reason}")
    else:
        try:
            outcome = _write_card(ctx, session_id, day, result, day_cards)
        except ReadOnlyError as exc:  # the user locked the card: it stays as is, the messages stay pending
            note_read_only(ctx, str(exc))
            return Outcome(found.path if found else None, False, False, f"Left alone: {exc}")
        before = found.properties.get(attachments.SOURCE_KEY) if found else None
        if outcome.path and attachments.link_sources(ctx, outcome.path, plan, before):
            outcome = Outcome(outcome.path, outcome.created, True, outcome.answer)
    ctx.bases.set_pending(session_id, day, [])
    return outcome


def note_read_only(ctx: Context, reason: str) -> None:
    """Remember a read-only file memvault left alone, for ``status`` (the last 20)."""
    kept = json.loads(ctx.graph.index.get_meta(READ_ONLY_KEY) or "[]")
    ctx.graph.index.set_meta(READ_ONLY_KEY, json.dumps(([r for r in kept if r != reason] + [reason])[-20:]))


def _with_pending(ctx: Context, session_id: str, day: str, new: Sequence[Message]) -> Sequence[Message]:
    pending = set(ctx.bases.pending(session_id, day))
    for message in new:  # one id at a time: a huge conversation's ids are never all held twice
        pending.discard(message.id)
    if not pending:
        return new
    snapshot = ctx.vault.read(record_path(ctx.config.session_dir, session_id))
    records = [r for r in record_messages(snapshot.text if snapshot else "") if str(r.get("id")) in pending]
    try:
        earlier = parse_messages(records, where=record_path(ctx.config.session_dir, session_id))
    except InputError:
        earlier = ()
    return Spilled(chain(earlier, new)).settled()


def save_record(ctx: Context, session_id: str, messages: Sequence[Message],
                day_of_message: Callable[[Message], str]) -> Sequence[Message]:
    """Merge the messages into the source record; returns the ones that were new.

    The new messages are marked pending for their card's day *before* the
    record is written: a crash after the write then still has them distilled
    on the next run, instead of finding them "already recorded" and losing them.
    """
    path = record_path(ctx.config.session_dir, session_id)
    for _ in range(ATTEMPTS):
        snapshot = ctx.vault.read(path)
        update = merge_record(snapshot.text if snapshot else None, messages, ctx.config.tz)
        if update.pieces is None:
            return ()
        _mark_pending(ctx, session_id, update.new, day_of_message)
        try:
            ctx.vault.write_pieces(path, update.pieces(), snapshot.digest if snapshot else ABSENT)
            return update.new
        except ConflictError:
            continue
    raise BusyError(f"{path}: kept changing while being updated; try again")


def _mark_pending(ctx: Context, session_id: str, new: Sequence[Message],
                  day_of_message: Callable[[Message], str]) -> None:
    by_day: dict[str, list[str]] = {}
    for message in new:
        by_day.setdefault(day_of_message(message), []).append(message.id)
    for day, ids in by_day.items():
        ctx.bases.set_pending(session_id, day, list(dict.fromkeys(ctx.bases.pending(session_id, day) + ids)))


def _write_card(ctx: Context, session_id: str, day: str, card: Card, listed: list[cards.CardFile]) -> Outcome:
    """Create or update the card; on a conflict the day's cards are read again and the write re-planned."""
    link = record_link(ctx.config.session_dir, session_id)
    day_cards = listed
    for _ in range(ATTEMPTS):
        found = cards.find_session_card(day_cards, session_id, link)
        try:
            if found is None:
                return _create_card(ctx, session_id, day, card, day_cards)
            return _update_card(ctx, session_id, day, card, found, day_cards)
        except ConflictError:
            day_cards = cards.list_cards(ctx.vault, ctx.config.daily_dir, day)
    raise BusyError(f"the card of {session_id} for {day} kept changing while being updated; try again")


def _create_card(ctx: Context, session_id: str, day: str, card: Card, day_cards: list[cards.CardFile]) -> Outcome:
    folder = cards.day_folder(ctx.config.daily_dir, day)
    taken = {c.stem for c in day_cards} | {n[:-3] for n in ctx.vault.listdir(folder) if n.endswith(".md")}
    name = cards.unique_name(safe_name(card.name, fallback=session_id), taken)
    path = f"{folder}/{name}.md"
    final = Card(name, _one_line(card.description), cards.normalize_body(card.body))
    link = record_link(ctx.config.session_dir, session_id)
    ctx.vault.write(path, cards.render(final, session_id, link), ABSENT)
    ctx.bases.put(session_id, day, {"name": name, "description": final.description, "body": final.body})
    return Outcome(path, True, True, f"Created {path}")


def _update_card(
    ctx: Context, session_id: str, day: str, card: Card, found: cards.CardFile, day_cards: list[cards.CardFile]
) -> Outcome:
    base = ctx.bases.get(session_id, day)
    base = base if base is not None and "body" in base else None
    current = found.card()
    new_body = merge_body(base["body"] if base else None, current.body, cards.normalize_body(card.body))
    updates: dict[str, Any] = {}
    user_named = found.stem != current.name or (base is not None and current.name != base.get("name"))
    name = current.name if user_named else safe_name(card.name, fallback=current.name or found.stem)
    if not user_named and name != current.name:
        others = {c.stem for c in day_cards if c.path != found.path}
        name = cards.unique_name(name, others)
        updates["name"] = name
    description = _one_line(card.description)
    if not (base is not None and current.description != base.get("description")):
        updates["description"] = description
    updates["session_id"] = session_id
    updates["source_conversation"] = record_link(ctx.config.session_dir, session_id)
    text = _replace_body(props.set_props(found.snapshot.text, _changed(found.properties, updates)), new_body)
    digest = found.snapshot.digest
    if text != found.snapshot.text:
        digest = ctx.vault.write(found.path, text, digest)
    path = found.path
    if "name" in updates:
        path = f"{cards.day_folder(ctx.config.daily_dir, day)}/{name}.md"
        move_note(ctx, found.path, path, digest)
    ctx.bases.put(session_id, day, {"name": name, "description": updates.get("description", current.description),
                                    "body": new_body})
    modified = text != found.snapshot.text or path != found.path
    return Outcome(path, False, modified, f"Updated {path}" if modified else f"{path} is unchanged")


def _changed(properties: Any, updates: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in updates.items() if properties.get(k) != v}


def _replace_body(text: str, body: str) -> str:
    where = props.split(text)
    newline = where.newline if where else ("\r\n" if "\r\n" in text else "\n")
    if newline != "\n":
        body = body.replace("\r\n", "\n").replace("\n", newline)
    return (text[: where.body_start] if where else "") + body


def _one_line(text: str) -> str:
    return " ".join(str(text or "").split())
