"""The ``memvault`` command line: parse arguments, call one function, print the result.

Every command accepts ``key=value`` configuration overrides with dotted keys
(``vault=~/Notes``, ``components.agent_wrapper.default.context_config.max_image_num=20``).
Errors caused by the user print one ``Error: …`` line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

from daemon.config import Config, load_config, split_assignment, write_vault_setting
from daemon.errors import ConfigError, InputError, LockError, MemvaultError, VaultError

from daemon.commands import parse, parser
from daemon.cli_links import cmd_backlinks, cmd_broken, cmd_links, cmd_mv, cmd_reindex
from daemon.vault.state import VaultLock

# Everything else is imported by the commands that use it: a read command while the daemon runs
# (``backlinks``, ``links``, ``broken``, ``tags``) needs the config, the lock and the index only,
# and importing the whole package (the pipeline, the distiller, the scheduler) took longer than
# the command itself.

_OVERRIDE = re.compile(r"^[A-Za-z_][\w.]*=")
JOB_KEYS = ("session_id", "messages", "date", "memory_hint", "include_images")
log = logging.getLogger("memvault")

def main(argv: Sequence[str] | None = None) -> int:
    top = parser()
    args = parse(top, argv)
    if args.command is None:  # no command: the command list, as --help shows it
        top.print_help(sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a reader that went away shows up here, inside this handler
        return code
    except BrokenPipeError:
        return closed_pipe()
    except MemvaultError as exc:
        log.debug("failed", exc_info=True)
        print(f"Error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (ConfigError, LockError)) else 1


def closed_pipe() -> int:
    """The reader went away (``memvault tags | head``): stop quietly, as Unix tools do."""
    try:  # point stdout at /dev/null, or Python's flush at exit raises the same error again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141  # 128 + SIGPIPE: what a shell reports for a tool that a closed pipe stopped


def _split(settings: Sequence[str], job_keys: Sequence[str] = ()) -> tuple[dict[str, str], list[str]]:
    job: dict[str, str] = {}
    overrides: list[str] = []
    for item in settings:
        key, value = split_assignment(item)
        if key in job_keys:
            job[key] = value
        else:
            overrides.append(item)
    return job, overrides


def cmd_init(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    if args.vault_path:
        overrides.append(f"vault={Path(args.vault_path).expanduser().resolve()}")
    config = load_config(args.config, overrides)
    from daemon.app import init_vault

    created = init_vault(config.vault, config)
    config_file = write_vault_setting(args.config, config)
    print(f"Vault: {config.vault}")
    print(f"Created: {', '.join(created) if created else 'nothing (everything was already there)'}")
    print(f"Config: {config_file}")
    return 0


def cmd_auto_memory(args: argparse.Namespace) -> int:
    job, overrides = _split(args.settings, JOB_KEYS)
    config = load_config(args.config, overrides)
    try:
        params = job_params(job)
    except InputError as exc:
        return _print_result({"success": False, "answer": f"Error: {exc}",
                              "metadata": {"date": job.get("date"), "modified": False, "n_messages": 0}})
    _ensure_vault(config)
    try:
        from daemon import ops

        result = run_op(config, "memvault auto_memory", "auto_memory", params,
                        lambda ctx: ops.run_auto_memory(ctx, params))
    except LockError as exc:  # a hook reads the JSON result, also when the vault stayed busy
        result = {"success": False, "answer": f"Error: {exc}",
                  "metadata": {"date": job.get("date"), "modified": False, "n_messages": 0}}
    return _print_result(result)


def _ensure_vault(config: Config) -> None:
    """Refuse a vault folder that does not exist or is not a vault: a typo must not become a new vault."""
    from daemon.vault.layout import vault_problem

    problem = vault_problem(config.vault, config.daily_dir, config.session_dir)
    if problem:
        raise VaultError(problem)


def run_op(config: Config, role: str, name: str, body: dict[str, Any], local: Callable[[Any], Any]) -> Any:
    """Run an operation in this process under the vault lock, or through the running daemon's API."""
    from daemon.app import build

    lock = VaultLock(config.state_dir(), role)
    if not take_lock(config, lock):
        from daemon.runtime import api  # (its HTTP modules only when a daemon runs)

        return api.call(config.state_dir(), name, body)
    try:
        ctx = build(config)
        try:
            return local(ctx)
        finally:
            ctx.graph.index.close()
    finally:
        lock.release()


