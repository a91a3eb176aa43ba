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
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator, Sequence

from daemon import __version__
from daemon.app import build, init_vault
from daemon.config import Config, load_config, split_assignment, write_vault_setting
from daemon.errors import ConfigError, InputError, LockError, MemvaultError
import platformdirs

from daemon import api, autostart, ops
from daemon.graph import Graph, normalize_tag
from daemon.index import Index
from daemon.runner import Daemon
from daemon.state import VaultLock
from daemon.vault import Vault

_OVERRIDE = re.compile(r"^[A-Za-z_][\w.]*=")
JOB_KEYS = ("session_id", "messages", "date", "memory_hint", "include_images")
log = logging.getLogger("memvault")

EPILOG = """Every command also takes key=value configuration overrides, e.g.
  vault=~/Notes  timezone=Europe/Berlin
  components.agent_wrapper.default.context_config.max_image_num=20
Configuration is read from the user config file (see `memvault config`),
--config FILE, MEMVAULT_* environment variables (MEMVAULT_VAULT,
MEMVAULT_COMPONENTS__AGENT_WRAPPER__DEFAULT__BACKEND, ...) and overrides."""


# name: (one-line help, description, example). The description and example are the command's --help.
HELP: dict[str, tuple[str, str, str]] = {
    "init": ("create a vault from the template and point the config at it",
             "Create a vault from the template (never overwriting a file) and write the user config so that "
             "later commands use it.", "memvault init ~/Notes/Memory"),
    "auto_memory": ("distill messages into the session's memory card for a day",
                    "Distill messages into one memory card per session per day, keep the source conversation, "
                    "and refresh the daily page. Prints a JSON result.\n\nJob keys: session_id=ID (required), "
                    "messages='[...]' | messages=@file.json | messages=- (stdin),\ndate=YYYY-MM-DD, "
                    "memory_hint=TEXT, include_images=true|false.",
                    "memvault auto_memory session_id=session-a messages='[{\"role\":\"user\",\"content\":\"hi\"}]'"),
    "start": ("run the daemon in the foreground (Ctrl+C stops it)",
              "Import what lands in the inbox, and watch the vault: keep the link index current and repair "
              "links when notes are renamed or moved — by Obsidian, a file manager, git, a sync tool, or while "
              "memvault was stopped.",
              "memvault start components.agent_wrapper.default.context_config.max_image_num=20"),
    "ingest": ("import exported chats now (files or folders), with a closing table",
               "Import exported chats once: ChatGPT, Claude, Claude Code, LoCoMo, ShareGPT, OpenAI message lists "
               "or {session_id, messages} JSON (.json, .jsonl, .zip). Files inside the inbox move to processed/ "
               "or failed/ as usual; files elsewhere are left where they are.",
               "memvault ingest ~/Downloads/chatgpt-export.zip"),
    "mv": ("move or rename a note or folder and retarget every link to it",
           "Move a note or folder inside the vault and rewrite the links whose target would change (only the "
           "target text of each link changes).", "memvault mv notes/Draft.md projects/Plan.md"),
    "backlinks": ("list the links pointing at a note", "List the links pointing at a note, with file and line.",
                  "memvault backlinks daily/2023-01-19/topic.md"),
    "links": ("list a note's outgoing links and where they resolve",
              "List a note's outgoing links and the file each resolves to, with line.",
              "memvault links notes/Plan.md"),
    "broken": ("list unresolved links with file and line", "List unresolved links with file and line.",
               "memvault broken"),
    "reindex": ("rebuild the link index from the vault's files",
                "Rebuild the link index from the vault's files (renames made while nothing was watching are "
                "repaired first).", "memvault reindex"),
    "status": ("show the index, the daemon, the watcher, the queue and recent imports",
               "Show notes, links and broken links, the daemon and watcher state, the queue, recent imports and "
               "failures, and the re-tag schedule.", "memvault status"),
    "tags": ("list tags with counts, or the notes carrying one tag",
             "List the vault's tags (from the tag property and inline #tags) with how many notes carry each, or "
             "with TAG the notes carrying it.", "memvault tags jwt"),
    "retag": ("re-tag cards now (changed ones, --all, or the PATHs given)",
              "Re-tag memory cards now: by default those whose content changed since they were last tagged; "
              "--all for every card; or the cards named.", "memvault retag --all"),
    "service": ("run memvault at login (systemd user unit, launchd agent)",
                "Install or remove a login service that runs `memvault start`: a systemd user unit on Linux, a "
                "launchd agent on macOS; on Windows it prints the command to create a logon task.",
                "memvault service install"),
    "doctor": ("check the setup: vault, state folder, and that the model endpoint answers",
               "Check the configuration, the vault and the state folder, and — with the agentscope backend — "
               "that the model endpoint answers a tiny request.",
               "memvault doctor components.agent_wrapper.default.backend=agentscope"),
    "config": ("print the effective configuration",
               "Print the effective configuration as JSON, with the file it came from.",
               "memvault config timezone=Asia/Shanghai"),
}
SETTINGS = {"metavar": "key=value", "nargs": "*"}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="memvault", epilog=EPILOG,
                                  description="Turn exported conversations into memory cards in an Obsidian vault.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--config", type=Path, help="read this TOML config file instead of the user one")
    top.add_argument("--version", action="version", version=f"memvault {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    sub = {name: commands.add_parser(name, help=summary, description=f"{text}\n\nExample: {example}",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
           for name, (summary, text, example) in HELP.items()}
    sub["init"].add_argument("vault_path", nargs="?", metavar="VAULT", help="the vault folder")
    sub["start"].add_argument("--polling", action="store_true", help="poll instead of native events "
                              "(network and cloud drives)")
    sub["ingest"].add_argument("paths", nargs="+", metavar="FILE|DIR [key=value]")
    sub["mv"].add_argument("src", metavar="SRC")
    sub["mv"].add_argument("dst", metavar="DST")
    sub["mv"].add_argument("--dry-run", action="store_true", help="show the plan without changing anything")
    for name in ("backlinks", "links"):
        sub[name].add_argument("path", metavar="PATH", help="vault-relative path, a file path, or a link target")
    sub["tags"].add_argument("tag", nargs="?", metavar="TAG")
    sub["retag"].add_argument("--all", action="store_true", dest="everything", help="re-tag every card")
    sub["retag"].add_argument("paths", nargs="*", metavar="PATH [key=value]")
    sub["service"].add_argument("action", choices=("install", "uninstall"))
    for name, command in sub.items():
        if name not in ("ingest", "retag"):
            command.add_argument("settings", **SETTINGS)  # type: ignore[arg-type]
    return top


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


