"""Keeping the index in step with the vault's files.

``Graph`` pairs the SQLite index with an in-memory ``PathIndex`` of every
indexed path (for O(1) link resolution). ``sync`` re-reads files into the
index; ``changes`` compares the files on disk with the index by size and
mtime (a warm start stats files, it does not read them); ``pairing`` then
says which of the vanished and new paths are moves.
"""

from __future__ import annotations

import hashlib
import zlib
import logging
import multiprocessing
import os
import re
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, NamedTuple

from daemon.vault import props
from daemon.errors import VaultError
from daemon.links.fulltext import SCOPES, SOURCE_LIMIT, SearchDoc, search_doc, source_path, source_text
from daemon.links.index import Index, NoteRow, NoteStatus
from daemon.links.scan import Link, scan
from daemon.links.resolve import PathIndex
from daemon.vault.files import TEMP_MARK, Vault, Written

log = logging.getLogger("memvault.graph")
# Rebuilds of at least PARALLEL_MIN files parse in up to MAX_WORKERS processes, CHUNK files a task.
PARALLEL_MIN = 2000
MAX_WORKERS = 4
CHUNK = 250
READ_AHEAD = 256  # files whose reading the kernel is asked to start before a rebuild reaches them
SYNC_BATCH = 2000  # files ``sync`` reads, then writes into the index, at a time (their texts held meanwhile)
IDENTITY_KEY = "session_id"
# A `#` at the start of the body or after whitespace. The `#` comes first so the regex engine
# can jump from `#` to `#`; a leading `(?:^|(?<=\s))` made it try every position (~20x slower).
_TAG = re.compile(r"#(?<!\S#)([^\s#!-/:-@\[-^`{-~][^\s!-,./:-@\[-^`{-~]*(?:[-_/][^\s!-,./:-@\[-^`{-~]+)*)")
_FENCED = re.compile(r"(?ms)^([ \t]*)(`{3,}|~{3,}).*?^\1\2[ \t]*$")
_CODE_SPAN = re.compile(r"`[^`\n]*`")


Read = tuple[NoteRow, str | None, dict[str, Any]]  # ``Graph.read``: a file's row, its text and properties


@dataclass(frozen=True)
class Changes:
    """What differs between the files on disk and the index (and, once caught up, what was repaired)."""

    added: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    moves: Mapping[str, str] = field(default_factory=dict)  # renames found among added and deleted
    rewritten: tuple[str, ...] = ()  # files whose links those renames rewrote

    def __bool__(self) -> bool:
        return bool(self.added or self.modified or self.deleted)


class Entry(NamedTuple):
    """One file's rows for the index: the note, its resolved links, its tags and its search row."""

    row: NoteRow
    links: list[tuple[Link, str | None]] | None
    tags: list[tuple[str, str]]
    doc: SearchDoc | None = None


