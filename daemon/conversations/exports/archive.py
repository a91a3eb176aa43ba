"""ZIP exports: vet every entry before reading any, then pick the conversation entries.

ChatGPT and Claude.ai mail their exports as ZIPs. A ZIP from the inbox is
untrusted, so nothing is extracted to disk: the central directory is checked
(entry count, unsafe paths, encryption, declared sizes, per-entry compression
ratio) and the chosen entries are then read as streams with
``ZipFile.open``, which never inflates past an entry's declared size.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import PurePosixPath
from typing import BinaryIO

from daemon.conversations.exports.base import ExportError, Limits

# An entry below this size cannot hurt whatever its ratio (a few KB of JSON
# whitespace can legitimately compress 300:1); bombs are big by definition.
RATIO_FLOOR = 1 << 20
_CONVERSATIONS = re.compile(r"conversations(-\d+)?\.json", re.IGNORECASE)
# Export files that hold no conversations: account, settings, projects, memories.
_SIDE_FILES = {
    "user.json", "users.json", "projects.json", "memories.json", "message_feedback.json",
    "shared_conversations.json", "export_manifest.json", "user_settings.json", "model_comparisons.json",
}
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_EOCD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"


def is_zip(head: bytes) -> bool:
    """Whether a file's first bytes are a ZIP signature (a local header or an empty archive)."""
    return head.startswith((b"PK\x03\x04", _EOCD))


def conversation_entries(archive: zipfile.ZipFile, name: str, limits: Limits) -> list[zipfile.ZipInfo]:
    """The entries to read, in name order; raises ExportError for an unsafe or empty archive.

    ``conversations.json`` and the sharded ``conversations-NNN.json`` win; an
    archive without them (a folder of Claude Code sessions, a dataset) offers
    its other ``.json``/``.jsonl`` files.
    """
    infos = archive.infolist()
    check_entries(infos, name, limits)
    files = [info for info in infos if not info.is_dir() and not _ignorable(info.filename)]
    chosen = [info for info in files if _CONVERSATIONS.fullmatch(_basename(info.filename))]
    if not chosen:
        chosen = [info for info in files if _basename(info.filename).lower().endswith((".json", ".jsonl"))
                  and _basename(info.filename).lower() not in _SIDE_FILES]
    if not chosen:
        raise ExportError(f"{name}: the ZIP holds no conversations file (conversations.json or other .json/.jsonl)")
    for info in chosen:
        if info.compress_type not in _READABLE:
            raise ExportError(f"{name}: entry {info.filename!r} uses an unsupported compression method")
    return sorted(chosen, key=lambda info: info.filename)


def check_entries(infos: list[zipfile.ZipInfo], name: str, limits: Limits) -> None:
    """Reject unsafe paths, encrypted entries, too many entries, oversized and bomb-like entries."""
    if len(infos) > limits.max_zip_entries:
        raise ExportError(f"{name}: the ZIP has {len(infos)} entries, more than the limit of {limits.max_zip_entries}")
    total = 0
    for info in infos:
        problem = _path_problem(info.filename)
        if problem:
            raise ExportError(f"{name}: unsafe ZIP entry {info.filename!r}: {problem}")
        if info.flag_bits & 0x1:
            raise ExportError(f"{name}: ZIP entry {info.filename!r} is encrypted")
        if info.file_size > limits.max_file_bytes:
            raise ExportError(f"{name}: ZIP entry {info.filename!r} inflates to {info.file_size} bytes, "
                              f"more than the limit of {limits.max_file_bytes}")
        if info.file_size > RATIO_FLOOR and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise ExportError(f"{name}: ZIP entry {info.filename!r} inflates more than {limits.max_ratio:g} times "
                              "its compressed size (a ZIP bomb?)")
        total += info.file_size
    if total > limits.max_uncompressed_bytes:
        raise ExportError(f"{name}: the ZIP inflates to {total} bytes, more than the limit of "
                          f"{limits.max_uncompressed_bytes}")


def declared_entries(handle: BinaryIO) -> int | None:
    """The entry count from the end-of-central-directory record, None when it cannot be found.

    Read before ``zipfile`` builds one object per entry, so a directory of
    millions of entries is refused without being parsed.
    """
    handle.seek(0, 2)
    size = handle.tell()
    start = max(size - (65535 + 22), 0)  # the record plus the longest possible comment
    handle.seek(start)
    tail = handle.read()
    at = tail.rfind(_EOCD)
    if at < 0 or len(tail) - at < 22:
        return None
    count = int.from_bytes(tail[at + 10: at + 12], "little")
    locator = tail.rfind(_ZIP64_LOCATOR, 0, at)
    if count == 0xFFFF and locator >= 0 and locator + 20 <= at:
        record_at = int.from_bytes(tail[locator + 8: locator + 16], "little")
        handle.seek(record_at)
        record = handle.read(40)
        if record[:4] == b"PK\x06\x06" and len(record) == 40:
            count = int.from_bytes(record[32:40], "little")
    handle.seek(0)
    return count


def _path_problem(filename: str) -> str | None:
    parts = re.split(r"[\\/]+", filename)
    if filename.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", filename):
        return "absolute path"
    if ".." in parts:
        return "'..' in the path"
    if "\x00" in filename:
        return "NUL in the name"
    return None


def _basename(filename: str) -> str:
    return PurePosixPath(filename.replace("\\", "/")).name


def _ignorable(filename: str) -> bool:
    """macOS resource forks and hidden files that archivers add next to the real ones."""
    parts = filename.replace("\\", "/").split("/")
    return "__MACOSX" in parts or _basename(filename).startswith(".")
