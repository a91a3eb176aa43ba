"""Watcher decisions, driven by events built in code with an explicit clock (no sleeps)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from daemon.links.moves import Tracker
from daemon.links.resolve import PathIndex
from daemon.pipeline import Context, auto_memory
from daemon.pipeline import renames
from daemon.pipeline.renames import apply_actions, reconcile
from daemon.runtime.watcher import CREATED, DELETED, MODIFIED, MOVED, FileEvent
from conftest import snapshot_tree

# The links with their paths, as the table held them before migration 0008 (no rowid: it differs
# between an index kept up to date and a rebuild).
LINK_PATHS = ('SELECT source, kind, embed, raw, target, target_name, subpath, alias, start, "end", line, key, '
              "resolved FROM link_paths")


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def setup_vault(ctx: Context, root: Path) -> Tracker:
    write(root, "notes/Plan.md", "# Plan\n## Goals\n")
    write(root, "notes/b.md", "see [[Plan#Goals]] and ![[Plan]] and [x](Plan.md)\n")
    write(root, "c.md", "| a | [[notes/Plan\\|the plan]] |\n")
    reconcile(ctx)
    return Tracker(ctx.graph, grace=2.0)


def test_a_move_event_rewrites_inbound_links(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    (vault_root / "notes/Plan.md").rename(vault_root / "Roadmap.md")
    actions = tracker.feed([FileEvent(MOVED, "notes/Plan.md", "Roadmap.md")], now=10.0)
    assert actions.moves == {"notes/Plan.md": "Roadmap.md"}
    apply_actions(ctx, actions)
    assert (vault_root / "notes/b.md").read_text() == "see [[Roadmap#Goals]] and ![[Roadmap]] and [x](../Roadmap.md)\n"
    assert (vault_root / "c.md").read_text() == "| a | [[Roadmap\\|the plan]] |\n"
    assert [r.source for r in ctx.graph.index.backlinks("Roadmap.md")] == ["c.md", "notes/b.md", "notes/b.md",
                                                                             "notes/b.md"]


def test_a_folder_move_moves_every_file(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    (vault_root / "notes").rename(vault_root / "archive")
    actions = tracker.feed([FileEvent(MOVED, "notes", "archive", is_dir=True)], now=1.0)
    assert actions.moves == {"notes/Plan.md": "archive/Plan.md", "notes/b.md": "archive/b.md"}
    apply_actions(ctx, actions)
    assert (vault_root / "c.md").read_text() == "| a | [[Plan\\|the plan]] |\n"  # a unique name: shortest form
    assert (vault_root / "archive/b.md").read_text() == "see [[Plan#Goals]] and ![[Plan]] and [x](Plan.md)\n"


def test_delete_then_create_with_the_same_content_is_a_move(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    content = (vault_root / "notes/Plan.md").read_text()
    (vault_root / "notes/Plan.md").unlink()
    assert not tracker.feed([FileEvent(DELETED, "notes/Plan.md")], now=1.0)
    assert tracker.pending()
    write(vault_root, "projects/Plan 2.md", content)
    actions = tracker.feed([FileEvent(CREATED, "projects/Plan 2.md")], now=1.5)
    assert actions.moves == {"notes/Plan.md": "projects/Plan 2.md"} and not tracker.pending()
    apply_actions(ctx, actions)
    assert "[[Plan 2#Goals]]" in (vault_root / "notes/b.md").read_text()


def test_copy_then_delete_is_a_move(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    write(vault_root, "Copied.md", (vault_root / "notes/Plan.md").read_text())
    first = tracker.feed([FileEvent(CREATED, "Copied.md")], now=1.0)
    assert first.sync == {"Copied.md"} and not first.moves
    apply_actions(ctx, first)
    (vault_root / "notes/Plan.md").unlink()
    second = tracker.feed([FileEvent(DELETED, "notes/Plan.md")], now=1.2)
    assert second.moves == {"notes/Plan.md": "Copied.md"}
    apply_actions(ctx, second)
    assert "[[Copied#Goals]]" in (vault_root / "notes/b.md").read_text()


def test_a_deletion_is_final_after_the_grace_period(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    (vault_root / "notes/Plan.md").unlink()
    tracker.feed([FileEvent(DELETED, "notes/Plan.md")], now=1.0)
    assert not tracker.feed([], now=2.5)
    actions = tracker.feed([], now=3.0)
    assert actions.sync == {"notes/Plan.md"}
    apply_actions(ctx, actions)
    assert ctx.graph.index.note("notes/Plan.md") is None
    assert {r.target for r in ctx.graph.index.broken()} >= {"Plan", "notes/Plan"}
    assert (vault_root / "notes/b.md").read_text() == "see [[Plan#Goals]] and ![[Plan]] and [x](Plan.md)\n"


def test_an_editor_saving_through_a_temp_file_is_a_modification(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    write(vault_root, "notes/b.md", "now [[c]]\n")
    actions = tracker.feed([FileEvent(CREATED, "notes/.b.md.swp"), FileEvent(MOVED, "notes/.b.md.swp", "notes/b.md")],
                           now=1.0)
    assert actions.sync == {"notes/b.md"} and not actions.moves
    apply_actions(ctx, actions)
    assert [r.resolved for r in ctx.graph.index.links_from("notes/b.md")] == ["c.md"]


def test_the_daemon_ignores_its_own_writes(ctx: Context, vault_root: Path) -> None:
    tracker = Tracker(ctx.graph)
    result = auto_memory(ctx, "s", [{"role": "user", "content": "hello there", "created_at": "2023-01-19T08:00:00"}])
    before = snapshot_tree(vault_root)
    events = [FileEvent(CREATED, result["metadata"]["path"]), FileEvent(MODIFIED, result["metadata"]["path"]),
              FileEvent(CREATED, "daily/2023-01-19.md"), FileEvent(CREATED, "session/dialog/s.jsonl"),
              FileEvent(CREATED, "daily/2023-01-19/.topic.md.memvault-1234.tmp")]
    actions = tracker.feed(events, now=1.0)
    assert not actions
    apply_actions(ctx, actions)
    assert snapshot_tree(vault_root) == before


def test_a_rename_obsidian_already_handled_writes_nothing(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    (vault_root / "notes/Plan.md").rename(vault_root / "notes/Roadmap.md")
    write(vault_root, "notes/b.md", "see [[Roadmap#Goals]] and ![[Roadmap]] and [x](Roadmap.md)\n")
    write(vault_root, "c.md", "| a | [[notes/Roadmap\\|the plan]] |\n")
    before = snapshot_tree(vault_root)
    actions = tracker.feed([FileEvent(MOVED, "notes/Plan.md", "notes/Roadmap.md"),
                            FileEvent(MODIFIED, "notes/b.md"), FileEvent(MODIFIED, "c.md")], now=1.0)
    apply_actions(ctx, actions)
    assert snapshot_tree(vault_root) == before
    assert len(ctx.graph.index.backlinks("notes/Roadmap.md")) == 4


def test_case_only_rename(ctx: Context, vault_root: Path) -> None:
    tracker = setup_vault(ctx, vault_root)
    before = {p: (vault_root / p).read_bytes() for p in ("notes/b.md", "c.md")}
    (vault_root / "notes/Plan.md").rename(vault_root / "notes/plan.md")
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "notes/Plan.md", "notes/plan.md")], now=1.0))
    assert {p: (vault_root / p).read_bytes() for p in ("notes/b.md", "c.md")} == before
    assert len(ctx.graph.index.backlinks("notes/plan.md")) == 4


def test_a_rename_making_a_name_ambiguous_pins_the_other_files_links(ctx: Context, vault_root: Path) -> None:
    write(vault_root, "a/Note.md", "first")
    write(vault_root, "b/Other.md", "second")
    write(vault_root, "x.md", "[[Note]] and [[Other]]\n")
    reconcile(ctx)
    tracker = Tracker(ctx.graph)
    (vault_root / "b/Other.md").rename(vault_root / "Note.md")
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "b/Other.md", "Note.md")], now=1.0))
    assert (vault_root / "x.md").read_text() == "[[a/Note]] and [[Note]]\n"


def _all_rows(ctx: Context) -> tuple[list[tuple[object, ...]], ...]:
    db = ctx.graph.index.db
    queries = ["SELECT * FROM notes", LINK_PATHS, "SELECT * FROM tags",
               "SELECT path, kind, day, project, project_key, session_id FROM search_docs"]
    return tuple(sorted(db.execute(q).fetchall(), key=repr) for q in queries)


def assert_index_equals_a_rebuild(ctx: Context) -> None:
    incremental = _all_rows(ctx)
    ctx.graph.rebuild()
    assert _all_rows(ctx) == incremental


def record_reads(ctx: Context, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The vault paths the graph reads from now on, in order."""
    read: list[str] = []
    real = ctx.graph.read
    monkeypatch.setattr(ctx.graph, "read", lambda rel: (read.append(rel), real(rel))[1])
    return read


