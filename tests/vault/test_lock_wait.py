"""Commands wait for the vault lock instead of failing (issue 11 item 10).

Waiting is driven by conditions (events set by the waiter's notice), never by fixed sleeps.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from argparse import Namespace
from pathlib import Path

import pytest

from daemon.cli import main, reading
from daemon.config import Config
from daemon.errors import LockError
from daemon.runner import Daemon
from daemon.vault import state
from daemon.vault.state import VaultLock


def waiting_taker(lock: VaultLock, wait: float) -> tuple[threading.Thread, threading.Event, list[object]]:
    """A thread taking ``lock``; the event is set once it is waiting for the holder."""
    waiting, result = threading.Event(), []
    thread = threading.Thread(target=lambda: result.append(lock.acquire(wait, notice=lambda _: waiting.set())))
    thread.start()
    return thread, waiting, result


def test_a_second_taker_waits_for_the_holder(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "NOTICE_AFTER", 0.0)
    holder = VaultLock(config.state_dir(), "memvault links")
    holder.acquire()
    taker = VaultLock(config.state_dir(), "memvault start")
    thread, waiting, result = waiting_taker(taker, wait=30)
    assert waiting.wait(10), "the taker never reported that it waits"
    holder.release()
    thread.join(10)
    assert result == [True] and "memvault start" in taker.path.read_text()
    taker.release()


def test_the_wait_is_bounded_and_names_the_holder(config: Config) -> None:
    with VaultLock(config.state_dir(), "memvault reindex"):
        with pytest.raises(LockError, match=r"in use by process \d+ \(memvault reindex\).*waited 0.05 s"):
            VaultLock(config.state_dir(), "memvault mv").acquire(0.05)


def test_the_wait_ends_when_a_daemon_can_do_the_work(config: Config) -> None:
    with VaultLock(config.state_dir(), "memvault start"):
        assert VaultLock(config.state_dir(), "memvault mv").acquire(30, give_up=lambda: True) is False


def test_start_waits_for_a_command_holding_the_lock(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "NOTICE_AFTER", 0.0)
    waiting = threading.Event()

    class Seen(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "waiting for the vault" in record.getMessage():
                waiting.set()

    handler = Seen()
    logging.getLogger("memvault").addHandler(handler)
    reader = VaultLock(config.state_dir(), "memvault (catching up the index)")
    reader.acquire()
    daemon = Daemon(config)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            daemon.start()
        except BaseException as exc:  # handed to the test
            errors.append(exc)

    thread = threading.Thread(target=start)
    thread.start()
    try:
        assert waiting.wait(10), "start did not wait"
        reader.release()
        thread.join(30)
        assert not errors and daemon.worker is not None
    finally:
        daemon.stop()
        logging.getLogger("memvault").removeHandler(handler)


def test_a_timeout_still_prints_the_json_result(capsys: pytest.CaptureFixture[str], vault_root: Path,
                                                config: Config) -> None:
    messages = json.dumps([{"role": "user", "content": "hello"}])
    with VaultLock(config.state_dir(), "memvault start"):
        code = main(["auto_memory", "session_id=s", f"messages={messages}", f"vault={vault_root}",
                     "lock.wait_seconds=0.1"])
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and result["success"] is False and "in use by process" in result["answer"]
    assert result["metadata"]["modified"] is False


def test_read_commands_hold_the_lock_only_to_catch_up(vault_root: Path, config: Config) -> None:
    (vault_root / "a.md").write_text("[[b]]\n")
    args = Namespace(settings=[f"vault={vault_root}", "timezone=UTC"], config=None)
    with reading(args) as ctx:
        with VaultLock(config.state_dir(), "memvault mv"):  # free while the index is read
            assert [r.raw for r in ctx.graph.index.links_from("a.md")] == ["[[b]]"]


def test_parallel_auto_memory_calls_all_succeed(vault_root: Path) -> None:
    env = {**os.environ, "MEMVAULT_VAULT": str(vault_root), "MEMVAULT_TIMEZONE": "UTC"}
    calls = []
    for i in range(4):
        messages = json.dumps([{"role": "user", "created_at": "2023-01-19T08:00:00",
                                "content": f"Call {i}: we chose Postgres for ledger number {i}."}])
        calls.append(subprocess.Popen([sys.executable, "-m", "daemon", "auto_memory", f"session_id=hook-{i}",
                                       f"messages={messages}"], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in calls]  # type: ignore[union-attr]
    for code, out, err in results:
        assert code == 0, err
        assert json.loads(out)["success"] is True
    assert len(list((vault_root / "session/dialog").glob("hook-*.jsonl"))) == 4
