"""Stage 5: the SQLite graph index — notes, links, tags — outside the vault.

Derived state: ``reindex`` rebuilds it from the files and deleting it loses
nothing. The schema is versioned by registered migrations, each applied once
in a transaction and recorded in ``migrations``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from operator import itemgetter
import unicodedata
import time
from dataclasses import dataclass
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple

from daemon.errors import MemvaultError
from daemon.links.fulltext import SearchDoc, project_key
from daemon.links.resolve import PathIndex
from daemon.links.scan import Link

Migration = Callable[[sqlite3.Connection], None]
CACHE_KIB = 8192  # SQLite page cache per connection (default 2 MB), allocated as used
BATCH_WAL_PAGES = 32_768  # write-ahead log a batch of transactions may grow (128 MB) before it is checkpointed
LOAD_BATCH = 500  # notes per executemany round in replace_all
FOLDER_PROBE = 32  # bare links of one name the folder rule reads before it reads the folder's notes instead
# BM25 weight of each search column: name, description, tags, project, body, source conversation, CJK pieces.
BM25_WEIGHTS = "4.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0"  # chosen on LoCoMo 1-5 (docs/benchmarks.md)
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(name: str) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        MIGRATIONS.append((name, fn))
        return fn

    return register


@migration("0001_notes_links_tags")
def _initial(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE notes (
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            hash TEXT NOT NULL,
            identity TEXT,
            signature TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX notes_hash ON notes(hash);
        CREATE INDEX notes_identity ON notes(identity);
        CREATE TABLE links (
            source TEXT NOT NULL,
            kind TEXT NOT NULL,
            embed INTEGER NOT NULL,
            raw TEXT NOT NULL,
            target TEXT NOT NULL,
            target_name TEXT NOT NULL,
            subpath TEXT NOT NULL,
            alias TEXT,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            line INTEGER NOT NULL,
            key TEXT,
            resolved TEXT
        );
        CREATE INDEX links_source ON links(source);
        CREATE INDEX links_resolved ON links(resolved);
        CREATE INDEX links_target_name ON links(target_name);
        CREATE TABLE tags (path TEXT NOT NULL, tag TEXT NOT NULL, origin TEXT NOT NULL);
        CREATE INDEX tags_path ON tags(path);
        CREATE INDEX tags_tag ON tags(tag);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )


@migration("0002_inbox_ledger")
def _ledger(db: sqlite3.Connection) -> None:
    _script(
        db,
        """
        CREATE TABLE ledger (
            hash TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            state TEXT NOT NULL,
            at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            retry_at REAL,
            detail TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE imports (
            at REAL NOT NULL,
            name TEXT NOT NULL,
            state TEXT NOT NULL,
            imported INTEGER NOT NULL,
            updated INTEGER NOT NULL,
            unchanged INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            detail TEXT NOT NULL DEFAULT ''
        )
        """,
    )


@migration("0003_card_state")
def _card_state(db: sqlite3.Connection) -> None:
    _script(db, "CREATE TABLE card_state (session_id TEXT NOT NULL, day TEXT NOT NULL, value TEXT NOT NULL, "
                "PRIMARY KEY (session_id, day))")


@migration("0004_full_text_search")
def _search(db: sqlite3.Connection) -> None:
    """Full-text search over cards (or every note): filters in ``search_docs``, words in ``search``.

    An index that predates this migration gets empty tables and no ``search.scope`` mark, so
    ``Graph.ensure_search`` fills them from the files once. (The drops clear the tables of a
    development build that had them under another migration name.)
    """
    _script(
        db,
        """
        DROP TABLE IF EXISTS search;
        DROP TABLE IF EXISTS search_docs;
        DELETE FROM meta WHERE key = 'search.scope';
        CREATE TABLE search_docs (
            path TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            day TEXT,
            project TEXT NOT NULL,
            project_key TEXT NOT NULL,
            session_id TEXT
        );
        CREATE INDEX search_docs_day ON search_docs(day);
        CREATE INDEX search_docs_project ON search_docs(project_key);
        CREATE INDEX search_docs_session ON search_docs(session_id);
        CREATE VIRTUAL TABLE search USING fts5(name, description, tags, project, body, source, cjk,
            tokenize = 'porter unicode61 remove_diacritics 2')
        """,
    )


@migration("0005_ledger_outputs")
def _ledger_outputs(db: sqlite3.Connection) -> None:
    """What an imported inbox file produced: per session, the ids of its messages.

    A file's hash counts as imported only while those records still hold those
    messages (a deleted vault or record means the file is imported again).
    """
    _script(db, "CREATE TABLE ledger_outputs (hash TEXT NOT NULL, session_id TEXT NOT NULL, ids TEXT NOT NULL, "
                "PRIMARY KEY (hash, session_id))")


@migration("0006_indexes_for_read_commands")
def _read_command_indexes(db: sqlite3.Connection) -> None:
    """Indexes that answer ``tags`` and ``broken`` without reading the tables.

    - ``tags(tag, path)`` replaces ``tags_tag`` (its prefix): ``COUNT(DISTINCT path) ...
      GROUP BY tag`` looked up every tag row in the table (100,000 notes: 0.14 s).
    - ``links_broken`` holds every column of the unresolved links only (about 2 % of them),
      in the order ``broken`` lists them; they were scattered over the whole links table,
      so listing them read nearly all of it and sorted (100,000 notes: 0.15 s, now 0.03 s).
      ``resolved`` is among its columns because the query's condition names it.
    - ``links_resolved`` leaves the unresolved links out (``resolved = ?`` implies that), so
      that SQLite, which keeps no statistics here, cannot choose it for ``resolved IS NULL``.
    """
    _script(
        db,
        """
        DROP INDEX IF EXISTS tags_tag;
        CREATE INDEX tags_tag_path ON tags(tag, path);
        DROP INDEX IF EXISTS links_resolved;
        CREATE INDEX links_resolved ON links(resolved) WHERE resolved IS NOT NULL;
        CREATE INDEX links_broken ON links(source, start, kind, embed, raw, target, subpath, alias, "end", line, key,
            resolved) WHERE resolved IS NULL
        """,
    )


@migration("0007_links_by_name_for_reresolution")
def _reresolution(db: sqlite3.Connection) -> None:
    """Indexes under ``links_a_new_path_may_take``: a new file's candidates are found by seeks.

    Card names repeat (thousands of links ask for ``billing-service``), so reading every
    link of the new file's name made each new card cost more than the last. These two
    indexes start with ``target_name`` and so also serve every lookup by name.
    """
    _script(
        db,
        """
        DROP INDEX IF EXISTS links_target_name;
        CREATE INDEX links_name_resolution ON links(target_name, length(resolved), resolved);
        CREATE INDEX links_name_target ON links(target_name, lower(ltrim(target, '/')), source COLLATE NOCASE)
        """,
    )


@migration("0008_links_by_path_number")
def _path_numbers(db: sqlite3.Connection) -> None:
    """Links name the note they are in and the file they resolve to by a number (``paths``), not a path.

    A folder move renames thousands of notes, and every link from or to them held their
    paths: each such row was written again, with its entries in the indexes holding
    ``source`` or ``resolved`` (100,000 notes: 111,198 rows for ``source``, 71,101 for
    ``resolved``, at random in indexes larger than the page cache). Now a move renames a
    ``paths`` row per file and writes no link row. A number outlives its note as the path
    did: a link resolving to a deleted note keeps it until it is resolved again.
    ``link_paths`` shows the links with their paths, as the table held them before.
    """
    db.create_function("target_name", 1, target_name, deterministic=True)
    _script(
        db,
        """
        CREATE TABLE paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
        INSERT INTO paths (path, name) SELECT path, target_name(path) FROM (SELECT path FROM notes
            UNION SELECT source FROM links UNION SELECT resolved FROM links WHERE resolved IS NOT NULL);
        CREATE INDEX paths_name ON paths(name, length(path), path);
        CREATE INDEX paths_folded ON paths(path COLLATE NOCASE);
        CREATE TABLE links_numbered (
            source_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            embed INTEGER NOT NULL,
            raw TEXT NOT NULL,
            target TEXT NOT NULL,
            target_name TEXT NOT NULL,
            subpath TEXT NOT NULL,
            alias TEXT,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            line INTEGER NOT NULL,
            key TEXT,
            resolved_id INTEGER
        );
        INSERT INTO links_numbered (rowid, source_id, kind, embed, raw, target, target_name, subpath, alias, start,
            "end", line, key, resolved_id) SELECT l.rowid, s.id, l.kind, l.embed, l.raw, l.target, l.target_name,
            l.subpath, l.alias, l.start, l."end", l.line, l.key, r.id
            FROM links l JOIN paths s ON s.path = l.source LEFT JOIN paths r ON r.path = l.resolved;
        DROP TABLE links;
        ALTER TABLE links_numbered RENAME TO links;
        CREATE INDEX links_source ON links(source_id);
        CREATE INDEX links_resolved ON links(resolved_id) WHERE resolved_id IS NOT NULL;
        CREATE INDEX links_broken ON links(source_id, start, kind, embed, raw, target, subpath, alias, "end", line,
            key, resolved_id) WHERE resolved_id IS NULL;
        CREATE INDEX links_name_resolution ON links(target_name, resolved_id);
        CREATE INDEX links_name_target ON links(target_name, lower(ltrim(target, '/')), source_id);
        CREATE VIEW link_paths AS SELECT l.rowid AS id, s.path AS source, l.kind, l.embed, l.raw, l.target,
            l.target_name, l.subpath, l.alias, l.start, l."end", l.line, l.key, r.path AS resolved
            FROM links l JOIN paths s ON s.id = l.source_id LEFT JOIN paths r ON r.id = l.resolved_id
        """,
    )


def _script(db: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: ``executescript`` would commit the migration's transaction early."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


@dataclass(frozen=True)
class NoteRow:
    path: str
    size: int
    mtime_ns: int
    hash: str
    identity: str | None
    signature: str


class NoteStatus(NamedTuple):
    """A note's row without its line signature: what telling whether a file changed since it was
    indexed needs. A big folder move asks about tens of thousands of notes (100,000 notes: about
    70,000), and each signature (250 bytes on average in the generated vaults, up to 3.6 KB) was
    read, decoded and dropped unused."""

    size: int
    mtime_ns: int
    hash: str
    identity: str | None


class LinkRow(NamedTuple):
    """One indexed link. A NamedTuple, like ``scan.Link``: ``broken`` builds one per
    unresolved link in the vault (100,000 notes: about 20,000), three times faster than
    a frozen dataclass."""

    source: str
    kind: str
    embed: bool
    raw: str
    target: str
    subpath: str
    alias: str | None
    start: int
    end: int
    line: int
    key: str | None
    resolved: str | None


def target_name(target: str) -> str:
    """The lower-cased file name a link target asks for, without ``.md``: the key for re-resolution."""
    name = target.rstrip("/").rpartition("/")[2]
    name = name.lower() if name.isascii() else unicodedata.normalize("NFC", name).lower()  # as resolve.fold
    return name[:-3] if name.endswith(".md") else name


class Index:
    """One vault's index database. Not thread-safe: the daemon's worker owns it."""

    _naming: frozenset[str] = frozenset()  # the names ``temp.naming`` holds (``links_naming_of``)
    _batching = False  # inside ``one_checkpoint``

    def __init__(self, path: Path | str) -> None:
        if isinstance(path, Path):
            _private(path)
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # Syncing thousands of files updates pages all over the links indexes: with the default
            # 2 MB cache they spill (10,000 notes: about 20 % more CPU); more than 8 MB gained nothing.
            self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise MemvaultError(
                f"index database {path} is unreadable ({exc}); delete it and run `memvault reindex`"
            ) from exc

    @classmethod
    def open_readonly(cls, path: Path) -> "Index":
        """An existing index opened read-only, without migrating: for readers that must never write.

        Raises:
            MemvaultError: there is no index yet, it is unreadable, or it predates full-text search.
        """
        index = cls.__new__(cls)
        if not path.is_file():
            raise MemvaultError(f"no index at {path} yet; run `memvault reindex` (or `memvault start`)")
        try:
            index.db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            index.db.execute("PRAGMA query_only=1")
            found = index.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'search_docs'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise MemvaultError(f"index database {path} is unreadable ({exc}); run `memvault reindex`") from exc
        if found is None:
            index.db.close()
            raise MemvaultError(f"the index at {path} predates search; run `memvault reindex` once")
        return index

    def close(self) -> None:
        self.db.close()

    def migrated(self) -> bool:
        """Whether every migration has been applied (an index opened read-only is not migrated)."""
        done = {row[0] for row in self.db.execute("SELECT name FROM migrations")}
        return all(name in done for name, _ in MIGRATIONS)

    def _migrate(self) -> None:
        self.db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied REAL NOT NULL)")
        done = {row[0] for row in self.db.execute("SELECT name FROM migrations")}
        for name, fn in MIGRATIONS:
            if name in done:
                continue
            with self.transaction():
                fn(self.db)
                self.db.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))

    def transaction(self) -> "_Transaction":
        return _Transaction(self.db)

    @contextmanager
    def one_checkpoint(self, pages: int = BATCH_WAL_PAGES) -> Iterator[None]:
        """Checkpoint the write-ahead log once after a batch of transactions, not after each.

        SQLite copies the log into the database (and flushes both) whenever a commit leaves
        more than 1,000 pages in it: a folder move's few big transactions each did, copying
        the same hot pages of the links indexes again every time (two thirds of their
        commits' time). Meanwhile the log may grow to ``pages``, then checkpoints as usual.
        Inside another ``one_checkpoint`` it changes nothing: the outer one checkpoints.
        """
        if self._batching:
            yield
            return
        self._batching = True
        before = self.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        self.db.execute(f"PRAGMA wal_autocheckpoint={int(pages)}")
        try:
            yield
        finally:
            self._batching = False
            self.db.execute(f"PRAGMA wal_autocheckpoint={int(before)}")
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    # -- notes -------------------------------------------------------------

    def notes(self) -> dict[str, NoteRow]:
        return {row[0]: NoteRow(*row) for row in self.db.execute(
            "SELECT path, size, mtime_ns, hash, identity, signature FROM notes")}

    def statuses(self) -> dict[str, tuple[int, int]]:
        """Every indexed path with its (size, mtime_ns): what a start compares with the disk."""
        return {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT path, size, mtime_ns FROM notes")}

    def paths_named(self, name: str) -> list[str]:
        """The paths whose file name, folded and without ``.md``, may be ``name`` (as ``target_name``).

        A superset (LIKE folds ASCII case only, so a non-ASCII name gets every path): for
        resolving one target without loading the whole path table.
        """
        if not name.isascii():
            return [row[0] for row in self.db.execute("SELECT path FROM notes")]
        bare = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        patterns = (bare, f"%/{bare}", f"{bare}.md", f"%/{bare}.md")
        return [row[0] for row in self.db.execute(
            "SELECT path FROM notes WHERE " + " OR ".join(["path LIKE ? ESCAPE '\\'"] * 4), patterns)]

    def note(self, path: str) -> NoteRow | None:
        row = self.db.execute("SELECT path, size, mtime_ns, hash, identity, signature FROM notes WHERE path = ?",
                              (path,)).fetchone()
        return NoteRow(*row) if row else None

    def notes_at(self, paths: Iterable[str]) -> dict[str, NoteRow]:
        """The rows of those of ``paths`` that are indexed."""
        return {row[0]: NoteRow(*row) for row in self._where_in(
            "SELECT path, size, mtime_ns, hash, identity, signature FROM notes", "path", paths)}

    def statuses_at(self, paths: Iterable[str]) -> dict[str, NoteStatus]:
        """``notes_at`` without the signatures: size, mtime, digest and identity of those indexed."""
        return {row[0]: NoteStatus(*row[1:]) for row in self._where_in(
            "SELECT path, size, mtime_ns, hash, identity FROM notes", "path", paths)}

    def _where_in(self, select: str, column: str, values: Iterable[Any], numbered: bool = False
                  ) -> list[tuple[Any, ...]]:
        """The rows of ``select`` (a query without WHERE) whose ``column`` is one of ``values``
        (``numbered``: ``column`` holds the number of a path, and ``values`` are paths).

        A list, fetched a query at a time (a folder move reads 100,000 rows this way: yielding
        them one by one through a generator cost as much as SQLite finding them).
        """
        rows: list[tuple[Any, ...]] = []
        for chunk in iter_chunks(sorted(set(values))):
            marks = ", ".join("?" * len(chunk))
            where = f"IN (SELECT id FROM paths WHERE path IN ({marks}))" if numbered else f"IN ({marks})"
            rows.extend(self.db.execute(f"{select} WHERE {column} {where}", chunk).fetchall())
        return rows

    def put_note(self, note: NoteRow, links: Iterable[tuple[Link, str | None]] | None) -> None:
        """Insert or replace a note; ``links`` (with resolutions) replaces its links unless None."""
        self.put_notes([(note, links)])

    def put_notes(self, notes: Iterable[tuple[NoteRow, Iterable[tuple[Link, str | None]] | None]]) -> None:
        """``put_note`` for several notes (distinct paths), in a few statements for all of them.

        Only the link rows that differ are written (``_diff_links``): a note whose links were
        rewritten by a move keeps most rows as they were (or only their offsets change), and
        deleting and inserting every row touched all five of the links table's indexes for each.
        The writes of a batch of notes (the rewritten notes of a folder move) go out together:
        a statement per note and per kind of change cost more than the rows they wrote.
        """
        notes = list(notes)
        self.db.executemany("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET "
                            "size = excluded.size, mtime_ns = excluded.mtime_ns, hash = excluded.hash, "
                            "identity = excluded.identity, signature = excluded.signature",
                            [_note_values(note) for note, _ in notes])
        linked = {note.path: list(links) for note, links in notes if links is not None}
        ids = self.path_ids({*linked, *(to for links in linked.values() for _, to in links if to is not None)})
        old: dict[int, list[tuple[Any, ...]]] = {ids[path]: [] for path in linked}
        for row in self._where_in(f"SELECT rowid, {_LINK_COLUMNS} FROM links", "source_id", old):
            old[row[1]].append(row)
        writes: tuple[list[tuple[object, ...]], ...] = ([], [], [], [], [], [])
        for path, links in linked.items():
            rows = sorted(old[ids[path]], key=lambda r: (r[_START + 1], r[0]))  # text order (ties: as inserted)
            new = [_link_values(ids[path], link, None if to is None else ids[to]) for link, to in links]
            for into, part in zip(writes, _diff_links(rows, new)):
                into.extend(part)
        self._write_link_diff(*writes)

    def numbers(self, paths: Iterable[str]) -> dict[str, int]:
        """The number of each of ``paths`` that has one in ``paths`` (the table)."""
        return {path: id for id, path in self._where_in("SELECT id, path FROM paths", "path", paths)}

    def path_ids(self, paths: Iterable[str]) -> dict[str, int]:
        """The number of each of ``paths`` in ``paths`` (the table), numbering the ones it lacks."""
        wanted = set(paths)
        ids = self.numbers(wanted)
        missing = sorted(wanted.difference(ids))  # most are numbered already: no insert tried for them
        if missing:
            self.db.executemany("INSERT INTO paths (path, name) VALUES (?, ?)",
                                [(path, target_name(path)) for path in missing])
            ids.update((path, id) for id, path in self._where_in("SELECT id, path FROM paths", "path", missing))
        return ids

    def _write_link_diff(self, moved: list[tuple[object, ...]], retargeted: list[tuple[object, ...]],
                         respelt: list[tuple[object, ...]], other: list[tuple[object, ...]],
                         gone: list[tuple[object, ...]], added: list[tuple[object, ...]]) -> None:
        """Write what ``_diff_links`` found (for one note or several).

        Each kind of change sets only the columns it changes: SQLite rewrites a row's entry in
        every index holding a column the statement sets, equal or not, so a link whose target
        a move re-spelt (same name, same file) leaves ``links_name_resolution`` and
        ``links_resolved`` alone (100,000 notes: 15,556 rows a folder move rewrites).
        """
        if moved:
            self.db.executemany('UPDATE links SET start = ?, "end" = ? WHERE rowid = ?', moved)
        if respelt:
            self.db.executemany('UPDATE links SET raw = ?, target = ?, start = ?, "end" = ? WHERE rowid = ?', respelt)
        if retargeted:
            self.db.executemany('UPDATE links SET start = ?, "end" = ?, resolved_id = ? WHERE rowid = ?', retargeted)
        if other:
            self.db.executemany("UPDATE links SET kind = ?, embed = ?, raw = ?, target = ?, target_name = ?, "
                                'subpath = ?, alias = ?, start = ?, "end" = ?, line = ?, key = ?, resolved_id = ? '
                                "WHERE rowid = ?", other)
        if gone:
            self.db.executemany("DELETE FROM links WHERE rowid = ?", gone)
        if added:  # in ``_by_name`` order: a batch's new rows then fill the name indexes page after page
            added.sort(key=lambda row: _by_name(row[5], row[4]))  # (20,000 rows: 0.26 s against 0.50 s)
            self.db.executemany(f"INSERT INTO links ({_LINK_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", added)

    def replace_all(
        self,
        entries: Iterable[tuple[NoteRow, Iterable[tuple[Link, str | None]] | None, Iterable[tuple[str, str]]]],
    ) -> int:
        """Replace every note, link and tag row with ``entries`` (note, links, tags); returns the notes.

        One transaction, so a failure leaves the previous index. The tables' secondary
        indexes are dropped for the load and created again from the SQL SQLite stored for
        them (the migrations stay their only definition): one sort per index instead of a
        B-tree insert per row halves a 10,000-note rebuild's database time.
        """
        count = 0
        with self.transaction():
            indexes = self.db.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                "AND tbl_name IN ('notes', 'links', 'tags', 'search_docs') ORDER BY name").fetchall()
            for name, _ in indexes:
                self.db.execute(f'DROP INDEX "{name}"')
            for table in ("notes", "links", "tags", "search_docs", "paths"):
                self.db.execute(f"DELETE FROM {table}")
            self._empty_search_words()
            batch: list[tuple[NoteRow, Iterable[tuple[Link, str | None]] | None, Iterable[tuple[str, str]]]] = []
            ids: dict[str, int] = {}  # every path numbered so far (the table was emptied): no look-ups
            for entry in entries:
                batch.append(entry)
                if len(batch) == LOAD_BATCH:
                    count += self._insert(batch, ids)
                    batch = []
            count += self._insert(batch, ids)
            for _, sql in indexes:
                self.db.execute(sql)
        return count

    def _insert(self, batch: list[tuple[NoteRow, Iterable[tuple[Link, str | None]] | None,
                                      Iterable[tuple[str, str]]]], ids: dict[str, int]) -> int:
        """Insert a batch of ``replace_all``'s entries; ``ids``: the paths numbered so far, added to."""
        self.db.executemany("INSERT OR REPLACE INTO notes VALUES (?, ?, ?, ?, ?, ?)",
                            [_note_values(note) for note, *_ in batch])
        fresh: list[tuple[int, str, str]] = []

        def number(path: str) -> int:
            found = ids.get(path)
            if found is None:
                found = ids[path] = len(ids) + 1
                fresh.append((found, path, target_name(path)))
            return found

        rows = [_link_values(number(note.path), link, None if resolved is None else number(resolved))
                for note, links, *_ in batch for link, resolved in links or ()]
        self.db.executemany("INSERT INTO paths VALUES (?, ?, ?)", fresh)
        self.db.executemany(f"INSERT INTO links ({_LINK_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        self.db.executemany("INSERT INTO tags VALUES (?, ?, ?)",
                            [(note.path, tag, origin) for note, _, tags, *_ in batch for tag, origin in tags])
        self._insert_search([entry[3] for entry in batch if len(entry) > 3 and entry[3] is not None])  # type: ignore[misc]
        return len(batch)

    def remove_note(self, path: str) -> None:
        self.remove_notes([path])

    def remove_notes(self, paths: Iterable[str]) -> None:
        """Delete these notes' rows (note, links, tags, search), a few statements per 500 notes:
        a branch switch deletes thousands, and a statement per row and table cost a third more.

        Their links go by rowid in ``_by_name`` order, not in ``source`` order: then the two
        indexes led by ``target_name`` are rewritten page after page (10,000 notes, 18,000
        links: 0.19 s against 0.32 s), and the table's pages of one note stay together anyway.
        A path's number goes too unless a link still resolves to it (until resolved again).
        """
        links: list[tuple[Any, ...]] = []
        chunks = list(iter_chunks(sorted(set(paths))))
        for chunk in chunks:
            marks = ", ".join("?" * len(chunk))
            links += self.db.execute(f"SELECT rowid, target_name, target FROM links WHERE source_id IN "
                                     f"(SELECT id FROM paths WHERE path IN ({marks}))", chunk).fetchall()
            for table, column in (("notes", "path"), ("tags", "path")):
                self.db.execute(f"DELETE FROM {table} WHERE {column} IN ({marks})", chunk)
            self._drop_searches(chunk)
        if links:
            links.sort(key=lambda row: _by_name(row[1], row[2]))
            self.db.executemany("DELETE FROM links WHERE rowid = ?", [(row[0],) for row in links])
        for chunk in chunks:
            self.db.execute(f"DELETE FROM paths WHERE path IN ({', '.join('?' * len(chunk))}) AND NOT EXISTS "
                            "(SELECT 1 FROM links WHERE resolved_id = paths.id)", chunk)

    def rename_note(self, old: str, new: str) -> None:
        """Move a note's rows to a new path (its links are re-put by the caller after rewrites).

        Its links, and the links resolving to it, keep their rows: its number moves to the
        new path (a link resolving to it then resolves to the new path until resolved again).
        """
        self.rename_notes({old: new})

    def rename_notes(self, moves: Mapping[str, str]) -> None:
        """``rename_note`` for many notes at once, in a few statements (a folder of 10,000 notes
        took six statements a file). No destination may be another move's source, nor two moves
        share one: a swap or a chain goes through ``rename_note`` and temporary names.

        A destination that has a number already (a note indexed there, or a path a link still
        resolves to) gives it up: its links and the links resolving to it take the moved note's
        number, as they kept the path when links held paths.
        """
        assert not set(moves.values()) & set(moves), "a chain or swap of moves: rename one by one"
        self.db.execute("CREATE TEMP TABLE IF NOT EXISTS moving (old TEXT PRIMARY KEY, new TEXT NOT NULL UNIQUE, "
                        "name TEXT NOT NULL)")
        self.db.execute("DELETE FROM temp.moving")
        self.db.executemany("INSERT INTO temp.moving VALUES (?, ?, ?)",
                            [(old, new, target_name(new)) for old, new in moves.items()])
        arrivals = "(SELECT new FROM temp.moving)"
        self.db.execute(f"DELETE FROM notes WHERE path IN {arrivals}")
        self.db.execute(f"DELETE FROM search WHERE rowid IN (SELECT rowid FROM search_docs WHERE path IN {arrivals})")
        self.db.execute(f"DELETE FROM search_docs WHERE path IN {arrivals}")
        taken = self.db.execute("SELECT o.id, n.id FROM temp.moving m JOIN paths o ON o.path = m.old "
                                "JOIN paths n ON n.path = m.new").fetchall()
        if taken:
            self.db.executemany("UPDATE links SET source_id = ? WHERE source_id = ?", taken)
            self.db.executemany("UPDATE links SET resolved_id = ? WHERE resolved_id = ?", taken)
            self.db.executemany("DELETE FROM paths WHERE id = ?", [(new,) for _, new in taken])
        self.db.execute("UPDATE paths SET (path, name) = (SELECT m.new, m.name FROM temp.moving m "
                        "WHERE m.old = paths.path) "
                        "WHERE path IN (SELECT old FROM temp.moving)")
        for table in ("notes", "tags", "search_docs"):
            self.db.execute(f"UPDATE {table} SET path = (SELECT new FROM temp.moving WHERE old = path) "
                            f"WHERE path IN (SELECT old FROM temp.moving)")
        self.db.execute("DELETE FROM temp.moving")

    # -- full-text search ----------------------------------------------------

    def put_search(self, path: str, doc: SearchDoc | None) -> None:
        """Replace a note's search row (None: the note is not searchable, e.g. outside the scope)."""
        self.put_searches({path: doc})

    def put_searches(self, docs: Mapping[str, SearchDoc | None]) -> None:
        """``put_search`` for several notes, a few statements per 500 of them."""
        for chunk in iter_chunks(list(docs)):
            self._drop_searches(chunk)
        self._insert_search([doc for doc in docs.values() if doc is not None])

    def _insert_search(self, docs: list[SearchDoc]) -> None:
        """Insert rows for notes that have none; a row's id ties its filters to its words."""
        if not docs:
            return
        first = self.db.execute("SELECT COALESCE(MAX(rowid), 0) + 1 FROM search_docs").fetchone()[0]
        self.db.executemany(
            "INSERT INTO search_docs (rowid, path, kind, day, project, project_key, session_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(first + i, d.path, d.kind, d.day, d.project, project_key(d.project), d.session_id)
             for i, d in enumerate(docs)])
        self.db.executemany("INSERT INTO search (rowid, name, description, tags, project, body, source, cjk) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            [(first + i, d.name, d.description, d.tags, d.project, d.body, d.source, d.cjk)
                             for i, d in enumerate(docs)])

    def _drop_search(self, path: str) -> None:
        self._drop_searches([path])

    def _drop_searches(self, chunk: list[str]) -> None:
        """Delete the search rows of these paths (at most a chunk of them: one parameter each)."""
        marks = ", ".join("?" * len(chunk))
        self.db.execute(f"DELETE FROM search WHERE rowid IN (SELECT rowid FROM search_docs WHERE path IN ({marks}))",
                        chunk)
        self.db.execute(f"DELETE FROM search_docs WHERE path IN ({marks})", chunk)

    def searchable(self, paths: Iterable[str]) -> set[str]:
        """Those of ``paths`` that have a search row."""
        return {r[0] for r in self._where_in("SELECT path FROM search_docs", "path", paths)}

    def search_paths_of_sessions(self, session_ids: Iterable[str]) -> set[str]:
        return {r[0] for r in self._where_in("SELECT path FROM search_docs", "session_id", session_ids)}

    def clear_search(self) -> None:
        self.db.execute("DELETE FROM search_docs")
        self._empty_search_words()

    def _empty_search_words(self) -> None:
        """Empty the FTS table by dropping and re-creating it from the SQL SQLite stored for it:
        a ``DELETE`` re-tokenizes every row to take its words out, as slow as filling it."""
        sql = self.db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search'").fetchone()[0]
        self.db.execute("DROP TABLE search")
        self.db.execute(sql)

    def search(self, match: str | None, where: str = "", args: tuple[object, ...] = (),
               limit: int = 10) -> list[dict[str, object]]:
        """Search rows, best first (``match``: an FTS5 expression) or newest first (None).

        ``where`` holds extra conditions on ``d`` (``search_docs``) built by the caller with
        ``?`` placeholders. The score is BM25 with name and description above the body.
        Only row ids and scores are ranked; the text columns are read for the top rows alone
        (sorting every match with its body made a 10,000-note query several times slower).
        """
        columns = ("path", "kind", "day", "project", "session_id", "name", "description", "tags", "body", "score")
        if match is None:
            ranked = ("SELECT d.rowid AS id, 0.0 AS score FROM search_docs d" + (f" WHERE {where}" if where else "")
                      + " ORDER BY d.day DESC, d.path LIMIT ?")
            params: tuple[object, ...] = (*args, limit)
            order = "d.day DESC, d.path"
        else:
            ranked = (f"SELECT s.rowid AS id, -bm25(search, {BM25_WEIGHTS}) AS score FROM search s "
                      + ("JOIN search_docs d ON d.rowid = s.rowid " if where else "")
                      + "WHERE search MATCH ?" + (f" AND {where}" if where else "") + " ORDER BY 2 DESC LIMIT ?")
            params = (match, *args, limit)
            order = "r.score DESC"
        sql = (f"WITH r AS ({ranked}) SELECT d.path, d.kind, d.day, d.project, d.session_id, s.name, s.description, "
               f"s.tags, s.body, r.score FROM r JOIN search_docs d ON d.rowid = r.id "
               f"JOIN search s ON s.rowid = r.id ORDER BY {order}")
        return [dict(zip(columns, row)) for row in self.db.execute(sql, params)]

    def count(self, table: str) -> int:
        assert table in ("notes", "links", "tags")
        return int(self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    # -- links -------------------------------------------------------------

    def _links(self, where: str, args: tuple[object, ...]) -> list[LinkRow]:
        rows = self.db.execute(
            'SELECT s.path, l.kind, l.embed, l.raw, l.target, l.subpath, l.alias, l.start, l."end", l.line, l.key, '
            f"r.path FROM {_JOINED} WHERE {where} ORDER BY s.path, l.start", args)
        return [LinkRow(r[0], r[1], bool(r[2]), *r[3:]) for r in rows]

    def backlinks(self, path: str) -> list[LinkRow]:
        return self._links("l.resolved_id = (SELECT id FROM paths WHERE path = ?)", (path,))

    def links_from(self, path: str) -> list[LinkRow]:
        return self._links("l.source_id = (SELECT id FROM paths WHERE path = ?)", (path,))

    def broken(self) -> list[LinkRow]:
        return self._links("l.resolved_id IS NULL", ())

    def sources_naming(self, names: Iterable[str]) -> set[str]:
        """Notes holding a link whose target asks for one of these file names (lower, no ``.md``)."""
        ids = {r[0] for r in self._where_in("SELECT DISTINCT source_id FROM links", "target_name", names)}
        return {r[0] for r in self._where_in("SELECT path FROM paths", "id", ids)}

    def sources_linking(self, paths: Iterable[str]) -> set[str]:
        """Notes holding a link that resolves to one of ``paths`` (a query per 500 paths, not one a path)."""
        ids = {r[0] for r in self._where_in("SELECT DISTINCT source_id FROM links", "resolved_id", paths,
                                            numbered=True)}
        return {r[0] for r in self._where_in("SELECT path FROM paths", "id", ids)}  # each note's path once

    def links_naming(self, names: Iterable[str]) -> list[tuple[int, str, str, str]]:
        """(rowid, source, kind, target) of links whose target asks for one of these names."""
        rows: list[tuple[int, str, str, str]] = []
        for name in set(names):
            rows.extend(self.db.execute(f"SELECT l.rowid, s.path, l.kind, l.target FROM {_JOINED} "
                                        "WHERE l.target_name = ?", (name,)))
        return rows

    def links_of(self, sources: Iterable[str]) -> list[tuple[int, str, str, str]]:
        """(rowid, source, kind, target) of the links in these notes."""
        return self._where_in(f"SELECT l.rowid, s.path, l.kind, l.target FROM {_JOINED}", "l.source_id", sources,
                              numbered=True)

    def links_naming_of(self, sources: Iterable[str], names: Iterable[str]) -> list[tuple[str, str, str]]:
        """(source, kind, target) of the links in these notes whose target asks for one of ``names``
        (lower-cased file names without ``.md``, as ``target_name``).

        The names go into a temporary table, kept for the next call asking for the same names
        (a folder move asks once a chunk of notes, each time for thousands of names: as query
        parameters SQLite sorted them again for every query, and only 32,766 fit).
        """
        wanted = frozenset(names)
        if not wanted:
            return []
        self._name_table(wanted)
        rows: list[tuple[str, str, str]] = []
        for chunk in iter_chunks(sorted(set(sources))):  # `+`: by source, never every link of every name
            rows.extend(self.db.execute(f"SELECT s.path, l.kind, l.target FROM {_JOINED} WHERE l.source_id IN "
                                        f"(SELECT id FROM paths WHERE path IN ({', '.join('?' * len(chunk))})) "
                                        "AND +l.target_name IN temp.naming", chunk).fetchall())
        return rows

    def links_asking_for(self, names: Iterable[str]) -> sqlite3.Cursor:
        """(number of the note, kind, target) of every link whose target asks for one of ``names``
        (as ``links_naming_of``), in one statement, led by the names (``links_name_target``): a
        folder move's names are asked by about a tenth of the links their notes hold. Read the rows
        (or close the cursor) before the next statement."""
        self._name_table(frozenset(names))
        return self.db.execute("SELECT l.source_id, l.kind, l.target FROM temp.naming n CROSS JOIN links l "
                               "ON l.target_name = n.name")

    def _name_table(self, wanted: frozenset[str]) -> None:
        """``temp.naming`` holding ``wanted``, kept for the next call asking for the same names (outside
        a transaction only: a rollback would undo the table, not this note of it)."""
        if wanted != self._naming or self.db.in_transaction:
            self.db.execute("CREATE TEMP TABLE IF NOT EXISTS naming (name TEXT PRIMARY KEY) WITHOUT ROWID")
            self.db.execute("DELETE FROM temp.naming")
            self.db.executemany("INSERT INTO temp.naming VALUES (?)", [(name,) for name in wanted])
            self._naming = frozenset() if self.db.in_transaction else wanted

    def links_resolved_to_any(self, paths: Iterable[str]) -> list[tuple[int, str, str, str, str | None]]:
        """(rowid, source, kind, target, resolved) of links that resolve to one of ``paths``."""
        return self._where_in(f"SELECT {_RESOLVING} FROM paths r JOIN links l ON l.resolved_id = r.id "
                              "JOIN paths s ON s.id = l.source_id", "r.path", paths)

    def resolutions_of(self, sources: Iterable[str]) -> list[tuple[int, str, str, str, str | None]]:
        """(rowid, source, kind, target, resolved) of the links in these notes."""
        return self._where_in(f"SELECT {_RESOLVING} FROM {_JOINED}", "l.source_id", sources, numbered=True)

    def links_resolved_to(self, path: str) -> list[tuple[int, str, str, str]]:
        """(rowid, source, kind, target) of links that resolve to ``path``."""
        return list(self.db.execute(f"SELECT l.rowid, s.path, l.kind, l.target FROM {_JOINED} "
                                    "WHERE l.resolved_id = (SELECT id FROM paths WHERE path = ?)", (path,)))

    def links_a_new_path_may_take(self, path: str) -> list[tuple[int, str, str, str, str | None]]:
        """(rowid, source, kind, target, resolved) of the links that a new file at ``path`` may take over.

        Adding a file changes a link's resolution only to that file, and only through one of
        the rules: the link was unresolved; the new path is shorter than (or as long as and
        sorts before) the path it resolves to (the shortest-path rule, and a case twin);
        it is a bare name and sits in the new file's folder (the folder rule); or it is a
        path the new one ends with at a ``/`` (the exact, folder and suffix rules for path
        targets). Relative and dot-segment targets resolve only to the one path they name,
        so they change only from unresolved. Each rule is a few seeks in the indexes of
        migrations 0007 and 0008: the work does not grow with the links asking for the same
        name (a vault full of cards of one name costs a handful of rows). The paths longer
        than the new one come from ``paths_name`` (the files a link of that name may resolve
        to), then their links of that name, one seek each; the folder rule is ``_in_folder``.
        A superset is harmless: the caller resolves each row again.
        """
        name = target_name(path)
        folder = path.rpartition("/")[0]
        if not folder or not path.isascii():  # a file at the root is the exact match of every bare target
            return list(self.db.execute(f"SELECT {_RESOLVING} FROM {_JOINED} WHERE l.target_name = ?",  # (SQLite
                                        (name,)))                                                  # folds only ASCII)
        low = path.lower()
        parts = low.split("/")
        with_slash = ["/".join(parts[i:]) for i in range(len(parts) - 1)]
        bare = [parts[-1]]
        if low.endswith(".md"):  # ``.md`` is optional in a target
            with_slash += [s[:-3] for s in with_slash]
            bare.append(parts[-1][:-3])
        select = f"SELECT {_RESOLVING} FROM {_JOINED} WHERE l.target_name = ?1 AND "
        queries = [
            (select + "l.resolved_id IS NULL", ()),
            (select + "l.resolved_id IN (SELECT id FROM paths WHERE name = ?1 AND length(path) > ?2 UNION ALL "
             "SELECT id FROM paths WHERE name = ?1 AND length(path) = ?2 AND path > ?3)", (len(path), path)),
            (select + f"{_FOLDED} IN ({', '.join('?' * len(with_slash))})", tuple(with_slash)),
        ]
        rows: dict[int, tuple[int, str, str, str, str | None]] = {}
        for sql, args in queries:
            rows.update((row[0], row) for row in self.db.execute(sql, (name, *args)))
        rows.update((row[0], row) for row in self._in_folder(name, bare, folder))
        return list(rows.values())

    def _in_folder(self, name: str, bare: list[str], folder: str) -> list[tuple[int, str, str, str, str | None]]:
        """The folder rule's rows for ``links_a_new_path_may_take``: links whose folded target is one
        of ``bare`` (the file name ``name``), in notes under ``folder`` (ASCII, any case).

        Links hold their note's number, not its path, so no index leads from a name to the
        notes of one folder. The smaller side is read: the bare links of that name and their
        notes' paths when they are few (most names), else the notes under the folder and their
        bare links of that name, one seek each (a card's day folder, when thousands of links
        ask for its name).
        """
        marks = ", ".join("?" * len(bare))
        under = (folder + "/", folder + "0")
        named = self.db.execute(
            f"SELECT {_RESOLVING} FROM links l CROSS JOIN paths s ON s.id = l.source_id LEFT JOIN paths r "
            f"ON r.id = l.resolved_id WHERE l.target_name = ? AND {_FOLDED} IN ({marks}) LIMIT {FOLDER_PROBE}",
            (name, *bare)).fetchall()
        if len(named) < FOLDER_PROBE:  # all of them: keep those under the folder (ASCII, so ``lower`` folds)
            low = under[0].lower()
            return [row for row in named if row[1][:len(low)].lower() == low]
        return self.db.execute(
            f"SELECT {_RESOLVING} FROM paths s CROSS JOIN links l ON l.source_id = s.id "
            f"LEFT JOIN paths r ON r.id = l.resolved_id WHERE s.path >= ? COLLATE NOCASE "
            f"AND s.path < ? COLLATE NOCASE AND l.target_name = ? AND {_FOLDED} IN ({marks})",
            (*under, name, *bare)).fetchall()

    def set_resolved(self, updates: Iterable[tuple[str | None, int]]) -> None:
        """Set links' resolutions ((resolved path, rowid) pairs, each rowid once); a row already
        holding its value is not written.

        Most rows re-resolved after a move resolve as before: writing them anyway rewrote
        their entries in the three indexes that hold ``resolved``. The rest go in the order
        of their new value, then of rowid. Links that become unresolved (a branch switch
        unresolves thousands of links to the notes it deleted) go first, in rowid order, the
        table's (10,000 notes, 17,700 rows: 0.11 s against 0.14 s in the order they were
        found). Links taking a new path go in that path's order, the ``links_resolved``
        index's, which a move rewrites page after page then (a folder of 11,157 notes at
        100,000 notes, 98,572 rows: 2.1-2.4 s against 4.2-4.7 s in rowid order).
        """
        unresolved: list[tuple[int | None, int]] = []
        resolved: list[tuple[str, int]] = []
        for path, rowid in updates:
            if path is None:
                unresolved.append((None, rowid))
            else:
                resolved.append((path, rowid))
        unresolved.sort(key=itemgetter(1))
        ids = self.path_ids(path for path, _ in resolved)
        numbered = sorted((ids[path], rowid) for path, rowid in resolved)  # the order of ``links_resolved``
        self.db.executemany("UPDATE links SET resolved_id = ?1 WHERE rowid = ?2 AND resolved_id IS NOT ?1",
                            unresolved + numbered)

    # -- inbox ledger ------------------------------------------------------

    def ledger(self, digest: str) -> dict[str, object] | None:
        row = self.db.execute("SELECT hash, name, state, at, attempts, retry_at, detail FROM ledger WHERE hash = ?",
                              (digest,)).fetchone()
        keys = ("hash", "name", "state", "at", "attempts", "retry_at", "detail")
        return dict(zip(keys, row)) if row else None

    def set_ledger(self, digest: str, name: str, state: str, at: float, attempts: int = 0,
                   retry_at: float | None = None, detail: str = "") -> None:
        self.db.execute("INSERT OR REPLACE INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (digest, name, state, at, attempts, retry_at, detail))

    def set_ledger_outputs(self, digest: str, outputs: dict[str, list[str]]) -> None:
        """Replace what the file ``digest`` produced: session id → its message ids."""
        with self.transaction():
            self.db.execute("DELETE FROM ledger_outputs WHERE hash = ?", (digest,))
            self.db.executemany("INSERT INTO ledger_outputs VALUES (?, ?, ?)",
                                [(digest, sid, json.dumps(ids)) for sid, ids in outputs.items()])

    def ledger_outputs(self, digest: str) -> dict[str, list[str]]:
        rows = self.db.execute("SELECT session_id, ids FROM ledger_outputs WHERE hash = ?", (digest,))
        return {sid: json.loads(ids) for sid, ids in rows}

    def log_import(self, at: float, name: str, state: str, counts: tuple[int, int, int, int], detail: str) -> None:
        self.db.execute("INSERT INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (at, name, state, *counts, detail))
        self.db.execute("DELETE FROM imports WHERE rowid NOT IN (SELECT rowid FROM imports ORDER BY at DESC LIMIT 200)")

    def recent_imports(self, limit: int = 10) -> list[dict[str, object]]:
        keys = ("at", "name", "state", "imported", "updated", "unchanged", "failed", "detail")
        rows = self.db.execute("SELECT * FROM imports ORDER BY at DESC LIMIT ?", (limit,))
        return [dict(zip(keys, row)) for row in rows]

    # -- card state (merge base, pending messages) ---------------------------

    def card_state(self, session_id: str, day: str) -> str | None:
        row = self.db.execute("SELECT value FROM card_state WHERE session_id = ? AND day = ?",
                              (session_id, day)).fetchone()
        return row[0] if row else None

    def set_card_state(self, session_id: str, day: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO card_state VALUES (?, ?, ?)", (session_id, day, value))

    # -- tags and meta -----------------------------------------------------

    def put_tags(self, path: str, tags: Iterable[tuple[str, str]]) -> None:
        """Replace a note's tags (not written again when they are the same, as after a link rewrite)."""
        self.put_tags_of({path: tags})

    def put_tags_of(self, tags: Mapping[str, Iterable[tuple[str, str]]]) -> None:
        """``put_tags`` for several notes, in a few statements for all (a branch switch indexes
        thousands of notes, and three statements a note cost more than their rows)."""
        wanted = {path: [(t, o) for t, o in pairs] for path, pairs in tags.items()}
        held: dict[str, list[tuple[str, str]]] = {path: [] for path in wanted}
        for path, tag, origin in self._where_in("SELECT path, tag, origin FROM tags", "path", wanted):
            held[path].append((tag, origin))
        changed = sorted(path for path, pairs in wanted.items() if sorted(held[path]) != sorted(pairs))
        for chunk in iter_chunks(changed):
            self.db.execute(f"DELETE FROM tags WHERE path IN ({', '.join('?' * len(chunk))})", chunk)
        self.db.executemany("INSERT INTO tags VALUES (?, ?, ?)",
                            [(path, t, o) for path in changed for t, o in wanted[path]])

    def tag_counts(self) -> list[tuple[str, int]]:
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT tag, COUNT(DISTINCT path) FROM tags GROUP BY tag ORDER BY COUNT(DISTINCT path) DESC, tag")]

    def tagged(self, tag: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT path FROM tags WHERE tag = ? ORDER BY path", (tag,))]

    def project_counts(self) -> list[tuple[str, int]]:
        """Cards per ``project`` property (matched by ``project_key``), most first."""
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT MIN(project), COUNT(*) FROM search_docs WHERE kind = 'card' AND project_key != '' "
            "GROUP BY project_key ORDER BY COUNT(*) DESC, MIN(project)")]

    def in_project(self, project: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT path FROM search_docs WHERE kind = 'card' AND project_key = ? "
                                              "ORDER BY path", (project_key(project),))]

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def clear(self) -> None:
        with self.transaction():
            for table in ("notes", "links", "tags", "paths"):
                self.db.execute(f"DELETE FROM {table}")
            self.clear_search()


class IndexedPaths:
    """The vault's paths as read commands need them, looked up in the index on demand.

    ``Graph.paths`` holds every path (the daemon keeps it for resolving as it writes); a read
    command only checks or resolves the one path it was given, so it asks SQLite for the few
    files carrying that name instead of loading them all (100k notes: tens of MB and 0.5 s).
    """

    def __init__(self, index: Index) -> None:
        self.index = index

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.index.note(path) is not None

    def resolve_target(self, target: str, source: str, markdown: bool = False) -> str | None:
        named = PathIndex(self.index.paths_named(target_name(target)))
        return named.resolve_target(target, source, markdown=markdown)


def _private(path: Path) -> None:
    """The index holds card text and pending messages: its folder is the user's alone (0700), the file 0600.

    SQLite gives the ``-wal`` and ``-shm`` files the database file's permissions.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.chmod(path.parent, 0o700)
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
    except OSError:
        pass  # a file system without POSIX modes; the connection below reports real failures


def _note_values(note: NoteRow) -> tuple[object, ...]:
    return (note.path, note.size, note.mtime_ns, note.hash, note.identity, note.signature)


_LINK_COLUMNS = ('source_id, kind, embed, raw, target, target_name, subpath, alias, start, "end", line, key, '
                 'resolved_id')
_RAW, _NAME, _START, _END, _RESOLVED = 3, 5, 8, 9, 12  # positions in a row of ``_LINK_COLUMNS`` (and of ``_link_values``)


def _diff_links(old: list[tuple[Any, ...]], new: list[tuple[object, ...]]) -> tuple[list[tuple[object, ...]], ...]:
    """The writes that turn one note's link rows ``old`` ((rowid, *columns), in text order) into ``new``.

    Returns (start/end changes, start/end/resolved changes, raw/target/start/end changes,
    other changes, rowids to delete, rows to insert). The rows are paired in text order:
    after a link rewrite the pairs are equal (kept as they are), or differ only by offsets (a
    rewrite earlier in the text shifted them), or also by resolution, or are the rewritten
    link itself (usually only its spelling: a new target of the same name, resolving to the
    same file). Unpaired old rows are deleted, unpaired new ones inserted.
    """
    moved: list[tuple[object, ...]] = []
    retargeted: list[tuple[object, ...]] = []
    respelt: list[tuple[object, ...]] = []
    other: list[tuple[object, ...]] = []
    for was, row in zip(old, new):
        if was[1:] == row:
            continue
        if was[_END + 2:] == row[_END + 1:]:  # line, key and resolution as they were
            if was[1:_START + 1] == row[:_START]:
                moved.append((row[_START], row[_END], was[0]))
                continue
            if was[1:_RAW + 1] == row[:_RAW] and was[_NAME + 1:_START + 1] == row[_NAME:_START]:
                respelt.append((row[_RAW], row[_RAW + 1], row[_START], row[_END], was[0]))
                continue
        if was[1:_START + 1] == row[:_START] and was[_END + 2:_RESOLVED + 1] == row[_END + 1:_RESOLVED]:
            retargeted.append((row[_START], row[_END], row[_RESOLVED], was[0]))
        else:
            other.append((*row[1:], was[0]))
    gone = [(was[0],) for was in old[len(new):]]
    return moved, retargeted, respelt, other, gone, list(new[len(old):])


# The links with the paths their numbers stand for (the note they are in, ``s``; the file they resolve to, ``r``).
_JOINED = "links l JOIN paths s ON s.id = l.source_id LEFT JOIN paths r ON r.id = l.resolved_id"
_FOLDED = "lower(ltrim(l.target, '/'))"  # a target as ``links_name_target`` holds it
_RESOLVING = "l.rowid, s.path, l.kind, l.target, r.path"  # what re-resolving a link needs, and what it held


def _by_name(name: str, target: str) -> tuple[str, str]:
    """About the order of the two indexes of links led by ``target_name`` (``links_name_target``,
    ``links_name_resolution``): writing rows in it touches their pages in turn, not at random
    in indexes larger than the page cache."""
    return name, target.lower()


def _link_values(source: int, link: Link, resolved: int | None) -> tuple[object, ...]:
    return (source, link.kind, int(link.embed), link.raw, link.target, target_name(link.target), link.subpath,
            link.alias, link.start, link.end, link.line, link.key, resolved)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


def iter_chunks(items: list[str], size: int = 500) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
