"""Run at login: a systemd user unit (Linux), a launchd agent (macOS), instructions on Windows."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence
from xml.sax.saxutils import escape

UNIT = "memvault.service"
LABEL = "io.memvault.daemon"
Runner = Callable[[Sequence[str]], int]
NOT_FOUND = 127  # what a shell answers for a command that is not on the PATH


def _run(command: Sequence[str]) -> int:
    try:
        return subprocess.run(list(command), check=False, capture_output=True).returncode
    except FileNotFoundError:  # systemctl or launchctl missing (a container, WSL without systemd)
        return NOT_FOUND


@dataclass(frozen=True)
class Platform:
    name: str          # "linux", "darwin", "win32"
    home: Path
    config_home: Path  # XDG_CONFIG_HOME on Linux


def command(config: Path | None) -> list[str]:
    """How the service starts the daemon: this Python, so a virtual environment keeps working."""
    line = [sys.executable, "-m", "daemon"]
    if config is not None:
        line += ["--config", str(config.resolve())]
    return line + ["start"]


def systemd_unit(argv: list[str]) -> str:
    quoted = " ".join(f'"{a}"' if " " in a else a for a in argv)
    return (
        "[Unit]\nDescription=memvault: memory cards and link repair for an Obsidian vault\n\n"
        f"[Service]\nType=simple\nExecStart={quoted}\nRestart=on-failure\nRestartSec=10\n\n"
        "[Install]\nWantedBy=default.target\n"
    )


def launchd_plist(argv: list[str], log: Path) -> str:
    args = "".join(f"    <string>{escape(a)}</string>\n" for a in argv)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n<dict>\n'
        f"  <key>Label</key>\n  <string>{LABEL}</string>\n"
        f"  <key>ProgramArguments</key>\n  <array>\n{args}  </array>\n"
        "  <key>RunAtLoad</key>\n  <true/>\n  <key>KeepAlive</key>\n  <true/>\n"
        f"  <key>StandardErrorPath</key>\n  <string>{escape(str(log))}</string>\n"
        "</dict>\n</plist>\n"
    )


def install(platform: Platform, argv: list[str], log: Path, run: Runner = _run) -> list[str]:
    """Write and enable the login service; returns what was done, line by line."""
    if platform.name.startswith("linux"):
        path = platform.config_home / "systemd" / "user" / UNIT
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(systemd_unit(argv), encoding="utf-8")
        done = [f"wrote {path}"]
        if shutil.which("systemctl") is None and run is _run:
            return done + ["systemctl not found: start it with `systemctl --user enable --now memvault` "
                           "where systemd runs"]
        ok = run(["systemctl", "--user", "daemon-reload"]) == 0 and \
            run(["systemctl", "--user", "enable", "--now", UNIT]) == 0
        return done + (["enabled and started memvault.service (systemctl --user status memvault)"] if ok else
                       ["could not enable it: run `systemctl --user enable --now memvault` yourself"])
    if platform.name == "darwin":
        path = platform.home / "Library" / "LaunchAgents" / f"{LABEL}.plist"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(launchd_plist(argv, log), encoding="utf-8")
        ok = run(["launchctl", "load", "-w", str(path)]) == 0
        return [f"wrote {path}", "loaded the agent" if ok else f"run `launchctl load -w {path}` yourself"]
    task = subprocess.list2cmdline(argv)
    return ["Windows: create a logon task in a terminal:",
            f'  schtasks /Create /SC ONLOGON /TN memvault /TR "{task}"']


def uninstall(platform: Platform, run: Runner = _run) -> list[str]:
    """Stop and remove the login service; returns what was done, and what could not be, line by line.

    The file we wrote is removed even when the service manager is missing or fails.
    """
    if platform.name.startswith("linux"):
        path = platform.config_home / "systemd" / "user" / UNIT
        existed = path.exists()
        stopped = run(["systemctl", "--user", "disable", "--now", UNIT]) if existed else 0
        path.unlink(missing_ok=True)
        if stopped != NOT_FOUND:
            run(["systemctl", "--user", "daemon-reload"])
        lines = [f"removed {path}" if existed else "no memvault.service was installed"]
        return lines + _not_stopped(stopped, "systemctl", "systemctl --user disable --now memvault")
    if platform.name == "darwin":
        path = platform.home / "Library" / "LaunchAgents" / f"{LABEL}.plist"
        existed = path.exists()
        stopped = run(["launchctl", "unload", "-w", str(path)]) if existed else 0
        path.unlink(missing_ok=True)
        lines = [f"removed {path}" if existed else "no memvault agent was installed"]
        return lines + _not_stopped(stopped, "launchctl", f"launchctl remove {LABEL}")
    return ["Windows: remove the logon task with `schtasks /Delete /TN memvault /F`"]


def _not_stopped(code: int, tool: str, by_hand: str) -> list[str]:
    """What could not be done when the service manager was missing or refused."""
    if code == 0:
        return []
    why = f"{tool} not found" if code == NOT_FOUND else f"{tool} failed (exit {code})"
    return [f"{why}: could not stop a running memvault service; stop it with `{by_hand}` where it runs"]
