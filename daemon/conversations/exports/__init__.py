"""Stage 1 for inbox files: read a chat export of any supported kind into Conversation values.

``read_export`` opens a file, tells a ZIP from JSON by its first bytes, tells
the export format by the shape of the JSON (never by the file name), and
yields one Conversation per conversation. Identity is stable: session ids are
the provider's id prefixed by the source (``chatgpt-<id>``, ``claude-<uuid>``,
``claude-code-<sessionId>``, ``locomo-<sample>-s<N>``, …), message ids are the
provider's ids, so re-reading a file, or a newer export of the same chats,
lands on the same sessions and messages.

Failure has two sizes. When the file as a whole cannot be used (not JSON,
truncated, unknown shape, unsafe ZIP, or not one conversation readable) an
``ExportError`` names the file and the cause. When one conversation among
readable ones is malformed, a ``BadConversation`` is yielded in its place and
the others still import. Big files are streamed: memory stays about one
conversation, so an error deep inside a huge file can surface after earlier
conversations were yielded (truncation is checked up front).
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from daemon.conversations.exports.archive import conversation_entries, declared_entries, is_zip
from daemon.conversations.exports.base import SUPPORTED, BadConversation, ExportError, Item, Limits
from daemon.conversations.exports.detect import Skipped, check_closed, read_stream
from daemon.models import Conversation

__all__ = ["SUPPORTED", "BadConversation", "ExportError", "Limits", "read_export"]

# A file whose first hundred conversations all fail is not worth reading on.
_MAX_LEADING_BAD = 100


def read_export(path: Path, limits: Limits = Limits(),
                on_skip: Callable[[str], None] | None = None) -> Iterator[Conversation | BadConversation]:
    """Detect the format by shape and yield each conversation (or why one could not be read).

    Conversations without any visible message are not yielded. A readable part
    that holds no conversation on purpose (a Claude account file, a compaction
    helper, an empty export) is passed to ``on_skip`` with the reason. Raises
    ExportError when the file cannot be imported at all.
    """
    path = Path(path)
    name = path.name or str(path)
    yield from _settled(_read(path, name, limits), name, on_skip)


def _read(path: Path, name: str, limits: Limits) -> Iterator[Item | Skipped]:
    try:
        size = path.stat().st_size
        handle = path.open("rb")
    except OSError as exc:
        raise ExportError(f"{name}: cannot be read: {exc.strerror or exc}") from None
    with handle:
        if size > limits.max_file_bytes:
            raise ExportError(f"{name}: the file is {size} bytes, more than the limit of {limits.max_file_bytes}")
        zipped = is_zip(handle.read(4))
        handle.seek(0)
        if zipped:
            yield from _read_zip(handle, name, limits)
        else:
            check_closed(handle, name)
            yield from read_stream(handle, name)


def _read_zip(handle: BinaryIO, name: str, limits: Limits) -> Iterator[Item | Skipped]:
    count = declared_entries(handle)
    if count is not None and count > limits.max_zip_entries:
        raise ExportError(f"{name}: the ZIP has {count} entries, more than the limit of {limits.max_zip_entries}")
    try:
        archive = zipfile.ZipFile(handle)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        raise ExportError(f"{name}: not a readable ZIP archive: {exc}") from None
    with archive:
        for info in conversation_entries(archive, name, limits):
            try:
                member = archive.open(info)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError) as exc:
                raise ExportError(f"{name}: ZIP entry {info.filename!r} cannot be read: {exc}") from None
            with member:
                yield from read_stream(member, f"{name}: {info.filename}")


def _settled(items: Iterator[Item | Skipped], name: str, on_skip: Callable[[str], None] | None) -> Iterator[Item]:
    """Hold BadConversations back until one conversation was read, and drop exact repeats.

    A file in which no conversation can be read fails as a whole, with the
    first reason; a repeated conversation (same session, same messages) is
    yielded once.
    """
    pending: list[BadConversation] = []
    readable = False
    fingerprints: dict[str, int] = {}
    for item in items:
        if isinstance(item, Skipped):
            if on_skip is not None:
                on_skip(item.reason)
            continue
        if isinstance(item, BadConversation) and not readable:
            pending.append(item)
            if len(pending) >= _MAX_LEADING_BAD:
                raise _nothing_readable(name, pending)
            continue
        if isinstance(item, Conversation):
            fingerprint = _fingerprint(item)
            if fingerprints.get(item.session_id) == fingerprint:
                continue
            fingerprints[item.session_id] = fingerprint
            if not readable:
                readable = True
                yield from pending
        yield item
    if pending and not readable:
        raise _nothing_readable(name, pending)


def _fingerprint(conversation: Conversation) -> int:
    """A hash of the conversation's message ids and texts, taken one message at a time."""
    fingerprint = hash(())
    for message in conversation.messages:
        fingerprint = hash((fingerprint, message.id, message.text))
    return fingerprint


def _nothing_readable(name: str, bad: list[BadConversation]) -> ExportError:
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return ExportError(f"{name}: no conversation could be read: {bad[0].label}: {bad[0].reason}{more}")
