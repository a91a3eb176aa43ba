"""The daemon end to end: a real observer, waiting on conditions (never fixed sleeps)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from daemon.config import Config
from daemon.errors import LockError
from daemon.runner import Daemon


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while time.monotonic() < deadline:
        if condition():
            return True
        tick.wait(0.05)
    return condition()


def test_live_rename_is_repaired_by_the_running_daemon(vault_root: Path, config: Config) -> None:
    (vault_root / "notes").mkdir()
    (vault_root / "notes/Plan.md").write_text("# Plan\n")
    (vault_root / "index.md").write_text("Read [[Plan]] and [[notes/Plan|the plan]].\n")
    daemon = Daemon(config)
    daemon.start()
    try:
        with pytest.raises(LockError, match="memvault start"):
            Daemon(config).start()
        (vault_root / "notes/Plan.md").rename(vault_root / "notes/Roadmap.md")
        assert wait_for(lambda: (vault_root / "index.md").read_text() ==
                        "Read [[Roadmap]] and [[notes/Roadmap|the plan]].\n")
        (vault_root / "new.md").write_text("[[Roadmap]]")
        assert wait_for(lambda: daemon.worker.submit(
            lambda: len(daemon.ctx.graph.index.backlinks("notes/Roadmap.md"))).result(timeout=10) == 3)
    finally:
        daemon.stop()
    assert not daemon.lock.path.read_text()


def test_start_catches_up_then_stops_cleanly_on_sigterm(vault_root: Path, tmp_path: Path) -> None:
    (vault_root / "a.md").write_text("[[b]]\n")
    (vault_root / "b.md").write_text("bee\n")
    env = {**os.environ, "MEMVAULT_VAULT": str(vault_root)}
    subprocess.run([sys.executable, "-m", "daemon", "reindex"], env=env, check=True, capture_output=True, timeout=60)
    (vault_root / "b.md").rename(vault_root / "c.md")  # while stopped
    process = subprocess.Popen([sys.executable, "-m", "daemon", "start"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: (vault_root / "a.md").read_text() == "[[c]]\n", timeout=30)
        status = subprocess.run([sys.executable, "-m", "daemon", "status"], env=env, capture_output=True, text=True,
                                timeout=60)
        assert wait_for(lambda: json.loads(subprocess.run(
            [sys.executable, "-m", "daemon", "status"], env=env, capture_output=True, text=True,
            timeout=60).stdout)["watcher"] == "native", timeout=30), status.stdout
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "stopped" in err and "Traceback" not in err
