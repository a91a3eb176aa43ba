"""Configuration: defaults < TOML file < ``MEMVAULT_*`` environment < ``key=value`` overrides.

The only module that reads configuration files and environment variables.
Every key is declared in ``DEFAULTS``; an unknown key or a value of the wrong
type is a ConfigError that names the key.
"""

from __future__ import annotations

import copy
import json
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Mapping

import platformdirs

from daemon.errors import ConfigError
from daemon.timeutil import load_timezone

APP = "memvault"
ENV_PREFIX = "MEMVAULT_"
AGENT_KEY = "components.agent_wrapper.default"
BACKENDS = ("extractive", "agentscope")
PROVIDERS = ("openai", "dashscope", "anthropic", "gemini", "ollama")
RESERVED_KEYS = ("name", "description", "kind", "session_id", "source_conversation", "source_resource", "status")

DEFAULTS: dict[str, Any] = {
    "vault": "",
    "inbox": "",
    "timezone": "",
    "daily_dir": "daily",
    "session_dir": "session",
    "components": {
        "agent_wrapper": {
            "default": {
                "backend": "extractive",
                "model": {
                    "provider": "openai",
                    "name": "",
                    "base_url": "",
                    "api_key_env": "",
                    "vision": False,
                    "temperature": 0.2,
                    "timeout": 0.0,
                    "retries": 2,
                    "context_tokens": 32768,
                    "max_tokens": 0,
                },
                "context_config": {"max_image_num": 5},
            }
        }
    },
    "watch": {
        "polling": False,
        "polling_interval": 1.0,
        "settle_seconds": 0.3,
        "move_grace_seconds": 2.0,
        "reconcile_minutes": 5.0,
        "heartbeat_seconds": 30.0,
        "inbox_stable_seconds": 2.0,
        "stuck_minutes": 10.0,
    },
    "tagging": {
        "key": "memory_tags",
        "max_tags_per_file": 3,
        "schedule": "0 3 * * *",
        "enabled": True,
    },
    "search": {"scope": "cards"},
    "status_note": {"enabled": True},  # the daemon keeps a status block in Memvault.md
    "claude_code": {"min_interval_seconds": 300.0, "context_chars": 4000},
    "lock": {"wait_seconds": 60.0},  # how long a command waits for another one's vault lock (0: not at all)
}


def default_config_path() -> Path:
    """The user's config file: ``<user config dir>/memvault/config.toml``."""
    return Path(platformdirs.user_config_dir(APP)) / "config.toml"


def default_vault_path() -> Path:
    """Where a vault is created when none is configured."""
    return Path(platformdirs.user_documents_dir()) / "Memvault"


@dataclass(frozen=True)
class Config:
    """The resolved configuration. ``data`` is the full validated tree."""

    data: Mapping[str, Any]
    source: Path | None = None

    def get(self, dotted: str) -> Any:
        node: Any = self.data
        for part in dotted.split("."):
            node = node[part]
        return node

    @property
    def vault(self) -> Path:
        raw = self.data["vault"]
        return _expand(raw) if raw else default_vault_path()

    @property
    def inbox(self) -> Path:
        raw = self.data["inbox"]
        return _expand(raw, base=self.vault) if raw else self.vault / "inbox"

    @property
    def tz(self) -> tzinfo | None:
        return load_timezone(self.data["timezone"])

    @property
    def daily_dir(self) -> str:
        return self.data["daily_dir"]

    @property
    def session_dir(self) -> str:
        return self.data["session_dir"]

    @property
    def agent(self) -> Mapping[str, Any]:
        return self.get(AGENT_KEY)

    def state_dir(self) -> Path:
        """Per-vault state outside the vault, keyed by the vault's resolved path (one daemon per vault).

        The folder is named after the real path, so a symlink or another spelling
        of the vault finds the same state and the same lock. A folder left by an
        older version, named after the spelling it was started with, is moved here.
        """
        resolved = self.vault.expanduser().resolve()
        digest = hashlib.sha256(str(resolved).encode("utf-8")).hexdigest()[:12]
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", resolved.name).strip("-") or "vault"
        folder = Path(platformdirs.user_state_dir(APP)) / "vaults" / f"{slug}-{digest}"
        if not folder.exists():
            _adopt_old_state(folder, digest)
        return folder


