"""Deciding what a batch of file events means: moves, and files to re-index.

Pure decisions over the graph, driven by events built in code in the tests.
A move event of an indexed file (or folder) is a move. A deletion waits a
short grace period: if a new file with the same content appears (tools that
copy then delete, or delete then create), the pair is a move. A file whose
content equals what the index holds is not a change: that is how the
daemon's own writes (and touch-only edits) are ignored.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Iterable

from daemon.links.graph import Graph
from daemon.links.events import DELETED, MOVED, FileEvent


@dataclass(frozen=True)
class Actions:
    """What to do for a batch: repair these moves, then re-read these paths."""

    moves: dict[str, str] = field(default_factory=dict)
    sync: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.moves or self.sync)


@dataclass
class _Batch:
    """The moves of one batch so far: indexed path → where it is now, and the reverse."""

    moves: dict[str, str]
    at: dict[str, str]
    indexed: list[str] | None = None  # the index's paths, sorted, once a folder event needs them
    _located: list[str] | None = None  # the keys of ``at``, sorted; None after a change

    def located(self) -> list[str]:
        if self._located is None:
            self._located = sorted(self.at)
        return self._located

    def origin(self, path: str, indexed: object) -> str | None:
        """The indexed path of the file now at ``path``, or None when no indexed file is there."""
        if path in self.at:
            return self.at[path]
        if path in self.moves or path not in indexed:  # type: ignore[operator]
            return None  # it moved away earlier in this batch, or was never indexed
        return path

    def move(self, old: str, new: str) -> None:
        self.forget(old)
        self.moves[old] = new
        self.at[new] = old
        self._located = None

    def forget(self, old: str) -> None:
        was = self.moves.pop(old, None)
        if was is not None and self.at.get(was) == old:
            del self.at[was]
            self._located = None


def _prefixed(ordered: list[str], prefix: str) -> list[str]:
    """The strings of sorted ``ordered`` that start with ``prefix`` (which ends in "/")."""
    return ordered[bisect_left(ordered, prefix):bisect_left(ordered, prefix[:-1] + "0")]  # "0" follows "/"


@dataclass
class Tracker:
    graph: Graph
    grace: float = 2.0
    deletes: dict[str, tuple[str, float]] = field(default_factory=dict)   # path -> (hash, when)
    creates: dict[str, tuple[str, float]] = field(default_factory=dict)   # hash -> (path, when)

    def feed(self, events: Iterable[FileEvent], now: float) -> Actions:
        """Decide a batch of events that arrived up to ``now``.

        Moves inside one batch are composed before anything is planned: a chain
        ``A→B, B→C`` is one move ``A→C``, a rename and its undo is no move, a swap
        through a temporary name is two moves, and a folder rename with a file
        rename inside it moves that file once, to its final path.
        """
        batch = _Batch({}, {})
        touched: set[str] = set()
        for event in events:
            if event.kind == MOVED:
                self._moved(event, batch, touched)
            elif event.kind == DELETED:
                self._deleted(event, now, batch)
            else:
                touched.add(event.path)
        moves = {old: new for old, new in batch.moves.items() if old != new}
        sync = self._touched(touched, now, moves)
        return Actions(moves, frozenset(sync | self._expired(now)))

    def pending(self) -> bool:
        return bool(self.deletes)

    def _located_under(self, folder: str, batch: "_Batch") -> list[tuple[str, str]]:
        """(indexed path, where it is now) for every indexed file now inside ``folder``.

        A folder move brings one event per subfolder too: the vault's path list is sorted
        once per batch and each folder is a binary search in it, not a scan of the vault.
        """
        prefix = folder.rstrip("/") + "/"
        if batch.indexed is None:
            batch.indexed = self.graph.paths.paths()  # sorted
        found = [(p, p) for p in _prefixed(batch.indexed, prefix) if p not in batch.moves]
        found += [(batch.at[now], now) for now in _prefixed(batch.located(), prefix)]
        return found

    def _moved(self, event: FileEvent, batch: "_Batch", touched: set[str]) -> None:
        src, dest = event.path, (event.dest or "").rstrip("/")
        if event.is_dir:
            src = src.rstrip("/")
            for old, now_at in self._located_under(src, batch):
                batch.move(old, dest + now_at[len(src):])
            return
        old = batch.origin(src, self.graph.paths)
        if old is None:
            if batch.moves.get(src) != dest:  # not the echo of a folder move already counted
                touched.add(dest)  # e.g. an editor's temp file renamed over the note
            return
        if self.graph.watched(dest):
            batch.move(old, dest)
        else:  # moved somewhere we do not index: a deletion
            batch.forget(old)
            self.deletes[old] = (self._hash(old), 0.0)

    def _deleted(self, event: FileEvent, now: float, batch: "_Batch") -> None:
        if event.is_dir:
            paths = [old for old, _ in self._located_under(event.path, batch)]
        else:
            old = batch.origin(event.path, self.graph.paths)
            paths = [] if old is None else [old]
        for path in paths:
            batch.forget(path)
            digest = self._hash(path)
            created = self.creates.pop(digest, None)
            if created and created[0] != path:
                batch.move(path, created[0])  # the copy appeared before the original vanished
            else:
                self.deletes[path] = (digest, now)

    def _touched(self, touched: set[str], now: float, moves: dict[str, str]) -> set[str]:
        sync: set[str] = set()
        for path in sorted(touched - set(moves.values())):
            if not self.graph.watched(path):
                continue
            found = self.graph.read(path)
            indexed = self.graph.index.note(path)
            if found is None:
                if indexed is not None:
                    sync.add(path)
                continue
            row = found[0]
            if indexed is not None and indexed.hash == row.hash:
                continue  # our own write echoing back, or a touch without a change
            origin = self._pending_with(row.hash)
            if indexed is None and origin is not None:
                del self.deletes[origin]
                moves[origin] = path
                continue
            if indexed is None:
                self.creates[row.hash] = (path, now)
            sync.add(path)
        return sync

    def _pending_with(self, digest: str) -> str | None:
        for path, (pending, _) in sorted(self.deletes.items()):
            if pending == digest:
                return path
        return None

    def _expired(self, now: float) -> set[str]:
        gone = {p for p, (_, when) in self.deletes.items() if now - when >= self.grace}
        for path in gone:
            del self.deletes[path]
        for digest, (_, when) in list(self.creates.items()):
            if now - when >= self.grace:
                del self.creates[digest]
        return gone

    def _hash(self, path: str) -> str:
        row = self.graph.index.note(path)
        return row.hash if row else ""
