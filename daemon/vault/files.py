"""The only writer of vault files.

Every write is atomic (a temp file in the same folder, then ``os.replace``)
and compare-and-swap: the caller says what it read (a content digest, or
``ABSENT`` for a new file) and the write is refused with ConflictError if the
file changed since. The echo of our own writes is recognised by content: the
pipeline indexes what it wrote, so the watcher finds the index already holds
that exact content (``moves.Tracker``).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Callable, Iterable, Iterator, Mapping

from daemon.errors import ConflictError, ReadOnlyError, VaultError

ABSENT = "absent"
LOOK = -1  # a target's permission bits not known yet: ``_put_in_place`` looks them up
TEMP_MARK = ".memvault-"
SKIP_DIRS = {".obsidian", ".git", ".trash", ".stfolder", ".stversions", "node_modules"}


_PLAIN = os.sep == "/" and os.altsep is None  # a POSIX path is its own file system path
_UNUSUAL = frozenset(("", ".", ".."))  # segments PurePosixPath drops or abspath refuses (and a leading "/")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """A file as read: its text (undecoded bytes are an error) and the digest of its bytes."""

    path: str
    text: str
    digest: str


class Vault:
    """A vault folder. Paths in and out are vault-relative POSIX strings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # How to wait for another program to finish writing a file (``attempt`` counts from 0);
        # tests replace it with a step that finishes the write instead of sleeping.
        self.pause: Callable[[int], None] = _pause
        self._lock = threading.Lock()
        self._deferred = 0
        self._unsynced: list[Path] = []

    # -- reading ---------------------------------------------------------

    def abspath(self, rel: str) -> Path:
        """The file system path of vault path ``rel``.

        Raises:
            VaultError: ``rel`` is absolute, empty, or climbs out of the vault (``..``).
        """
        if _PLAIN and rel and not _UNUSUAL.intersection(rel.split("/")):  # most paths: already in normal form
            return self.root / rel
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts or not pure.parts:
            raise VaultError(f"path must stay inside the vault: {rel!r}")
        return self.root.joinpath(*pure.parts)

    def read(self, rel: str) -> Snapshot | None:
        """The file's text and digest, or None when it does not exist."""
        try:
            data = self.abspath(rel).read_bytes()
        except FileNotFoundError:
            return None
        except IsADirectoryError as exc:
            raise VaultError(f"{rel}: is a folder, expected a file") from exc
        except OSError as exc:
            raise VaultError(f"{rel}: cannot read: {exc.strerror}") from exc
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise VaultError(f"{rel}: not UTF-8 text") from exc
        return Snapshot(rel, text, digest(data))

    def remove_stale_temps(self) -> list[str]:
        """Delete temp files a killed process left behind (ours by name; the real file is intact)."""
        removed = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            for name in filenames:
                if name.startswith(".") and TEMP_MARK in name and name.endswith(".tmp"):
                    path = Path(dirpath) / name
                    path.unlink(missing_ok=True)
                    removed.append(path.relative_to(self.root).as_posix())
        return removed

    def changed_within(self, rel: str, seconds: float) -> bool:
        """True when the file's mtime is less than ``seconds`` old (another program may be writing it)."""
        try:
            return time.time() - self.abspath(rel).stat().st_mtime < seconds
        except OSError:
            return False

    def exists(self, rel: str) -> bool:
        return self.abspath(rel).exists()

    def listdir(self, rel: str) -> list[str]:
        """Names of the direct children of a vault folder (empty when missing)."""
        try:
            return sorted(os.listdir(self.abspath(rel)))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def walk(self, suffix: str = "") -> Iterator[str]:
        """Every file below the root, skipping dot-folders such as ``.obsidian`` and our temp files."""
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
            base = Path(dirpath).relative_to(self.root).as_posix()
            for name in sorted(filenames):
                if TEMP_MARK in name or not name.lower().endswith(suffix):
                    continue
                yield name if base == "." else f"{base}/{name}"

    # -- writing ---------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Defer flushing to disk until the batch ends, then flush once.

        Each write is still atomic (a crash leaves the old or the new file); the
        batch only trades one flush per file for one flush at the end, which the
        inbox does before it moves the original out of the inbox.
        """
        self._deferred += 1
        try:
            yield
        finally:
            self._deferred -= 1
            if self._deferred == 0:
                self.flush()

    def flush(self) -> None:
        """Make every deferred write durable."""
        paths, self._unsynced = self._unsynced, []
        if not paths:
            return
        _sync(paths)

    def write(self, rel: str, text: str, expect: str) -> str:
        """Atomically replace ``rel`` with ``text`` if it still has digest ``expect``; returns the new digest.

        Raises:
            ConflictError: the file changed (or appeared) since the caller read it.
            VaultError: the file system refused the write.
        """
        return self.write_bytes(rel, text.encode("utf-8"), expect)

    def write_bytes(self, rel: str, data: bytes, expect: str) -> str:
        """``write`` for bytes (image attachments)."""
        return self._write(rel, (data,), expect)

    def write_pieces(self, rel: str, pieces: Iterable[str], expect: str) -> str:
        """``write`` for text produced piece by piece: a huge record is never one string or one buffer."""
        return self._write(rel, _encoded(pieces), expect)

    def _write(self, rel: str, chunks: Iterable[bytes], expect: str) -> str:
        target = self.abspath(rel)
        return self._guarded(rel, target, expect, lambda mode: self._replace(rel, target, chunks, mode))

    def _guarded(self, rel: str, target: Path, expect: str, put: Callable[[int | None], str]) -> str:
        """Run ``put`` (it replaces ``target`` and returns the digest of what it wrote) under the
        compare-and-swap check, then look for bytes written late through an old descriptor.

        ``put`` gets the permission bits the file had when checked (None: there was no file;
        ``LOOK``: not known), which the new file keeps: the check's own status, so the path is
        not looked up again for them.
        """
        with self._lock:
            held = self._check(rel, target, expect, writing=True)
            mode = held[1].st_mode & 0o777 if held is not None else None if expect == ABSENT else LOOK
            try:
                ours = put(mode)
                if held is not None:
                    self._late_writes(rel, target, held, ours)
            finally:
                if held is not None:
                    held[0].close()
            return ours

    def move(self, src: str, dst: str, expect: str) -> None:
        """Rename a file without ever replacing another one (a case-only rename is allowed)."""
        source, target = self.abspath(src), self.abspath(dst)
        with self._lock:
            held = self._check(src, source, expect)
            if held is not None:
                held[0].close()
            if target.exists() and not _same_file(source, target):
                raise ConflictError(f"{dst}: already exists; not overwriting it")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(source, target)
            except OSError as exc:
                raise VaultError(f"cannot move {src} to {dst}: {exc.strerror}") from exc

    def _check(self, rel: str, target: Path, expect: str,
               writing: bool = False) -> tuple[BinaryIO, os.stat_result] | None:
        """Compare-and-swap: refuse when the file is not what the caller read.

        Returns the old file, still open, with its status as read, so that
        ``_late_writes`` can see bytes another program wrote to it through an
        old descriptor after our replace (an in-place save: truncate, then write).
        ``writing``: a file its user locked (``_refuse_read_only``) is refused first.
        """
        held: tuple[BinaryIO, os.stat_result] | None = None
        try:
            handle = open(target, "rb")
        except FileNotFoundError:
            current = ABSENT
        except OSError as exc:
            if writing:
                _refuse_read_only(rel, target)  # e.g. no permission bit at all: not even readable
            raise VaultError(f"{rel}: cannot read before writing: {exc.strerror}") from exc
        else:
            try:
                current = digest(handle.read())
                status = os.fstat(handle.fileno())
                if writing and not status.st_mode & 0o222:
                    raise ReadOnlyError(_read_only(rel))
                held = (handle, status)
                if os.name == "nt":  # Windows cannot replace a file that is open: no late-write check there
                    handle.close()
                    held = None
            except OSError as exc:
                handle.close()
                raise VaultError(f"{rel}: cannot read before writing: {exc.strerror}") from exc
            except ReadOnlyError:
                handle.close()
                raise
        if current != expect:
            if held is not None:
                held[0].close()
            raise ConflictError(f"{rel}: changed since it was read; not overwriting it")
        return held

    def _late_writes(self, rel: str, target: Path, held: tuple[BinaryIO, os.stat_result], ours: str) -> None:
        """After a replace: if the old file grew or changed meanwhile, put its bytes back and re-plan.

        Another program that truncated the file and is still writing it writes
        into the old inode, which our ``os.replace`` unlinked: without this its
        second half would be lost. Its full text is restored (if the file still
        holds our bytes) and ConflictError makes the caller read and merge again.
        """
        handle, before = held
        after = os.fstat(handle.fileno())
        if (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns):
            return
        handle.seek(0)
        theirs = handle.read()
        try:
            if digest(target.read_bytes()) == ours:
                self._replace(rel, target, (theirs,))
        except OSError as exc:
            raise VaultError(f"{rel}: cannot restore what another program wrote: {exc.strerror}") from exc
        raise ConflictError(f"{rel}: another program wrote to it while memvault updated it; reading it again")

    def _replace(self, rel: str, target: Path, chunks: Iterable[bytes], mode: int | None = LOOK) -> str:
        """Write ``chunks`` to a temp file beside ``target``, then move it over; returns their digest.

        ``mode``: ``target``'s permission bits, None when there is no file (``_put_in_place``).
        """
        temp, ours, status = self._stage(rel, target, chunks, durable=not self._deferred)
        if self._deferred:
            self._unsynced.append(target)
        self._put_in_place(rel, target, temp, mode, status.st_mode & 0o777)
        return ours

    def _stage(self, rel: str, target: Path, chunks: Iterable[bytes], durable: bool) -> tuple[Path, str, os.stat_result]:
        """Write ``chunks`` to a new temp file beside ``target`` (fsynced when ``durable``).

        Returns the temp file, the digest of its bytes and its status: the size and mtime
        ``target`` will have once the temp file replaces it (a rename changes neither).
        """
        temp = target.with_name(f".{target.name}{TEMP_MARK}{secrets.token_hex(4)}.tmp")
        hasher = hashlib.sha256()
        try:
            try:
                handle = open(temp, "wb")
            except FileNotFoundError:  # a new folder: made only then (a move writes thousands of files)
                target.parent.mkdir(parents=True, exist_ok=True)
                handle = open(temp, "wb")
            with handle:
                for chunk in chunks:
                    hasher.update(chunk)
                    handle.write(chunk)
                handle.flush()
                if durable:
                    os.fsync(handle.fileno())
                status = os.fstat(handle.fileno())
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise VaultError(f"{rel}: cannot write: {exc.strerror or exc}") from exc
        return temp, hasher.hexdigest(), status

    def _put_in_place(self, rel: str, target: Path, temp: Path, mode: int | None = LOOK,
                      temp_mode: int | None = None) -> None:
        """Move a staged temp file over ``target`` (keeping ``target``'s permission bits).

        ``mode``: those bits as just read (None: no file there; ``LOOK``: look them up);
        ``temp_mode``: the temp file's, when known (then an equal mode is not set again).
        """
        try:
            if mode == LOOK:
                mode = target.stat().st_mode & 0o777 if target.exists() else None
            if mode is not None and mode != temp_mode:
                os.chmod(temp, mode)
            os.replace(temp, target)
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise VaultError(f"{rel}: cannot write: {exc.strerror or exc}") from exc

    def write_all(self, writes: Mapping[str, tuple[str, str]]) -> dict[str, Written | VaultError]:
        """``write`` for several files ({path: (text, expect)}), made durable by one flush for all.

        Every new text goes to its temp file first; one flush makes them all durable; only
        then does each temp file replace its file, compare-and-swap checked just before, as
        ``write`` does. So a crash at any point, power loss included, leaves each file with
        its old bytes or its new ones, never a mix or an empty file (a rename made before its
        bytes were durable could leave that on some file systems: ``batch`` flushes after the
        renames, which is why a move does not use it). Leftover temp files are what
        ``remove_stale_temps`` deletes.

        Returns each path's outcome: what was written, or the error that refused it
        (ConflictError when it changed since read); a refused file keeps its old bytes.
        """
        staged: dict[str, tuple[Path, Path, str, os.stat_result]] = {}
        done: dict[str, Written | VaultError] = {}
        try:
            for rel, (text, _) in writes.items():
                try:
                    target = self.abspath(rel)
                    staged[rel] = (target, *self._stage(rel, target, (text.encode("utf-8"),), durable=False))
                except VaultError as exc:
                    done[rel] = exc
            _sync([temp for _, temp, _, _ in staged.values()])
            for rel, (target, temp, ours, status) in list(staged.items()):
                try:
                    self._swap_in(rel, target, temp, writes[rel][1], ours, status.st_mode & 0o777)
                    done[rel] = Written(rel, ours, status.st_size, status.st_mtime_ns)
                    del staged[rel]  # in place: no temp file left to remove
                except VaultError as exc:
                    done[rel] = exc
        finally:
            for _, temp, _, _ in staged.values():
                temp.unlink(missing_ok=True)  # the ones refused (or all not yet in place, if interrupted)
        return {rel: done[rel] for rel in writes}

    def _swap_in(self, rel: str, target: Path, temp: Path, expect: str, ours: str, temp_mode: int) -> None:
        """Put a staged temp file in place if ``target`` still has digest ``expect`` (``_write``'s checks)."""
        def put(mode: int | None) -> str:
            self._put_in_place(rel, target, temp, mode, temp_mode)
            return ours

        self._guarded(rel, target, expect, put)


@dataclass(frozen=True)
class Written:
    """A file as ``write_all`` left it: the digest of its bytes, its size and its mtime."""

    path: str
    digest: str
    size: int
    mtime_ns: int


def _sync(paths: list[Path]) -> None:
    """Make the data of these files durable: one ``sync`` for all of them where there is one."""
    if not paths:
        return
    if hasattr(os, "sync"):
        os.sync()
        return
    for path in paths:  # pragma: no cover - platforms without sync()
        try:
            with open(path, "rb+") as handle:
                os.fsync(handle.fileno())
        except OSError:
            continue


def _encoded(pieces: Iterable[str], step: int = 1 << 20) -> Iterator[bytes]:
    """UTF-8 bytes of ``pieces``, at most ``step`` characters at a time (no full-size copy of a huge piece)."""
    for piece in pieces:
        for start in range(0, len(piece), step):
            yield piece[start:start + step].encode("utf-8")


def _refuse_read_only(rel: str, target: Path) -> None:
    """A file without any write permission bit was locked by its user (``chmod a-w``): never rewrite it.

    The mode bits are read, not ``os.access``: an atomic replace only needs the
    folder to be writable, and root may write anything.
    """
    try:
        mode = target.stat().st_mode
    except OSError:
        return
    if not mode & 0o222:
        raise ReadOnlyError(_read_only(rel))


def _read_only(rel: str) -> str:
    return f"{rel}: is read-only, so memvault leaves it as it is (make it writable to let memvault update it)"


def _pause(attempt: int) -> None:
    """Back off 50 ms, 100 ms, … up to 0.5 s: a few seconds in all for an editor to finish a save."""
    time.sleep(min(0.05 * 2 ** attempt, 0.5))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
