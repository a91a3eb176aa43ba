"""The hard renames of issue 11: quick successive moves, renames Obsidian already handled,
checkouts while stopped, and moves into a folder created a moment before.

Watcher decisions are driven by events built in code with an explicit clock (no sleeps);
the files are really moved on disk first, as the watcher would have seen them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.config import Config
from daemon.app import build
from daemon.links.events import CREATED, DELETED, MODIFIED, MOVED, FileEvent
from daemon.links.moves import Tracker
from daemon.pipeline import Context
from daemon.pipeline.renames import apply_actions, reconcile


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def mv(root: Path, old: str, new: str) -> FileEvent:
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    is_dir = (root / old).is_dir()
    (root / old).rename(root / new)
    return FileEvent(MOVED, old, new, is_dir=is_dir)


def settled(ctx: Context, root: Path) -> None:
    """The periodic reconcile, a restart-style catch-up: links must stay resolved and text unchanged."""
    before = {p: (root / p).read_text() for p in ("src.md",)}
    reconcile(ctx)
    assert {p: (root / p).read_text() for p in before} == before
    assert not [r.raw for r in ctx.graph.index.broken() if r.source == "src.md"]


# ------------------------------------------------------------ item 2: quick successive moves
def test_a_chain_of_moves_in_one_batch_is_one_move(ctx: Context, vault_root: Path) -> None:
    write(vault_root, "A.md", "alpha\n")
    write(vault_root, "src.md", "[[A]] and [a](A.md)\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    actions = tracker.feed([mv(vault_root, "A.md", "B.md"), mv(vault_root, "B.md", "C.md")], now=1.0)
    assert actions.moves == {"A.md": "C.md"}
    apply_actions(ctx, actions)
    assert (vault_root / "src.md").read_text() == "[[C]] and [a](C.md)\n"
    assert ctx.graph.index.note("B.md") is None
    settled(ctx, vault_root)


def test_a_rename_and_its_undo_is_no_move(ctx: Context, vault_root: Path) -> None:
    write(vault_root, "A.md", "alpha\n")
    write(vault_root, "src.md", "[[A]]\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    actions = tracker.feed([mv(vault_root, "A.md", "B.md"), mv(vault_root, "B.md", "A.md")], now=1.0)
    assert not actions.moves
    apply_actions(ctx, actions)
    assert (vault_root / "src.md").read_text() == "[[A]]\n"
    assert [r.resolved for r in ctx.graph.index.links_from("src.md")] == ["A.md"]
    settled(ctx, vault_root)


def test_a_swap_through_a_temporary_name_is_two_moves(ctx: Context, vault_root: Path) -> None:
    write(vault_root, "A.md", "alpha\n")
    write(vault_root, "B.md", "beta\n")
    write(vault_root, "src.md", "[[A]] then [[B]]\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    events = [mv(vault_root, "A.md", "tmp.md"), mv(vault_root, "B.md", "A.md"), mv(vault_root, "tmp.md", "B.md")]
    actions = tracker.feed(events, now=1.0)
    assert actions.moves == {"A.md": "B.md", "B.md": "A.md"}
    apply_actions(ctx, actions)
    assert (vault_root / "src.md").read_text() == "[[B]] then [[A]]\n"
    assert ctx.graph.index.note("A.md").hash != ctx.graph.index.note("B.md").hash  # type: ignore[union-attr]
    assert {r.target: r.resolved for r in ctx.graph.index.links_from("src.md")} == {"B": "B.md", "A": "A.md"}
    settled(ctx, vault_root)


@pytest.mark.parametrize("folder_first", [True, False])
def test_a_folder_rename_with_a_file_rename_inside_it(ctx: Context, vault_root: Path, folder_first: bool) -> None:
    write(vault_root, "dir/x.md", "ex\n")
    write(vault_root, "dir/keep.md", "keep\n")
    write(vault_root, "src.md", "[[dir/x]] [[dir/keep]]\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    if folder_first:
        events = [mv(vault_root, "dir", "dir2"),
                  FileEvent(MOVED, "dir/x.md", "dir2/x.md"),  # watchdog's echo for each file in the folder
                  FileEvent(MOVED, "dir/keep.md", "dir2/keep.md"),
                  mv(vault_root, "dir2/x.md", "dir2/y.md")]
    else:
        events = [mv(vault_root, "dir/x.md", "dir/y.md"), mv(vault_root, "dir", "dir2")]
    actions = tracker.feed(events, now=1.0)
    assert actions.moves == {"dir/x.md": "dir2/y.md", "dir/keep.md": "dir2/keep.md"}
    apply_actions(ctx, actions)
    assert (vault_root / "src.md").read_text() == "[[y]] [[keep]]\n"  # unique names: the shortest form
    settled(ctx, vault_root)


def test_a_move_whose_file_moved_on_before_its_batch_ran(ctx: Context, vault_root: Path) -> None:
    """Two batches: the first names a destination that is already gone again."""
    write(vault_root, "A.md", "alpha\n")
    write(vault_root, "src.md", "[[A]]\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    first, second = mv(vault_root, "A.md", "B.md"), mv(vault_root, "B.md", "C.md")
    apply_actions(ctx, tracker.feed([first], now=1.0))
    apply_actions(ctx, tracker.feed([second], now=1.5))
    assert (vault_root / "src.md").read_text() == "[[C]]\n"
    settled(ctx, vault_root)


def test_a_storm_of_double_renames_keeps_every_link(ctx: Context, vault_root: Path) -> None:
    n = 60
    for i in range(n):
        write(vault_root, f"n/note{i}.md", f"note {i}\n")
    write(vault_root, "src.md", "".join(f"[[note{i}]] " for i in range(n)) + "\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    events = [mv(vault_root, f"n/note{i}.md", f"n/mid{i}.md") for i in range(n)]
    events += [mv(vault_root, f"n/mid{i}.md", f"n/last{i}.md") for i in range(n)]
    for start in range(0, len(events), 25):  # batches cut at arbitrary points
        apply_actions(ctx, tracker.feed(events[start:start + 25], now=1.0 + start))
    assert (vault_root / "src.md").read_text() == "".join(f"[[last{i}]] " for i in range(n)) + "\n"
    settled(ctx, vault_root)


# ---------------------------------------- item 1: a rename Obsidian handled, onto a taken name
def gamma_vault(ctx: Context, root: Path, bystander: bool = False) -> None:
    write(root, "rel/Gamma.md", "the first gamma\n")
    write(root, "Epsilon.md", "epsilon\n")
    write(root, "src.md", "[[Gamma]] and [[Epsilon]]\n")
    if bystander:  # a note nobody rewrote: its bare link is still pinned (U4)
        write(root, "other.md", "[[Gamma]] and [[Epsilon]]\n")
    reconcile(ctx)


OBSIDIAN_REWRITE = "[[rel/Gamma]] and [[Gamma]]\n"


@pytest.mark.parametrize("write_first", [True, False])
def test_a_rename_obsidian_handled_onto_a_taken_name_live(ctx: Context, vault_root: Path, write_first: bool) -> None:
    gamma_vault(ctx, vault_root, bystander=True)
    tracker = Tracker(ctx.graph)
    if write_first:
        write(vault_root, "src.md", OBSIDIAN_REWRITE)
        events = [FileEvent(MODIFIED, "src.md"), mv(vault_root, "Epsilon.md", "Gamma.md")]
    else:
        events = [mv(vault_root, "Epsilon.md", "Gamma.md")]
        write(vault_root, "src.md", OBSIDIAN_REWRITE)
        events.append(FileEvent(MODIFIED, "src.md"))
    apply_actions(ctx, tracker.feed(events, now=1.0))
    assert (vault_root / "src.md").read_text() == OBSIDIAN_REWRITE
    assert {r.raw: r.resolved for r in ctx.graph.index.links_from("src.md")} == {
        "[[rel/Gamma]]": "rel/Gamma.md", "[[Gamma]]": "Gamma.md"}
    assert (vault_root / "other.md").read_text() == OBSIDIAN_REWRITE  # unchanged since indexed: pinned


def test_obsidians_write_landing_after_the_move_was_seen(ctx: Context, vault_root: Path) -> None:
    gamma_vault(ctx, vault_root)
    tracker = Tracker(ctx.graph)
    actions = tracker.feed([mv(vault_root, "Epsilon.md", "Gamma.md")], now=1.0)
    write(vault_root, "src.md", OBSIDIAN_REWRITE)  # lands before the plan reads the file
    apply_actions(ctx, actions)
    apply_actions(ctx, tracker.feed([FileEvent(MODIFIED, "src.md")], now=1.5))
    assert (vault_root / "src.md").read_text() == OBSIDIAN_REWRITE


def test_a_rename_obsidian_handled_onto_a_taken_name_offline(ctx: Context, vault_root: Path, config: Config) -> None:
    gamma_vault(ctx, vault_root)
    ctx.graph.index.close()
    mv(vault_root, "Epsilon.md", "Gamma.md")
    write(vault_root, "src.md", OBSIDIAN_REWRITE)
    fresh = build(config)
    assert (vault_root / "src.md").read_text() == OBSIDIAN_REWRITE
    assert not fresh.graph.index.broken()
    fresh.graph.index.close()


# ------------------------------------------------- item 5: a git checkout while stopped
def test_a_checkout_while_stopped_is_not_a_rename(ctx: Context, vault_root: Path, config: Config) -> None:
    write(vault_root, "Dupe.md", "body B\n")
    write(vault_root, "aa/Dupe.md", "the other dupe\n")
    write(vault_root, "src.md", "[[aa/Dupe]] and [[Dupe]]\n")
    write(vault_root, "Old.md", "a unique body\n")
    write(vault_root, "edited.md", "[[Old]]\n")
    reconcile(ctx)
    ctx.graph.index.close()
    mv(vault_root, "Dupe.md", "Delta.md")  # the branch switch: same body under a new name...
    write(vault_root, "src.md", "[[Dupe]] and [[Delta]]\n")  # ...and the other branch's text
    mv(vault_root, "Old.md", "New.md")  # a plain rename, and an edit to a note linking to it
    write(vault_root, "edited.md", "[[Old]]\nand a line typed meanwhile\n")
    fresh = build(config)  # what `memvault reindex` and a daemon start do first
    assert (vault_root / "src.md").read_text() == "[[Dupe]] and [[Delta]]\n"
    # In an edited note, a link the rename left broken is still repaired.
    assert (vault_root / "edited.md").read_text() == "[[New]]\nand a line typed meanwhile\n"
    assert {r.raw: r.resolved for r in fresh.graph.index.links_from("src.md")} == {
        "[[Dupe]]": "aa/Dupe.md", "[[Delta]]": "Delta.md"}
    fresh.graph.index.close()


# -------------------------------------------- item 4: a move into a folder created just before
def test_a_file_found_in_a_new_folder_before_the_original_vanished(ctx: Context, vault_root: Path) -> None:
    gamma_vault(ctx, vault_root)
    tracker = Tracker(ctx.graph)
    (vault_root / "x").mkdir()
    (vault_root / "Epsilon.md").rename(vault_root / "x/Gamma.md")
    # The watch on the new folder lists it late: its file is reported before the deletion.
    apply_actions(ctx, tracker.feed([FileEvent(CREATED, "x", is_dir=True), FileEvent(CREATED, "x/Gamma.md")], now=1.0))
    apply_actions(ctx, tracker.feed([FileEvent(DELETED, "Epsilon.md")], now=1.2))
    assert (vault_root / "src.md").read_text() == "[[rel/Gamma]] and [[x/Gamma]]\n"


def test_a_move_event_into_a_new_folder(ctx: Context, vault_root: Path) -> None:
    gamma_vault(ctx, vault_root)
    tracker = Tracker(ctx.graph)
    (vault_root / "x").mkdir()
    events = [FileEvent(CREATED, "x", is_dir=True), mv(vault_root, "Epsilon.md", "x/Gamma.md")]
    apply_actions(ctx, tracker.feed(events, now=1.0))
    assert (vault_root / "src.md").read_text() == "[[rel/Gamma]] and [[x/Gamma]]\n"


# ------------------------------------------- issue 17 item 4: big folder moves, bounded work
def test_a_folder_move_lists_the_vault_once_not_once_per_subfolder(ctx: Context, vault_root: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(20):
        write(vault_root, f"big/sub{i}/n{i}.md", f"note {i}\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    (vault_root / "big").rename(vault_root / "archive")
    # watchdog reports the folder, then each subfolder and file inside it, as moves too
    events = [FileEvent(MOVED, "big", "archive", is_dir=True)]
    events += [FileEvent(MOVED, f"big/sub{i}", f"archive/sub{i}", is_dir=True) for i in range(20)]
    events += [FileEvent(MOVED, f"big/sub{i}/n{i}.md", f"archive/sub{i}/n{i}.md") for i in range(20)]
    listed: list[int] = []
    real = ctx.graph.paths.paths
    monkeypatch.setattr(ctx.graph.paths, "paths", lambda: (listed.append(1), real())[1])
    actions = tracker.feed(events, now=1.0)
    assert actions.moves == {f"big/sub{i}/n{i}.md": f"archive/sub{i}/n{i}.md" for i in range(20)}
    assert len(listed) <= 1


def test_planning_a_move_does_not_copy_the_vaults_path_list(monkeypatch: pytest.MonkeyPatch) -> None:
    from daemon.links.plan import plan_moves
    from daemon.links.resolve import PathIndex

    index = PathIndex([f"f{i}/n{i}.md" for i in range(500)] + ["Old.md", "src.md", "a/Other.md"])
    listed: list[int] = []
    real = index.paths
    monkeypatch.setattr(index, "paths", lambda: (listed.append(1), real())[1])
    out = plan_moves({"src.md": "[[Old]] [[Other]]\n"}, {"Old.md": "x/New.md", "a/Other.md": "Other.md"}, index)
    assert out == {"src.md": "[[New]] [[Other]]\n"} and not listed


def test_a_big_folder_move_is_planned_and_written_in_bounded_chunks(ctx: Context, vault_root: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from daemon.pipeline import renames

    for i in range(23):
        write(vault_root, f"big/n{i}.md", f"[[big/n{(i + 1) % 23}]] and [[big/n{(i + 2) % 23}]]\n")
    write(vault_root, "src.md", "".join(f"[[big/n{i}]] " for i in range(23)) + "\n")
    reconcile(ctx)
    monkeypatch.setattr(renames, "CHUNK", 5)
    held: list[int] = []
    real = renames.plan_moves
    monkeypatch.setattr(renames, "plan_moves", lambda files, *rest: (held.append(len(files)), real(files, *rest))[1])
    (vault_root / "big").rename(vault_root / "archive")
    apply_actions(ctx, Tracker(ctx.graph).feed([FileEvent(MOVED, "big", "archive", is_dir=True)], now=1.0))
    assert held and max(held) <= 5 and sum(held) == 24
    assert (vault_root / "src.md").read_text() == "".join(f"[[n{i}]] " for i in range(23)) + "\n"
    assert (vault_root / "archive/n0.md").read_text() == "[[n1]] and [[n2]]\n"
    assert not ctx.graph.index.broken()
