"""Every command but ``init`` refuses a vault folder that does not exist or is not a vault, naming ``memvault init``."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.cli import main

COMMANDS = [
    ["auto_memory", "session_id=s", 'messages=[{"role": "user", "content": "hi"}]'],
    ["ingest", "IN"],
    ["start"],
    ["mv", "a.md", "b.md"],
    ["backlinks", "a.md"],
    ["links", "a.md"],
    ["broken"],
    ["reindex"],
    ["status"],
    ["tags"],
    ["retag", "--all"],
    ["claude-code", "import"],
    ["claude-code", "drain"],
    ["claude-code", "install"],
]


@pytest.mark.parametrize("kind", ["missing", "not a vault"])
@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: " ".join(w[:2]))
def test_a_folder_that_is_not_a_vault_is_refused(words: list[str], kind: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    vault = tmp_path / "Notes-typo"
    if kind == "not a vault":
        (vault / "projects").mkdir(parents=True)
        (vault / "projects" / "plan.md").write_text("# plan\n", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if "home" not in p.parts)
    exported = tmp_path / "export.json"
    exported.write_text('{"session_id": "s", "messages": [{"role": "user", "content": "hi"}]}', encoding="utf-8")
    args = [str(exported) if w == "IN" else w for w in words]
    assert main([*args, f"vault={vault}"]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("Error: ") and err.count("\n") == 1 and "memvault init" in err and str(vault) in err
    assert "Traceback" not in err
    after = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                   if "home" not in p.parts and p != exported)
    assert after == before  # nothing created: no vault, no inbox, no daily/


def test_init_makes_a_plain_folder_a_vault_the_others_accept(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "Notes"
    (folder / "projects").mkdir(parents=True)
    config = tmp_path / "config.toml"
    config.write_text("", encoding="utf-8")
    assert main(["--config", str(config), "status", f"vault={folder}"]) == 1
    assert "memvault init" in capsys.readouterr().err
    assert main(["--config", str(config), "init", str(folder)]) == 0
    assert (folder / ".obsidian").is_dir() and (folder / "projects").is_dir()
    assert main(["--config", str(config), "status"]) == 0
