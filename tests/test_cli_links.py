"""The link commands from the command line (issue 11 items 5, 6, 7 and 11)."""

from __future__ import annotations

from pathlib import Path
import pytest
from conftest import snapshot_tree

from daemon.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


@pytest.fixture
def vault(vault_root: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    write(vault_root, "proj/Alpha.md", "alpha\n")
    write(vault_root, "projects/deep/Plan.md", "plan\n")
    write(vault_root, "src.md", "[[proj/Alpha]] [[Plan]]\n")
    assert run(capsys, "reindex", f"vault={vault_root}")[0] == 0
    return vault_root


# --------------------------------------------------------------------------- item 6
def test_a_folder_given_relative_to_the_vault_from_elsewhere(capsys: pytest.CaptureFixture[str], vault: Path,
                                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = run(capsys, "mv", "proj", "arch/proj", f"vault={vault}")
    assert code == 0, err
    assert "moved proj/Alpha.md -> arch/proj/Alpha.md" in out
    assert (vault / "src.md").read_text() == "[[Alpha]] [[Plan]]\n"


def test_a_path_relative_to_the_working_directory(capsys: pytest.CaptureFixture[str], vault: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(vault / "projects/deep")
    code, out, err = run(capsys, "mv", "Plan.md", "../Plan 2.md", f"vault={vault}")
    assert code == 0, err
    assert (vault / "projects/Plan 2.md").exists() and (vault / "src.md").read_text() == "[[proj/Alpha]] [[Plan 2]]\n"


def test_a_source_is_a_path_not_a_link(capsys: pytest.CaptureFixture[str], vault: Path) -> None:
    before = snapshot_tree(vault)
    code, out, err = run(capsys, "mv", "plan", "x.md", f"vault={vault}")
    assert code == 1 and "no note or folder 'plan'" in err and "Traceback" not in err
    assert snapshot_tree(vault) == before


def test_a_destination_outside_the_vault_is_refused(capsys: pytest.CaptureFixture[str], vault: Path,
                                                   tmp_path: Path) -> None:
    before = snapshot_tree(vault)
    code, _, err = run(capsys, "mv", "proj/Alpha.md", str(tmp_path / "outside.md"), f"vault={vault}")
    assert code == 1 and "outside the vault" in err
    code, _, err = run(capsys, "mv", "proj/Alpha.md", "../escape.md", f"vault={vault}")
    assert code == 1 and "inside the vault" in err
    assert snapshot_tree(vault) == before and not (tmp_path / "outside.md").exists()
    code, _, err = run(capsys, "mv", "proj/Alpha.md", str(vault / "in/50% off; A&B.md"), f"vault={vault}")
    assert code == 0 and (vault / "in/50% off; A&B.md").exists(), err  # `%`, `;` and `&` are fine
    assert (vault / "src.md").read_text() == "[[50% off; A&B]] [[Plan]]\n"


# --------------------------------------------------------------------------- item 7
@pytest.mark.parametrize("dst,why", [(".hidden.md", "starts with '.'"), (".git/A.md", "starts with '.'"),
                                     ("sub /A.md", "whitespace"), ("sub./A.md", "end with '.'")])
def test_a_destination_obsidian_would_not_show_is_refused(capsys: pytest.CaptureFixture[str], vault: Path,
                                                         dst: str, why: str) -> None:
    before = snapshot_tree(vault)
    code, _, err = run(capsys, "mv", "proj/Alpha.md", dst, f"vault={vault}")
    assert code == 1 and why in err and err.count("\n") == 1
    assert snapshot_tree(vault) == before


# -------------------------------------------------------------------------- item 11
def test_options_and_overrides_in_any_order(capsys: pytest.CaptureFixture[str], vault: Path) -> None:
    code, out, err = run(capsys, "mv", "proj/Alpha.md", "Beta.md", "--dry-run", f"vault={vault}")
    assert code == 0, err
    assert "would move proj/Alpha.md -> Beta.md" in out and (vault / "proj/Alpha.md").exists()


def test_links_prints_a_link_that_spans_lines_on_one_line(capsys: pytest.CaptureFixture[str], vault: Path) -> None:
    write(vault, "wrap.md", "see [the long\nplan](projects/deep/Plan.md) here\n")
    code, out, _ = run(capsys, "links", "wrap.md", f"vault={vault}")
    assert code == 0
    assert out == "wrap.md:1: [the long\\nplan](projects/deep/Plan.md) -> projects/deep/Plan.md\n"


# --------------------------------------------------------------------------- item 5
def test_reindex_says_which_notes_it_rewrote(capsys: pytest.CaptureFixture[str], vault: Path) -> None:
    (vault / "projects/deep/Plan.md").rename(vault / "projects/deep/Roadmap.md")  # while nothing watches
    code, out, _ = run(capsys, "reindex", f"vault={vault}")
    assert code == 0
    assert "renamed while memvault was not watching: projects/deep/Plan.md -> projects/deep/Roadmap.md" in out
    assert "rewrote links in 1 file(s): src.md" in out
    with pytest.raises(SystemExit):
        main(["reindex", "--help"])
    assert "WRITES NOTES" in capsys.readouterr().out


# --------------------------------------------------------------------------- issue 17 item 3
def test_read_commands_query_the_index_without_loading_the_vault_while_a_daemon_runs(
        capsys: pytest.CaptureFixture[str], vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from daemon.config import load_config
    from daemon.links import graph as graph_module
    from daemon.links import resolve as resolve_module
    from daemon.vault.state import VaultLock

    write(vault, "tagged.md", "---\nmemory_tags: [plans]\n---\n[[Plan]] [[nowhere]] #todo\n")
    commands = [("backlinks", "Plan"), ("backlinks", "projects/deep/Plan.md"), ("links", "tagged.md"),
                ("links", "src"), ("broken",), ("tags",), ("tags", "plans")]
    alone = {c: run(capsys, *c, f"vault={vault}") for c in commands}  # no daemon: caught up here
    assert alone[("backlinks", "Plan")][0] == 0 and "src.md:1: [[Plan]]" in alone[("backlinks", "Plan")][1]
    assert "tagged.md:4: [[nowhere]]" in alone[("broken",)][1]
    loaded: list[int] = []
    monkeypatch.setattr(graph_module.Graph, "open", lambda *a, **k: pytest.fail("Graph.open loads every path"))
    monkeypatch.setattr(graph_module.Graph, "sync", lambda *a, **k: pytest.fail("a reader must not write"))
    original = resolve_module.PathIndex.__init__

    def counting(self: resolve_module.PathIndex, paths: object = ()) -> None:
        original(self, paths)  # type: ignore[arg-type]
        loaded.append(len(self))

    monkeypatch.setattr(resolve_module.PathIndex, "__init__", counting)
    state = load_config(overrides=[f"vault={vault}"]).state_dir()
    with VaultLock(state, "memvault start"):
        (state / "api.json").write_text("{}")  # a daemon holds the lock and serves: readers do not wait
        held = {c: run(capsys, *c, f"vault={vault}") for c in commands}
        missing = run(capsys, "backlinks", "Nothing", f"vault={vault}")
    assert held == alone
    assert max(loaded) == 1  # the one file carrying the name asked for, never the vault's path table
    assert missing[0] == 1 and missing[2].startswith("Error: no note 'Nothing'") and missing[2].count("\n") == 1


def test_a_read_command_refuses_an_index_a_running_daemon_has_not_migrated(
        capsys: pytest.CaptureFixture[str], vault: Path) -> None:
    import sqlite3

    from daemon.config import load_config
    from daemon.links.index import MIGRATIONS
    from daemon.vault.state import VaultLock

    state = load_config(overrides=[f"vault={vault}"]).state_dir()
    with sqlite3.connect(state / "index.sqlite3") as db:  # as an older daemon left it: one migration short
        db.execute("DELETE FROM migrations WHERE name = ?", (MIGRATIONS[-1][0],))
    with VaultLock(state, "memvault start"):
        (state / "api.json").write_text("{}")
        code, _, err = run(capsys, "links", "src", f"vault={vault}")
    assert code == 1 and err.startswith("Error: the running daemon's index is from an older memvault")
