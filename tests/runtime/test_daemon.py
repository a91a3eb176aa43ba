"""The daemon end to end: a real observer, waiting on conditions (never fixed sleeps)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import wait_for
from daemon.config import Config, load_config
from daemon.errors import LockError
from daemon.runner import Daemon


def test_live_rename_is_repaired_by_the_running_daemon(vault_root: Path, config: Config) -> None:
    (vault_root / "notes").mkdir()
    (vault_root / "notes/Plan.md").write_text("# Plan\n")
    (vault_root / "index.md").write_text("Read [[Plan]] and [[notes/Plan|the plan]].\n")
    daemon = Daemon(config)
    daemon.start()
    try:
        impatient = load_config(overrides=[f"vault={vault_root}", "timezone=UTC", "lock.wait_seconds=0.1"], environ={})
        with pytest.raises(LockError, match="memvault start"):
            Daemon(impatient).start()
        (vault_root / "notes/Plan.md").rename(vault_root / "notes/Roadmap.md")
        assert wait_for(lambda: (vault_root / "index.md").read_text() ==
                        "Read [[Roadmap]] and [[Roadmap|the plan]].\n")  # a unique name: the shortest form
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


@pytest.mark.parametrize("polling", [False, True], ids=["native", "polling"])
def test_inbox_outside_the_vault_and_polling_mode(vault_root: Path, tmp_path: Path, polling: bool) -> None:
    inbox = tmp_path / "Downloads" / "chats"
    config = load_config(overrides=[f"vault={vault_root}", f"inbox={inbox}", "timezone=UTC",
                                    "watch.inbox_stable_seconds=0.2", "watch.polling_interval=0.2"], environ={})
    (vault_root / "a.md").write_text("[[b]]\n")
    (vault_root / "b.md").write_text("bee\n")
    daemon = Daemon(config, polling=polling)
    daemon.start()
    try:
        assert daemon.watcher.state == ("polling" if polling else "native")
        staging = tmp_path / "export.json"
        staging.write_text(json.dumps({"session_id": "outside", "messages": [
            {"role": "user", "content": "We moved the wiki to Outline because search was slow.",
             "created_at": "2026-02-02T10:00:00Z"}]}))
        os.rename(staging, inbox / "export.json")
        assert wait_for(lambda: (inbox / "processed").is_dir() and any((inbox / "processed").rglob("export.json")))
        assert list((vault_root / "daily" / "2026-02-02").glob("*.md"))
        (vault_root / "b.md").rename(vault_root / "c.md")
        assert wait_for(lambda: (vault_root / "a.md").read_text() == "[[c]]\n")
    finally:
        daemon.stop()
