"""The SQLite index: migrations, notes, links, tags."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from daemon.errors import MemvaultError
from daemon.links.fulltext import SearchDoc
from daemon.links.index import MIGRATIONS, Index, NoteRow, NoteStatus, target_name
from daemon.links.scan import scan

# The links with their paths, as the table held them before migration 0008 (no rowid: it differs
# between an index kept up to date and a rebuild).
LINK_PATHS = ('SELECT source, kind, embed, raw, target, target_name, subpath, alias, start, "end", line, key, '
              "resolved FROM link_paths")


def test_migrations_are_recorded_once(tmp_path: Path) -> None:
    path = tmp_path / "state" / "index.sqlite3"
    Index(path).close()
    index = Index(path)
    names = [r[0] for r in index.db.execute("SELECT name FROM migrations")]
    assert names == [name for name, _ in MIGRATIONS]
    index.close()


def test_corrupt_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(MemvaultError, match="memvault reindex"):
        Index(path)


def test_notes_links_backlinks_broken() -> None:
    index = Index(":memory:")
    text = "[[b]] [[missing]] ![[img.png|100]]"
    links = scan(text)
    resolved = {"b": "b.md", "missing": None, "img.png": "img.png"}
    with index.transaction():
        index.put_note(NoteRow("a.md", 1, 1, "h1", "s1", ""), [(l, resolved[l.target]) for l in links])
    assert [r.raw for r in index.backlinks("b.md")] == ["[[b]]"]
    assert [r.target for r in index.broken()] == ["missing"]
    assert index.note("a.md") == NoteRow("a.md", 1, 1, "h1", "s1", "")
    assert index.sources_naming(["img.png"]) == {"a.md"} and index.sources_linking(["b.md"]) == {"a.md"}
    with index.transaction():
        index.rename_note("a.md", "z/a.md")
    assert index.note("a.md") is None and [r.source for r in index.links_from("z/a.md")] == ["z/a.md"] * 3
    with index.transaction():
        index.remove_note("z/a.md")
    assert index.count("notes") == 0 and index.count("links") == 0


def test_failed_transaction_rolls_back() -> None:
    index = Index(":memory:")
    with pytest.raises(sqlite3.IntegrityError):
        with index.transaction():
            index.put_note(NoteRow("a.md", 1, 1, "h", None, ""), [])
            index.db.execute("INSERT INTO migrations VALUES ('0001_notes_links_tags', 0)")
    assert index.count("notes") == 0


@pytest.mark.parametrize(("target", "name"), [("Note", "note"), ("a/B.md", "b"), ("img.PNG", "img.png"),
                                              ("../x/Y.MD", "y"), ("", "")])
def test_target_name(target: str, name: str) -> None:
    assert target_name(target) == name


def _fill(index: Index) -> None:
    """Notes with tags (one tag on two notes, one path with two tags) and links, some unresolved."""
    with index.transaction():
        for path, tags, text in [("b/x.md", ["plans", "todo"], "[[nowhere]] [[a]]"),
                                 ("a.md", ["plans"], "[[b/x]] [[gone#h]]\n[[lost]]"), ("é.md", [], "[[zz]]")]:
            links = scan(text)
            index.put_note(NoteRow(path, 1, 1, path, None, ""),
                           [(link, "a.md" if link.target == "a" else None) for link in links])
            index.put_tags(path, [(t, "property") for t in tags])


def _fill_by_path(index: Index) -> None:
    """``_fill`` as an index from before migration 0008 held it: links naming paths, not numbers."""
    with index.transaction():
        for path, tags, text in [("b/x.md", ["plans", "todo"], "[[nowhere]] [[a]]"),
                                 ("a.md", ["plans"], "[[b/x]] [[gone#h]]\n[[lost]]"), ("é.md", [], "[[zz]]")]:
            index.db.execute("INSERT INTO notes VALUES (?, 1, 1, ?, NULL, '')", (path, path))
            index.db.executemany("INSERT INTO links VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                                 [(path, l.kind, int(l.embed), l.raw, l.target, target_name(l.target), l.subpath,
                                   l.alias, l.start, l.end, l.line, l.key, "a.md" if l.target == "a" else None)
                                  for l in scan(text)])
            index.db.executemany("INSERT INTO tags VALUES (?, ?, 'property')", [(path, t) for t in tags])


@pytest.mark.parametrize("since", ["0006", "0008"])
def test_an_index_from_before_the_read_command_indexes_is_migrated_and_answers_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, since: str) -> None:
    path = tmp_path / "index.sqlite3"
    old = [(name, fn) for name, fn in MIGRATIONS if name < since]
    monkeypatch.setattr("daemon.links.index.MIGRATIONS", old)
    index = Index(path)
    _fill_by_path(index)
    index.close()
    monkeypatch.setattr("daemon.links.index.MIGRATIONS", MIGRATIONS)
    fresh = Index(":memory:")
    _fill(fresh)
    before = (fresh.tag_counts(), fresh.tagged("plans"), fresh.broken(), fresh.backlinks("a.md"),
              fresh.links_from("a.md"))
    index = Index(path)
    indexes = {r[0] for r in index.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"tags_tag_path", "links_broken", "links_resolved"} <= indexes and "tags_tag" not in indexes
    assert (index.tag_counts(), index.tagged("plans"), index.broken(), index.backlinks("a.md"),
            index.links_from("a.md")) == before
    assert before[0] == [("plans", 2), ("todo", 1)] and before[1] == ["a.md", "b/x.md"]
    assert [r.source for r in before[3]] == ["b/x.md"]
    assert _link_rows(index) == _link_rows(fresh)

    def plan(sql: str, *args: object) -> str:
        return " ".join(r[3] for r in index.db.execute("EXPLAIN QUERY PLAN " + sql, args))

    # Neither count nor list reads the tables; the unresolved links are read from their own index.
    assert "COVERING INDEX tags_tag_path" in plan("SELECT tag, COUNT(DISTINCT path) FROM tags GROUP BY tag")
    broken = plan('SELECT source_id, kind, embed, raw, target, subpath, alias, start, "end", line, key, resolved_id '
                  "FROM links WHERE resolved_id IS NULL ORDER BY source_id, start")
    assert "COVERING INDEX links_broken" in broken and "TEMP B-TREE" not in broken
    assert "INDEX links_resolved" in plan("SELECT source_id FROM links WHERE resolved_id = ?", 1)
    index.close()


def test_broken_links_come_in_source_and_offset_order() -> None:
    index = Index(":memory:")
    _fill(index)
    in_sql = [(r[0], r[1]) for r in index.db.execute(
        "SELECT source, raw FROM link_paths WHERE resolved IS NULL ORDER BY source, start")]
    assert [(r.source, r.raw) for r in index.broken()] == in_sql
    assert in_sql == [("a.md", "[[b/x]]"), ("a.md", "[[gone#h]]"), ("a.md", "[[lost]]"),
                      ("b/x.md", "[[nowhere]]"), ("é.md", "[[zz]]")]


def _link_rows(index: Index) -> list[tuple[object, ...]]:
    return sorted(index.db.execute(LINK_PATHS).fetchall(), key=repr)


def _first_rowid(index: Index) -> int:
    return index.db.execute("SELECT id FROM link_paths WHERE source = 'a.md' AND start = 0").fetchone()[0]


@pytest.mark.parametrize("new_text", [
    "[[b]] and [[Longer/target]] then [[c]] [[c]] [[b]]",  # a target rewritten: the later links shift
    "[[b]] and [[t]] then [[c]] [[c]] [[b]]",  # the same links ([[c]] now resolves)
    "[[c]] [[b]]\n[[x|y]] ![[t]] [[t]]",  # reordered, one more, one kind changed
    "", "[[b]]",  # fewer
    "[[b]] [[b]] [[b]] [[b]] [[b]] [[b]] [[t]] [[c]]",  # more
])
def test_putting_a_note_writes_only_the_link_rows_that_changed(new_text: str) -> None:
    """Its rows then equal a fresh insert's; an unchanged link keeps its row (it was not written again)."""
    old_text = "[[b]] and [[t]] then [[c]] [[c]] [[b]]"
    was = {"b": "b.md", "t": "t.md", "c": None}
    now = {"b": "b.md", "t": "t.md", "Longer/target": "t.md", "c": "c.md", "x": "x.md"}
    index, fresh = Index(":memory:"), Index(":memory:")
    with index.transaction():
        index.put_note(NoteRow("a.md", 1, 1, "h1", None, ""), [(l, was[l.target]) for l in scan(old_text)])
        index.put_note(NoteRow("o.md", 1, 1, "h2", None, ""), [(l, "a.md") for l in scan("[[a]] [[b]]")])
    first = _first_rowid(index)
    row = NoteRow("a.md", 2, 2, "h3", "s", "sig")
    with index.transaction():
        index.put_note(row, [(l, now[l.target]) for l in scan(new_text)])
    with fresh.transaction():
        fresh.put_note(NoteRow("o.md", 1, 1, "h2", None, ""), [(l, "a.md") for l in scan("[[a]] [[b]]")])
        fresh.put_note(row, [(l, now[l.target]) for l in scan(new_text)])
    assert _link_rows(index) == _link_rows(fresh) and index.note("a.md") == row
    if new_text.startswith("[[b]]"):
        assert _first_rowid(index) == first


