"""Which export a JSON stream holds, decided by the shape of its first value, and the reader for it.

File names lie (every vendor calls its file ``conversations.json``), so the
first array element, or the first object, decides. A top-level array is read
element by element; an object followed by more objects is JSON Lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, BinaryIO, Callable, Iterator

from daemon.conversations.exports import chatgpt, chats, claude, claude_code, datasets
from daemon.conversations.exports.base import BadConversation, ExportError, Item, describe, label, unsupported
from daemon.conversations.exports.jsonstream import CHUNK, SPILL_KEYS, JsonStream

PerConversation = Callable[[Any, int], Iterator[Item]]
_READERS: dict[str, tuple[str, PerConversation]] = {
    "chatgpt": ("ChatGPT", chatgpt.read),
    "claude": ("Claude", claude.read),
    "locomo": ("LoCoMo", datasets.read_locomo),
    "longmemeval": ("LongMemEval", datasets.read_longmemeval),
    "native": ("memvault", chats.read_native),
    "openai": ("OpenAI chat", chats.read_openai),
    "sharegpt": ("ShareGPT", chats.read_sharegpt),
}
_END = object()
ACCOUNT_FILE = "Claude account file, no conversations"
COMPACTION_HELPER = "compaction helper, its content is in the session transcript"
EMPTY_EXPORT = "an empty export, no conversations"


@dataclass(frozen=True)
class Skipped:
    """Why a readable stream holds no conversation on purpose; ``read_export`` reports it, never yields it."""

    reason: str


def shape_of(value: Any) -> str | None:
    """The format a top-level value (array element, object or JSON line) belongs to, or None."""
    if not isinstance(value, dict):
        return None
    checks = (
        ("chatgpt", "mapping" in value),
        ("claude", "chat_messages" in value),
        ("locomo", "sample_id" in value and "conversation" in value),
        ("longmemeval", "haystack_sessions" in value),
        ("native", "session_id" in value and "messages" in value),
        ("openai", "messages" in value),
        ("sharegpt", "conversations" in value),
        ("claude-code", claude_code.looks_like(value)),
        ("message", "role" in value),
        ("claude-extra", _claude_side_record(value)),
    )
    return next((kind for kind, matches in checks if matches), None)


def read_stream(raw: BinaryIO, name: str) -> Iterator[Item | Skipped]:
    """Every conversation in one JSON or JSON Lines stream; ExportError when the stream is unusable."""
    stream = JsonStream(raw, name)
    first = stream.peek()
    if not first:
        raise ExportError(f"{name}: the file is empty")
    if first not in "[{":
        raise unsupported(name, f"it does not start with a JSON array or object but with {first[:1]!r}")
    values = stream.elements(SPILL_KEYS) if first == "[" else _objects(stream)
    head = next(values, _END)
    if head is _END:
        yield Skipped(EMPTY_EXPORT)  # nothing to import, nothing wrong
        return
    kind = shape_of(head)
    if kind is None:
        raise unsupported(name, f"its first {'element' if first == '[' else 'value'} is {describe(head)}")
    yield from _route(kind, chain([head], values), name)


def check_closed(handle: BinaryIO, name: str) -> None:
    """Refuse a top-level array cut short before reading any of it, so nothing half-imports.

    Only the file's ends are read; the line count for the message is taken
    only when the check fails.
    """
    head = handle.read(CHUNK)
    head = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    handle.seek(0, 2)
    handle.seek(max(handle.tell() - 256, 0))
    tail = handle.read().rstrip(b" \t\r\n")
    handle.seek(0)
    if not head.lstrip(b" \t\r\n").startswith(b"[") or tail.endswith(b"]"):
        return
    lines, column = 1, 1
    while block := handle.read(CHUNK):
        newlines = block.count(b"\n")
        lines += newlines
        column = len(block) - block.rfind(b"\n") if newlines else column + len(block)
    raise ExportError(f"{name}: invalid JSON at line {lines} column {column}: the top-level array is "
                      "not closed (the file ends early: truncated?)")


def _objects(stream: JsonStream) -> Iterator[Any]:
    yield stream.value(SPILL_KEYS)
    follow = stream.peek()
    if follow and follow != "{":
        stream.expect_end()  # raises: only objects can follow an object
    if follow:  # more than one top-level object: JSON Lines
        yield from stream.values(partial_tail_ok=True, spill=SPILL_KEYS)


def _route(kind: str, values: Iterator[Any], name: str) -> Iterator[Item | Skipped]:
    if kind == "claude-code":
        head = next(values)
        transcript = claude_code.read(chain([head], values), name)
        return _explained(transcript, COMPACTION_HELPER) if _compaction_helper(head) else transcript
    if kind == "message":
        return chats.read_bare(values, name)
    if kind == "claude-extra":
        return _no_conversations(values)
    return _each(kind, values)


def _each(kind: str, values: Iterator[Any]) -> Iterator[Item]:
    title, reader = _READERS[kind]
    for index, value in enumerate(values, 1):
        if shape_of(value) != kind:
            yield BadConversation(label(title, index), f"expected a {title} conversation, got {describe(value)}")
            continue
        yield from reader(value, index)


def _no_conversations(values: Iterator[Any]) -> Iterator[Item | Skipped]:
    """Claude.ai's users/projects/memories files: part of the export, but no conversations in them."""
    for _ in values:  # still read to the end, so a broken file is reported
        pass
    yield Skipped(ACCOUNT_FILE)


def _explained(items: Iterator[Item], reason: str) -> Iterator[Item | Skipped]:
    """The items, or why there are none."""
    empty = True
    for item in items:
        empty = False
        yield item
    if empty:
        yield Skipped(reason)


def _compaction_helper(line: Any) -> bool:
    """A Claude Code ``agent-acompact-*`` file: the summary run of a compaction, which only restates its session."""
    return isinstance(line, dict) and str(line.get("agentId") or "").startswith("acompact")


def _claude_side_record(value: dict[str, Any]) -> bool:
    return ("conversations_memory" in value
            or ("uuid" in value and ("prompt_template" in value or "docs" in value))
            or ("uuid" in value and ("email_address" in value or "full_name" in value)))
