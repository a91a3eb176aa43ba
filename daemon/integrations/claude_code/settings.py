"""Install, remove and inspect memvault's hooks in a Claude Code ``settings.json``.

The file belongs to the user: it is read as JSON with its key order kept,
only our entries are added or removed, and every other key and hook comes
back equal (a JSON round trip that keeps key order). A backup
(``settings.json.bak``) is written before any change; nothing is written
when the hooks are already there. Ours are recognised by their command
(``… hook claude-code``), so ``uninstall`` removes exactly what ``install``
added, even if the command's path changed since.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from daemon.errors import InputError
from daemon.integrations.claude_code.transcripts import claude_home

SAVE_EVENTS = ("Stop", "SessionEnd", "PreCompact")
LOAD_EVENTS = ("SessionStart",)
EVENTS = SAVE_EVENTS + LOAD_EVENTS
MARKER = "hook claude-code"
TIMEOUT_SECONDS = 10


def settings_path(project: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """``<project>/.claude/settings.json``, else the user's (``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)."""
    if project is not None:
        return project.expanduser().resolve() / ".claude" / "settings.json"
    return claude_home(environ) / "settings.json"


def hook_command(config_file: Path | None, vault: Path) -> str:
    """The command Claude Code runs: this installation's ``memvault``, pinned to the vault."""
    script = Path(sys.executable).parent / "memvault"
    if _is_launcher(script):
        words = [str(script)]
    else:  # -P: never import a `daemon` package from the project folder Claude Code runs in
        words = [sys.executable, "-P", "-m", "daemon"]
    if config_file is not None:
        words += ["--config", str(config_file.expanduser().resolve())]
    words += ["hook", "claude-code", f"vault={vault.expanduser().resolve()}"]
    return shlex.join(words)


def _is_launcher(script: Path) -> bool:
    """Whether ``script`` is a ``memvault`` console script with the hook's fast path (``daemon.launch``)."""
    try:
        return "daemon.launch" in script.read_text(encoding="utf-8", errors="replace")[:2000]
    except OSError:
        return False


def is_ours(entry: Any) -> bool:
    command = entry.get("command") if isinstance(entry, dict) else None
    return isinstance(command, str) and MARKER in command and ("memvault" in command or "-m daemon" in command)


@dataclass(frozen=True)
class Change:
    """What ``install`` or ``uninstall`` did to one file."""

    path: Path
    changed: bool
    events: tuple[str, ...]
    backup: Path | None = None


def load(path: Path) -> dict[str, Any]:
    """The settings as an ordered dict ({} when the file does not exist); InputError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"{path} is not valid JSON ({exc}); fix it or move it away, then run this again") from exc
    if not isinstance(data, dict) or not isinstance(data.get("hooks", {}), dict):
        raise InputError(f"{path}: expected a JSON object whose \"hooks\" is an object")
    return data


def merged(data: dict[str, Any], command: str, events: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """``data`` with our hook on each event (replacing an older command of ours); the events changed."""
    result = json.loads(json.dumps(data))
    hooks = result.setdefault("hooks", {})
    changed = []
    for event in events:
        groups = hooks.get(event, [])
        if not isinstance(groups, list):
            raise InputError(f"settings \"hooks\".\"{event}\" must be a list")
        ours = [h for g in groups if isinstance(g, dict) for h in g.get("hooks", []) if is_ours(h)]
        if len(ours) == 1 and ours[0].get("command") == command:
            continue
        groups = _without_ours(groups)
        groups.append({"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}]})
        hooks[event] = groups
        changed.append(event)
    if not changed:
        return data, []
    return result, changed


def removed(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``data`` without our hooks (and without the groups, events and ``hooks`` that only held ours)."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, []
    result = json.loads(json.dumps(data))
    changed = []
    for event, groups in list(result["hooks"].items()):
        if not isinstance(groups, list):
            continue
        kept = _without_ours(groups)
        if kept != groups:
            changed.append(event)
            if kept:
                result["hooks"][event] = kept
            else:
                del result["hooks"][event]
    if not changed:
        return data, []
    if not result["hooks"]:
        del result["hooks"]
    return result, changed


def _without_ours(groups: list[Any]) -> list[Any]:
    kept = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            kept.append(group)
            continue
        inner = [h for h in group["hooks"] if not is_ours(h)]
        if len(inner) == len(group["hooks"]):
            kept.append(group)
        elif inner:
            kept.append({**group, "hooks": inner})
    return kept


def install(path: Path, command: str, events: Sequence[str] = SAVE_EVENTS) -> Change:
    data = load(path)
    new, changed = merged(data, command, events)
    if not changed:
        return Change(path, False, ())
    return Change(path, True, tuple(changed), _write(path, new))


def uninstall(path: Path) -> Change:
    data = load(path)
    new, changed = removed(data)
    if not changed:
        return Change(path, False, ())
    return Change(path, True, tuple(changed), _write(path, new))


def installed(path: Path) -> dict[str, str]:
    """Our command per event in this file (empty when none, or the file is missing or unreadable)."""
    try:
        data = load(path)
    except InputError:
        return {}
    found = {}
    for event, groups in (data.get("hooks") or {}).items():
        for group in groups if isinstance(groups, list) else []:
            for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                if is_ours(hook):
                    found[event] = hook["command"]
    return found


def _write(path: Path, data: dict[str, Any]) -> Path | None:
    """Back the old file up, then replace it atomically; returns the backup (None for a new file)."""
    backup = None
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        backup = path.with_name(path.name + ".bak")
        shutil.copy2(path, backup)
    temp = path.with_name(f".{path.name}.memvault.tmp")
    temp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if path.exists():
        shutil.copymode(path, temp)
    os.replace(temp, path)
    return backup
