"""The rename flow: a move (seen live, after downtime, or asked for) → the index's
backlinks → planned link rewrites → atomic vault writes → index update.

Like ``pipeline``, this is orchestration: it knows the order of the rename
stages, and nothing else does.
"""

from __future__ import annotations

from dataclasses import dataclass

from daemon.errors import ConflictError, VaultError
from daemon.links.graph import Changes, detect_moves
from daemon.links.index import target_name
from daemon.links.plan import plan_moves
from daemon.links.moves import Actions
from daemon.pipeline.context import Context
from daemon.vault.files import Snapshot

ATTEMPTS = 3


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


def plan_for_moves(ctx: Context, moves: dict[str, str]) -> tuple[dict[str, str], dict[str, Snapshot]]:
    """The link rewrites ``moves`` need: {path after: new text}, and the snapshots they were planned from.

    Candidates come from the index: notes linking to a moved file, notes with a
    link asking for a moved file's name (its resolution may change), and the
    moved notes themselves (their relative links).
    """
    graph = ctx.graph
    names = {target_name(p) for p in list(moves) + list(moves.values())}
    candidates = graph.index.sources_linking(moves) | graph.index.sources_naming(names) | set(moves)
    snapshots: dict[str, Snapshot] = {}
    for source in sorted(candidates):
        if not source.lower().endswith(".md"):
            continue
        try:
            snapshot = ctx.vault.read(moves.get(source, source)) or ctx.vault.read(source)
        except VaultError:
            continue  # not UTF-8: no links we could rewrite safely
        if snapshot is not None:
            snapshots[source] = snapshot
    plan = plan_moves({p: s.text for p, s in snapshots.items()}, moves, graph.paths)
    return plan, snapshots


def on_moves(ctx: Context, moves: dict[str, str], pending: dict[str, str] | None = None) -> MoveReport:
    """Repair links for ``moves``; ``pending`` holds moves still to make on disk (old → digest)."""
    plan, snapshots = plan_for_moves(ctx, moves)
    for old, expect in (pending or {}).items():
        ctx.vault.move(old, moves[old], expect)
    inverse = {new: old for old, new in moves.items()}
    for target, text in plan.items():
        source = inverse.get(target, target)
        _rewrite_links(ctx, target, text, snapshots[source].digest, source, moves)
    ctx.graph.apply_moves(moves)  # re-reads the moved files
    ctx.graph.sync(set(plan) - set(moves.values()))
    return MoveReport(dict(moves), tuple(sorted(plan)))


def _rewrite_links(ctx: Context, path: str, text: str, expect: str, source: str, moves: dict[str, str]) -> None:
    """Write one planned rewrite; if the file changed meanwhile, re-plan it from its fresh text."""
    for _ in range(ATTEMPTS):
        try:
            ctx.vault.write(path, text, expect)
            return
        except ConflictError:
            fresh = ctx.vault.read(path)
            if fresh is None:
                return
            replanned = plan_moves({source: fresh.text}, moves, ctx.graph.paths)
            if path not in replanned:
                return
            text, expect = replanned[path], fresh.digest
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
    if changes.deleted and changes.added:  # a move needs both ends: otherwise nothing to pair
        indexed = graph.index.notes()
        fresh = {p: found[0] for p in changes.added if (found := graph.read(p)) is not None}
        moves = detect_moves({p: indexed[p] for p in changes.deleted}, fresh)
    if moves:
        on_moves(ctx, moves)
    graph.sync(set(changes.added) | set(changes.modified) | set(changes.deleted) - set(moves) - set(moves.values()))
    return changes
