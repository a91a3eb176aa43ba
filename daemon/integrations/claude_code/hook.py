"""``memvault hook claude-code``: Claude Code's hook, which must never block or break the agent.

It reads the hook's JSON from standard input, leaves a job in the spool and
hands it on: to the running daemon through its local API, else to one
detached drain worker (``memvault claude-code drain``) that waits for the
vault lock. It exits 0 whatever happens and prints nothing on stdout (but
SessionStart's context); what went wrong goes to the log file and to
``memvault claude-code status``.

Everything here is on the hook's import path, so it stays small: no
``subprocess`` (``os.posix_spawn``), no ``http.client`` (a raw loopback
socket), no ``logging``. ``python -X importtime`` keeps it honest.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, BinaryIO, Sequence, TextIO

from daemon.integrations.claude_code import spool

MAX_PAYLOAD = 1_000_000
FIELDS = ("session_id", "transcript_path", "cwd", "hook_event_name", "stop_hook_active")
POKE_TIMEOUT = 0.1


def run(config_path: str | None, overrides: Sequence[str], stdin: BinaryIO | None = None,
        stdout: TextIO | None = None) -> int:
    """The whole hook; always returns 0."""
    state_dir: Path | None = None
    try:
        from daemon.config import load_config
        from daemon.vault.layout import vault_problem

        config = load_config(Path(config_path) if config_path else None, overrides)
        state_dir = config.state_dir()
        source = stdin or sys.stdin.buffer
        if source.isatty():  # run by hand: nothing would ever arrive
            raise ValueError("no hook payload on standard input (Claude Code pipes its JSON in)")
        payload = parse_payload(source.read(MAX_PAYLOAD + 1))
        problem = vault_problem(config.vault, config.daily_dir, config.session_dir)
        if problem:
            raise ValueError(problem + "; the session stays in its transcript (memvault claude-code import)")
        if payload.get("hook_event_name") == "SessionStart":
            return session_start(config, payload, stdout)
        spool.put(state_dir, payload)
        hand_on(state_dir, config_path, overrides)
    except BaseException as exc:  # noqa: BLE001 - a hook must never fail the agent, whatever the cause
        _report(state_dir, f"Claude Code hook: {exc}")
    return 0


def session_start(config: Any, payload: dict[str, Any], stdout: TextIO | None = None) -> int:
    """Answer SessionStart with the project's recent cards (``daemon.recall.context``), or with nothing."""
    from daemon.recall.context import session_start_output

    answer = session_start_output(config, str(payload.get("cwd") or ""))
    if answer["hookSpecificOutput"]["additionalContext"]:
        out = stdout or sys.stdout
        out.write(json.dumps(answer, ensure_ascii=False))
        out.flush()
    return 0


def parse_payload(raw: bytes) -> dict[str, Any]:
    """The hook's fields we keep; ValueError naming what is wrong with the payload."""
    if len(raw) > MAX_PAYLOAD:
        raise ValueError(f"the hook payload is larger than {MAX_PAYLOAD} bytes")
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"the hook payload on standard input is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError("the hook payload must be a JSON object")
    sid = value.get("session_id")
    if not isinstance(sid, str) or not sid.strip():
        raise ValueError("the hook payload has no session_id")
    return {key: value[key] for key in FIELDS if key in value}


def hand_on(state_dir: Path, config_path: str | None, overrides: Sequence[str]) -> str:
    """Wake whoever drains the spool: the daemon, a drainer already at work, or a new one."""
    if (state_dir / "api.json").exists() and poke_daemon(state_dir):
        return "daemon"
    if spool.DrainLock(state_dir).held_elsewhere():
        return "drainer"
    spawn_drainer(state_dir, config_path, overrides)
    return "spawned"


def poke_daemon(state_dir: Path, timeout: float = POKE_TIMEOUT) -> bool:
    """POST ``/claude_code`` to the daemon's local API; True when it answered 200 (it then drains)."""
    import socket

    try:
        info = json.loads((state_dir / "api.json").read_text(encoding="utf-8"))
        body = b"{}"
        request = (f"POST /claude_code HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {info['token']}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
        with socket.create_connection(("127.0.0.1", int(info["port"])), timeout=timeout) as conn:
            conn.sendall(request.encode("ascii") + body)
            answer = b""
            while chunk := conn.recv(4096):  # read to the end: closing early would reset the server's write
                answer += chunk
        status = answer.split(b" ", 2)
        return len(status) > 1 and status[1] == b"200"
    except (OSError, ValueError, KeyError, TypeError):
        return False


def drainer_command(config_path: str | None, overrides: Sequence[str]) -> list[str]:
    command = [sys.executable, "-m", "daemon"]
    if config_path:
        command += ["--config", str(config_path)]
    return command + ["claude-code", "drain", *overrides]


def spawn_drainer(state_dir: Path, config_path: str | None, overrides: Sequence[str]) -> int:
    """Start ``memvault claude-code drain`` detached: own session, no inherited output, cwd the state folder.

    The state folder as cwd keeps ``python -m daemon`` from picking up a
    ``daemon/`` package in the project Claude Code runs in.
    """
    command = drainer_command(config_path, overrides)
    devnull = os.open(os.devnull, os.O_RDWR)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                   (os.POSIX_SPAWN_DUP2, devnull, 2)]
        cwd = os.getcwd()
        os.chdir(state_dir)
        try:
            return os.posix_spawn(command[0], command, os.environ, file_actions=actions, setsid=True)
        finally:
            os.chdir(cwd)
    finally:
        os.close(devnull)


def log_path() -> Path:
    """The daemon's log file (``runner.log_file``), found without importing the daemon."""
    import platformdirs

    return Path(platformdirs.user_log_dir("memvault")) / "memvault.log"


def _report(state_dir: Path | None, message: str) -> None:
    """To the log file and, when the vault is known, to ``memvault status``; never raises."""
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{stamp} ERROR memvault.claude_code: {message}\n")
    except BaseException:  # noqa: BLE001
        pass
    try:
        if state_dir is not None:
            spool.record_error(state_dir, message)
    except BaseException:  # noqa: BLE001
        pass
