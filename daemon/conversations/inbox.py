"""The inbox folder: which files are ready, and where they go afterwards.

A file is taken only when it is complete: size and mtime unchanged for the
stability window *and* it looks like complete JSON, JSONL or ZIP. OS and
sync-tool junk is ignored. After import the original moves to
``processed/YYYY-MM-DD/``; a file that cannot be imported moves to
``failed/`` beside ``<file>.error.txt``. Nothing is ever deleted, and an
existing file is never replaced. This module is the only mover of inbox files.
"""

from __future__ import annotations

import hashlib
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

PROCESSED, FAILED = "processed", "failed"
SUFFIXES = (".json", ".jsonl", ".zip", ".ndjson")
_JUNK_NAMES = {".ds_store", "thumbs.db", "desktop.ini", "icon\r", ".localized", ".dropbox", ".dropbox.attr"}
_JUNK_DIRS = {".stfolder", ".stversions", "@eadir", "#recycle", ".spotlight-v100", ".trashes", "__macosx",
              ".dropbox.cache", ".sync", ".tmp.drivedownload", ".tmp.driveupload"}
_JUNK = re.compile(
    r"^\._|^~\$|^\.~lock\.|^~syncthing~|^\.syncthing\.|\.(tmp|temp|part|partial|crdownload|download|swp|icloud)$"
    r"|@SynoEAStream$|@SynoResource$|^\.dropbox|\.sb-[0-9a-f]+-[A-Za-z0-9]+$",
    re.IGNORECASE,
)


def is_junk(name: str) -> bool:
    """OS and sync-tool clutter, temporary and partial downloads: never imported, never moved."""
    return name.lower() in _JUNK_NAMES or bool(_JUNK.search(name)) or name.startswith(".")


def pending_files(inbox: Path) -> list[Path]:
    """Importable-looking files in the inbox and in folders dropped into it (not processed/ or failed/)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(inbox):
        here = Path(dirpath)
        if here == inbox:
            dirnames[:] = [d for d in dirnames if d not in (PROCESSED, FAILED)]
        dirnames[:] = sorted(d for d in dirnames if d.lower() not in _JUNK_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if not is_junk(name):
                found.append(here / name)
    return found


def incomplete(path: Path) -> str | None:
    """Why the file is not (yet) a complete JSON, JSONL or ZIP file; None when it looks complete."""
    try:
        size = path.stat().st_size
        if size == 0:
            return "the file is empty"
        if zipfile.is_zipfile(path):
            return None
        with open(path, "rb") as handle:
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
            handle.seek(max(0, size - 4096))
            tail = handle.read().rstrip(b" \t\r\n")
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    if head[:2] == b"PK":
        return "an incomplete ZIP archive"
    closer = {b"[": b"]", b"{": b"}"}.get(head[:1])
    if closer is None:
        return "not JSON, JSONL or ZIP"
    return None if tail[-1:] == closer else "incomplete JSON (it does not end where it should)"


@dataclass
class Stability:
    """Per-file stability tracking: a file is ready once its size and mtime held still for ``window`` seconds."""

    window: float = 2.0
    seen: dict[Path, tuple[int, int, float]] = field(default_factory=dict)

    def ready(self, paths: list[Path], now: float) -> list[Path]:
        """Of ``paths`` (those present now), the ones stable long enough; forgets vanished files."""
        present = set(paths)
        for gone in set(self.seen) - present:
            del self.seen[gone]
        ready = []
        for path in paths:
            try:
                st = path.stat()
            except OSError:
                self.seen.pop(path, None)
                continue
            stamp = (st.st_size, st.st_mtime_ns)
            previous = self.seen.get(path)
            if previous is None or previous[:2] != stamp:
                self.seen[path] = (*stamp, now)
            elif now - previous[2] >= self.window:
                ready.append(path)
        return ready

    def forget(self, path: Path) -> None:
        self.seen.pop(path, None)


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def archive(inbox: Path, path: Path, day: str) -> Path:
    """Move an imported file to ``processed/<day>/``, keeping its place inside a dropped folder."""
    return _move(inbox, path, inbox / PROCESSED / day / _relative(inbox, path).parent)


def quarantine(inbox: Path, path: Path, reason: str) -> Path:
    """Move a file that could not be imported to ``failed/`` with ``<file>.error.txt`` saying why."""
    target = _move(inbox, path, inbox / FAILED / _relative(inbox, path).parent)
    note = target.with_name(target.name + ".error.txt")
    note.write_text(reason.rstrip() + "\n", encoding="utf-8")
    return target


def _relative(inbox: Path, path: Path) -> Path:
    try:
        return path.relative_to(inbox)
    except ValueError:
        return Path(path.name)


def _move(inbox: Path, path: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = free_name(folder / path.name)
    os.rename(path, target)
    _prune(inbox, path.parent)
    return target


def free_name(target: Path) -> Path:
    """``target``, or ``name (2).ext``, ``name (3).ext``… — never an existing file."""
    if not target.exists():
        return target
    number = 2
    while True:
        candidate = target.with_name(f"{target.stem} ({number}){target.suffix}")
        if not candidate.exists():
            return candidate
        number += 1


def _prune(inbox: Path, folder: Path) -> None:
    """Remove folders of a dropped folder once emptied (never the inbox itself)."""
    while folder != inbox and inbox in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
