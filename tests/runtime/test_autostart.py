"""The login service files, with the system commands recorded instead of run."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from daemon.runtime.autostart import Platform, install, launchd_plist, systemd_unit, uninstall


class Recorder:
    def __init__(self, code: int = 0) -> None:
        self.commands: list[list[str]] = []
        self.code = code

    def __call__(self, command: Sequence[str]) -> int:
        self.commands.append(list(command))
        return self.code


def test_systemd_install_and_uninstall(tmp_path: Path) -> None:
    where = Platform("linux", tmp_path, tmp_path / ".config")
    run = Recorder()
    lines = install(where, ["/venv/bin/python", "-m", "daemon", "start"], tmp_path / "log", run=run)
    unit = tmp_path / ".config/systemd/user/memvault.service"
    assert "ExecStart=/venv/bin/python -m daemon start" in unit.read_text()
    assert run.commands == [["systemctl", "--user", "daemon-reload"],
                            ["systemctl", "--user", "enable", "--now", "memvault.service"]]
    assert "enabled and started" in lines[-1]
    assert uninstall(where, run=Recorder()) == [f"removed {unit}"] and not unit.exists()


def test_systemd_failure_says_what_to_do(tmp_path: Path) -> None:
    lines = install(Platform("linux", tmp_path, tmp_path), ["p"], tmp_path / "log", run=Recorder(code=1))
    assert "systemctl --user enable --now memvault" in lines[-1]


def test_launchd_and_windows(tmp_path: Path) -> None:
    run = Recorder()
    lines = install(Platform("darwin", tmp_path, tmp_path), ["/py", "-m", "daemon", "start"], tmp_path / "l.log",
                    run=run)
    plist = tmp_path / "Library/LaunchAgents/io.memvault.daemon.plist"
    assert "<string>/py</string>" in plist.read_text() and run.commands[0][:2] == ["launchctl", "load"]
    assert lines[0] == f"wrote {plist}"
    windows = install(Platform("win32", tmp_path, tmp_path), ["C:\\Py\\python.exe", "-m", "daemon", "start"],
                      tmp_path / "l", run=run)
    assert "schtasks /Create /SC ONLOGON" in windows[1]


def test_unit_quotes_paths_with_spaces() -> None:
    assert 'ExecStart="/my env/python" -m daemon start' in systemd_unit(["/my env/python", "-m", "daemon", "start"])
    assert "&amp;" in launchd_plist(["a&b"], Path("/l"))
