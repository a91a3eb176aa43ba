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
import math
from array import array
from dataclasses import dataclass
from datetime import tzinfo
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Sequence

from daemon.conversations.spill import Spilled, Subset, pick
from daemon.models import Message
from daemon.timeutil import parse_timestamp, sort_key


@dataclass(frozen=True)
class RecordUpdate:
    """The merge result: the new file's pieces (None when unchanged) and the messages that were new.

    ``pieces`` yields the file text in order, one record line at a time, so a
    huge record is written without ever being one string; ``text`` joins them.
    """

    pieces: Callable[[], Iterator[str]] | None
    new: Sequence[Message]  # a tuple, or a ``Subset`` of a huge conversation's messages
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
    """Merge ``messages`` into the record text ``existing``.

    ``messages`` is read in order, a few times, and never held whole: a huge
    conversation's (a ``Spilled`` sequence) stays on disk, and what is kept
    per message is its position and time.
    """
    old, broken = _parse_lines(existing or "")
    by_id = {str(rec.get("id")): rec for rec in old}
    merged = dict(by_id)
    new_at = array("q")  # positions of the new messages
    added = array("q")  # positions of the new messages whose ids the record did not hold
    keys = array("d")  # the time of each of those (NaN: none)
    for n, message in enumerate(messages):
        before = by_id.get(message.id)
        if before is None:  # a new id: kept as is (no JSON round trip, no copy of a huge message)
            new_at.append(n)
            added.append(n)
            keys.append(_key(message.record, tz))
            continue
        line = json.loads(dump_line(message.record))
        if before == line or _fuller(before, line):
            continue  # an older, shorter snapshot of a message never replaces the fuller one kept
        new_at.append(n)
        merged[message.id] = line
    if not new_at:
        return RecordUpdate(pieces=None, new=(), appended=False)
    added_records = _records_at(messages, added, keys, tz)
    updated = [merged[str(rec.get("id"))] for rec in old]
    order = _order(array("d", (_key(rec, tz) for rec in updated)) + keys)
    appended = all(order[i] == i for i in range(len(old))) and all(by_id[i] == merged[i] for i in by_id)

    def ordered() -> Iterator[dict[str, Any]]:
        if isinstance(order, range):  # already in time order: the new records are read once, in order
            yield from updated
            yield from added_records()
            return
        for index in order:
            yield updated[index] if index < len(updated) else added_records.at(index - len(updated))

    if appended and not broken:
        base = existing or ""

        def pieces() -> Iterator[str]:
            yield base + ("" if not base or base.endswith("\n") else "\n")
            yield from _lines(islice(ordered(), len(old), None))
    else:
        def pieces() -> Iterator[str]:
            yield from _lines(ordered())
            yield from (line + "\n" for line in broken)
    return RecordUpdate(pieces=pieces, new=pick(messages, new_at), appended=appended and not broken)


class _Added:
    """The records of the added messages, by position among them; called, all of them in order."""

    def __init__(self, messages: Sequence[Message], positions: Sequence[int], copies: dict[str, int]) -> None:
        self._messages, self._positions, self._copies = messages, positions, copies

    def __len__(self) -> int:
        return len(self._positions)

    def __call__(self) -> Iterator[dict[str, Any]]:
        for message in pick(self._messages, self._positions):
            yield self._record(message)

    def at(self, index: int) -> dict[str, Any]:
        return self._record(self._messages[self._positions[index]])

    def _record(self, message: Message) -> dict[str, Any]:
        copy = self._copies.get(message.id)
        return dict(message.record if copy is None else self._messages[copy].record)


def _records_at(messages: Sequence[Message], positions: Sequence[int], keys: array[float],
                tz: tzinfo | None) -> _Added:
    """The added records. A message id sent twice in one call writes the last copy twice, as it always did
    (``keys`` then takes that copy's time)."""
    copies: dict[str, int] = {}
    if not isinstance(messages, (Spilled, Subset)):  # a huge conversation's ids are unique already
        last = {message.id: n for n, message in enumerate(messages)}
        copies = {messages[n].id: last[messages[n].id] for n in positions if last[messages[n].id] != n}
        for index, n in enumerate(positions):
            if messages[n].id in copies:
                keys[index] = _key(messages[copies[messages[n].id]].record, tz)
    return _Added(messages, positions, copies)


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
        record = _record_of(line)
        if record is not None:
            records.append(record)
        else:
            broken.append(line)
    return records, broken


def _record_of(line: str) -> dict[str, Any] | None:
    """The record on one line, None when the line is not one."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) and "id" in value else None


def record_ids(lines: Iterable[str]) -> set[str]:
    """The message ids of a record file read a line at a time (split at "\n" only): never held whole."""
    return {str(record.get("id")) for record in map(_record_of, lines) if record is not None}


def _order(keys: array[float]) -> Sequence[int]:
    """The order of the old records (updated in place) then the added ones, stably sorted by parsed time.

    ``keys`` are their times (NaN: none). A record without a usable time takes
    the key of the record before it, so it keeps its place next to its
    neighbour. A ``range`` when nothing moves.
    """
    previous = float("-inf")
    for index, key in enumerate(keys):
        previous = previous if math.isnan(key) else key
        keys[index] = previous
    if all(keys[i] <= keys[i + 1] for i in range(len(keys) - 1)):
        return range(len(keys))
    return sorted(range(len(keys)), key=keys.__getitem__)


def _key(record: dict[str, Any] | Any, tz: tzinfo | None) -> float:
    key = sort_key(_time_of(record), tz)
    return math.nan if key is None else key


def _time_of(record: dict[str, Any]) -> Any:
    try:
        return parse_timestamp(record.get("created_at"))
    except ValueError:
        return None


def record_messages(text: str) -> list[dict[str, Any]]:
    """The parsed records of a record file, in file order (unparsable lines skipped)."""
    return _parse_lines(text)[0]
