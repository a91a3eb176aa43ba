"""Keeping the index in step with files; detecting moves after downtime."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pytest

from daemon.links import graph as graph_module
from daemon.app import build
from daemon.config import Config
from daemon.links.graph import signature, tags_of
from daemon.links.pairing import detect_moves, similarity
from daemon.links.index import Index, NoteRow
from daemon.pipeline import Context
from daemon.pipeline.renames import reconcile


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def row(path: str, digest: str = "h", identity: str | None = None, sig: str = "") -> NoteRow:
    return NoteRow(path, 1, 1, digest, identity, sig)


def test_build_indexes_every_file_but_dot_folders_and_inbox(ctx: Context, vault_root: Path, config: Config) -> None:
    write(vault_root, "notes/a.md", "[[b]] #tag")
    write(vault_root, "inbox/export.json", "{}")
    write(vault_root, ".trash/old.md", "[[a]]")
    fresh = build(config)
    paths = set(fresh.graph.index.notes())
    assert "notes/a.md" in paths and "Memvault.md" in paths
    assert not any(p.startswith(("inbox/", ".")) for p in paths)
    assert fresh.graph.index.tagged("tag") == ["notes/a.md"]


def test_resolution_follows_files_appearing_and_vanishing(ctx: Context, vault_root: Path) -> None:
    write(vault_root, "a.md", "[[b]]")
    reconcile(ctx)
    assert [r.resolved for r in ctx.graph.index.links_from("a.md")] == [None]
    write(vault_root, "sub/b.md", "x")
    reconcile(ctx)
    assert [r.resolved for r in ctx.graph.index.links_from("a.md")] == ["sub/b.md"]
    write(vault_root, "b.md", "root wins")
    reconcile(ctx)
    assert [r.resolved for r in ctx.graph.index.links_from("a.md")] == ["b.md"]
    (vault_root / "b.md").unlink()
    (vault_root / "sub/b.md").unlink()
    reconcile(ctx)
    assert [r.target for r in ctx.graph.index.broken() if r.source == "a.md"] == ["b"]


def test_detect_moves_by_hash_identity_then_similarity() -> None:
    text = "\n".join(f"line {i}" for i in range(20))
    edited = text.replace("line 3", "line three") + "\nnew line"
    deleted = {"a.md": row("a.md", "h1"), "card.md": row("card.md", "h2", "session-1"),
               "long.md": row("long.md", "h3", None, signature(text)), "gone.md": row("gone.md", "h4")}
    added = {"x/a.md": row("x/a.md", "h1"), "renamed.md": row("renamed.md", "h9", "session-1"),
             "moved.md": row("moved.md", "h8", None, signature(edited)), "other.md": row("other.md", "h7")}
    assert detect_moves(deleted, added) == {"a.md": "x/a.md", "card.md": "renamed.md", "long.md": "moved.md"}
    assert similarity(signature(text), signature(edited)) > 0.5


def test_same_content_prefers_the_same_file_name() -> None:
    deleted = {"a/Note.md": row("a/Note.md", "h")}
    added = {"b/Other.md": row("b/Other.md", "h"), "c/Note.md": row("c/Note.md", "h")}
    assert detect_moves(deleted, added) == {"a/Note.md": "c/Note.md"}


def test_renames_while_down_are_repaired_at_start(ctx: Context, vault_root: Path, config: Config,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    write(vault_root, "notes/Plan.md", "# Plan\n## Goals\n")
    write(vault_root, "notes/Card.md", "---\nsession_id: s9\n---\nbody line one\nbody line two\n")
    write(vault_root, "index.md", "[[Plan#Goals|goals]] and [[notes/Card]] and [p](notes/Plan.md)\n")
    reconcile(ctx)
    ctx.graph.index.close()
    (vault_root / "notes/Plan.md").rename(vault_root / "Roadmap.md")                   # same content
    (vault_root / "notes/Card.md").rename(vault_root / "notes/Renamed card.md")        # renamed...
    (vault_root / "notes/Renamed card.md").write_text("---\nsession_id: s9\n---\nedited body\n")  # ...and edited

    def every_row(self: Index) -> None:
        raise AssertionError("a start needs paths, sizes and mtimes, not every row with its signature")

    monkeypatch.setattr(Index, "notes", every_row)
    fresh = build(config)
    assert (vault_root / "index.md").read_text() == (
        "[[Roadmap#Goals|goals]] and [[Renamed card]] and [p](Roadmap.md)\n")
    assert not fresh.graph.index.broken()


def test_inline_and_property_tags() -> None:
    text = "---\nmemory_tags: [Auth, JWT Tokens]\n---\n#project/alpha and `#notatag`\n```\n#nope\n```\n# Heading\n"
    tags = tags_of(text, {"memory_tags": ["Auth", "JWT Tokens"]}, "memory_tags")
    assert tags == [("auth", "property"), ("jwt_tokens", "property"), ("project/alpha", "inline")]


def test_a_rebuild_in_worker_processes_gives_the_same_rows(ctx: Context, vault_root: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(40):
        write(vault_root, f"f{i % 5}/n{i}.md", f"---\nsession_id: s{i}\nmemory_tags: [t{i % 3}]\n---\n"
                                               f"[[n{(i + 1) % 40}]] [x](../f{i % 5}/n{i}.md) #tag{i % 4} ![[img.png|9]]\n")
    write(vault_root, "img.png", "png")

    def rows() -> tuple[list[tuple[object, ...]], ...]:
        db = ctx.graph.index.db
        return tuple(sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                     for table in ("notes", "links", "tags"))

    ctx.graph.rebuild()
    here = rows()
    monkeypatch.setattr(graph_module, "PARALLEL_MIN", 1)
    monkeypatch.setattr(graph_module.os, "cpu_count", lambda: 2)
    calls: list[int] = []
    real = graph_module.Graph._parsed_in_workers
    monkeypatch.setattr(graph_module.Graph, "_parsed_in_workers",
                        lambda self, rels, workers: (calls.append(workers), (yield from real(self, rels, workers)))[1])
    ctx.graph.rebuild()
    assert calls == [2] and rows() == here


def test_detect_moves_does_not_compare_every_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """A branch switch deleting and adding many unrelated notes stays linear (issue 17 item 1)."""
    from daemon.links import pairing

    calls: list[int] = []
    real = pairing.similarity
    monkeypatch.setattr(pairing, "similarity", lambda a, b: (calls.append(1), real(a, b))[1])
    shared = "\n".join(["---", "title: x", "## Summary", "## Next steps"])  # lines every note has
    old = {f"old/{i}.md": row(f"old/{i}.md", f"o{i}", None, signature(f"{shared}\nold note {i} text\nline {i} two"))
           for i in range(300)}
    new = {f"new/{i}.md": row(f"new/{i}.md", f"n{i}", None, signature(f"{shared}\nnew note {i} text\nline {i} three"))
           for i in range(300)}
    edited = "\n".join(f"body line {j} of the renamed note" for j in range(12))
    old["old/renamed.md"] = row("old/renamed.md", "a", None, signature(edited))
    new["new/renamed, edited.md"] = row("new/renamed, edited.md", "b", None, signature(edited + "\none more line"))
    assert detect_moves(old, new) == {"old/renamed.md": "new/renamed, edited.md"}
    assert len(calls) < 3000  # all pairs would be 90,601


def _resolved_everywhere(ctx: Context) -> dict[tuple[str, int], str | None]:
    return {(r.source, r.start): r.resolved for p in ctx.graph.index.notes() for r in ctx.graph.index.links_from(p)}


def test_a_card_with_a_common_name_re_resolves_only_links_it_may_take(ctx: Context, vault_root: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for day in range(1, 21):  # twenty earlier cards called "topic", each linking to the name
        write(vault_root, f"daily/2026-01-{day:02d}/topic.md", "see [[topic]]")
    write(vault_root, "notes/hub.md", "[[topic]] [[daily/2026-03-01/topic]] [[missing]]")
    reconcile(ctx)
    assert [r.resolved for r in ctx.graph.index.links_from("daily/2026-01-09/topic.md")] == \
        ["daily/2026-01-09/topic.md"]
    assert [r.resolved for r in ctx.graph.index.links_from("notes/hub.md")][:2] == \
        ["daily/2026-01-01/topic.md", None]
    candidates: list[int] = []
    written: list[tuple[str | None, int]] = []
    find, store = ctx.graph.index.links_a_new_path_may_take, ctx.graph.index.set_resolved

    def finding(path: str) -> list[tuple[int, str, str, str, str | None]]:
        rows = find(path)
        candidates.extend(row[0] for row in rows)
        return rows

    def storing(updates: Iterable[tuple[str | None, int]]) -> None:
        updates = list(updates)
        written.extend(updates)
        store(updates)

    monkeypatch.setattr(ctx.graph.index, "links_a_new_path_may_take", finding)
    monkeypatch.setattr(ctx.graph.index, "set_resolved", storing)
    write(vault_root, "daily/2026-03-01/topic.md", "see [[topic]]")
    ctx.graph.sync(["daily/2026-03-01/topic.md"])
    # 22 links ask for "topic", but only two may switch to the new card: hub's path link and the
    # card's own link (in its folder). The twenty others resolve to a card no longer than it.
    assert len(candidates) == 2
    # The card's own link was resolved to it when the card was indexed: only hub's is written.
    hub_path_link = ctx.graph.index.links_from("notes/hub.md")[1]
    assert [resolved for resolved, _ in written] == ["daily/2026-03-01/topic.md"]
    assert hub_path_link.resolved == "daily/2026-03-01/topic.md"
    assert [r.resolved for r in ctx.graph.index.links_from("notes/hub.md")][:2] == \
        ["daily/2026-01-01/topic.md", "daily/2026-03-01/topic.md"]


def _steps_to_find_candidates(ctx: Context, path: str) -> int:
    """SQLite's virtual-machine steps (in hundreds) spent by ``links_a_new_path_may_take(path)``."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    ctx.graph.index.db.set_progress_handler(count, 100)
    try:
        ctx.graph.index.links_a_new_path_may_take(path)
    finally:
        ctx.graph.index.db.set_progress_handler(None, 0)
    return steps[0]


