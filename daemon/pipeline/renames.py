"""The rename flow: a move (seen live, after downtime, or asked for) → the index's
backlinks → planned link rewrites → atomic vault writes → index update.

Like ``pipeline``, this is orchestration: it knows the order of the rename
stages, and nothing else does.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import Iterator, Mapping

from daemon.errors import ConflictError, VaultError
from daemon.links.graph import Changes, Read
from daemon.links.pairing import detect_moves
from daemon.links.index import NoteRow, NoteStatus, target_name
from daemon.links.plan import Relinked, Verdicts, after_moves, before_moves, may_change, plan_moves, common_verdict
from daemon.links.scan import Link
from daemon.links.moves import Actions
from daemon.pipeline.cardnames import follow_card_names
from daemon.pipeline.context import Context
from daemon.links.resolve import PathIndex
from daemon.vault.files import Snapshot, Written

ATTEMPTS = 3
CHUNK = 200  # candidate notes read, planned and written at a time (bounded memory for big folder moves)
INDEX_BATCH = 2000  # rewritten notes indexed from their new text per transaction (each commit rewrites hot pages)
MOVED_HELD = 500  # rewritten moved notes whose texts and links wait for their rows to follow (the rest are read back)
HELD = 5000  # new files a start keeps as read to pair them, until it indexes them (the rest are read again)
UNSETTLED_MAX = 50_000  # links a move holds whose verdict depends on their note (beyond: asked for a chunk at a time)
log = logging.getLogger("memvault.renames")
Known = tuple[Written, str, list[tuple[Link, str | None]] | None]  # a file written: what, its text, its links


def move_note(ctx: Context, old: str, new: str, digest: str) -> MoveReport:
    """Rename a note and rewrite every link in the vault whose target would change.

    The index is caught up first (a stat walk), so links written moments ago,
    with no watcher event processed yet, are not missed.
    """
    reconcile(ctx)
    return on_moves(ctx, {old: new}, pending={old: digest})


@dataclass(frozen=True)
class MoveReport:
    moves: dict[str, str]
    rewritten: tuple[str, ...]


def plan_for_moves(ctx: Context,
                   moves: dict[str, str]) -> Iterator[tuple[dict[str, str], dict[str, Snapshot], Relinked]]:
    """The link rewrites ``moves`` need, CHUNK candidate notes at a time: ({path after: new text},
    the snapshots they were planned from, {path after: its links resolved after the moves}, as
    ``plan_moves`` derives them, for the files it could).

    Candidates come from the index: notes linking to a moved file, notes with a
    link asking for a moved file's name (its resolution may change), and the
    moved notes themselves (their relative links). A candidate whose text differs
    from the index's (someone else wrote it since) is judged by its new text.
    Only one chunk's texts are held at a time, so a folder of 10,000 notes moves
    in bounded memory.
    """
    graph = ctx.graph
    names = {target_name(p) for p in list(moves) + list(moves.values())}
    candidates = graph.index.sources_linking(moves) | graph.index.sources_naming(names) | set(moves)
    sources = sorted(c for c in candidates if c.lower().endswith(".md"))
    before, style = before_moves(graph.paths, moves), link_format(ctx)
    after = after_moves(before, moves)
    memo: Verdicts = {}  # links' verdicts, shared by the chunks (plan._verdict)
    unsettled = _unsettled(ctx, names, moves, before, after, memo)
    for start in range(0, len(sources), CHUNK):
        snapshots: dict[str, Snapshot] = {}
        chunk = sources[start:start + CHUNK]
        rows = graph.index.statuses_at(chunk)
        for source in _worth_reading(ctx, chunk, rows, moves, names, before, after, memo, unsettled):
            at = moves.get(source, source)
            try:  # (a note deleted since indexed is read once, not twice: a branch switch deletes thousands)
                snapshot = ctx.vault.read(at) or (ctx.vault.read(source) if at != source else None)
            except VaultError:
                continue  # not UTF-8: no links we could rewrite safely
            if snapshot is not None:
                snapshots[source] = snapshot
        changed = {p for p, s in snapshots.items() if p not in rows or rows[p].hash != s.digest}
        texts = {p: s.text for p, s in snapshots.items()}
        relinked: Relinked = {}
        yield plan_moves(texts, moves, before, changed, style, after, memo, relinked), snapshots, relinked


Unsettled = dict[int, list[tuple[str, str]] | None]  # a note's number → its links to judge (None: it may change)


def _unsettled(ctx: Context, names: set[str], moves: dict[str, str], before: PathIndex, after: PathIndex,
               memo: Verdicts) -> Unsettled | None:
    """What ``may_change`` has to look at in the links asking for ``names``, by the number of their
    note: None for a note with one that changes from every note, else the (kind, target) of those
    whose verdict depends on the note; the links that stay from every note are left out. None in all
    when more than UNSETTLED_MAX links would be held.

    Every link asking for a moved file's name is read once, by name, instead of every link of the
    referrers a chunk at a time (100,000 notes: 103,819 rows against 605,174 read to find 92,029);
    most stay as they are from any note (a name one file carries before and after the moves).
    """
    found: Unsettled = {}
    held = 0
    rows = ctx.graph.index.links_asking_for(names)
    try:
        for source, kind, target in rows:
            if source in found and found[source] is None:
                continue
            verdict = common_verdict(kind, target, moves, before, after, memo)
            if verdict is not None:  # the same from every note
                if not verdict[1]:
                    found[source] = None
                continue
            found.setdefault(source, []).append((kind, target))  # type: ignore[union-attr]
            held += 1
            if held > UNSETTLED_MAX:
                return None
    finally:
        rows.close()
    return found


def _worth_reading(ctx: Context, sources: list[str], rows: Mapping[str, NoteStatus], moves: dict[str, str],
                   names: set[str], before: PathIndex, after: PathIndex, memo: Verdicts | None = None,
                   unsettled: Unsettled | None = None) -> list[str]:
    """The candidates that may need a rewrite: the others are not read (a big folder move's
    referrers mostly link by a name that still resolves).

    A file whose size and mtime still match its row holds the text the index read (the
    warm start trusts the same test), so its indexed links are its links. Only those asking
    for a moved file's name can resolve differently, unless the file itself moved (then its
    folder changed). Files that changed since indexed, and ``opaque`` ones (indexed without
    their links), are always read. ``rows``: the index's rows of ``sources`` (those indexed).
    ``unsettled``: what ``_unsettled`` kept of the links asking for ``names`` (None: they are
    asked for here).
    """
    graph, root = ctx.graph, str(ctx.vault.root)
    trusted: set[str] = set()
    for source in sources:
        row = rows.get(source)
        for at in (moves.get(source, source), source):
            try:
                st = os.stat(os.path.join(root, at))  # indexed paths and move destinations: no abspath() check
            except OSError:
                continue
            if row is not None and (st.st_size, st.st_mtime_ns) == (row.size, row.mtime_ns):
                trusted.add(source)
            break
    trusted -= set(graph.opaque)
    links: dict[str, list[tuple[str, str]]] = {}
    moved = {source for source in trusted if source in moves}
    for _, source, kind, target in graph.index.links_of(moved):
        links.setdefault(source, []).append((kind, target))
    if unsettled is None:
        for source, kind, target in graph.index.links_naming_of(trusted - moved, names):
            links.setdefault(source, []).append((kind, target))
    else:  # the others stay as they are, from any note
        for source, number in graph.index.numbers(trusted - moved).items():
            if number in unsettled:
                found = unsettled[number]
                if found is None:
                    trusted.discard(source)  # read: a link of it changes from every note
                else:
                    links[source] = list(found)
    return [p for p in sources if p not in trusted or may_change(links.get(p, ()), p, moves, before, after, memo)]


def link_format(ctx: Context) -> str:
    """The vault's "New link format" (``.obsidian/app.json`` ``newLinkFormat``); "shortest" by default."""
    try:
        found = ctx.vault.read(".obsidian/app.json")
        value = json.loads(found.text).get("newLinkFormat") if found is not None else None
    except (VaultError, ValueError, AttributeError):
        value = None  # unreadable settings: Obsidian's default
    return value if value in ("shortest", "relative", "absolute") else "shortest"


