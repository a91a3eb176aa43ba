"""The ``memvault`` command line: parse arguments, call one function, print the result.

Every command accepts ``key=value`` configuration overrides with dotted keys
(``vault=~/Notes``, ``components.agent_wrapper.default.context_config.max_image_num=20``).
Errors caused by the user print one ``Error: …`` line, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

from daemon.app import build, init_vault
from daemon.config import Config, load_config, split_assignment, write_vault_setting
from daemon.errors import ConfigError, InputError, LockError, MemvaultError
import platformdirs

from daemon import ops
from daemon.runtime import api, autostart
from daemon.links.graph import Graph, normalize_tag
from daemon.links.index import Index
from daemon.commands import parser
from daemon.report import Progress, format_table
from daemon.runner import Daemon, log_file, setup_logging
from daemon.vault.state import VaultLock
from daemon.vault.files import Vault

_OVERRIDE = re.compile(r"^[A-Za-z_][\w.]*=")
JOB_KEYS = ("session_id", "messages", "date", "memory_hint", "include_images")
log = logging.getLogger("memvault")

def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    try:
        return COMMANDS[args.command](args)
    except MemvaultError as exc:
        log.debug("failed", exc_info=True)
        print(f"Error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (ConfigError, LockError)) else 1


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
    result = run_op(config, "memvault auto_memory", "auto_memory", params,
                    lambda ctx: ops.run_auto_memory(ctx, params))
    return _print_result(result)


def _ensure_vault(config: Config) -> None:
    if not config.vault.exists():
        created = init_vault(config.vault, config)
        print(f"Created vault {config.vault} from the template ({len(created)} files)", file=sys.stderr)


def run_op(config: Config, role: str, name: str, body: dict[str, Any], local: Callable[[Any], Any]) -> Any:
    """Run an operation in this process under the vault lock, or through the running daemon's API."""
    lock = VaultLock(config.state_dir(), role)
    try:
        lock.acquire()
    except LockError:
        if (config.state_dir() / "api.json").exists():
            return api.call(config.state_dir(), name, body)
        raise
    try:
        ctx = build(config)
        try:
            return local(ctx)
        finally:
            ctx.graph.index.close()
    finally:
        lock.release()


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
    if not config.vault.exists():
        created = init_vault(config.vault, config)
        print(f"Created vault {config.vault} from the template ({len(created)} files)", file=sys.stderr)
    log = setup_logging()
    print(f"memvault: watching {config.vault}, inbox {config.inbox} (Ctrl+C to stop); log: {log}", file=sys.stderr)
    Daemon(config, polling=args.polling or None).run()
    print("memvault: stopped", file=sys.stderr)
    return 0


@contextmanager
def reading(args: argparse.Namespace) -> Iterator[Any]:
    """The index for read commands: the daemon's (it keeps it current), or caught up here under the lock."""
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    lock = VaultLock(config.state_dir(), "memvault (reading the index)")
    try:
        lock.acquire()
    except LockError:
        index = Index(config.state_dir() / "index.sqlite3")
        try:
            yield SimpleNamespace(config=config, graph=Graph.open(Vault(config.vault), index))
        finally:
            index.close()
        return
    try:
        ctx = build(config)
        try:
            yield ctx
        finally:
            ctx.graph.index.close()
    finally:
        lock.release()