def test_moved_files_whose_bytes_did_not_change_are_not_read_again(ctx: Context, vault_root: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 item 4: their rows move as they are; the index then equals a rebuild's."""
    files = {"proj/a.md": "[[proj/sub/c]] #alpha\n",  # a path link into the folder: rewritten
             "proj/sub/c.md": "---\nmemory_tags: [beta]\n---\n[[d]] [y](../a.md) [[./ghost]]\n",
             "proj/card.md": "---\nsession_id: s1\n---\nbody [[d]]\n",  # searchable: its row names its folder
             "proj/img.png": "png", "d.md": "[[c]] [[proj/card]] [[b]]\n",
             "solo/b.md": "[[./g]] [[d]]\n",  # ./g resolves only once the note sits beside other/g.md
             "other/g.md": "g\n"}
    for rel, text in files.items():
        write(vault_root, rel, text)
    tracker = Tracker(ctx.graph, grace=2.0)
    reconcile(ctx)
    (vault_root / "arch").mkdir()
    (vault_root / "proj").rename(vault_root / "arch/proj")
    (vault_root / "solo/b.md").rename(vault_root / "other/b.md")
    read = record_reads(ctx, monkeypatch)
    actions = tracker.feed([FileEvent(MOVED, "proj", "arch/proj", is_dir=True),
                            FileEvent(MOVED, "solo/b.md", "other/b.md")], now=1.0)
    apply_actions(ctx, actions)
    assert len(actions.moves) == 5
    assert (vault_root / "arch/proj/a.md").read_text() == "[[c]] #alpha\n"  # a unique name: shortest form
    assert not {"arch/proj/sub/c.md", "arch/proj/img.png", "other/b.md"} & set(read)
    assert "arch/proj/card.md" in read  # searchable: its search row names its folder
    assert "arch/proj/a.md" not in read  # rewritten: indexed from the text written and the plan's links
    assert [r.resolved for r in ctx.graph.index.links_from("other/b.md")] == ["other/g.md", "d.md"]
    assert_index_equals_a_rebuild(ctx)


def test_referrers_whose_links_stay_right_are_not_read(ctx: Context, vault_root: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder move reads only the referrers that may need a rewrite, and any edited since indexed."""
    write(vault_root, "proj/Plan.md", "# Plan\n")
    write(vault_root, "by name.md", "[[Plan]] and [[elsewhere]]\n")  # a unique name: still right after the move
    write(vault_root, "by path.md", "[[proj/Plan]]\n")  # names the old folder: rewritten
    write(vault_root, "edited.md", "[[Plan]]\n")
    write(vault_root, "elsewhere.md", "x\n")
    tracker = Tracker(ctx.graph, grace=2.0)
    reconcile(ctx)
    write(vault_root, "edited.md", "[[Plan]] now also [[proj/Plan|by its path]]\n")  # not yet seen by the index
    (vault_root / "proj").rename(vault_root / "archive")
    read: list[str] = []
    real = ctx.vault.read
    monkeypatch.setattr(ctx.vault, "read", lambda rel: (read.append(rel), real(rel))[1])
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "archive", is_dir=True)], now=1.0))
    assert "by name.md" not in read and {"by path.md", "edited.md"} <= set(read)
    assert (vault_root / "by path.md").read_text() == "[[Plan]]\n"
    assert (vault_root / "edited.md").read_text() == "[[Plan]] now also [[Plan|by its path]]\n"
    assert (vault_root / "by name.md").read_text() == "[[Plan]] and [[elsewhere]]\n"


BODY = "First line of note {0}.\nSecond line of note {0}.\nThird line of note {0}.\n"  # pairs it when edited


def _folder_with_referrers(ctx: Context, root: Path, count: int) -> Tracker:
    """``proj/`` with ``count`` notes, each named by its path from a referrer outside it, and one inside."""
    for i in range(count):
        write(root, f"proj/n{i}.md", f"# n{i}\n{BODY.format(i)}[[proj/n{(i + 1) % count}]] #t{i}\n")
        write(root, f"ref{i}.md", f"---\nmemory_tags: [r]\n---\nsee [[proj/n{i}]] and [x](proj/n{i}.md)\n")
    tracker = Tracker(ctx.graph, grace=2.0)
    reconcile(ctx)
    (root / "proj").rename(root / "arch")
    return tracker


def test_a_moves_rewrites_are_flushed_once_per_chunk(ctx: Context, vault_root: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Not once per file: each chunk's texts are staged, flushed together, then put in place."""
    tracker = _folder_with_referrers(ctx, vault_root, 5)
    monkeypatch.setattr(renames, "CHUNK", 3)
    flushes: list[int] = []
    monkeypatch.setattr(os, "sync", lambda: flushes.append(len(list(vault_root.rglob("*.tmp")))))
    monkeypatch.setattr(os, "fsync", lambda fd: pytest.fail("a rewrite flushed on its own"))
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    assert (vault_root / "ref0.md").read_text() == "---\nmemory_tags: [r]\n---\nsee [[n0]] and [x](arch/n0.md)\n"
    assert (vault_root / "arch/n4.md").read_text() == f"# n4\n{BODY.format(4)}[[n0]] #t4\n"
    assert flushes == [3, 3, 3, 1]  # 10 files rewritten, 3 a chunk: every staged file in one flush


def test_a_rewritten_referrer_is_indexed_from_the_text_written(ctx: Context, vault_root: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Not read back: the index then equals a rebuild's, and the watcher's echo is no change."""
    tracker = _folder_with_referrers(ctx, vault_root, 5)
    read = record_reads(ctx, monkeypatch)
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    assert not [p for p in read if p.startswith("ref")]
    assert [r.resolved for r in ctx.graph.index.links_from("ref2.md")] == ["arch/n2.md", "arch/n2.md"]
    assert not tracker.feed([FileEvent(MODIFIED, f"ref{i}.md") for i in range(5)], now=2.0)
    monkeypatch.undo()
    assert_index_equals_a_rebuild(ctx)


@pytest.mark.parametrize("held", [renames.UNSETTLED_MAX, 0])
def test_a_move_reads_only_the_referrers_whose_links_may_change(ctx: Context, vault_root: Path,
                                                              monkeypatch: pytest.MonkeyPatch, held: int) -> None:
    """The links asking for the moved names are judged once, by name (``_unsettled``), or, beyond
    UNSETTLED_MAX of them to hold, a chunk of referrers at a time: the same referrers are read and
    rewritten either way. A unique name that moves stays right from every note (not read); a path
    changes from every note; a name two files carry is judged from each note (here: still right)."""
    write(vault_root, "proj/a.md", "a\n")
    write(vault_root, "proj/twin.md", "inside\n")
    write(vault_root, "other/twin.md", "outside\n")
    write(vault_root, "bare.md", "[[a]] and [t](a.md)\n")  # stays from any note
    write(vault_root, "path.md", "[[proj/a]]\n")  # changes from any note
    write(vault_root, "proj2/near.md", "[[twin]]\n")  # the shortest path: proj/twin.md, then arch/twin.md, as it was
    write(vault_root, "other/close.md", "[[twin]]\n")  # its folder's twin, before and after
    tracker = Tracker(ctx.graph, grace=2.0)
    reconcile(ctx)
    (vault_root / "proj").rename(vault_root / "arch")
    monkeypatch.setattr(renames, "CHUNK", 2)
    monkeypatch.setattr(renames, "UNSETTLED_MAX", held)
    read: list[str] = []
    real = ctx.vault.read
    monkeypatch.setattr(ctx.vault, "read", lambda rel: (read.append(rel), real(rel))[1])
    report = renames.on_moves(ctx, dict(tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0).moves))
    assert sorted(p for p in read if not p.startswith(("arch/", ".obsidian"))) == ["path.md"]
    assert report.rewritten == ("path.md",)
    assert (vault_root / "path.md").read_text() == "[[a]]\n"  # the shortest form: one file carries it
    monkeypatch.undo()
    assert_index_equals_a_rebuild(ctx)


def test_rewritten_moved_notes_beyond_those_held_are_read_back(ctx: Context, vault_root: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Up to MOVED_HELD moved notes the move rewrote wait, text and links, for their rows to follow
    (bounded memory); the others are read back. Either way the index equals a rebuild's."""
    tracker = _folder_with_referrers(ctx, vault_root, 5)  # each arch/n{i} names the next by its old path
    monkeypatch.setattr(renames, "MOVED_HELD", 2)
    read = record_reads(ctx, monkeypatch)
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    assert len([p for p in read if p.startswith("arch/n")]) == 3
    monkeypatch.undo()
    assert_index_equals_a_rebuild(ctx)


def test_a_referrer_edited_during_the_move_is_planned_again(ctx: Context, vault_root: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Changed between its read and its write: refused alone, planned from its new text, then read back."""
    tracker = _folder_with_referrers(ctx, vault_root, 3)
    real = ctx.vault.write_all

    def edit_first(writes: dict[str, tuple[str, str]]) -> dict[str, object]:
        write(vault_root, "ref1.md", "now [[proj/n1]] only\n")
        return real(writes)

    monkeypatch.setattr(ctx.vault, "write_all", edit_first)
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    assert (vault_root / "ref1.md").read_text() == "now [[n1]] only\n"
    assert (vault_root / "ref0.md").read_text() == "---\nmemory_tags: [r]\n---\nsee [[n0]] and [x](arch/n0.md)\n"
    monkeypatch.undo()
    assert_index_equals_a_rebuild(ctx)


class Crash(Exception):
    pass


@pytest.mark.parametrize("where", ["last chunk", "rows"])
def test_a_move_interrupted_midway_converges_at_the_next_start(ctx: Context, vault_root: Path,
                                                               monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """Killed after some chunks were written (and some indexed from their text): the next start's
    reconcile finds the move again, rewrites the rest, and the index equals a rebuild's."""
    tracker = _folder_with_referrers(ctx, vault_root, 5)
    monkeypatch.setattr(renames, "CHUNK", 3)
    monkeypatch.setattr(renames, "INDEX_BATCH", 3)  # rows of the first chunk committed before the crash
    calls: list[int] = []
    real = ctx.vault.write_all

    def write_all(writes: dict[str, tuple[str, str]]) -> dict[str, object]:
        calls.append(len(writes))
        if where == "last chunk" and len(calls) == 4:  # 10 rewrites, 3 a chunk: ref0-3 written and indexed
            raise Crash
        return real(writes)

    monkeypatch.setattr(ctx.vault, "write_all", write_all)
    if where == "rows":
        monkeypatch.setattr(ctx.graph, "apply_moves", lambda *args: (_ for _ in ()).throw(Crash()))
    with pytest.raises(Crash):
        apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    monkeypatch.undo()
    ctx.graph.paths = PathIndex(ctx.graph.index.statuses())  # a new process: the path list from the index
    changes = reconcile(ctx)
    assert len(changes.moves) == 5
    for i in range(5):
        assert (vault_root / f"ref{i}.md").read_text() == (
            f"---\nmemory_tags: [r]\n---\nsee [[n{i}]] and [x](arch/n{i}.md)\n")
        assert (vault_root / f"arch/n{i}.md").read_text() == f"# n{i}\n{BODY.format(i)}[[n{(i + 1) % 5}]] #t{i}\n"
    assert not [p for p in vault_root.rglob("*") if p.name.endswith(".tmp")]
    assert_index_equals_a_rebuild(ctx)


def test_the_cycle_collector_is_held_off_during_a_move_and_resumes_after(ctx: Context, vault_root: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The repair runs with the collector off (its garbage is freed by reference counting); the
    files and the index come out as they would with it on."""
    tracker = _folder_with_referrers(ctx, vault_root, 5)
    seen: list[bool] = []
    real = renames._repair
    monkeypatch.setattr(renames, "_repair", lambda *args: (seen.append(gc.isenabled()), real(*args))[1])
    assert gc.isenabled()
    apply_actions(ctx, tracker.feed([FileEvent(MOVED, "proj", "arch", is_dir=True)], now=1.0))
    assert seen == [False] and gc.isenabled()
    assert (vault_root / "ref0.md").read_text() == "---\nmemory_tags: [r]\n---\nsee [[n0]] and [x](arch/n0.md)\n"
    monkeypatch.undo()
    assert_index_equals_a_rebuild(ctx)


def test_collector_pauses_nest_overlap_and_survive_errors() -> None:
    """The collector resumes when the last pause ends (two threads' pauses may end in either order),
    after an error too, and only if it was on when the first began."""
    first, second = renames.collector_paused(), renames.collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first to begin ends first: the other still runs
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()
    with pytest.raises(Crash):
        with renames.collector_paused():
            raise Crash
    assert gc.isenabled()
    gc.disable()
    try:
        with renames.collector_paused():
            pass
        assert not gc.isenabled()  # off before: left off
    finally:
        gc.enable()