@dataclass
class Graph:
    vault: Vault
    index: Index
    excluded: tuple[str, ...] = ()
    tag_key: str = "memory_tags"
    paths: PathIndex = field(default_factory=PathIndex)
    fresh: bool = False  # True once this process built the index from nothing
    search_scope: str = "cards"  # which notes the full-text table holds (fulltext.SCOPES)
    opaque: tuple[str, ...] = ()  # notes indexed for resolution only: their links and tags are not read

    @classmethod
    def open(cls, vault: Vault, index: Index, excluded: Iterable[str] = (), tag_key: str = "memory_tags",
             search_scope: str = "cards", opaque: Iterable[str] = ()) -> "Graph":
        graph = cls(vault, index, tuple(excluded), tag_key, search_scope=search_scope, opaque=tuple(opaque))
        graph.paths = PathIndex(index.statuses())  # not ``notes()``: their signatures, 100,000 notes: +45 MB RSS
        return graph

    def ensure_search(self) -> int:
        """Fill the full-text table when it predates this scope (a migrated index, a changed setting).

        Returns the number of notes read (0 when the table was already current).
        """
        assert self.search_scope in SCOPES
        if self.index.get_meta("search.scope") == self.search_scope:
            return 0
        notes = self.index.notes()
        wanted = sorted(p for p, row in notes.items()
                        if row.identity or (self.search_scope == "vault" and p.lower().endswith(".md")))
        with self.index.transaction():
            self.index.clear_search()
            for rel in wanted:
                found = self.read(rel)
                if found is not None and found[1] is not None:
                    self.index.put_search(rel, self._entry(*found).doc)
            self.index.set_meta("search.scope", self.search_scope)
        return len(wanted)

    def watched(self, rel: str) -> bool:
        """Whether a vault path belongs in the index (not a dot-folder, temp file or the inbox)."""
        parts = rel.split("/")
        if any(p.startswith(".") for p in parts) or TEMP_MARK in parts[-1]:
            return False
        return not any(rel == ex or rel.startswith(ex + "/") for ex in self.excluded)

    def disk(self) -> dict[str, tuple[int, int]]:
        """Every watched file with (size, mtime_ns)."""
        found = {}
        root = str(self.vault.root)
        for rel in self.vault.walk():
            if not self.watched(rel):
                continue
            try:
                st = os.stat(os.path.join(root, rel))  # walk() yields safe paths: no abspath() check
            except OSError:
                continue
            found[rel] = (st.st_size, st.st_mtime_ns)
        return found

    def changes(self) -> Changes:
        on_disk = self.disk()
        indexed = self.index.statuses()
        added = sorted(set(on_disk) - set(indexed))
        deleted = sorted(set(indexed) - set(on_disk))
        modified = sorted(p for p in set(on_disk) & set(indexed) if on_disk[p] != indexed[p])
        return Changes(tuple(added), tuple(modified), tuple(deleted))

    def read(self, rel: str) -> Read | None:
        """A file's index row and, for UTF-8 Markdown, its text and properties; None when it is gone.

        Only the properties the index uses are guaranteed: the YAML is parsed only when the
        text mentions ``session_id`` or the tag key (parsing is a tenth of a rebuild), so a
        note without either gets ``{}``.
        """
        path = self.vault.abspath(rel)
        markdown = rel.lower().endswith(".md")
        try:
            with open(path, "rb") as handle:
                st = os.fstat(handle.fileno())
                hashed = hashlib.sha256()
                data = handle.read() if markdown else b""
                hashed.update(data)
                while not markdown and (block := handle.read(1 << 20)):  # a record may be 200 MB: never whole
                    hashed.update(block)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        text = None
        if markdown:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        return self._row(rel, text, st.st_size, st.st_mtime_ns, hashed.hexdigest())

    def _row(self, rel: str, text: str | None, size: int, mtime_ns: int, digest: str) -> Read:
        """``read``'s answer for a file with this text (None: not UTF-8 Markdown), status and digest."""
        wanted = text is not None and (IDENTITY_KEY in text or self.tag_key in text)
        properties = props.read(text) if wanted else {}
        value = properties.get(IDENTITY_KEY)
        identity = str(value).strip() if value not in (None, "") else None
        row = NoteRow(rel, size, mtime_ns, digest, identity, signature(text) if text else "")
        return row, text, properties

    def put_written(self, written: Iterable[tuple[Written, str, list[tuple[Link, str | None]] | None]],
                    paths: PathIndex | None = None, arriving: Mapping[str, str] | None = None) -> None:
        """Index Markdown files we just wrote from the text we wrote, instead of reading them back.

        ``Vault.write_all`` gives each file's digest, size and mtime as written, so the rows
        equal what ``sync`` would read (if the file changes again, its size or mtime no longer
        match and the next event or reconcile reads it). The files must already be indexed at
        these paths; ``paths`` resolves their links (default: the index's own), e.g. the
        vault as it will be once a move's rows have followed (``plan.after_moves``). Each
        file's links, resolved, may come with it (what the move's plan derived,
        ``plan_moves``' ``relinked``); otherwise the text is scanned and they are resolved.
        ``arriving`` maps the destinations of moves whose rows have not followed yet to their
        sources: a link resolving to one is recorded as resolving to the file on its way there,
        whose number ``apply_moves`` then gives that path (no row written twice).
        """
        with self.index.transaction():
            self._put_all([(*self._row(done.path, text, done.size, done.mtime_ns, done.digest), links)
                           for done, text, links in written], paths, arriving)

    def sync(self, rels: Iterable[str], known: Mapping[str, Read] | None = None) -> None:
        """Re-read these paths into the index (removing the ones that are gone).

        ``known``: what ``read`` gave for some of them moments ago (a start reads the new
        files to pair moves); one whose file still has the size and mtime it was read at
        holds those bytes (the warm start trusts the same test) and is not read again.
        """
        rels = sorted(set(rels))
        if not self.paths and self.index.count("notes") == 0:  # a vault's first index: one batch
            self._load([rel for rel in rels if self.watched(rel)])
            self.fresh = True
            return
        added, removed = [], []
        with self.index.transaction():
            # Every new file first: a link to a file of the same batch (the daily page to its new
            # card) then resolves to it at once, not by a search through every file of its name.
            for rel in rels:
                if rel not in self.paths and self.watched(rel) and os.path.isfile(self.vault.abspath(rel)):
                    self.paths.add(rel)
                    added.append(rel)
            for start in range(0, len(rels), SYNC_BATCH):  # a few statements a batch, not a few a file
                found, gone = [], []
                for rel in rels[start:start + SYNC_BATCH]:
                    read = None
                    if self.watched(rel):
                        read = (self._still(known[rel]) if known and rel in known else None) or self.read(rel)
                    if read is None:
                        if rel in self.paths:
                            gone.append(rel)
                            self.paths.remove(rel)
                            (added.remove if rel in added else removed.append)(rel)
                        continue
                    if rel not in self.paths:
                        self.paths.add(rel)
                        added.append(rel)
                    found.append((*read, None))
                if gone:
                    self.index.remove_notes(gone)
                self._put_all(found)
            self._reresolve(added, removed)
            self._resync_cards_of_records([rel for rel in rels if rel.endswith(".jsonl")], set(rels))

    def _still(self, read: Read) -> Read | None:
        """``read`` when its file still has the size and mtime it was read at, else None."""
        row = read[0]
        try:
            st = os.stat(self.vault.abspath(row.path))
        except (OSError, VaultError):
            return None
        return read if (st.st_size, st.st_mtime_ns) == (row.size, row.mtime_ns) else None

    def _put_all(self, found: list[tuple[NoteRow, str | None, dict[str, Any], list[tuple[Link, str | None]] | None]],
                 paths: PathIndex | None = None, arriving: Mapping[str, str] | None = None) -> None:
        """Index files (distinct paths) from what ``read`` gave, each with its links when already resolved
        (else scanned and resolved by ``paths``): their note, link, tag and search rows in a few statements
        for all. ``arriving``: as for ``put_written``."""
        entries = [self._entry(row, text, properties, paths, links) for row, text, properties, links in found]
        if arriving:
            get = arriving.get
            self.index.put_notes((entry.row, None if entry.links is None else
                                  [(link, to if to is None else get(to, to)) for link, to in entry.links])
                                 for entry in entries)
        else:
            self.index.put_notes((entry.row, entry.links) for entry in entries)
        self.index.put_tags_of({entry.row.path: entry.tags for entry, (_, text, _, _) in zip(entries, found)
                                if text is not None})
        self.index.put_searches({entry.row.path: entry.doc for entry in entries})

    def _entry(self, row: NoteRow, text: str | None, properties: dict[str, Any], paths: PathIndex | None = None,
               links: list[tuple[Link, str | None]] | None = None) -> Entry:
        """A file's rows: links (None keeps a non-Markdown file's, [] for undecodable Markdown) and tags.

        ``links``: the text's links already resolved (else it is scanned and they are resolved).
        """
        if text is None or row.path in self.opaque:
            return Entry(row, [] if row.path.lower().endswith(".md") else None, [])
        if links is None:
            resolve = (self.paths if paths is None else paths).resolve
            links = [(link, resolve(link, row.path)) for link in scan(text)]
        no_tags = self.tag_key not in properties and "#" not in text  # the common case: nothing to look for
        tags = [] if no_tags else tags_of(text, properties, self.tag_key)
        doc = search_doc(row.path, text, properties, [t for t, _ in tags], self.search_scope,
                         self._source(properties) if row.identity else "")
        return Entry(row, links, tags, doc)

    def _resync_cards_of_records(self, records: list[str], done: set[str]) -> None:
        """A changed source record changes the search rows of its session's cards (they hold its words)."""
        sessions = {rel.rpartition("/")[2][: -len(".jsonl")] for rel in records}
        found = [self.read(path) for path in sorted(self.index.search_paths_of_sessions(sessions) - done)]
        self._put_all([(*read, None) for read in found if read is not None])

    def _source(self, properties: Mapping[str, Any]) -> str:
        """A card's source conversation as text for its search row ("" when it has none or it is unreadable)."""
        rel = source_path(properties)
        if rel is None:
            return ""
        try:
            with open(self.vault.abspath(rel), encoding="utf-8", errors="replace") as handle:
                return source_text(handle.read(SOURCE_LIMIT * 2))
        except (OSError, VaultError):
            return ""

    def _reresolve(self, added: Iterable[str] = (), removed: Iterable[str] = ()) -> None:
        """Resolve again the links whose resolution the added and removed paths may change.

        Resolution depends only on the set of paths, so removing a file changes only the
        links that resolved to it, and adding one can only make a link resolve to it
        (``Index.links_a_new_path_may_take``): the work per file does not grow with the
        number of earlier links asking for the same name.
        """
        rows: dict[int, tuple[int, str, str, str, str | None]] = {}
        rows.update((r[0], r) for r in self.index.links_resolved_to_any(removed))
        for path in set(added):
            rows.update((r[0], r) for r in self.index.links_a_new_path_may_take(path))
        self._resolve_again(rows.values())

    def _resolve_again(self, rows: Iterable[tuple[int, str, str, str, str | None]]) -> None:
        """Resolve links again ((rowid, source, kind, target, resolved) rows) and write the ones that
        changed: after a move most resolve as before, and each row written costs a statement and
        a look-up by rowid even when ``set_resolved`` finds nothing to change."""
        resolve = self.paths.resolve_target
        self.index.set_resolved([(now, rowid) for rowid, source, kind, target, resolved in rows
                                 if (now := resolve(target, source, markdown=kind == "markdown")) != resolved])

    def rebuild(self) -> int:
        """Forget everything and index every file again; returns the number of files."""
        on_disk = sorted(self.disk())
        self._load(on_disk)
        return len(on_disk)

    def _load(self, rels: list[str]) -> None:
        """Replace the whole index with these files, in one transaction (a failure keeps the old one).

        Every path is known before the first link resolves, so no link needs resolving
        twice, and the rows go in as one batch (``Index.replace_all``).
        """
        before, self.paths = self.paths, PathIndex(rels)
        gone: list[str] = []

        def entries() -> Iterator[Entry]:
            for rel, entry in self._parsed(rels):
                if entry is None:
                    gone.append(rel)
                else:
                    yield entry

        try:
            self.index.replace_all(entries())
        except BaseException:
            self.paths = before
            raise
        self.index.set_meta("search.scope", self.search_scope)
        if gone:  # vanished since listed: links asking for their names resolved as if they existed
            for rel in gone:
                self.paths.remove(rel)
            with self.index.transaction():
                self._reresolve(removed=gone)

    def _parsed(self, rels: list[str]) -> Iterator[tuple[str, Entry | None]]:
        """Each file's rows, in order. A large vault is parsed by worker processes (one per core),
        while this process writes the rows already parsed into SQLite; a small one, or a machine
        where worker processes cannot start, is parsed here."""
        workers = min(os.cpu_count() or 1, MAX_WORKERS)
        # Forking is safe only while this process has no other thread (the CLI, a daemon before it
        # starts watching); "spawn" would re-run the caller's main module in every worker.
        forkable = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
        if len(rels) >= PARALLEL_MIN and workers > 1 and forkable:
            try:
                yield from self._parsed_in_workers(rels, workers)
                return
            except (OSError, BrokenProcessPool) as exc:
                log.warning("parsing in worker processes failed (%s); parsing here", exc)
        for rel in self._read_ahead(rels):
            found = self.read(rel)
            yield rel, (None if found is None else self._entry(*found))

    def _parsed_in_workers(self, rels: list[str], workers: int) -> Iterator[tuple[str, Entry | None]]:
        chunks = [rels[i : i + CHUNK] for i in range(0, len(rels), CHUNK)]
        context = multiprocessing.get_context("fork")
        setup = (str(self.vault.root), self.excluded, self.tag_key, rels, self.search_scope, self.opaque)
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_setup, initargs=setup) as pool:
            for chunk, parsed in zip(chunks, pool.map(_worker_parse, chunks)):
                yield from zip(chunk, parsed)

    def _read_ahead(self, rels: list[str], window: int = READ_AHEAD) -> Iterator[str]:
        """Yield ``rels`` in order while asking the kernel to start reading the next files.

        On a cold page cache a rebuild otherwise waits for one disk read per file, one
        at a time; ``POSIX_FADV_WILLNEED`` queues the next files' reads while this one is
        parsed (10,000 notes: about 1 s less). Only a hint: where ``posix_fadvise`` is
        missing or a file cannot be opened, it is simply read when reached.
        """
        advise = getattr(os, "posix_fadvise", None)
        for i, rel in enumerate(rels):
            if advise is not None and i % window == 0:
                for ahead in rels[i + window if i else 0 : i + 2 * window]:
                    try:
                        fd = os.open(self.vault.abspath(ahead), os.O_RDONLY)
                    except (OSError, VaultError):
                        continue
                    try:
                        advise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
                    except OSError:
                        pass
                    finally:
                        os.close(fd)
            yield rel

    def apply_moves(self, moves: Mapping[str, str], rewritten: Iterable[str] = (),
                    written: Iterable[tuple[Written, str, list[tuple[Link, str | None]] | None]] = ()) -> None:
        """Record moves already made on disk: rows follow, then the moved files that changed are re-read.

        A swap (``A→B, B→A``) goes through temporary keys so no row overwrites another.
        A destination already gone again (it moved on before this batch was handled)
        keeps its row: the next event for it, or the next reconcile, pairs it by hash.
        A moved file whose bytes did not change (``unchanged_moves``) keeps its rows as
        they are at the new path: only the resolution of its own links is redone, since
        that depends on its folder. ``rewritten`` names destinations known to have been
        written since they were indexed (their links repaired), which are always re-read, unless
        ``written`` has them: what was written there and its links (``put_written``).
        """
        with self.index.transaction():
            if set(moves.values()) & set(moves) or len(set(moves.values())) < len(moves):
                staged = {old: (f"\0moving\0{old}" if new in moves else new) for old, new in moves.items()}
                for old, new in staged.items():
                    self.index.rename_note(old, new)
                for old, new in staged.items():
                    if new != moves[old]:
                        self.index.rename_note(new, moves[old])
            else:  # a folder move: a few statements for all its files
                self.index.rename_notes(moves)
            for old in moves:
                self.paths.remove(old)
            for new in moves.values():
                self.paths.add(new)
        kept = self.unchanged_moves(moves, set(rewritten))
        ours = [w for w in written if w[0].path in self.paths and self.watched(w[0].path)]
        done = {w[0].path for w in ours}
        self.sync(new for new in moves.values()
                  if new not in kept and new not in done and self.vault.abspath(new).exists())
        self.put_written(ours)
        with self.index.transaction():
            self._resolve_again(self.index.resolutions_of(kept))
            # The links that resolved to a moved file now resolve to its new path (its number
            # moved with it): they are the ones its old path's going may change.
            self._reresolve(added=moves.values(), removed=moves.values())

    def unchanged_moves(self, moves: Mapping[str, str], rewritten: set[str]) -> set[str]:
        """The destinations whose rows, moved as they are, equal what re-reading them would give.

        A rename keeps a file's size and mtime, so a file whose status still matches its row
        has the bytes that row was read from (the warm start trusts the same test). Its links,
        tags and identity do not depend on its path; its search row does (a name taken from
        the file name, a day from the folder), so a searchable file is re-read, as is a file
        whose path decides its rows (``opaque``), a record (its cards' search rows hold its
        words) and one no longer ``watched``.
        """
        candidates = [new for old, new in moves.items()
                      if new not in rewritten and self.watched(new) and not new.endswith(".jsonl")
                      and old not in self.opaque and new not in self.opaque]
        kept = set(self.in_step(candidates))
        return kept - self.index.searchable(kept)

    def in_step(self, paths: Iterable[str]) -> dict[str, NoteStatus]:
        """The rows of those ``paths`` whose file still has the size and mtime its row was read at."""
        kept: dict[str, NoteStatus] = {}
        for path, row in self.index.statuses_at(paths).items():
            try:
                st = os.stat(self.vault.abspath(path))
            except (OSError, VaultError):
                continue
            if (st.st_size, st.st_mtime_ns) == (row.size, row.mtime_ns):
                kept[path] = row
        return kept