def test_sources_naming_and_linking_many_names_answer_as_one_at_a_time() -> None:
    # A folder move asks for thousands of names and paths at once (a query per 500 of them).
    index = Index(":memory:")
    with index.transaction():
        for i in range(1200):
            links = scan(f"[[n{i}]] [[n{i + 1}]] [[gone{i}]]")
            index.put_note(NoteRow(f"s{i % 700}/{i}.md", 1, 1, "h", None, ""),
                           [(links[0], f"n{i}.md"), (links[1], f"n{i + 1}.md"), (links[2], None)])
    names, paths = [f"n{i}" for i in range(0, 1300, 2)], [f"n{i}.md" for i in range(1, 1300, 3)]
    assert index.sources_naming(names) == set().union(*(index.sources_naming([n]) for n in names))
    assert index.sources_linking(paths) == set().union(*(index.sources_linking([p]) for p in paths))
    assert len(index.sources_naming(names)) == 1200 and index.sources_linking(["nowhere.md"]) == set()


def test_a_batch_of_transactions_is_checkpointed_once_at_its_end(tmp_path: Path) -> None:
    # A folder move's transactions each left more than 1,000 pages in the log, and each commit
    # copied them into the database again; within ``one_checkpoint`` the log grows instead.
    index = Index(tmp_path / "index.sqlite3")
    index.db.execute("PRAGMA wal_autocheckpoint=1")  # every commit checkpoints (as a big one does)
    wal = tmp_path / "index.sqlite3-wal"

    def three_transactions(tag: str) -> list[int]:
        sizes = []
        for n in range(3):
            with index.transaction():
                for i in range(1000):
                    index.put_note(NoteRow(f"{tag}{n}/{i}.md", 1, 1, "h" * 64, None, "sig " * 50), [])
            sizes.append(wal.stat().st_size)
        return sizes

    alone = three_transactions("a")
    with index.one_checkpoint(pages=10_000):
        batched = three_transactions("b")
        assert index.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 10_000
    # (The log file keeps its largest size: it is rewritten from its start after a checkpoint.)
    assert alone[2] < 2 * alone[0]  # the log restarted after each checkpoint
    assert batched[2] > 2 * alone[2]  # the log grew by each transaction: no checkpoint in between
    assert index.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1
    busy, log, copied = index.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and log == copied  # checkpointed at the end: the database holds every page
    assert len(index.notes()) == 6000
    index.close()


