"""Sequences too long to hold in memory, kept in a private temporary SQLite file beyond a size.

A conversation is read and checked whole before anything of it is written (a
bad message deep inside fails it before the vault is touched), so all its
messages must be held somewhere until then. ``Spilled`` keeps the first
``MEMORY_ITEMS`` items in memory, as a list would; past that it moves them to a
temporary database (one pickled row each), so a million messages cost a few
bytes of memory each instead of a kilobyte. The database lives in the system's
temporary folder, is private to this process, and is deleted when the
sequence is closed or collected.

Items are read back as fresh objects: keep what you need of one, not all of them.
"""

from __future__ import annotations

import pickle
import sqlite3
from array import array
from typing import Any, Callable, Generic, Iterable, Iterator, Sequence, TypeVar, overload

T = TypeVar("T")
MEMORY_ITEMS = 10_000  # items held in memory before the sequence spills to disk
_BATCH = 2_000  # items written to the database at a time


class Lazy(Sequence[T], Generic[T]):
    """A sequence whose items are made when asked: a subclass gives ``__len__``, ``__iter__`` and ``_at``."""

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._at(i) for i in range(*index.indices(len(self))))
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._at(index)

    def _at(self, index: int) -> T:
        raise NotImplementedError


class Spilled(Lazy[T]):
    """An append-only sequence that moves to a temporary database past ``memory_items`` items.

    With ``key``, an item whose key was seen before is not added (the first copy is kept).
    ``pack`` and ``unpack`` turn an item into what is pickled and back (a plain
    tuple of its fields pickles and loads faster than the object).
    """

    def __init__(self, items: Iterable[T] = (), key: Callable[[T], str] | None = None,
                 memory_items: int | None = None, pack: Callable[[T], Any] | None = None,
                 unpack: Callable[[Any], T] | None = None) -> None:
        self._key = key
        self._pack: Callable[[T], Any] = pack or _same
        self._unpack: Callable[[Any], T] = unpack or _same
        self._limit = MEMORY_ITEMS if memory_items is None else memory_items
        self._held: dict[object, T] = {}  # in memory, in order (keyed by position without ``key``)
        self._db: sqlite3.Connection | None = None
        self._batch: list[tuple[str | None, bytes]] = []
        self._count = 0
        for item in items:
            self.append(item)

    @property
    def spilled(self) -> bool:
        """Whether the items moved to disk."""
        return self._db is not None

    def append(self, item: T) -> None:
        """Add ``item`` at the end (unless an item with its key is already here)."""
        key = self._key(item) if self._key is not None else None
        if self._db is None:
            slot: object = key if key is not None else len(self._held)
            if slot in self._held:
                return
            self._held[slot] = item
            if len(self._held) > self._limit:
                self._spill()
            return
        self._batch.append((key, pickle.dumps(self._pack(item), pickle.HIGHEST_PROTOCOL)))
        if len(self._batch) >= _BATCH:
            self._flush()

    def settled(self, kind: Callable[[Iterable[T]], Sequence[T]] = tuple) -> Sequence[T]:
        """A plain ``kind`` (tuple, list) when everything fits in memory, else this sequence."""
        return kind(self._held.values()) if self._db is None else self

    def __len__(self) -> int:
        if self._db is None:
            return len(self._held)
        self._flush()
        return self._count

    def __iter__(self) -> Iterator[T]:
        if self._db is None:
            yield from list(self._held.values())
            return
        yield from self.at(range(len(self)))

    def at(self, positions: Sequence[int]) -> Iterator[T]:
        """The items at increasing ``positions``; from disk, only the rows between the first and the last are read."""
        if self._db is None:
            held = list(self._held.values())
            yield from (held[n] for n in positions)
            return
        if not len(positions):
            return
        self._flush()
        wanted = iter(positions)
        target = next(wanted)
        cursor = self._db.execute("SELECT seq, data FROM items WHERE seq BETWEEN ? AND ? ORDER BY seq",
                                  (target + 1, positions[-1] + 1))
        while rows := cursor.fetchmany(500):
            for seq, data in rows:
                if seq - 1 == target:  # only the rows asked for are unpickled
                    yield self._unpack(pickle.loads(data))
                    target = next(wanted, -1)

    def _at(self, index: int) -> T:
        if self._db is None:
            return list(self._held.values())[index]
        row = self._db.execute("SELECT data FROM items WHERE seq = ?", (index + 1,)).fetchone()
        return self._unpack(pickle.loads(row[0]))

    def close(self) -> None:
        """Delete the temporary database now (it is deleted on collection anyway)."""
        if self._db is not None:
            self._db.close()
            self._db = None
            self._held, self._batch, self._count = {}, [], 0

    def _spill(self) -> None:
        # "" opens a private database in a temporary file, deleted when it is closed.
        self._db = sqlite3.connect("", check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute("CREATE TABLE items (seq INTEGER PRIMARY KEY, key TEXT UNIQUE, data BLOB NOT NULL)")
        held, self._held = self._held, {}
        for slot, item in held.items():
            self._batch.append((slot if self._key is not None else None,  # type: ignore[arg-type]
                                pickle.dumps(self._pack(item), pickle.HIGHEST_PROTOCOL)))
            if len(self._batch) >= _BATCH:
                self._flush()
        self._flush()

    def _flush(self) -> None:
        if not self._batch or self._db is None:
            return
        before = self._db.total_changes
        self._db.executemany("INSERT OR IGNORE INTO items (key, data) VALUES (?, ?)", self._batch)
        self._count += self._db.total_changes - before
        self._batch = []


def _same(item: Any) -> Any:
    return item


class Subset(Lazy[T]):
    """The items of ``base`` at increasing ``positions``, read from it when asked (never copied)."""

    def __init__(self, base: Sequence[T], positions: Sequence[int]) -> None:
        self._base = base
        self._positions = positions

    def __len__(self) -> int:
        return len(self._positions)

    def __iter__(self) -> Iterator[T]:
        if isinstance(self._base, Spilled):
            return self._base.at(self._positions)
        return (self._base[n] for n in self._positions)

    def _at(self, index: int) -> T:
        return self._base[self._positions[index]]


def pick(items: Sequence[T], positions: Sequence[int]) -> Sequence[T]:
    """The items at increasing ``positions``: a tuple for items in memory, a ``Subset`` of spilled ones."""
    if isinstance(items, Subset):  # a subset of a subset reads the spilled items directly
        return Subset(items._base, array("q", (items._positions[n] for n in positions)))  # noqa: SLF001
    if isinstance(items, Spilled):
        return Subset(items, positions)
    return tuple(items[n] for n in positions)