def cmd_mv(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    body = {"src": args.src, "dst": args.dst, "dry_run": args.dry_run}
    result = run_op(config, "memvault mv", "mv", body, lambda ctx: ops.move(ctx, args.src, args.dst, args.dry_run))
    verb = "would move" if result["dry_run"] else "moved"
    for old, new in result["moves"].items():
        print(f"{verb} {old} -> {new}")
    rewritten = result["rewritten"]
    prefix = "would rewrite" if result["dry_run"] else "rewrote"
    print(f"{prefix} links in {len(rewritten)} file(s)" + (": " + ", ".join(rewritten) if rewritten else ""))
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    settings = [a for a in args.paths if _OVERRIDE.match(a) and not Path(a).exists()]
    config = load_config(args.config, settings)
    _ensure_vault(config)
    paths = [str(Path(p).expanduser().resolve()) for p in args.paths if p not in settings]
    if not paths:
        raise InputError("name at least one file or folder to import")
    bar = Progress(sys.stderr)
    reports = run_op(config, "memvault ingest", "ingest", {"paths": paths},
                     lambda ctx: ops.ingest(ctx, paths, progress=bar.update))
    bar.close()
    print(format_table(reports))
    return 1 if any(r["state"] == "failed" for r in reports) else 0


def cmd_backlinks(args: argparse.Namespace) -> int:
    with reading(args) as ctx:
        path = ops.note_path(ctx, args.path)
        rows = ctx.graph.index.backlinks(path)
        for row in rows:
            print(f"{row.source}:{row.line}: {row.raw}")
        print(f"{len(rows)} link(s) to {path}", file=sys.stderr)
    return 0


def cmd_links(args: argparse.Namespace) -> int:
    with reading(args) as ctx:
        path = ops.note_path(ctx, args.path)
        rows = ctx.graph.index.links_from(path)
        for row in rows:
            print(f"{path}:{row.line}: {row.raw} -> {row.resolved or '(unresolved)'}")
        print(f"{len(rows)} link(s) in {path}", file=sys.stderr)
    return 0


def cmd_broken(args: argparse.Namespace) -> int:
    with reading(args) as ctx:
        rows = ctx.graph.index.broken()
        for row in rows:
            print(f"{row.source}:{row.line}: {row.raw}")
        print(f"{len(rows)} unresolved link(s)", file=sys.stderr)
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    started = time.perf_counter()
    # Catching up first repairs renames made while nothing was watching; a first index needs no rebuild.
    result = run_op(config, "memvault reindex", "reindex", {},
                    lambda ctx: {"files": ctx.graph.index.count("notes") if ctx.graph.fresh else ctx.graph.rebuild()})
    print(f"indexed {result['files']} files in {time.perf_counter() - started:.2f} s")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    print(ops.dumps(run_op(config, "memvault status", "status", {}, lambda ctx: ops.status(ctx))))
    return 0


def cmd_tags(args: argparse.Namespace) -> int:
    if args.tag and _OVERRIDE.match(args.tag):
        args.settings.insert(0, args.tag)
        args.tag = None
    with reading(args) as ctx:
        if args.tag:
            notes = ctx.graph.index.tagged(normalize_tag(args.tag))
            print("\n".join(notes) if notes else f"no note carries the tag {args.tag!r}")
        else:
            for tag, count in ctx.graph.index.tag_counts():
                print(f"{count:6d}  {tag}")
    return 0


def cmd_retag(args: argparse.Namespace) -> int:
    settings = [a for a in args.paths if _OVERRIDE.match(a)]
    paths = [a for a in args.paths if a not in settings]
    config = load_config(args.config, settings)
    body = {"paths": paths, "all": args.everything}
    report = run_op(config, "memvault retag", "retag", body, lambda ctx: ops.retag(ctx, paths, args.everything))
    for item in report["results"]:
        shown = ", ".join(item["tags"]) if item["success"] else f"failed: {item['error']}"
        print(f"{item['path']}: {shown}")
    print(f"tagged {report['succeeded']} card(s); {report['failed']} failed")
    return 1 if report["failed"] else 0


def cmd_doctor(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    problems = 0
    for ok, line in ops.doctor(config):
        print(f"{'ok ' if ok else 'ERR'} {line}")
        problems += not ok
    return 1 if problems else 0


def cmd_service(args: argparse.Namespace) -> int:
    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    where = autostart.Platform(sys.platform, Path.home(), Path(platformdirs.user_config_dir()))
    if args.action == "install":
        lines = autostart.install(where, autostart.command(args.config or config.source), log_file())
    else:
        lines = autostart.uninstall(where)
    print("\n".join(lines))
    return 0


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
}