def test_putting_many_notes_at_once_equals_putting_them_one_by_one() -> None:
    """A folder move indexes its rewritten notes together (``put_notes``): same rows, same rowids kept.

    (New link rows go in ordered by the name they ask for, across the batch: their rowids are
    the only thing that may differ.)
    """
    texts = {"a.md": "[[b]] and [[t]] then [[c]] [[c]] [[b]]", "o.md": "[[a]] [[b]]", "p.md": "[[t]] [[t]]",
             "q.md": "[[b]]"}
    was = {"a": "a.md", "b": "b.md", "t": "t.md", "c": None}
    new_texts = {"a.md": "[[b]] and [[Longer/target]] then [[c]] [[c]] [[b]]",  # shifted, retargeted, other
                 "o.md": "[[b]]",  # fewer
                 "p.md": "[[t]] [[t]] [[x|y]] ![[c]]",  # more
                 "n.md": "[[a]] [[b]]"}  # a new note; q.md is not put again
    now = {"a": "a.md", "b": "b.md", "t": "t.md", "Longer/target": "t.md", "c": "c.md", "x": "x.md"}
    one, many = Index(":memory:"), Index(":memory:")
    for index in (one, many):
        with index.transaction():
            for path, text in texts.items():
                index.put_note(NoteRow(path, 1, 1, "h", None, ""), [(l, was[l.target]) for l in scan(text)])
    puts = [(NoteRow(path, 2, 2, "h2", "s", "sig"), [(l, now[l.target]) for l in scan(text)])
            for path, text in new_texts.items()] + [(NoteRow("img.png", 3, 3, "h3", None, ""), None)]
    kept = one.db.execute("SELECT MAX(rowid) FROM links").fetchone()[0]
    with one.transaction():
        for row, links in puts:
            one.put_note(row, links)
    with many.transaction():
        many.put_notes(puts)
    for query in ["SELECT rowid, * FROM notes", f"SELECT * FROM link_paths WHERE id <= {kept}",
                  LINK_PATHS]:
        assert sorted(one.db.execute(query).fetchall(), key=repr) == sorted(many.db.execute(query).fetchall(), key=repr)
    assert many.note("p.md") == puts[2][0] and many.note("img.png") == puts[-1][0]
    assert [r.raw for r in many.links_from("p.md")] == ["[[t]]", "[[t]]", "[[x|y]]", "![[c]]"]