_WORKER: Graph | None = None


def _worker_setup(root: str, excluded: tuple[str, ...], tag_key: str, rels: list[str], scope: str,
                  opaque: tuple[str, ...] = ()) -> None:
    """In a worker process: a Graph without a database, knowing every path for resolution."""
    global _WORKER
    _WORKER = Graph(Vault(Path(root)), None, excluded, tag_key, search_scope=scope,  # type: ignore[arg-type]
                    opaque=opaque)
    _WORKER.paths = PathIndex(rels)


def _worker_parse(chunk: list[str]) -> list[Entry | None]:
    graph = _WORKER
    assert graph is not None
    out: list[Entry | None] = []
    for rel in graph._read_ahead(chunk):
        found = graph.read(rel)
        out.append(None if found is None else graph._entry(*found))
    return out


def signature(text: str) -> str:
    """Short hashes of a note's distinct non-blank lines, for similarity after an edit."""
    crc = zlib.crc32
    hashes = {crc(line.strip().encode("utf-8")) for line in set(text.split("\n")) if len(line) > 3}
    hashes.discard(crc(b"---"))
    return " ".join(sorted(format(h, "08x") for h in hashes)[:400])


def tags_of(text: str, properties: Mapping[str, Any], key: str) -> list[tuple[str, str]]:
    """Tags from the configured property and from inline ``#tags`` in the body."""
    found: list[tuple[str, str]] = []
    value = properties.get(key)
    values = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    for item in values:
        if isinstance(item, (str, int)) and str(item).strip():
            found.append((normalize_tag(str(item)), "property"))
    body = props.body(text)
    if "#" in body:  # most notes have no inline tag at all: skip the code stripping
        found.extend((normalize_tag(m.group(1)), "inline") for m in _TAG.finditer(strip_code(body)))
    seen: set[str] = set()
    return [(t, o) for t, o in found if t and not (t in seen or seen.add(t))]


def normalize_tag(tag: str) -> str:
    return "_".join(tag.strip().lstrip("#").split()).casefold()


def strip_code(body: str) -> str:
    if "```" in body or "~~~" in body:
        body = _FENCED.sub("", body)
    return _CODE_SPAN.sub("", body) if "`" in body else body