def test_finding_what_a_new_card_may_take_does_not_grow_with_the_links_of_its_name(ctx: Context,
                                                                                   vault_root: Path) -> None:
    def add_days(first: int, last: int) -> None:  # a card called "topic" a day, its daily page linking it by path
        for day in range(first, last):
            write(vault_root, f"daily/{day:04d}/topic.md", "see [[topic]] and [[notes/hub]]")
            write(vault_root, f"daily/{day:04d}.md", f"- [[daily/{day:04d}/topic|topic]]")
        reconcile(ctx)

    add_days(1000, 1030)
    small = _steps_to_find_candidates(ctx, "daily/9999/topic.md")
    add_days(1030, 1600)
    assert len(ctx.graph.index.links_naming(["topic"])) == 2 * 600
    assert _steps_to_find_candidates(ctx, "daily/9999/topic.md") <= small + 2  # 20 times the links, same work


def test_a_batch_resolves_links_to_its_own_new_files_without_a_search(ctx: Context, vault_root: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for day in range(1, 21):
        write(vault_root, f"daily/2026-01-{day:02d}/topic.md", "a card")
    reconcile(ctx)
    searches: list[str] = []
    real = ctx.graph.paths._by_suffix
    monkeypatch.setattr(ctx.graph.paths, "_by_suffix", lambda low: (searches.append(low), real(low))[1])
    write(vault_root, "daily/2026-02-01.md", "- [[daily/2026-02-01/topic|topic]]")  # sorts before its card
    write(vault_root, "daily/2026-02-01/topic.md", "a new card")
    ctx.graph.sync(["daily/2026-02-01.md", "daily/2026-02-01/topic.md"])
    assert searches == []  # the page's link found its card by its path, not among the 21 files called topic
    assert [r.resolved for r in ctx.graph.index.links_from("daily/2026-02-01.md")] == ["daily/2026-02-01/topic.md"]


def test_new_files_take_path_links_from_folders_and_case_twins_as_a_rebuild_does(ctx: Context,
                                                                                   vault_root: Path) -> None:
    texts = {"d/page.md": "[[e/n]] [[/d/e/n]] [[D/E/N.MD]] [t](../d/e/n.md) [[./e/n]]",
             "D/other.md": "[[n]] [[e/n]]", "x/e/n.md": "a shorter competitor", "d/e/keep.md": "[[n]] [[e/n]]",
             "deep/far/away/d/e/n.md": "[[n]]", "w.md": "[[d/e/n]] [[n.md]] [[N]]"}
    for rel, text in texts.items():
        write(vault_root, rel, text)
    reconcile(ctx)
    for rel in ("d/e/n.md", "D/e/n.md", "a/n.md", "n.md"):
        write(vault_root, rel, "[[n]] [[e/n]]")
        ctx.graph.sync([rel])
        incremental = _resolved_everywhere(ctx)
        ctx.graph.rebuild()
        assert _resolved_everywhere(ctx) == incremental, rel


def test_re_resolving_only_what_may_change_matches_a_rebuild(ctx: Context, vault_root: Path) -> None:
    texts = {"a/x.md": "[[x]] [[b/x]] [[./y]]", "b/x.md": "[[x]] [[y.md]]", "b/c/y.md": "[[x]] [[../x]]",
             "z.md": "[[Y]] [[a/x]] [md](x.md) [[c/y]] [[C/Y.md]] [[/b/x]]",
             "q/r/s/x.md": "[[x]] [[r/s/x]]", "kk/src.md": "[[m/y]]", "z/m/y.md": "far"}
    for rel, text in texts.items():
        write(vault_root, rel, text)
    reconcile(ctx)
    steps = [("add", "x.md"), ("add", "b/y.md"), ("rm", "x.md"), ("add", "A/X.md"), ("rm", "a/x.md"),
             ("add", "y.md"), ("add", "q/C/Y.MD"), ("add", "kk/m/Y.MD"), ("add", "b/x/c/y.md"), ("rm", "b/x.md"),
             ("rm", "y.md"), ("rm", "b/c/y.md")]
    for step, rel in steps:
        if step == "add":
            write(vault_root, rel, "[[x]] [[y]]")
        else:
            (vault_root / rel).unlink()
        ctx.graph.sync([rel])
        incremental = _resolved_everywhere(ctx)
        ctx.graph.rebuild()
        assert _resolved_everywhere(ctx) == incremental, (step, rel)


def test_a_sync_in_several_batches_matches_a_rebuild(ctx: Context, vault_root: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A branch switch in one sync, read and indexed two files at a time: a note of an early batch
    # links to one removed in a later batch, and to one added in a later batch.
    for rel, text in {"a.md": "[[z]] [[n]] [[m]]", "m.md": "[[a]] #old", "z.md": "[[a]]", "k/z.md": "x"}.items():
        write(vault_root, rel, text)
    reconcile(ctx)
    monkeypatch.setattr(graph_module, "SYNC_BATCH", 2)
    (vault_root / "m.md").unlink()
    (vault_root / "z.md").unlink()
    write(vault_root, "b.md", "[[z]] [[n]]")
    write(vault_root, "y/n.md", "[[b]] #new")
    ctx.graph.sync(["a.md", "b.md", "k/z.md", "m.md", "y/n.md", "z.md"])
    incremental = _resolved_everywhere(ctx), ctx.graph.index.tag_counts(), set(ctx.graph.index.notes())
    assert incremental[0][("a.md", 0)] == "k/z.md" and incremental[0][("a.md", 6)] == "y/n.md"
    ctx.graph.rebuild()
    assert (_resolved_everywhere(ctx), ctx.graph.index.tag_counts(), set(ctx.graph.index.notes())) == incremental


def test_a_sync_takes_a_file_read_moments_ago_only_while_it_is_unchanged(ctx: Context, vault_root: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write(vault_root, "a.md", "[[b]]")
    write(vault_root, "c.md", "[[b]]")
    known = {rel: found for rel in ("a.md", "c.md") if (found := ctx.graph.read(rel)) is not None}
    write(vault_root, "c.md", "[[d]] since")  # another size: what was read is stale
    reads: list[str] = []
    read = graph_module.Graph.read
    monkeypatch.setattr(graph_module.Graph, "read", lambda self, rel: reads.append(rel) or read(self, rel))
    ctx.graph.sync(["a.md", "c.md"], known)
    assert reads == ["c.md"]
    assert [r.target for r in ctx.graph.index.links_from("a.md")] == ["b"]
    assert [r.target for r in ctx.graph.index.links_from("c.md")] == ["d"]


def test_a_start_reads_each_new_file_once(ctx: Context, vault_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pairing reads the new files; indexing them then takes what it read (a moved file's rows
    # follow it, and the others are indexed from that text), not a second read of each.
    write(vault_root, "old.md", "# Old\nline one\nline two\n")
    write(vault_root, "gone.md", "bye")
    write(vault_root, "keep.md", "[[old]] [[fresh]]")
    reconcile(ctx)
    (vault_root / "new").mkdir()
    (vault_root / "old.md").rename(vault_root / "new/older.md")
    (vault_root / "gone.md").unlink()
    write(vault_root, "fresh.md", "[[keep]]")
    reads: list[str] = []
    read = graph_module.Graph.read
    monkeypatch.setattr(graph_module.Graph, "read", lambda self, rel: reads.append(rel) or read(self, rel))
    changes = reconcile(ctx)
    assert changes.moves == {"old.md": "new/older.md"} and changes.rewritten == ("keep.md",)
    assert sorted(r for r in reads if r != "gone.md") == ["fresh.md", "new/older.md"]
    assert (vault_root / "keep.md").read_text() == "[[older]] [[fresh]]"
    assert [r.resolved for r in ctx.graph.index.links_from("keep.md")] == ["new/older.md", "fresh.md"]
    assert [r.resolved for r in ctx.graph.index.links_from("fresh.md")] == ["keep.md"]
    assert "gone.md" not in ctx.graph.index.notes()