def test_a_respelt_link_sets_only_its_spelling_and_offsets() -> None:
    """A link a move re-spells (a new target of the same name, resolving to the same file) is written
    with a statement that sets its raw text, target and offsets only: no index holding its name or
    its resolution is rewritten. The rows equal deleting the note's links and putting them again."""
    before = "[[x]] then [[b/x|alias]] and [[y]]"
    after = "[[x]] then [[c/d/x|alias]] and [[y]]"  # re-spelt; [[y]] shifted
    wanted = {"x": "c/d/x.md", "b/x": "c/d/x.md", "c/d/x": "c/d/x.md", "y": None}
    fresh, index = Index(":memory:"), Index(":memory:")
    with index.transaction():
        index.put_note(NoteRow("a.md", 1, 1, "h", None, ""), [(l, wanted[l.target]) for l in scan(before)])
    statements: list[str] = []
    index.db.set_trace_callback(statements.append)
    with index.transaction():
        index.put_notes([(NoteRow("a.md", 2, 2, "h2", None, ""), [(l, wanted[l.target]) for l in scan(after)])])
    index.db.set_trace_callback(None)
    written = [s for s in statements if "links" in s and not s.startswith("SELECT")]
    assert [s.split(" WHERE")[0] for s in written] == [
        'UPDATE links SET start = 31, "end" = 36',
        "UPDATE links SET raw = '[[c/d/x|alias]]', target = 'c/d/x', start = 11, \"end\" = 26"]
    with fresh.transaction():
        fresh.put_note(NoteRow("a.md", 2, 2, "h2", None, ""), [(l, wanted[l.target]) for l in scan(after)])
    assert index.db.execute(LINK_PATHS).fetchall() == fresh.db.execute(LINK_PATHS).fetchall()


def test_statuses_at_are_the_rows_without_their_signatures() -> None:
    index = Index(":memory:")
    with index.transaction():
        index.put_notes([(NoteRow("a.md", 1, 2, "h1", None, "0a 0b"), []), (NoteRow("b.md", 3, 4, "h2", "s", "0c"), [])])
    assert index.statuses_at(["a.md", "b.md", "gone.md"]) == {
        path: NoteStatus(row.size, row.mtime_ns, row.hash, row.identity)
        for path, row in index.notes_at(["a.md", "b.md"]).items()}
    assert index.statuses_at([]) == {}


def test_a_resolution_set_to_the_value_it_holds_writes_no_row() -> None:
    index = Index(":memory:")
    _fill(index)
    rows = index.db.execute("SELECT id, resolved FROM link_paths").fetchall()
    before = index.db.total_changes
    with index.transaction():
        index.set_resolved([(resolved, rowid) for rowid, resolved in rows])
    assert index.db.total_changes == before
    with index.transaction():
        index.set_resolved([("b/x.md", rows[0][0])])
    assert index.db.total_changes == before + 1 and index.links_resolved_to("b/x.md")[0][0] == rows[0][0]


