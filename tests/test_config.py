"""Configuration layering and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.config import ConfigError, default_config_path, load_config


def test_defaults() -> None:
    config = load_config(environ={})
    assert config.source is None
    assert config.daily_dir == "daily" and config.session_dir == "session"
    assert config.agent["backend"] == "extractive"
    assert config.get("components.agent_wrapper.default.context_config.max_image_num") == 5
    assert config.get("tagging.key") == "memory_tags" and config.get("tagging.max_tags_per_file") == 3
    assert config.inbox == config.vault / "inbox"


def test_layering_file_then_environment_then_overrides(tmp_path: Path) -> None:
    file = default_config_path()
    file.parent.mkdir(parents=True)
    file.write_text('vault = "~/Notes"\ntimezone = "Asia/Shanghai"\n'
                    "[components.agent_wrapper.default.context_config]\nmax_image_num = 7\n")
    config = load_config(environ={"MEMVAULT_TIMEZONE": "Europe/Berlin"})
    assert config.source == file
    assert config.vault == Path.home() / "Notes"
    assert config.data["timezone"] == "Europe/Berlin"
    assert config.get("components.agent_wrapper.default.context_config.max_image_num") == 7
    config = load_config(
        overrides=["timezone=UTC", "components.agent_wrapper.default.context_config.max_image_num=20"],
        environ={"MEMVAULT_TIMEZONE": "Europe/Berlin",
                 "MEMVAULT_COMPONENTS__AGENT_WRAPPER__DEFAULT__MODEL__VISION": "true"},
    )
    assert config.data["timezone"] == "UTC"
    assert config.get("components.agent_wrapper.default.context_config.max_image_num") == 20
    assert config.get("components.agent_wrapper.default.model.vision") is True


def test_explicit_config_file_and_env_config(tmp_path: Path) -> None:
    file = tmp_path / "custom.toml"
    file.write_text('daily_dir = "journal"\n')
    assert load_config(file, environ={}).daily_dir == "journal"
    assert load_config(environ={"MEMVAULT_CONFIG": str(file)}).daily_dir == "journal"
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "missing.toml", environ={})


def test_relative_inbox_is_inside_the_vault(tmp_path: Path) -> None:
    config = load_config(overrides=[f"vault={tmp_path}", "inbox=drop"], environ={})
    assert config.inbox == tmp_path / "drop"


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("nope=1", "unknown config key 'nope'"),
        ("components.agent_wrapper.default.nope=1", "unknown config key 'components.agent_wrapper.default.nope'"),
        ("components.agent_wrapper=1", "unknown config key 'components.agent_wrapper'"),
        ("components.agent_wrapper.default.context_config.max_image_num=many",
         "components.agent_wrapper.default.context_config.max_image_num: expected int"),
        ("components.agent_wrapper.default.model.vision=maybe", "components.agent_wrapper.default.model.vision"),
        ("components.agent_wrapper.default.backend=gpt", "components.agent_wrapper.default.backend: must be one of"),
        ("timezone=Mars/Olympus", "timezone: unknown IANA time zone"),
        ("daily_dir=../out", "daily_dir: must be a relative folder"),
        ("session_dir=/abs", "session_dir: must be a relative folder"),
        ("tagging.key=name", "tagging.key"),
        ("novalue", "expected key=value"),
    ],
)
def test_bad_keys_and_values_name_the_key(override: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_config(overrides=[override], environ={})


def test_bad_toml_and_wrong_types_in_the_file(tmp_path: Path) -> None:
    file = tmp_path / "c.toml"
    file.write_text("vault = [1, 2]\n")
    with pytest.raises(ConfigError, match="vault: expected str"):
        load_config(file, environ={})
    file.write_text("vault = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(file, environ={})


def test_unknown_environment_variable_is_named() -> None:
    with pytest.raises(ConfigError, match="MEMVAULT_COLOUR"):
        load_config(environ={"MEMVAULT_COLOUR": "blue"})


def test_state_dir_is_outside_the_vault_and_keyed_by_path(tmp_path: Path) -> None:
    a = load_config(overrides=[f"vault={tmp_path / 'a'}"], environ={})
    b = load_config(overrides=[f"vault={tmp_path / 'b'}"], environ={})
    assert a.state_dir() != b.state_dir()
    assert tmp_path / "a" not in a.state_dir().parents


def test_one_state_folder_and_lock_per_vault_whatever_the_spelling(tmp_path: Path) -> None:
    from daemon.errors import LockError
    from daemon.vault.state import VaultLock

    real = tmp_path / "Vault"
    real.mkdir()
    link = tmp_path / "L"
    link.symlink_to(real)
    by_link = load_config(overrides=[f"vault={link}"], environ={})
    by_real = load_config(overrides=[f"vault={real}"], environ={})
    by_dots = load_config(overrides=[f"vault={tmp_path / 'x' / '..' / 'L'}"], environ={})
    assert by_link.state_dir() == by_real.state_dir() == by_dots.state_dir()
    first = VaultLock(by_link.state_dir(), "memvault start, pid 1")
    first.acquire()
    try:
        with pytest.raises(LockError, match="pid 1"):
            VaultLock(by_real.state_dir(), "memvault start, pid 2").acquire()
    finally:
        first.release()


def test_a_state_folder_named_by_an_old_spelling_is_moved_on_upgrade(tmp_path: Path) -> None:
    real = tmp_path / "Vault"
    real.mkdir()
    (tmp_path / "L").symlink_to(real)
    config = load_config(overrides=[f"vault={tmp_path / 'L'}"], environ={})
    new = config.state_dir()
    old = new.with_name("L-" + new.name.rsplit("-", 1)[1])  # what older versions named it
    old.mkdir(parents=True)
    (old / "index.sqlite3").write_text("kept")
    assert config.state_dir() == new and (new / "index.sqlite3").read_text() == "kept" and not old.exists()
