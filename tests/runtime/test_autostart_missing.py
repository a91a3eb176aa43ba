"""`memvault service uninstall` where the service manager is missing: remove our file, say what was not done."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence

import pytest

from daemon.cli import main
from daemon.runtime.autostart import NOT_FOUND, Platform, uninstall


def test_without_systemctl_the_unit_is_removed_and_the_rest_is_said(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # no systemctl anywhere: the real runner is used
    where = Platform("linux", tmp_path, tmp_path / ".config")
    unit = tmp_path / ".config/systemd/user/memvault.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Unit]\n", encoding="utf-8")
    lines = uninstall(where)
    assert not unit.exists()
    assert lines[0] == f"removed {unit}"
    assert lines[1].startswith("systemctl not found: could not stop a running memvault service")
    assert "systemctl --user disable --now memvault" in lines[1]


def test_without_launchctl_the_agent_file_is_removed(tmp_path: Path) -> None:
    calls: list[list[str]] = []

    def missing(command: Sequence[str]) -> int:
        calls.append(list(command))
        return NOT_FOUND

    plist = tmp_path / "Library/LaunchAgents/io.memvault.daemon.plist"
    plist.parent.mkdir(parents=True)
    plist.write_text("<plist/>", encoding="utf-8")
    lines = uninstall(Platform("darwin", tmp_path, tmp_path), run=missing)
    assert not plist.exists() and lines[0] == f"removed {plist}"
    assert lines[1].startswith("launchctl not found:")


def test_a_failing_systemctl_is_reported_too(tmp_path: Path) -> None:
    unit = tmp_path / "systemd/user/memvault.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Unit]\n", encoding="utf-8")
    lines = uninstall(Platform("linux", tmp_path, tmp_path), run=lambda command: 1)
    assert not unit.exists() and lines[1].startswith("systemctl failed (exit 1):")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the systemd path is Linux's")
def test_the_command_needs_no_systemctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    unit = Path(os.environ["XDG_CONFIG_HOME"]) / "systemd/user/memvault.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Unit]\n", encoding="utf-8")
    assert main(["service", "uninstall", f"vault={tmp_path / 'vault'}"]) == 0
    out = capsys.readouterr().out
    assert not unit.exists() and f"removed {unit}" in out and "systemctl not found" in out