def test_resolutions_are_written_unresolved_first_by_rowid_then_by_the_path_they_take() -> None:
    """Unresolving goes in the table's order; a new path in the order of the index on ``resolved``."""
    index = Index(":memory:")
    _fill(index)
    rowids = [row[0] for row in index.db.execute("SELECT rowid FROM links ORDER BY rowid")]
    updates = [("z.md", rowids[0]), (None, rowids[3]), ("b/x.md", rowids[2]), (None, rowids[1]),
               ("b/x.md", rowids[4])]
    statements: list[str] = []
    index.db.set_trace_callback(statements.append)
    with index.transaction():
        index.set_resolved(updates)
    index.db.set_trace_callback(None)
    written = [s for s in statements if s.startswith("UPDATE links")]
    assert [int(s.split("rowid = ")[1].split()[0]) for s in written] == [
        rowids[1], rowids[3], rowids[2], rowids[4], rowids[0]]
    resolved = dict(index.db.execute("SELECT id, resolved FROM link_paths"))
    assert [resolved[rowid] for rowid in rowids[:5]] == ["z.md", None, "b/x.md", None, "b/x.md"]


def test_renaming_many_notes_at_once_equals_renaming_them_one_by_one() -> None:
    moves = {"b/x.md": "c/x.md", "a.md": "c/a.md"}
    one, many = Index(":memory:"), Index(":memory:")
    for index in (one, many):
        _fill(index)
        with index.transaction():
            index.put_note(NoteRow("c/a.md", 1, 1, "stale", None, ""), [])  # a destination indexed already
            index.put_search("a.md", SearchDoc("a.md", "card", "a", "", "", "", "2024-01-01", "s1", "words"))
            index.put_search("c/a.md", SearchDoc("c/a.md", "card", "a", "", "", "", None, "s2", "stale"))
    with one.transaction():
        for old, new in moves.items():
            one.rename_note(old, new)
    with many.transaction():
        many.rename_notes(moves)
    queries = ["SELECT * FROM notes", LINK_PATHS, "SELECT * FROM tags", "SELECT * FROM search_docs",
               "SELECT * FROM search"]
    for query in queries:
        assert sorted(one.db.execute(query).fetchall(), key=repr) == sorted(many.db.execute(query).fetchall(), key=repr)
    assert many.note("a.md") is None and many.note("c/a.md") == NoteRow("c/a.md", 1, 1, "a.md", None, "")


def test_removing_many_notes_at_once_removes_every_row_of_theirs_and_nothing_else() -> None:
    index = Index(":memory:")
    _fill(index)
    with index.transaction():
        index.put_search("a.md", SearchDoc("a.md", "card", "a", "", "", "", "2024-01-01", "s1", "words"))
        index.put_search("é.md", SearchDoc("é.md", "card", "é", "", "", "", None, "s2", "kept"))
    with index.transaction():
        index.remove_notes(["a.md", "b/x.md", "never-indexed.md"])
    assert set(index.notes()) == {"é.md"} and [r.source for r in index.links_from("é.md")] == ["é.md"]
    assert index.count("links") == 1 and index.count("tags") == 0
    assert index.db.execute("SELECT path FROM search_docs").fetchall() == [("é.md",)]
    assert [r[0] for r in index.db.execute("SELECT body FROM search")] == ["kept"]


def test_a_batch_inside_a_batch_is_checkpointed_once_at_the_outer_end(tmp_path: Path) -> None:
    index = Index(tmp_path / "index.sqlite3")
    index.db.execute("PRAGMA wal_autocheckpoint=1")
    checkpoints: list[str] = []
    index.db.set_trace_callback(lambda sql: checkpoints.append(sql) if "wal_checkpoint(" in sql else None)
    with index.one_checkpoint(pages=10_000):
        with index.one_checkpoint(pages=500):  # a move's repair inside a start's catch-up
            with index.transaction():
                index.put_note(NoteRow("a.md", 1, 1, "h", None, ""), [])
        assert index.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 10_000 and checkpoints == []
        with index.transaction():
            index.put_note(NoteRow("b.md", 1, 1, "h", None, ""), [])
    assert len(checkpoints) == 1 and index.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1
    assert set(index.notes()) == {"a.md", "b.md"}
    index.close()