class Progress:
    """A one-line progress display on a terminal; silent elsewhere."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.started = time.monotonic()

    def update(self, name: str, done: int) -> None:
        if self.active:
            rate = done / max(time.monotonic() - self.started, 1e-6)
            self.stream.write(f"\r{name}: {done} conversation(s), {rate:.0f}/s ")
            self.stream.flush()

    def close(self) -> None:
        if self.active:
            self.stream.write("\r\033[K")
            self.stream.flush()


def format_table(reports: list[dict[str, Any]]) -> str:
    """The closing table: per file, conversations imported, updated, unchanged and failed."""
    header = ("file", "imported", "updated", "unchanged", "failed", "result")
    rows = [(r["name"], str(r["imported"]), str(r["updated"]), str(r["unchanged"]), str(r["failed"]), r["state"])
            for r in reports]
    totals = [sum(r[k] for r in reports) for k in ("imported", "updated", "unchanged", "failed")]
    rows.append(("total", *map(str, totals), ""))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) if i < 5 else cell
                       for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]]
    for report in reports:
        for reason in report["reasons"]:
            lines.append(f"{report['name']}: {reason}")
    return "\n".join(lines)


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


def log_file() -> Path:
    return Path(platformdirs.user_log_dir("memvault")) / "memvault.log"


def setup_logging() -> Path:
    """The daemon logs to stderr and to a rotating file in the user log folder."""
    path = log_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=5, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("memvault")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return path


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
