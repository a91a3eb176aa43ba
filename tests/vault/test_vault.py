"""The vault writer: atomic, compare-and-swap, echo bookkeeping."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import pytest

from daemon.errors import ConflictError, ReadOnlyError, VaultError
from daemon.vault.files import ABSENT, Vault, digest


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "v"
    folder.mkdir()
    return folder


def test_write_new_then_replace_with_the_digest(root: Path) -> None:
    vault = Vault(root)
    first = vault.write("a/b.md", "one", ABSENT)
    assert (root / "a/b.md").read_text() == "one" and first == digest(b"one")
    second = vault.write("a/b.md", "two", first)
    assert (root / "a/b.md").read_text() == "two" and second == digest(b"two")


def test_never_clobbers_a_file_that_changed(root: Path) -> None:
    vault = Vault(root)
    seen = vault.write("n.md", "mine", ABSENT)
    (root / "n.md").write_text("the user's edit")
    with pytest.raises(ConflictError):
        vault.write("n.md", "ours", seen)
    with pytest.raises(ConflictError):
        vault.write("n.md", "ours", ABSENT)
    assert (root / "n.md").read_text() == "the user's edit"


def test_keeps_mode_and_leaves_no_temp_files(root: Path) -> None:
    vault = Vault(root)
    seen = vault.write("n.md", "x", ABSENT)
    os.chmod(root / "n.md", 0o600)
    vault.write("n.md", "y", seen)
    assert (root / "n.md").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in root.iterdir()] == ["n.md"]


def test_write_all_keeps_each_files_mode_and_refuses_a_locked_one(root: Path) -> None:
    # The modes come from the compare-and-swap read's own status (no second look at the path).
    vault = Vault(root)
    modes = {"a.md": 0o600, "b.md": 0o640, "c.md": 0o000, "d.md": None}
    seen = {rel: vault.write(rel, "old", ABSENT) for rel in modes if modes[rel] is not None}
    for rel, mode in modes.items():
        if mode is not None:
            os.chmod(root / rel, mode)
    done = vault.write_all({rel: ("new", seen.get(rel, ABSENT)) for rel in modes})
    assert isinstance(done["c.md"], ReadOnlyError)  # no permission bit at all: locked, and refused as such
    assert [(root / rel).stat().st_mode & 0o777 for rel in ("a.md", "b.md", "c.md")] == [0o600, 0o640, 0o000]
    os.chmod(root / "c.md", 0o600)
    assert [(root / rel).read_text() for rel in modes] == ["new", "new", "old", "new"]
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def test_writes_make_the_folders_they_need(root: Path) -> None:
    vault = Vault(root)
    vault.write("new/deep/a.md", "a", ABSENT)
    done = vault.write_all({"other/deeper/b.md": ("b", ABSENT), "new/deep/c.md": ("c", ABSENT)})
    assert not [r for r in done.values() if isinstance(r, VaultError)]
    assert [(root / p).read_text() for p in ("new/deep/a.md", "other/deeper/b.md", "new/deep/c.md")] == ["a", "b", "c"]
    (root / "plain").write_text("a file, not a folder")
    with pytest.raises(VaultError, match="plain/x.md"):  # a file where the folder would go
        vault.write("plain/x.md", "x", ABSENT)
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def test_move_refuses_to_overwrite(root: Path) -> None:
    vault = Vault(root)
    a = vault.write("a.md", "a", ABSENT)
    vault.write("b.md", "b", ABSENT)
    with pytest.raises(ConflictError):
        vault.move("a.md", "b.md", a)
    vault.move("a.md", "sub/c.md", a)
    assert (root / "sub/c.md").read_text() == "a" and not (root / "a.md").exists()


@pytest.mark.parametrize("bad", ["../x.md", "/etc/passwd", "a/../../x", ""])
def test_paths_stay_inside(root: Path, bad: str) -> None:
    with pytest.raises(VaultError, match="inside the vault"):
        Vault(root).write(bad, "x", ABSENT)


@pytest.mark.parametrize("rel", ["n.md", "a/b/c d.md", "a//b.md", "a/./b.md", "./a.md", "a/", "a\\b.md", ".x/y",
                                 "...", "a/.../b", "é/中文.md", "a/b..md"])
def test_a_path_in_normal_form_or_not_maps_as_its_posix_parts_do(root: Path, rel: str) -> None:
    # abspath takes a short cut for paths already in normal form: the same answer as the long way.
    assert Vault(root).abspath(rel) == root.joinpath(*PurePosixPath(rel).parts)


def test_read_errors_are_clear(root: Path) -> None:
    (root / "bin.md").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(VaultError, match="bin.md: not UTF-8"):
        Vault(root).read("bin.md")
    assert Vault(root).read("missing.md") is None


def test_walk_skips_dot_folders_and_temp_files(root: Path) -> None:
    for rel in (".obsidian/app.json", "a.md", "d/b.md", "d/.b.md.memvault-1.tmp", ".git/x"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")
    assert list(Vault(root).walk()) == ["a.md", "d/b.md"]


def test_stale_temp_files_are_removed(root: Path) -> None:
    (root / "d").mkdir()
    (root / "d/.n.md.memvault-ab12.tmp").write_text("half")
    (root / "d/n.md").write_text("whole")
    (root / "d/.keep.tmp").write_text("not ours")
    assert Vault(root).remove_stale_temps() == ["d/.n.md.memvault-ab12.tmp"]
    assert sorted(p.name for p in (root / "d").iterdir()) == [".keep.tmp", "n.md"]


def test_write_all_flushes_once_and_only_then_replaces(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each new text is durable before it replaces its file: a crash leaves old or new bytes, never less."""
    vault = Vault(root)
    seen = {rel: vault.write(rel, "old", ABSENT) for rel in ("a.md", "b/c.md", "d.md")}
    flushes: list[dict[str, str]] = []
    monkeypatch.setattr(os, "sync", lambda: flushes.append(
        {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("*.md")}))
    monkeypatch.setattr(os, "fsync", lambda fd: pytest.fail("a file flushed on its own"))
    done = vault.write_all({rel: (f"new {rel}", seen[rel]) for rel in seen})
    assert flushes == [{"a.md": "old", "b/c.md": "old", "d.md": "old"}]  # one flush, before any replace
    assert {rel: (root / rel).read_text() for rel in seen} == {rel: f"new {rel}" for rel in seen}
    for rel, written in done.items():
        st = (root / rel).stat()
        assert not isinstance(written, VaultError)
        assert (written.path, written.digest, written.size, written.mtime_ns) == (
            rel, digest(f"new {rel}".encode()), st.st_size, st.st_mtime_ns)
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def test_write_all_refuses_only_the_files_that_changed(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = Vault(root)
    seen = {rel: vault.write(rel, "old", ABSENT) for rel in ("a.md", "b.md", "c.md")}
    (root / "c.md").chmod(0o444)
    monkeypatch.setattr(os, "sync", lambda: (root / "b.md").write_text("the user's edit"))  # between read and replace
    done = vault.write_all({rel: ("ours", seen[rel]) for rel in seen})
    assert isinstance(done["b.md"], ConflictError) and isinstance(done["c.md"], VaultError)
    assert [(root / rel).read_text() for rel in ("a.md", "b.md", "c.md")] == ["ours", "the user's edit", "old"]
    assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]
