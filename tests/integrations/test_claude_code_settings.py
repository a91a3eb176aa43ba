"""``memvault claude-code install | uninstall | status``: our hooks in, exactly our hooks out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daemon.cli import main
from daemon.config import Config
from daemon.integrations.claude_code import settings

USER_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"], "deny": []},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "say done", "timeout": 3}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "check.sh"}]}],
    },
    "env": {"Z": "1", "A": "2"},
}


@pytest.fixture
def claude_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


def cli(config: Config, *words: str) -> int:
    return main(["claude-code", *words, f"vault={config.vault}"])


def test_install_then_uninstall_gives_back_the_same_json(config: Config, claude_dir: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = claude_dir / "settings.json"
    path.parent.mkdir()
    original = json.dumps(USER_SETTINGS, indent=4) + "\n"
    path.write_text(original, encoding="utf-8")
    assert cli(config, "install") == 0
    installed = json.loads(path.read_text(encoding="utf-8"))
    assert (path.parent / "settings.json.bak").read_text(encoding="utf-8") == original
    assert list(installed) == list(USER_SETTINGS)  # key order kept
    assert installed["hooks"]["Stop"][0] == USER_SETTINGS["hooks"]["Stop"][0]
    assert installed["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    ours = settings.installed(path)
    assert sorted(ours) == ["PreCompact", "SessionEnd", "SessionStart", "Stop"]
    assert all(c.endswith(f"hook claude-code vault={config.vault.resolve()}") for c in ours.values())
    assert {k: v for k, v in installed.items() if k != "hooks"} == {k: v for k, v in USER_SETTINGS.items() if k != "hooks"}
    assert cli(config, "uninstall") == 0
    back = json.loads(path.read_text(encoding="utf-8"))
    assert back == USER_SETTINGS and json.dumps(back) == json.dumps(USER_SETTINGS)  # equal, in the same order
    assert "removed memvault's hooks" in capsys.readouterr().out


def test_install_twice_changes_nothing_the_second_time(config: Config, claude_dir: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(config, "install") == 0
    path = claude_dir / "settings.json"
    first = path.read_bytes()
    assert not (claude_dir / "settings.json.bak").exists()  # there was no file to back up
    capsys.readouterr()
    assert cli(config, "install") == 0
    assert path.read_bytes() == first and "already" in capsys.readouterr().out
    assert not (claude_dir / "settings.json.bak").exists()
    assert cli(config, "uninstall") == 0
    assert json.loads(path.read_text()) == {}


def test_a_project_settings_file_is_used_with_project(config: Config, claude_dir: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    assert main(["claude-code", "install", "--project", str(project), f"vault={config.vault}"]) == 0
    assert sorted(settings.installed(project / ".claude" / "settings.json")) == \
        ["PreCompact", "SessionEnd", "SessionStart", "Stop"]
    assert not (claude_dir / "settings.json").exists()


def test_a_broken_settings_file_is_named_and_left_alone(config: Config, claude_dir: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = claude_dir / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "opus",', encoding="utf-8")
    assert cli(config, "install") == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and str(path) in err and "not valid JSON" in err and "Traceback" not in err
    assert path.read_text(encoding="utf-8") == '{"model": "opus",'


def test_status_says_installed_last_hook_sessions_and_errors(config: Config, claude_dir: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from daemon.integrations.claude_code import sessions, spool

    cli(config, "status")
    before = json.loads(capsys.readouterr().out)
    assert before["sessions"] == 0 and before["last_hook"] is None
    assert before["installed"] == {str(claude_dir / "settings.json"): []}
    cli(config, "install")
    sessions.save(config.state_dir(), sessions.SessionState("abc", last_hook=1_700_000_000.0))
    spool.record_error(config.state_dir(), "session abc: transcript not found: /x.jsonl")
    capsys.readouterr()
    cli(config, "status")
    after = json.loads(capsys.readouterr().out)
    assert after["installed"][str(claude_dir / "settings.json")] == ["PreCompact", "SessionEnd", "SessionStart", "Stop"]
    assert after["sessions"] == 1 and after["last_hook"].startswith("2023-11-")
    assert "transcript not found" in after["errors"][-1]["error"]


def test_the_throttle_setting_is_checked_and_named() -> None:
    from daemon.config import load_config
    from daemon.errors import ConfigError

    assert load_config(overrides=[], environ={}).get("claude_code.min_interval_seconds") == 300.0
    assert load_config(overrides=["claude_code.min_interval_seconds=0"], environ={}).get(
        "claude_code.min_interval_seconds") == 0.0
    with pytest.raises(ConfigError, match="claude_code.min_interval_seconds"):
        load_config(overrides=["claude_code.min_interval_seconds=-5"], environ={})