def _adopt_old_state(folder: Path, digest: str) -> None:
    """Move the newest state folder of the same vault under another name (older versions) to ``folder``."""
    try:
        old = [p for p in folder.parent.glob(f"*-{digest}") if p.is_dir() and p != folder]
        if old:
            os.replace(max(old, key=lambda p: p.stat().st_mtime), folder)
    except OSError:
        pass  # another process moved it first, or the folder is unreadable: start a fresh state


def _expand(raw: str, base: Path | None = None) -> Path:
    path = Path(os.path.expandvars(raw)).expanduser()
    return path if path.is_absolute() or base is None else base / path


def load_config(
    path: Path | None = None,
    overrides: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
) -> Config:
    """Build the configuration from defaults, the TOML file, the environment and overrides.

    Raises:
        ConfigError: a file that cannot be read, an unknown key or a bad value, named.
    """
    environ = os.environ if environ is None else environ
    data = copy.deepcopy(DEFAULTS)
    explicit = path is not None or bool(environ.get(ENV_PREFIX + "CONFIG"))
    path = path or Path(environ.get(ENV_PREFIX + "CONFIG") or default_config_path())
    source: Path | None = None
    if path.exists() or explicit:
        _merge_file(data, path)
        source = path
    for name, value in sorted(environ.items()):
        if name.startswith(ENV_PREFIX) and name != ENV_PREFIX + "CONFIG":
            dotted = name[len(ENV_PREFIX):].lower().replace("__", ".")
            set_value(data, dotted, value, origin=f"environment variable {name}")
    for item in overrides:
        key, value = split_assignment(item)
        set_value(data, key, value, origin="override")
    _check(data)
    return Config(data=data, source=source)


def split_assignment(item: str) -> tuple[str, str]:
    """Split ``key=value``; raises ConfigError when there is no ``=``."""
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"expected key=value, got {item!r}")
    return key.strip(), value


def _merge_file(data: dict[str, Any], path: Path) -> None:
    try:
        loaded = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"config file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc
    for dotted, value in _flatten(loaded):
        set_value(data, dotted, value, origin=f"config file {path}")


def _flatten(tree: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, dotted + ".")
        else:
            yield dotted, value


def set_value(data: dict[str, Any], dotted: str, value: Any, origin: str = "override") -> None:
    """Set one dotted key, converting strings to the declared type; raises ConfigError naming the key."""
    node: Any = data
    parts = dotted.split(".")
    for i, part in enumerate(parts[:-1]):
        if not isinstance(node, dict) or part not in node or not isinstance(node[part], dict):
            raise ConfigError(f"unknown config key {dotted!r} (from {origin})")
        node = node[part]
    leaf = parts[-1]
    if not isinstance(node, dict) or leaf not in node or isinstance(node[leaf], dict):
        raise ConfigError(f"unknown config key {dotted!r} (from {origin})")
    node[leaf] = _coerce(dotted, node[leaf], value, origin)


def _coerce(key: str, default: Any, value: Any, origin: str) -> Any:
    kind = type(default)
    if isinstance(value, str) and kind is not str:
        value = _from_text(key, kind, value, origin)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not kind:
        raise ConfigError(f"{key}: expected {kind.__name__}, got {value!r} (from {origin})")
    return value


def _from_text(key: str, kind: type, text: str, origin: str) -> Any:
    cleaned = text.strip()
    try:
        if kind is bool:
            lowered = cleaned.lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise ValueError(text)
        return kind(cleaned)
    except ValueError as exc:
        raise ConfigError(f"{key}: expected {kind.__name__}, got {text!r} (from {origin})") from exc


