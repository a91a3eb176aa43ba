"""Deciding what a batch of file events means: moves, and files to re-index.

Pure decisions over the graph, driven by events built in code in the tests.
A move event of an indexed file (or folder) is a move. A deletion waits a
short grace period: if a new file with the same content appears (tools that
copy then delete, or delete then create), the pair is a move. A file whose
content equals what the index holds is not a change: that is how the
daemon's own writes (and touch-only edits) are ignored.
"""

from __future__ import annotations

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
class Tracker:
    graph: Graph
    grace: float = 2.0
    deletes: dict[str, tuple[str, float]] = field(default_factory=dict)   # path -> (hash, when)
    creates: dict[str, tuple[str, float]] = field(default_factory=dict)   # hash -> (path, when)

    def feed(self, events: Iterable[FileEvent], now: float) -> Actions:
        """Decide a batch of events that arrived up to ``now``."""
        moves: dict[str, str] = {}
        touched: set[str] = set()
        for event in events:
            if event.kind == MOVED:
                self._moved(event, moves, touched)
            elif event.kind == DELETED:
                self._deleted(event, now, moves)
            else:
                touched.add(event.path)
        sync = self._touched(touched, now, moves)
        return Actions(moves, frozenset(sync | self._expired(now)))

    def pending(self) -> bool:
        return bool(self.deletes)

    def _under(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        return [p for p in self.graph.paths.paths() if p.startswith(prefix)]

    def _moved(self, event: FileEvent, moves: dict[str, str], touched: set[str]) -> None:
        dest = event.dest or ""
        if event.is_dir:
            for path in self._under(event.path):
                moves[path] = dest.rstrip("/") + path[len(event.path.rstrip("/")):]
            return
        if event.path in self.graph.paths and self.graph.watched(dest):
            moves[event.path] = dest
        elif event.path in self.graph.paths:
            self.deletes[event.path] = (self._hash(event.path), 0.0)  # moved somewhere we do not index
        else:
            touched.add(dest)  # e.g. an editor's temp file renamed over the note

    def _deleted(self, event: FileEvent, now: float, moves: dict[str, str]) -> None:
        paths = self._under(event.path) if event.is_dir else [event.path]
        for path in paths:
            if path not in self.graph.paths or path in moves:
                continue
            digest = self._hash(path)
            created = self.creates.pop(digest, None)
            if created and created[0] != path:
                moves[path] = created[0]  # the copy appeared before the original vanished
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
