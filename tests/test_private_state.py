"""The state and log folders hold card text and pending messages: only the user may read them."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from daemon.config import Config
from daemon.pipeline import Context


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(not hasattr(__import__("os"), "getuid"), reason="POSIX permissions")
def test_state_folder_is_0700_and_the_index_0600(ctx: Context, config: Config) -> None:
    ctx.graph.index.set_meta("probe", "x")  # make sure the WAL exists too
    state = config.state_dir()
    assert mode(state) == 0o700
    assert mode(state / "index.sqlite3") == 0o600
    assert all(mode(p) == 0o600 for p in state.glob("index.sqlite3-*"))


@pytest.mark.skipif(not hasattr(__import__("os"), "getuid"), reason="POSIX permissions")
def test_log_folder_is_0700(isolated_home: Path) -> None:
    from daemon.runner import setup_logging

    path = setup_logging()
    logger = logging.getLogger("memvault")
    try:
        assert mode(path.parent) == 0o700 and mode(path) == 0o600
    finally:
        for handler in list(logger.handlers):
            if getattr(handler, "baseFilename", None) == str(path):
                logger.removeHandler(handler)
                handler.close()


@pytest.mark.skipif(not hasattr(__import__("os"), "getuid"), reason="POSIX permissions")
def test_a_rotated_log_file_is_0600_too(isolated_home: Path) -> None:
    from daemon.runner import setup_logging

    path = setup_logging()
    logger = logging.getLogger("memvault")
    [handler] = [h for h in logger.handlers if getattr(h, "baseFilename", None) == str(path)]
    try:
        handler.doRollover()  # type: ignore[attr-defined]
        assert mode(path) == 0o600 and mode(path.with_name(path.name + ".1")) == 0o600
    finally:
        logger.removeHandler(handler)
        handler.close()