def _check(data: Mapping[str, Any]) -> None:
    load_timezone(data["timezone"])
    for key in ("daily_dir", "session_dir"):
        _check_relative_dir(key, data[key])
    agent = data["components"]["agent_wrapper"]["default"]
    if agent["backend"] not in BACKENDS:
        raise ConfigError(f"{AGENT_KEY}.backend: must be one of {', '.join(BACKENDS)}, got {agent['backend']!r}")
    if agent["model"]["provider"] not in PROVIDERS:
        raise ConfigError(
            f"{AGENT_KEY}.model.provider: must be one of {', '.join(PROVIDERS)}, got {agent['model']['provider']!r}"
        )
    if agent["context_config"]["max_image_num"] < 0:
        raise ConfigError(f"{AGENT_KEY}.context_config.max_image_num: must be 0 or more")
    if agent["model"]["retries"] < 0 or agent["model"]["timeout"] < 0 or agent["model"]["max_tokens"] < 0:
        raise ConfigError(f"{AGENT_KEY}.model: retries, timeout and max_tokens must be >= 0 (0: automatic)")
    for key, value in data["watch"].items():
        if not isinstance(value, bool) and value <= 0:
            raise ConfigError(f"watch.{key}: must be greater than 0")
    tagging = data["tagging"]
    if tagging["key"] in RESERVED_KEYS or not re.fullmatch(r"[A-Za-z_][\w-]*", tagging["key"]):
        raise ConfigError(f"tagging.key: {tagging['key']!r} is reserved or not a valid property name")
    if tagging["max_tags_per_file"] < 1:
        raise ConfigError("tagging.max_tags_per_file: must be 1 or more")
    if tagging["schedule"] != DEFAULTS["tagging"]["schedule"]:  # the default is valid; skipping the
        _check_cron(tagging["schedule"])  # check keeps APScheduler out of the Claude Code hook
    if data["claude_code"]["min_interval_seconds"] < 0:
        raise ConfigError("claude_code.min_interval_seconds: must be 0 or more")
    if data["claude_code"]["context_chars"] < 0:
        raise ConfigError("claude_code.context_chars: must be 0 or more (0: no SessionStart context)")
    if data["lock"]["wait_seconds"] < 0:
        raise ConfigError("lock.wait_seconds: must be 0 or more")
    if data["search"]["scope"] not in ("cards", "vault"):
        raise ConfigError(f"search.scope: must be \"cards\" or \"vault\", got {data['search']['scope']!r}")


def _check_cron(schedule: str) -> None:
    from apscheduler.triggers.cron import CronTrigger

    try:
        CronTrigger.from_crontab(schedule)
    except ValueError as exc:
        raise ConfigError(f"tagging.schedule: not a crontab line (minute hour day month weekday): {schedule!r}") from exc


def _check_relative_dir(key: str, value: str) -> None:
    path = PurePosixPath(value)
    if not value or value.startswith("/") or "\\" in value or ".." in path.parts or value != value.strip():
        raise ConfigError(f"{key}: must be a relative folder inside the vault, got {value!r}")
    if any(ch in value for ch in '#^[]|:*?"<>'):
        raise ConfigError(f"{key}: {value!r} has a character Obsidian cannot link")


def write_settings(explicit: Path | None, config: Config, values: Mapping[str, Any]) -> Path:
    """Set dotted keys in the config file, keeping its other keys, comments and order (tomlkit).

    Raises:
        ConfigError: an unknown key or a wrong type (checked before anything is written), or an unreadable file.
    """
    import tomlkit

    path = explicit or config.source or default_config_path()
    check = copy.deepcopy(dict(config.data))
    for key, value in values.items():
        set_value(check, key, value, origin="memvault model use")
    _check(check)
    try:
        document = tomlkit.parse(path.read_text(encoding="utf-8")) if path.exists() else tomlkit.document()
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot update it: {exc}") from exc
    for key in values:
        value = Config(check).get(key)  # as coerced: "4096" from a command line is written as 4096
        *tables, leaf = key.split(".")
        node: Any = document
        for part in tables:
            if part not in node:
                node[part] = tomlkit.table(is_super_table=part != tables[-1])
            node = node[part]
        node[leaf] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tomlkit.dumps(document), encoding="utf-8")
    return path


def write_vault_setting(explicit: Path | None, config: Config) -> Path:
    """Point the config file's ``vault`` key at ``config.vault``, keeping the rest of the file."""
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
