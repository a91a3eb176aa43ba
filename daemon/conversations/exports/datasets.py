"""Memory benchmarks: LoCoMo samples and LongMemEval instances → one Conversation per session.

Both datasets date whole sessions, not messages, and carry no time zone: every
message of a session gets the session's naive start time, written as an ISO
string, so a session lands on its own day in the vault. Sessions are found
from their dialog lists, never from the date keys (LoCoMo's conv-26 has
sixteen date keys without a session).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Iterator, Mapping

from daemon.errors import InputError
from daemon.conversations.exports.base import Item, attempt, build, label, need, provider_id, session_name
from daemon.models import Conversation

LOCOMO_DATE = "%I:%M %p on %d %B, %Y"
LONGMEMEVAL_DATE = "%Y/%m/%d (%a) %H:%M"
_SESSION_KEY = re.compile(r"session_(\d+)")


def read_locomo(value: Any, index: int) -> Iterator[Item]:
    """A LoCoMo sample → one Conversation per ``session_<N>`` list, ``locomo-<sample_id>-s<N>``."""
    raw = value if isinstance(value, dict) else {}
    sample = provider_id(raw.get("sample_id"))
    conversation = raw.get("conversation")
    if sample is None or not isinstance(conversation, dict):
        yield from attempt(label("LoCoMo", index, sample), lambda: _bad_sample(raw))
        return
    numbers = sorted(int(m.group(1)) for key, turns in conversation.items()
                     if (m := _SESSION_KEY.fullmatch(key)) and isinstance(turns, list))
    for number in numbers:
        where = f"LoCoMo sample {sample} session {number}"
        yield from attempt(where, lambda n=number: _locomo_session(sample, conversation, n))


def _bad_sample(raw: Mapping[str, Any]) -> Conversation | None:
    if provider_id(raw.get("sample_id")) is None:
        need(raw, "sample_id", str, "sample")
    need(raw, "conversation", dict, "sample")
    return None


def _locomo_session(sample: str, conversation: Mapping[str, Any], number: int) -> Conversation | None:
    when = _date(conversation.get(f"session_{number}_date_time"), LOCOMO_DATE, f"session_{number}_date_time")
    messages = []
    for position, turn in enumerate(conversation[f"session_{number}"]):
        where = f"session_{number}[{position}]"
        if not isinstance(turn, dict):
            raise InputError(f"{where} must be an object, got {type(turn).__name__}")
        text = turn.get("text")
        if not isinstance(text, str):
            raise InputError(f"{where}: 'text' must be a string")
        text = text.strip()
        caption = turn.get("blip_caption")
        if isinstance(caption, str) and caption.strip():
            # The shared picture is not shipped; its caption is all the text there is of it.
            text = f"{text}\n[shares an image: {caption.strip()}]".strip()
        messages.append({"id": need(turn, "dia_id", str, where), "role": "user",
                         "name": need(turn, "speaker", str, where), "content": text, "created_at": when})
    return build(session_name("locomo", f"{sample}-s{number}"), "locomo", messages)


def read_longmemeval(value: Any, index: int) -> Iterator[Item]:
    """A LongMemEval instance → one Conversation per haystack session.

    Each instance carries its own haystack, so session ids are scoped by the
    question: ``longmemeval-<question_id>-<haystack_session_id>``.
    """
    raw = value if isinstance(value, dict) else {}
    question = provider_id(raw.get("question_id"))
    sessions = raw.get("haystack_sessions")
    if question is None or not isinstance(sessions, list):
        yield from attempt(label("LongMemEval", index, question), lambda: _bad_instance(raw))
        return
    ids = raw.get("haystack_session_ids") if isinstance(raw.get("haystack_session_ids"), list) else []
    dates = raw.get("haystack_dates") if isinstance(raw.get("haystack_dates"), list) else []
    for position, turns in enumerate(sessions):
        ident = provider_id(ids[position]) if position < len(ids) else None
        ident = ident or f"session-{position + 1}"
        date = dates[position] if position < len(dates) else None
        where = f"LongMemEval question {question} session {ident}"
        yield from attempt(where, lambda t=turns, i=ident, d=date: _longmemeval_session(question, i, d, t))


def _bad_instance(raw: Mapping[str, Any]) -> Conversation | None:
    if provider_id(raw.get("question_id")) is None:
        need(raw, "question_id", str, "instance")
    need(raw, "haystack_sessions", list, "instance")
    return None


def _longmemeval_session(question: str, ident: str, date: Any, turns: Any) -> Conversation | None:
    when = _date(date, LONGMEMEVAL_DATE, "haystack_dates")
    if not isinstance(turns, list):
        raise InputError(f"haystack session must be a list of turns, got {type(turns).__name__}")
    messages = []
    for position, turn in enumerate(turns):
        if not isinstance(turn, dict):
            raise InputError(f"turn {position} must be an object, got {type(turn).__name__}")
        messages.append({**turn, "created_at": when})  # unknown keys (has_answer) stay in the record
    return build(session_name("longmemeval", f"{question}-{ident}"), "longmemeval", messages)


def _date(value: Any, pattern: str, key: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"'{key}' must be a date string like {datetime(2023, 5, 8, 13, 56).strftime(pattern)!r}")
    try:
        return datetime.strptime(value.strip(), pattern).isoformat()
    except ValueError as exc:
        raise InputError(f"'{key}' is not a date like "
                         f"{datetime(2023, 5, 8, 13, 56).strftime(pattern)!r}: {value!r}") from exc