def test_links_naming_of_lists_the_links_of_those_notes_asking_for_those_names() -> None:
    index = Index(":memory:")
    _fill(index)
    assert sorted(index.links_naming_of(["a.md", "b/x.md", "é.md"], ["lost", "a", "zz"])) == [
        ("a.md", "wiki", "lost"), ("b/x.md", "wiki", "a"), ("é.md", "wiki", "zz")]
    assert index.links_naming_of(["é.md"], ["zz", "lost", "a"]) == [("é.md", "wiki", "zz")]  # the same names again
    assert index.links_naming_of(["a.md"], ["a"]) == [] and index.links_naming_of(["a.md"], []) == []
    assert sorted(index.links_naming_of(["a.md", "b/x.md"], [f"name{i}" for i in range(40_000)] + ["lost"])) == [
        ("a.md", "wiki", "lost")]  # more names than a query takes parameters
    with pytest.raises(RuntimeError):
        with index.transaction():
            assert index.links_naming_of(["b/x.md"], ["a"]) == [("b/x.md", "wiki", "a")]
            raise RuntimeError("rolled back: the table of names with it")
    assert index.links_naming_of(["b/x.md"], ["a"]) == [("b/x.md", "wiki", "a")]
    assert sorted(r[1] for r in index.links_resolved_to_any(["a.md", "nowhere.md"])) == ["b/x.md"]


def test_tags_and_search_rows_of_many_notes_at_once_equal_them_one_by_one() -> None:
    tags = {"a.md": [("plans", "property")], "é.md": [], "new.md": [("fresh", "inline")],
            "b/x.md": [("todo", "property"), ("plans", "property")]}  # as they were, in another order: kept
    docs = {"a.md": SearchDoc("a.md", "card", "a", "", "", "", "2024-01-01", "s1", "changed words"),
            "é.md": SearchDoc("é.md", "card", "é", "", "", "", None, "s2", "kept"), "b/x.md": None, "new.md": None}
    one, many = Index(":memory:"), Index(":memory:")
    for index in (one, many):
        _fill(index)
        with index.transaction():
            index.put_search("a.md", SearchDoc("a.md", "card", "a", "", "", "", "2024-01-01", "s1", "words"))
            index.put_search("b/x.md", SearchDoc("b/x.md", "card", "x", "", "", "", None, "s3", "dropped"))
    kept = many.db.execute("SELECT rowid FROM tags WHERE path = 'b/x.md' ORDER BY rowid").fetchall()
    with one.transaction():
        for path in tags:
            one.put_tags(path, tags[path])
            one.put_search(path, docs[path])
    with many.transaction():
        many.put_tags_of(tags)
        many.put_searches(docs)
    for query in ["SELECT path, tag, origin FROM tags", "SELECT path, kind, day, session_id FROM search_docs",
                  "SELECT name, body FROM search"]:
        assert sorted(one.db.execute(query).fetchall()) == sorted(many.db.execute(query).fetchall())
    assert many.db.execute("SELECT rowid FROM tags WHERE path = 'b/x.md' ORDER BY rowid").fetchall() == kept
    assert many.tagged("fresh") == ["new.md"] and many.tagged("todo") == ["b/x.md"]
    assert sorted(many.searchable(docs)) == ["a.md", "é.md"]


def test_renaming_notes_writes_no_link_row_and_their_links_follow() -> None:
    """A move renames the notes' numbers: the links from and to them keep their rows as they are."""
    index = Index(":memory:")
    _fill(index)
    before = _link_rows(index)
    statements: list[str] = []
    index.db.set_trace_callback(statements.append)
    with index.transaction():
        index.rename_notes({"a.md": "n/a.md", "b/x.md": "n/x.md"})
    index.db.set_trace_callback(None)
    assert not [s for s in statements if "UPDATE links" in s or "INTO links" in s or "FROM links" in s]
    renamed = {"a.md": "n/a.md", "b/x.md": "n/x.md"}
    assert _link_rows(index) == sorted([(renamed.get(row[0], row[0]), *row[1:-1], renamed.get(row[-1], row[-1]))
                                        for row in before], key=repr)
    assert [r.source for r in index.backlinks("n/a.md")] == ["n/x.md"] and index.backlinks("a.md") == []


def test_a_removed_note_keeps_its_number_only_while_a_link_resolves_to_it() -> None:
    index = Index(":memory:")
    _fill(index)
    with index.transaction():
        index.remove_notes(["a.md", "é.md"])
    numbered = {row[0] for row in index.db.execute("SELECT path FROM paths")}
    assert numbered == {"b/x.md", "a.md"}  # b/x.md's [[a]] still resolves to a.md until resolved again
    assert [r.source for r in index.backlinks("a.md")] == ["b/x.md"]
    assert [row[4] for row in index.links_resolved_to_any(["a.md"])] == ["a.md"]