def take_lock(config: Config, lock: VaultLock) -> bool:
    """Wait for the vault lock (``lock.wait_seconds``); False when a running daemon should do the work."""
    return lock.acquire(config.get("lock.wait_seconds"), notice=lambda m: print(f"memvault: {m}", file=sys.stderr),
                        give_up=(config.state_dir() / "api.json").exists)


def job_params(job: dict[str, str]) -> dict[str, Any]:
    """Turn the job's key=value strings into auto_memory arguments."""
    if "messages" not in job:
        raise InputError("messages is required (messages='[...]', messages=@file.json or messages=-)")
    params: dict[str, Any] = {
        "session_id": job.get("session_id", ""),
        "messages": read_messages(job["messages"]),
        "date": job.get("date"),
        "memory_hint": job.get("memory_hint"),
    }
    flag = job.get("include_images", "false").strip().lower()
    if flag not in ("true", "false", "1", "0", "yes", "no"):
        raise InputError(f"include_images must be true or false, got {job['include_images']!r}")
    params["include_images"] = flag in ("true", "1", "yes")
    return params


def read_messages(value: str) -> Any:
    """Parse ``messages=``: inline JSON, ``@file.json`` or ``-`` for standard input."""
    source = "messages"
    if value == "-":
        text, source = sys.stdin.read(), "messages from standard input"
    elif value.startswith("@"):
        path = Path(value[1:]).expanduser()
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError as exc:
            raise InputError(f"messages file not found: {path}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read messages file {path}: {exc}") from exc
        source = f"messages file {path}"
    else:
        text = value
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from exc
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        return data["messages"]
    return data


def _print_result(result: dict[str, Any]) -> int:
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0 if result.get("success") else 1


