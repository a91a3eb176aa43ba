"""The Claude Code commands: ``memvault hook claude-code`` and ``memvault claude-code …``.

Parse, call ``daemon.integrations.claude_code``, print. The hook normally never
gets here (``daemon.launch`` runs it before this module is imported); this
handler serves ``python -m daemon.cli`` and tests, with the same behaviour.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import date
from pathlib import Path
from typing import Any

from daemon.config import Config, load_config
from daemon.errors import InputError, LockError, MemvaultError
from daemon.integrations.claude_code import hook, sessions, settings, spool
from daemon.integrations.claude_code.catchup import import_sessions
from daemon.integrations.claude_code.drain import drain
from daemon.report import Progress, format_table

LOCK_WAIT_SECONDS = 600.0


def cmd_hook(args: argparse.Namespace) -> int:
    """Always 0, nothing on stdout (but SessionStart's context): a hook must never break the agent."""
    from daemon.cli import _split

    try:
        _, overrides = _split(args.settings)
    except MemvaultError:
        overrides = []
    return hook.run(str(args.config) if args.config else None, overrides)


def cmd_claude_code(args: argparse.Namespace) -> int:
    from daemon.cli import _split

    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    if args.action in ("install", "uninstall"):
        return _install(args, config)
    if args.action == "status":
        print(json.dumps(status(config, args.project), ensure_ascii=False, indent=2))
        return 0
    _check_vault(config)
    if args.action == "drain":
        return drain_worker(config)
    return _import(args, config)


def _check_vault(config: Config) -> None:
    from daemon.vault.layout import vault_problem

    problem = vault_problem(config.vault, config.daily_dir, config.session_dir)
    if problem:
        raise InputError(problem)


def _install(args: argparse.Namespace, config: Config) -> int:
    path = settings.settings_path(args.project)
    if args.action == "uninstall":
        change = settings.uninstall(path)
        print(f"removed memvault's hooks ({', '.join(change.events)}) from {path}" if change.changed
              else f"no memvault hook in {path}; nothing changed")
    else:
        _check_vault(config)
        command = settings.hook_command(args.config, config.vault)
        change = settings.install(path, command, settings.EVENTS)
        print(f"installed memvault's hooks ({', '.join(change.events)}) in {path}" if change.changed
              else f"memvault's hooks are already in {path}; nothing changed")
        print(f"each Claude Code session now becomes a card in {config.vault}")
    if change.backup:
        print(f"backup of the previous file: {change.backup}")
    return 0


def status(config: Config, project: Path | None = None) -> dict[str, Any]:
    """Whether the hooks are installed, when the last one ran, how many sessions are recorded, errors."""
    where = [settings.settings_path()] + ([settings.settings_path(project)] if project else [])
    return {"installed": {str(p): sorted(settings.installed(p)) for p in where},
            **sessions.overview(config.state_dir(), errors=10)}


def drain_worker(config: Config) -> int:
    """The spool's one drainer: waits for the vault lock, drains, and looks again before leaving."""
    from daemon.runner import setup_logging

    setup_logging()
    state = config.state_dir()
    lock = spool.DrainLock(state)
    while spool.jobs(state):
        if not lock.try_acquire():
            return 0  # another drainer is at work; it looks again after letting go
        try:
            if not _drain_once(config):
                return 0
        except Exception as exc:  # unattended: say why in the log and in status, keep the jobs for later
            logging.getLogger("memvault.claude_code").exception("draining the hook jobs failed")
            spool.record_error(state, f"hook jobs wait in the spool: draining failed: {exc!r}")
            return 1
        finally:
            lock.release()
    return 0


def _drain_once(config: Config) -> bool:
    """Drain under the vault lock, or hand over to a daemon that holds it; False when it did not drain."""
    from daemon.app import build
    from daemon.runtime import api
    from daemon.vault.state import VaultLock

    state = config.state_dir()

    def daemon_takes_it() -> bool:  # asked while waiting: a daemon that came up drains the spool itself
        if not (state / "api.json").exists():
            return False
        try:
            api.call(state, "claude_code", {}, timeout=10)
            return True
        except MemvaultError:
            return False

    vault_lock = VaultLock(state, "memvault claude-code drain")
    try:
        if not vault_lock.acquire(LOCK_WAIT_SECONDS, give_up=daemon_takes_it):
            return False
    except LockError as exc:
        spool.record_error(state, f"hook jobs wait in the spool: {exc}")
        return False
    try:
        ctx = build(config)
        try:
            drain(ctx, state)
        finally:
            ctx.graph.index.close()
    finally:
        vault_lock.release()
    return True


def _import(args: argparse.Namespace, config: Config) -> int:
    from daemon.cli import run_op

    since = _since(args.since)
    bar = Progress(sys.stderr)
    body = {"since": since.isoformat() if since else None}
    reports = run_op(config, "memvault claude-code import", "claude_code_import", body,
                     lambda ctx: import_sessions(ctx, config.state_dir(), since, progress=bar.update))
    bar.close()
    if not reports:
        print("no Claude Code session found" + (f" since {since}" if since else "") +
              f" under {settings.claude_home() / 'projects'}")
        return 0
    print(format_table(reports))
    return 1 if any(r["state"] == "failed" for r in reports) else 0


def _since(value: str | None) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise InputError(f"--since must be a date YYYY-MM-DD, got {value!r}") from exc
