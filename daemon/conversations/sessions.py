"""Stage 2: the source record ``<session_dir>/dialog/<session_id>.jsonl``.

A session's messages are merged into its record by message id, ordered by
parsed time (not by string), so re-sending messages never duplicates a line.
For one message id the fuller content is kept: an older, shorter snapshot of a
message (re-importing an earlier Claude Code transcript) never shrinks it.
When the old lines are a prefix of the merged order the new lines are only
appended; otherwise the record is rewritten. Lines that do not parse are
never dropped: a rewrite keeps them at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any, Callable, Iterator, Sequence

from daemon.models import Message
from daemon.timeutil import parse_timestamp, sort_key


@dataclass(frozen=True)
class RecordUpdate:
    """The merge result: the new file's pieces (None when unchanged) and the messages that were new.

    ``pieces`` yields the file text in order, one record line at a time, so a
    huge record is written without ever being one string; ``text`` joins them.
    """

    pieces: Callable[[], Iterator[str]] | None
    new: tuple[Message, ...]
    appended: bool

    @property
    def text(self) -> str | None:
        return None if self.pieces is None else "".join(self.pieces())


def record_path(session_dir: str, session_id: str) -> str:
    return f"{session_dir}/dialog/{session_id}.jsonl"


def record_link(session_dir: str, session_id: str) -> str:
    return f"[[{record_path(session_dir, session_id)}]]"


def dump_line(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)


def merge_record(existing: str | None, messages: Sequence[Message], tz: tzinfo | None) -> RecordUpdate:
    """Merge ``messages`` into the record text ``existing``."""
    old, broken = _parse_lines(existing or "")
    by_id = {str(rec.get("id")): rec for rec in old}
    new: list[Message] = []
    merged = dict(by_id)
    for message in messages:
        before = by_id.get(message.id)
        if before is None:  # a new id: kept as is (no JSON round trip, no copy of a huge message)
            new.append(message)
            merged[message.id] = dict(message.record)
            continue
        line = json.loads(dump_line(message.record))
        if before == line or _fuller(before, line):
            continue  # an older, shorter snapshot of a message never replaces the fuller one kept
        new.append(message)
        merged[message.id] = line
    if not new:
        return RecordUpdate(pieces=None, new=(), appended=False)
    ordered = _ordered(list(by_id.values()), [merged[m.id] for m in new if m.id not in by_id], merged, tz)
    old_ids = [str(rec.get("id")) for rec in old]
    appended = [str(r.get("id")) for r in ordered[: len(old_ids)]] == old_ids and all(
        by_id[i] == merged[i] for i in old_ids
    )
    if appended and not broken:
        base = existing or ""

        def pieces() -> Iterator[str]:
            yield base + ("" if not base or base.endswith("\n") else "\n")
            yield from _lines(ordered[len(old_ids):])
    else:
        def pieces() -> Iterator[str]:
            yield from _lines(ordered)
            yield from (line + "\n" for line in broken)
    return RecordUpdate(pieces=pieces, new=tuple(new), appended=appended and not broken)


def _lines(records: list[dict[str, Any]]) -> Iterator[str]:
    for record in records:
        if _huge(record):  # streamed: the JSON text of a 200 MB message is never built whole
            yield from _pieces(record)
        else:
            yield dump_line(record)
        yield "\n"


_HUGE = 1 << 20
_SLICE = 1 << 20  # characters of a huge string escaped at a time


def _pieces(value: Any) -> Iterator[str]:
    """``dump_line(value)`` in pieces: a huge string is escaped a slice at a time.

    JSON escaping is per character (with ``ensure_ascii=False`` a surrogate is
    kept as is), so the slices join to exactly the text ``dump_line`` makes.
    """
    if isinstance(value, str) and len(value) >= _HUGE:
        yield '"'
        for start in range(0, len(value), _SLICE):
            yield dump_line(value[start:start + _SLICE])[1:-1]
        yield '"'
    elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
        yield "{"
        for n, (key, item) in enumerate(value.items()):
            yield ("," if n else "") + dump_line(key) + ":"
            yield from _pieces(item)
        yield "}"
    elif isinstance(value, list):
        yield "["
        for n, item in enumerate(value):
            if n:
                yield ","
            yield from _pieces(item)
        yield "]"
    else:
        yield dump_line(value)


def _huge(record: dict[str, Any]) -> bool:
    """A record with a string of a million characters or more, at the top or in a content block."""
    for value in record.values():
        if isinstance(value, str) and len(value) >= _HUGE:
            return True
        if isinstance(value, list) and any(isinstance(b, dict) and len(str(b.get("text") or "")) >= _HUGE
                                           for b in value):
            return True
    return False


def _fuller(kept: dict[str, Any], other: dict[str, Any]) -> bool:
    """True when ``kept`` holds more than ``other`` (a streamed or older export holds a cut-off message)."""
    return len(dump_line(kept)) > len(dump_line(other))


def _parse_lines(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    records, broken = [], []
    for line in text.split("\n"):  # JSON may hold a raw U+2028; only "\n" ends a record
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if isinstance(value, dict) and "id" in value:
            records.append(value)
        else:
            broken.append(line)
    return records, broken


def _ordered(
    old: list[dict[str, Any]], added: list[dict[str, Any]], merged: dict[str, dict[str, Any]], tz: tzinfo | None
) -> list[dict[str, Any]]:
    """Old records (updated in place) then new ones, stably sorted by parsed time.

    A record without a usable time takes the key of the record before it, so
    it keeps its place next to its neighbour.
    """
    sequence = [merged[str(rec.get("id"))] for rec in old] + added
    keys: list[float] = []
    previous = float("-inf")
    for rec in sequence:
        key = sort_key(_time_of(rec), tz)
        previous = key if key is not None else previous
        keys.append(previous)
    order = sorted(range(len(sequence)), key=lambda i: keys[i])
    return [sequence[i] for i in order]


def _time_of(record: dict[str, Any]) -> Any:
    try:
        return parse_timestamp(record.get("created_at"))
    except ValueError:
        return None


def record_messages(text: str) -> list[dict[str, Any]]:
    """The parsed records of a record file, in file order (unparsable lines skipped)."""
    return _parse_lines(text)[0]
