"""The command line: parsing, printing, exit codes, and the reference's own commands."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import snapshot_tree

from daemon.cli import main
from daemon.config import default_config_path, load_config
from daemon.vault.state import VaultLock

MESSAGES = json.dumps([
    {"role": "user", "name": "jon", "created_at": "2023-01-19T08:00:00",
     "content": "I decided to use Postgres for the ledger because we need transactions."},
    {"role": "assistant", "created_at": "2023-01-19T08:01:00", "content": "Noted: Postgres for the ledger."},
])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    try:
        return code, json.loads(out), err
    except ValueError:
        return code, out, err


def test_reference_commands_work_verbatim(capsys: pytest.CaptureFixture[str], vault_root: Path) -> None:
    code, result, _ = run(capsys, "auto_memory", "session_id=session-a", "include_images=true",
                          f"messages={MESSAGES}", f"vault={vault_root}")
    assert code == 0 and result["success"] is True
    assert result["metadata"]["path"].startswith("daily/2023-01-19/")
    code, result, _ = run(capsys, "auto_memory", "session_id=locomo-session", "date=2023-01-19",
                          f"messages={MESSAGES}", f"vault={vault_root}",
                          "components.agent_wrapper.default.context_config.max_image_num=20")
    assert code == 0 and result["metadata"]["date"] == "2023-01-19"
    assert set(result["metadata"]) == {"date", "path", "created", "modified", "n_messages", "source_conversation", "auto_tag",
                                       "index"}


def test_messages_from_a_file_and_stdin(capsys: pytest.CaptureFixture[str], vault_root: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "m.json"
    file.write_text(MESSAGES, encoding="utf-8")
    code, result, _ = run(capsys, "auto_memory", "session_id=f", f"messages=@{file}", f"vault={vault_root}")
    assert code == 0 and result["metadata"]["created"] is True
    monkeypatch.setattr(sys, "stdin", io.StringIO(MESSAGES))
    code, result, _ = run(capsys, "auto_memory", "session_id=f", "messages=-", f"vault={vault_root}")
    assert code == 0 and result["metadata"]["modified"] is False


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (["session_id=s", "messages=[{"], "messages is not valid JSON"),
        (["session_id=s", "messages=@/nonexistent/m.json"], "messages file not found: /nonexistent/m.json"),
        (["session_id=s"], "messages is required"),
        (["session_id=bad/id", f"messages={MESSAGES}"], "session_id contains a character"),
        (["session_id=s", "date=yesterday", f"messages={MESSAGES}"], "date must be YYYY-MM-DD"),
        (["session_id=s", "include_images=perhaps", f"messages={MESSAGES}"], "include_images must be true or false"),
    ],
)
def test_bad_input_prints_a_failed_result_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], vault_root: Path, args: list[str], answer: str
) -> None:
    before = snapshot_tree(vault_root)
    code, result, err = run(capsys, "auto_memory", *args, f"vault={vault_root}")
    assert code == 1 and result["success"] is False and answer in result["answer"]
    assert "Traceback" not in err
    assert snapshot_tree(vault_root) == before


@pytest.mark.parametrize(
    ("arg", "message"),
    [("colour=blue", "unknown config key 'colour'"),
     ("components.agent_wrapper.default.context_config.max_image_num=lots", "max_image_num: expected int")],
)
def test_bad_config_is_one_line_naming_the_key(capsys: pytest.CaptureFixture[str], arg: str, message: str) -> None:
    code, out, err = run(capsys, "auto_memory", "session_id=s", "messages=[]", arg)
    assert code == 2 and out == "" and err.startswith("Error: ") and message in err
    assert err.count("\n") == 1


def test_missing_vault_is_refused_not_created(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A mistyped vault= path never becomes a new vault (tests/test_vault_refusal.py covers every command)."""
    vault = tmp_path / "fresh"
    code = main(["auto_memory", "session_id=s", f"messages={MESSAGES}", f"vault={vault}"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("Error: vault folder not found") and "memvault init" in err
    assert not vault.exists()


def test_init_creates_vault_and_config_and_never_overwrites(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    vault = tmp_path / "Notes"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / ".obsidian/app.json").write_text("{\"mine\": true}")
    code, out, _ = run(capsys, "init", str(vault))
    assert code == 0 and "Vault: " in out
    assert (vault / ".obsidian/app.json").read_text() == "{\"mine\": true}"
    assert (vault / "daily").is_dir() and (vault / "session/dialog").is_dir() and (vault / "inbox").is_dir()
    assert load_config().vault == vault.resolve()
    default_config_path().write_text('# mine\nvault = "/elsewhere"\ntimezone = "UTC"\n')
    run(capsys, "init", str(vault))
    text = default_config_path().read_text()
    assert text.startswith("# mine\nvault = ") and 'timezone = "UTC"' in text and load_config().vault == vault.resolve()


def test_a_locked_vault_names_the_holder(capsys: pytest.CaptureFixture[str], vault_root: Path) -> None:
    config = load_config(overrides=[f"vault={vault_root}"])
    with VaultLock(config.state_dir(), "memvault start"):
        code, out, err = run(capsys, "reindex", f"vault={vault_root}", "lock.wait_seconds=0.1")
    assert code == 2 and "in use by process" in err and "memvault start" in err and "waited 0.1 s" in err


def test_config_command_prints_the_effective_tree(capsys: pytest.CaptureFixture[str]) -> None:
    code, shown, _ = run(capsys, "config", "timezone=Asia/Shanghai")
    assert code == 0 and shown["config"]["timezone"] == "Asia/Shanghai" and shown["state_dir"]


def test_module_entry_point_help() -> None:
    done = subprocess.run([sys.executable, "-m", "daemon", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for command in ("init", "auto_memory", "config"):
        assert command in done.stdout
