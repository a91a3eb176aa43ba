"""The inbox folder: which files are ready, and where they go afterwards.

A file is taken only when it is complete: size and mtime unchanged for the
stability window *and* it looks like complete JSON, JSONL or ZIP. OS and
sync-tool junk is ignored. Only regular files are candidates: a FIFO, a device,
a socket or a file symlink is refused (reading one could block forever or leave
the inbox), and a folder symlink is followed only while it stays under the
user's home and does not loop. After import the original moves to
``processed/YYYY-MM-DD/``; a file that cannot be imported moves to
``failed/`` beside ``<file>.error.txt``. Nothing is ever deleted, and an
existing file is never replaced. This module is the only mover of inbox files.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from daemon.errors import InputError

PROCESSED, FAILED = "processed", "failed"
ERROR_SUFFIX = ".error.txt"
NAME_MAX = 255  # bytes in one file name on ext4, APFS, NTFS (UTF-16 units there), most others
log = logging.getLogger("memvault.inbox")
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
    return scan(inbox)[0]


def scan(inbox: Path, home: Path | None = None) -> tuple[list[Path], dict[Path, str]]:
    """The inbox's candidate files (regular files only), and what was refused with why.

    A file is listed before the folders beside it, as ``os.walk`` does. A folder
    symlink is followed when its target stays under ``home`` (default: the
    user's home) and was not walked already (a loop); any other link, FIFO,
    device or socket is refused.
    """
    home = Path(os.path.realpath(home or Path.home()))
    found: list[Path] = []
    refused: dict[Path, str] = {}
    seen: set[str] = set()

    def walk(folder: Path, top: bool) -> None:
        seen.add(os.path.realpath(folder))
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            refused[folder] = f"cannot list the folder: {exc.strerror}"
            return
        folders = []
        for entry in entries:
            path, name = folder / entry.name, entry.name
            if entry.is_dir(follow_symlinks=False):
                if not (top and name in (PROCESSED, FAILED)) and name.lower() not in _JUNK_DIRS \
                        and not name.startswith("."):
                    folders.append(path)
            elif is_junk(name) or name.lower() in _JUNK_DIRS:
                continue
            elif entry.is_symlink():
                why = _folder_link(path, home, seen)
                if why is None:
                    folders.append(path)
                else:
                    refused[path] = why
            elif entry.is_file(follow_symlinks=False):
                found.append(path)
            else:
                refused[path] = f"{_kind(path)}, not a regular file: memvault imports only regular files"
        for sub in folders:
            walk(sub, False)

    walk(inbox, True)
    return found, refused


def _folder_link(path: Path, home: Path, seen: set[str]) -> str | None:
    """None when the symlink ``path`` is a folder link to follow; else why it is refused."""
    target = os.path.realpath(path)
    if not os.path.isdir(path):
        return "a symbolic link, not a regular file: memvault imports only regular files"
    if any(target == s or s.startswith(target + os.sep) or target.startswith(s + os.sep) for s in seen):
        return f"a folder link into a folder already walked, or a loop ({target}); not followed"
    if not (Path(target) == home or home in Path(target).parents):
        return f"a folder link out of your home folder ({target}); not followed"
    return None


def _kind(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "unreadable"
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def open_regular(path: Path) -> BinaryIO:
    """Open ``path`` for reading only if it is a regular file, without ever blocking or following a link.

    ``O_NONBLOCK`` makes opening a FIFO return at once; ``fstat`` on the open
    descriptor then refuses it (no race between checking and opening).

    Raises:
        InputError: the path is not a regular file.
        OSError: it cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        if os.path.islink(path):
            raise InputError(f"{path.name}: a symbolic link; memvault imports only regular files") from None
        raise exc
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise InputError(f"{path.name}: {_kind(path)}, not a regular file; memvault imports only regular files")
    return os.fdopen(descriptor, "rb")


def incomplete(path: Path) -> str | None:
    """Why the file is not (yet) a complete JSON, JSONL or ZIP file; None when it looks complete."""
    try:
        size = path.stat().st_size
        if size == 0:
            return "the file is empty"
        with open_regular(path) as handle:
            if zipfile.is_zipfile(handle):
                return None
            handle.seek(0)
            head = handle.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
            handle.seek(max(0, size - 4096))
            tail = handle.read().rstrip(b" \t\r\n")
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    except InputError as exc:
        return str(exc)
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
                st = os.lstat(path)
            except OSError:
                self.seen.pop(path, None)
                continue
            if not stat.S_ISREG(st.st_mode):  # never "stable": a FIFO or device is refused, not read
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
    """SHA-256 of a regular file's bytes (InputError for anything else: see ``open_regular``)."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def archive(inbox: Path, path: Path, day: str) -> Path:
    """Move an imported file to ``processed/<day>/``, keeping its place inside a dropped folder."""
    return _move(inbox, path, inbox / PROCESSED / day / _relative(inbox, path).parent)


def quarantine(inbox: Path, path: Path, reason: str) -> Path:
    """Move a file that could not be imported to ``failed/`` with ``<file>.error.txt`` saying why.

    The caller records the reason in the ledger first: when the error file cannot
    be written (a full disk) it is left out rather than left empty, and the move
    still happens. Its name is cut to fit ``NAME_MAX`` (the file's stem is cut,
    never the ``.error.txt``).
    """
    target = _move(inbox, path, inbox / FAILED / _relative(inbox, path).parent)
    note = target.with_name(fit_name(target.name, ERROR_SUFFIX))
    temp = note.with_name(fit_name("." + note.name, ".tmp"))
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(reason.rstrip() + "\n")
        os.replace(temp, free_name(note))
    except OSError as exc:
        temp.unlink(missing_ok=True)
        log.warning("%s: cannot write its error file (%s); the reason is in `memvault status`", target,
                    exc.strerror or exc)
    return target


def fit_name(name: str, suffix: str = "", limit: int = NAME_MAX) -> str:
    """``name + suffix`` in at most ``limit`` UTF-8 bytes: the stem of ``name`` is cut, on a character boundary."""
    whole = name + suffix
    if len(whole.encode("utf-8")) <= limit:
        return whole
    stem, dot, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    keep = (dot + ext + suffix).encode("utf-8")
    if len(keep) >= limit:  # an absurd extension: cut the whole name
        stem, keep = name, suffix.encode("utf-8")
    cut = stem.encode("utf-8")[: limit - len(keep)].decode("utf-8", errors="ignore")
    return cut + keep.decode("utf-8")


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
        candidate = target.with_name(fit_name(target.stem, f" ({number}){target.suffix}"))
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
