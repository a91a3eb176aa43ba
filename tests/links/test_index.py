"""The SQLite index: migrations, notes, links, tags."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from daemon.errors import MemvaultError
from daemon.links.index import MIGRATIONS, Index, NoteRow, target_name
from daemon.links.scan import scan


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


def test_an_index_from_before_the_read_command_indexes_is_migrated_and_answers_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "index.sqlite3"
    old = [(name, fn) for name, fn in MIGRATIONS if name < "0006"]
    monkeypatch.setattr("daemon.links.index.MIGRATIONS", old)
    index = Index(path)
    _fill(index)
    before = (index.tag_counts(), index.tagged("plans"), index.broken(), index.backlinks("a.md"))
    index.close()
    monkeypatch.setattr("daemon.links.index.MIGRATIONS", MIGRATIONS)
    index = Index(path)
    indexes = {r[0] for r in index.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"tags_tag_path", "links_broken", "links_resolved"} <= indexes and "tags_tag" not in indexes
    assert (index.tag_counts(), index.tagged("plans"), index.broken(), index.backlinks("a.md")) == before
    assert before[0] == [("plans", 2), ("todo", 1)] and before[1] == ["a.md", "b/x.md"]
    assert [r.source for r in before[3]] == ["b/x.md"]

    def plan(sql: str, *args: object) -> str:
        return " ".join(r[3] for r in index.db.execute("EXPLAIN QUERY PLAN " + sql, args))

    # Neither count nor list reads the tables, and the unresolved links need no sort.
    assert "COVERING INDEX tags_tag_path" in plan("SELECT tag, COUNT(DISTINCT path) FROM tags GROUP BY tag")
    broken = plan('SELECT source, kind, embed, raw, target, subpath, alias, start, "end", line, key, resolved '
                  "FROM links WHERE resolved IS NULL ORDER BY source, start")
    assert "COVERING INDEX links_broken" in broken and "TEMP B-TREE" not in broken
    assert "INDEX links_resolved" in plan("SELECT source FROM links WHERE resolved = ?", "a.md")
    index.close()


def test_broken_links_come_in_source_and_offset_order() -> None:
    index = Index(":memory:")
    _fill(index)
    in_sql = [(r[0], r[1]) for r in index.db.execute(
        "SELECT source, raw FROM links WHERE resolved IS NULL ORDER BY source, start")]
    assert [(r.source, r.raw) for r in index.broken()] == in_sql
    assert in_sql == [("a.md", "[[b/x]]"), ("a.md", "[[gone#h]]"), ("a.md", "[[lost]]"),
                      ("b/x.md", "[[nowhere]]"), ("é.md", "[[zz]]")]
