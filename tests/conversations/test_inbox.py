"""Inbox files: junk, completeness, stability (explicit clock), archive and quarantine."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from daemon.conversations.inbox import Stability, archive, free_name, incomplete, is_junk, pending_files, quarantine


@pytest.mark.parametrize("name", [".DS_Store", "._export.json", "Thumbs.db", "desktop.ini", "x.tmp", "x.part",
                                  "x.json.crdownload", "~$doc.json", "~syncthing~x.json.tmp", ".syncthing.x.json.tmp",
                                  "x.json@SynoEAStream", "x.json.icloud", ".hidden.json", ".~lock.x.json#",
                                  "conversations.json.download", "x.swp"])
def test_junk(name: str) -> None:
    assert is_junk(name)


@pytest.mark.parametrize("name", ["conversations.json", "conversations-001.json", "export.zip", "s.jsonl", "a b.JSON"])
def test_not_junk(name: str) -> None:
    assert not is_junk(name)


def test_pending_files_skips_junk_processed_failed_and_sync_folders(tmp_path: Path) -> None:
    for rel in ("a.json", ".DS_Store", "processed/2026-01-01/old.json", "failed/bad.json", "drop/b.json",
                "drop/@eaDir/c.json", ".stfolder/d.json", "drop/deep/e.jsonl"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}")
    assert [p.relative_to(tmp_path).as_posix() for p in pending_files(tmp_path)] == \
        ["a.json", "drop/b.json", "drop/deep/e.jsonl"]


def zipped() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive_file:
        archive_file.writestr("conversations.json", "[]")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'[{"a": 1}]', None),
        (b'\xef\xbb\xbf{"session_id": "x", "messages": []}\n', None),
        (b'{"a": 1}\n{"b": 2}\n', None),
        (zipped(), None),
        (b"", "empty"),
        (b'[{"a": 1}, {"b"', "incomplete JSON"),
        (b'[{"a": 1}, {"b": 2}', "incomplete JSON"),
        (zipped()[:-30], "incomplete ZIP"),
        (b"hello world", "not JSON"),
    ],
)
def test_incomplete(tmp_path: Path, data: bytes, problem: str | None) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(data)
    result = incomplete(path)
    assert (result is None) if problem is None else (result is not None and problem in result)


def test_stability_needs_an_unchanged_file_for_the_window(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[]")
    tracker = Stability(window=2.0)
    assert tracker.ready([path], now=0.0) == []
    assert tracker.ready([path], now=1.9) == []
    path.write_text("[1]")  # still being written: the wait starts again
    assert tracker.ready([path], now=2.5) == []
    assert tracker.ready([path], now=4.0) == []
    assert tracker.ready([path], now=4.5) == [path]
    assert tracker.ready([], now=5.0) == [] and not tracker.seen


def test_archive_and_quarantine_never_overwrite(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    for n in range(2):
        (inbox / "drop").mkdir(parents=True, exist_ok=True)
        (inbox / "drop/c.json").write_text(str(n))
        archive(inbox, inbox / "drop/c.json", "2026-11-30")
    assert sorted(p.name for p in (inbox / "processed/2026-11-30/drop").iterdir()) == ["c (2).json", "c.json"]
    assert not (inbox / "drop").exists()
    (inbox / "bad.json").write_text("x")
    moved = quarantine(inbox, inbox / "bad.json", "bad.json: not a supported export")
    assert moved == inbox / "failed/bad.json" and moved.read_text() == "x"
    assert (inbox / "failed/bad.json.error.txt").read_text() == "bad.json: not a supported export\n"
    assert free_name(inbox / "failed/bad.json") == inbox / "failed/bad (2).json"


def test_folder_links_are_followed_only_under_home_and_never_in_a_loop(tmp_path: Path) -> None:
    from daemon.conversations.inbox import scan

    home, inbox, outside = tmp_path / "home", tmp_path / "inbox", tmp_path / "elsewhere"
    for folder in (home / "exports", inbox, outside):
        folder.mkdir(parents=True)
    (home / "exports" / "a.json").write_text("{}")
    (outside / "b.json").write_text("{}")
    (inbox / "mine").symlink_to(home / "exports")
    (inbox / "theirs").symlink_to(outside)
    (inbox / "loop").symlink_to(inbox)
    (inbox / "file.json").symlink_to(home / "exports" / "a.json")
    found, refused = scan(inbox, home=home)
    assert found == [inbox / "mine" / "a.json"]
    assert set(refused) == {inbox / "theirs", inbox / "loop", inbox / "file.json"}
    assert "out of your home" in refused[inbox / "theirs"] and "loop" in refused[inbox / "loop"]
    assert "symbolic link" in refused[inbox / "file.json"]


def test_pending_files_lists_only_regular_files(tmp_path: Path) -> None:
    import os

    (tmp_path / "a.json").write_text("{}")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    assert pending_files(tmp_path) == [tmp_path / "a.json"]