def cmd_config(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    shown = {"file": str(config.source) if config.source else None, "vault_path": str(config.vault),
             "state_dir": str(config.state_dir()), "config": config.data}
    print(json.dumps(shown, ensure_ascii=False, indent=2))
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    _ensure_vault(config)
    from daemon.runner import Daemon, setup_logging

    log = setup_logging()
    print(f"memvault: watching {config.vault}, inbox {config.inbox} (Ctrl+C to stop); log: {log}", file=sys.stderr)
    Daemon(config, polling=args.polling or None).run()
    print("memvault: stopped", file=sys.stderr)
    return 0


@contextmanager
def reading(args: argparse.Namespace) -> Iterator[Any]:
    """The index for read commands: the daemon's (it keeps it current), or caught up here.

    The vault lock is held only while catching up (a write); the index is read without it.
    """
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    from daemon.links.index import Index, IndexedPaths

    lock = VaultLock(config.state_dir(), "memvault (catching up the index)")
    if not take_lock(config, lock):  # the daemon keeps the index current: query it read-only, load nothing
        index = Index.open_readonly(config.state_dir() / "index.sqlite3")
        if not index.migrated():  # a daemon older than this command holds it: its tables are not ours
            index.close()
            raise MemvaultError("the running daemon's index is from an older memvault; stop it, run `memvault start` "
                                "again, and try again")
        try:
            yield SimpleNamespace(config=config, graph=SimpleNamespace(index=index, paths=IndexedPaths(index)))
        finally:
            index.close()
        return
    from daemon.app import build

    try:
        ctx = build(config)
    finally:
        lock.release()
    try:
        yield ctx
    finally:
        ctx.graph.index.close()


def cmd_ingest(args: argparse.Namespace) -> int:
    settings = [a for a in args.paths if _OVERRIDE.match(a) and not Path(a).exists()]
    config = load_config(args.config, settings)
    _ensure_vault(config)
    paths = [str(Path(p).expanduser().resolve()) for p in args.paths if p not in settings]
    if not paths:
        raise InputError("name at least one file or folder to import")
    from daemon import ops
    from daemon.report import Progress, format_table

    bar = Progress(sys.stderr)
    reports = run_op(config, "memvault ingest", "ingest", {"paths": paths},
                     lambda ctx: ops.ingest(ctx, paths, progress=bar.update))
    bar.close()
    print(format_table(reports))
    return 1 if any(r["state"] == "failed" for r in reports) else 0


def cmd_status(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    from daemon import ops

    print(ops.dumps(run_op(config, "memvault status", "status", {}, lambda ctx: ops.status(ctx))))
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    if args.tag and _OVERRIDE.match(args.tag):
        args.settings.insert(0, args.tag)
        args.tag = None
    with reading(args) as ctx:
        if args.tag:
            project = args.tag.startswith("project:") and args.tag.partition(":")[2]
            from daemon.links.graph import normalize_tag

            notes = ctx.graph.index.in_project(project) if project else ctx.graph.index.tagged(normalize_tag(args.tag))
            print("\n".join(notes) if notes else f"no note carries the tag {args.tag!r}")
        else:
            rows = ctx.graph.index.tag_counts() + [(f"project:{p}", n) for p, n in ctx.graph.index.project_counts()]
            for tag, count in rows:
                print(f"{count:6d}  {tag}")
    return 0


def cmd_retag(args: argparse.Namespace) -> int:
    settings = [a for a in args.paths if _OVERRIDE.match(a)]
    paths = [a for a in args.paths if a not in settings]
    config = load_config(args.config, settings)
    body = {"paths": paths, "all": args.everything}
    from daemon import ops

    report = run_op(config, "memvault retag", "retag", body, lambda ctx: ops.retag(ctx, paths, args.everything))
    for item in report["results"]:
        shown = ", ".join(item["tags"]) if item["success"] else f"failed: {item['error']}"
        print(f"{item['path']}: {shown}")
    print(f"tagged {report['succeeded']} card(s); {report['failed']} failed")
    return 1 if report["failed"] else 0


def cmd_doctor(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    from daemon import ops

    problems = 0
    for ok, line in ops.doctor(config):
        print(f"{'ok ' if ok else 'ERR'} {line}")
        problems += not ok
    return 1 if problems else 0


def cmd_service(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    import platformdirs

    from daemon.runner import log_file
    from daemon.runtime import autostart

    where = autostart.Platform(sys.platform, Path.home(), Path(platformdirs.user_config_dir()))
    if args.action == "install":
        lines = autostart.install(where, autostart.command(args.config or config.source), log_file())
    else:
        lines = autostart.uninstall(where)
    print("\n".join(lines))
    return 0


def _later(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command handler imported from ``module`` only when the command runs."""
    def run(args: argparse.Namespace) -> int:
        return int(getattr(importlib.import_module(module), name)(args))

    return run


COMMANDS = {
    "init": cmd_init,
    "auto_memory": cmd_auto_memory,
    "start": cmd_start,
    "ingest": cmd_ingest,
    "mv": cmd_mv,
    "backlinks": cmd_backlinks,
    "links": cmd_links,
    "broken": cmd_broken,
    "reindex": cmd_reindex,
    "status": cmd_status,
    "tags": cmd_tags,
    "retag": cmd_retag,
    "service": cmd_service,
    "doctor": cmd_doctor,
    "config": cmd_config,
    "model": _later("daemon.cli_model", "cmd_model"),
    "hook": _later("daemon.cli_claude", "cmd_hook"),
    "claude-code": _later("daemon.cli_claude", "cmd_claude_code"),
    "search": _later("daemon.cli_recall", "cmd_search"),
    "mcp": _later("daemon.cli_recall", "cmd_mcp"),
}
