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