def on_moves(ctx: Context, moves: dict[str, str], pending: dict[str, str] | None = None) -> MoveReport:
    """Repair links for ``moves``; ``pending`` holds moves still to make on disk (old → digest)."""
    for old, expect in (pending or {}).items():  # first: a file changed since it was read stops it all
        ctx.vault.move(old, moves[old], expect)
    with ctx.graph.index.one_checkpoint(), collector_paused():  # the log is copied to the database once
        return _repair(ctx, moves)


_pause_lock = threading.Lock()
_pauses = 0  # collector_paused() blocks running now, in any thread
_resume = False  # whether the collector was on when the first of them began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold Python's cycle collector off for a move's repair; it runs again as before afterwards.

    A move allocates millions of short-lived tuples (SQLite rows, links, verdicts), each
    counted towards the collector's next pass, which then walks the young objects and now
    and then the whole heap: 1.1 s of a 17 s move at 100,000 notes, for garbage that
    reference counting frees anyway (the move makes no cycles of its own; any other waits
    for the collector's next pass). Pauses nest and may overlap across threads: the
    collector resumes when the last one ends, and only if it was on when the first began.
    """
    global _pauses, _resume
    with _pause_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


def _repair(ctx: Context, moves: dict[str, str]) -> MoveReport:
    """``on_moves`` once the files are where ``moves`` says: rewrite links, then update the index."""
    rewritten: list[str] = []
    unread: set[str] = set()  # rewritten, but not indexed from the text we wrote
    known: list[Known] = []  # written, staying where they are: indexed from that text
    moved: list[Known] = []  # written, moved: indexed from that text once their rows have followed
    after = after_moves(before_moves(ctx.graph.paths, moves), moves)
    inverse = {new: old for old, new in moves.items()}  # once, not once a chunk (100,000 notes: 343 chunks)
    for plan, snapshots, relinked in plan_for_moves(ctx, moves):
        unread |= _write_chunk(ctx, plan, snapshots, moves, inverse, known, relinked, moved)
        rewritten.extend(plan)
        if len(known) >= INDEX_BATCH:
            ctx.graph.put_written(known, after, inverse)
            known.clear()
    ctx.graph.put_written(known, after, inverse)
    ctx.graph.apply_moves(moves, rewritten, moved)  # re-reads the other moved files that changed
    ctx.graph.sync(unread - set(moves.values()))
    ctx.graph.sync(follow_card_names(ctx, moves))  # a card's name, and its daily page, follow a user's rename
    return MoveReport(dict(moves), tuple(sorted(rewritten)))


def _write_chunk(ctx: Context, plan: dict[str, str], snapshots: dict[str, Snapshot], moves: dict[str, str],
                 inverse: dict[str, str], known: list[Known], relinked: Relinked, moved: list[Known]) -> set[str]:
    """Write one chunk's rewrites with one flush for all (``Vault.write_all``); returns the files left
    to read back into the index.

    A referrer that stays where it is joins ``known``, to be indexed from the text written
    (``Graph.put_written``), its links resolved as they will be once the move's rows follow
    (from the plan, ``relinked``, when it has them): nothing reads or scans it again. A moved
    file's row is still at its old path until ``apply_moves``: one whose links the plan derived
    joins ``moved`` (up to MOVED_HELD of them, their texts held until then), to be indexed
    from the text written once its rows have followed; ``apply_moves`` reads the others. A
    file changed meanwhile is planned again from its fresh text, written alone, and read back.
    ``inverse`` maps each move's destination to its source.
    """
    results = ctx.vault.write_all({t: (text, snapshots[inverse.get(t, t)].digest) for t, text in plan.items()})
    ours = [(done, plan[t], relinked.get(t)) for t, done in results.items()
            if isinstance(done, Written) and t not in inverse]
    known.extend(ours)
    moved.extend((done, plan[t], relinked[t]) for t, done in results.items()
                 if isinstance(done, Written) and t in inverse and t in relinked and len(moved) < MOVED_HELD)
    unread = set(plan) - {done.path for done, _, _ in ours}
    for target, done in results.items():
        if isinstance(done, ConflictError):
            source = inverse.get(target, target)
            _rewrite_links(ctx, target, ctx.vault.read(target), source, moves)
        elif isinstance(done, VaultError):
            raise done
    return unread


def _rewrite_links(ctx: Context, path: str, fresh: Snapshot | None, source: str, moves: dict[str, str]) -> None:
    """Re-plan a rewrite refused because the file changed since it was read, from its fresh text, and write it."""
    for _ in range(ATTEMPTS):
        if fresh is None:
            return
        replanned = plan_moves({source: fresh.text}, moves, before_moves(ctx.graph.paths, moves), {source},
                               link_format(ctx))
        if path not in replanned:
            return
        try:
            ctx.vault.write(path, replanned[path], fresh.digest)
            return
        except ConflictError:
            fresh = ctx.vault.read(path)
    raise VaultError(f"{path}: kept changing while its links were being updated; run the rename again")


def apply_actions(ctx: Context, actions: "Actions") -> None:
    """Carry out what a batch of file events means: repair moves, then re-index what changed."""
    if actions.moves:
        on_moves(ctx, dict(actions.moves))
    rest = set(actions.sync) - set(actions.moves) - set(actions.moves.values())
    if rest:
        ctx.graph.sync(rest)


def reconcile(ctx: Context) -> Changes:
    """Catch the index up with the files: renames made while we were not looking are repaired first."""
    graph = ctx.graph
    changes = graph.changes()
    if not changes:
        return changes
    moves: dict[str, str] = {}
    held: dict[str, Read] = {}  # new files as read to pair them (up to HELD): the sync below reads them once
    if changes.deleted and changes.added:  # a move needs both ends: otherwise nothing to pair
        added: dict[str, NoteRow] = {}
        for path in changes.added:
            found = graph.read(path)
            if found is not None:
                added[path] = found[0]
                if len(held) < HELD:
                    held[path] = found
        rows = graph.index.notes_at(changes.deleted)
        moves = detect_moves({p: rows[p] for p in changes.deleted}, added)
    rewritten: tuple[str, ...] = ()
    # A repair checkpoints the log once at its end (``on_moves``): the catch-up's transaction joins it.
    with graph.index.one_checkpoint() if moves else nullcontext():
        if moves:
            rewritten = on_moves(ctx, moves).rewritten
            log.info("renamed while not watching: %s; rewrote links in %s", moves, ", ".join(rewritten) or "no file")
        graph.sync({*changes.added, *changes.modified, *changes.deleted} - set(moves) - set(moves.values()), held)
    return replace(changes, moves=moves, rewritten=rewritten)
