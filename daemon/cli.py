"""The ``memvault`` command line: parse arguments, call one function, print the result.

Every command accepts ``key=value`` configuration overrides with dotted keys
(``vault=~/Notes``, ``components.agent_wrapper.default.context_config.max_image_num=20``).
Errors caused by the user print one ``Error: …`` line, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

from daemon import __version__
from daemon.app import build, init_vault
from daemon.config import Config, load_config, split_assignment
from daemon.errors import ConfigError, InputError, LockError, MemvaultError
from daemon.pipeline import auto_memory
from daemon.state import VaultLock

JOB_KEYS = ("session_id", "messages", "date", "memory_hint", "include_images")
log = logging.getLogger("memvault")

EPILOG = """Every command also takes key=value configuration overrides, e.g.
  vault=~/Notes  timezone=Europe/Berlin
  components.agent_wrapper.default.context_config.max_image_num=20
Configuration is read from the user config file (see `memvault config`),
--config FILE, MEMVAULT_* environment variables (MEMVAULT_VAULT,
MEMVAULT_COMPONENTS__AGENT_WRAPPER__DEFAULT__BACKEND, ...) and overrides."""


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="memvault",
        description="Turn exported conversations into memory cards in an Obsidian vault.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--config", type=Path, help="read this TOML config file instead of the user one")
    top.add_argument("--version", action="version", version=f"memvault {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    init = commands.add_parser(
        "init",
        help="create a vault from the template and point the config at it",
        description="Create a vault from the template (never overwriting a file) and write the user "
        "config so that later commands use it.\n\nExample: memvault init ~/Notes/Memory",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    init.add_argument("vault_path", nargs="?", metavar="VAULT", help="the vault folder (default: configured vault)")
    init.add_argument("settings", nargs="*", metavar="key=value")
    memory = commands.add_parser(
        "auto_memory",
        help="distill messages into the session's memory card for a day",
        description="Distill messages into one memory card per session per day, keep the source "
        "conversation, and refresh the daily page. Prints a JSON result.\n\n"
        "Job keys: session_id=ID (required), messages='[...]' | messages=@file.json | messages=- (stdin),\n"
        "date=YYYY-MM-DD, memory_hint=TEXT, include_images=true|false.\n\n"
        "Example: memvault auto_memory session_id=session-a messages='[{\"role\":\"user\",\"content\":\"hi\"}]'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    memory.add_argument("settings", nargs="*", metavar="key=value")
    show = commands.add_parser(
        "config",
        help="print the effective configuration",
        description="Print the effective configuration as JSON, with the file it came from.\n\n"
        "Example: memvault config timezone=Asia/Shanghai",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("settings", nargs="*", metavar="key=value")
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


def write_vault_setting(explicit: Path | None, config: Config) -> Path:
    """Point the config file's ``vault`` key at ``config.vault``, keeping the rest of the file."""
    from daemon.config import default_config_path

    path = explicit or config.source or default_config_path()
    line = f"vault = {json.dumps(str(config.vault))}\n"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = text.splitlines(keepends=True)
    for index, existing in enumerate(lines):
        if existing.startswith("["):
            break
        if existing.split("=", 1)[0].strip() == "vault":
            lines[index] = line
            break
    else:
        lines.insert(0, line)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return path


def cmd_auto_memory(args: argparse.Namespace) -> int:
    job, overrides = _split(args.settings, JOB_KEYS)
    config = load_config(args.config, overrides)
    try:
        params = job_params(job)
    except InputError as exc:
        return _print_result({"success": False, "answer": f"Error: {exc}",
                              "metadata": {"date": job.get("date"), "modified": False, "n_messages": 0}})
    if not config.vault.exists():
        created = init_vault(config.vault, config)
        print(f"Created vault {config.vault} from the template ({len(created)} files)", file=sys.stderr)
    with VaultLock(config.state_dir(), "memvault auto_memory"):
        result = auto_memory(build(config), **params)
    return _print_result(result)


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


COMMANDS = {"init": cmd_init, "auto_memory": cmd_auto_memory, "config": cmd_config}
