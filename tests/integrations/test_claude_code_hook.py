"""``memvault hook claude-code``: never blocks, never fails, never prints; hands the work on.

Payloads are built in code. The parallel test fires real hook processes at one
session with no daemon running and waits (on a condition, with a timeout) for
the detached drainer to finish.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import wait_for
from daemon.config import Config
from daemon.integrations.claude_code import hook, sessions, spool
from daemon.launch import hook_arguments
from daemon.pipeline import Context
from daemon.runner import Daemon
from shared_corpus import CORPUS

REPO = Path(__file__).resolve().parents[2]


def run_hook(config: Config, payload: Any, overrides: list[str] | None = None) -> tuple[int, str]:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    out = io.StringIO()
    code = hook.run(None, overrides if overrides is not None else [f"vault={config.vault}", "timezone=UTC"],
                    io.BytesIO(raw), out)
    return code, out.getvalue()


def spotter_transcript(folder: Path) -> tuple[str, Path]:
    """The corpus's short Claude Code session copied to ``folder/<session id>.jsonl``: (session id, path)."""
    source = CORPUS / "claude_code" / "spotter_short.jsonl"
    sid = json.loads(source.read_text(encoding="utf-8").splitlines()[1])["sessionId"]
    transcript = folder / f"{sid}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(source.read_bytes())
    return sid, transcript


def log_text() -> str:
    path = hook.log_path()
    return path.read_text(encoding="utf-8") if path.exists() else ""


@pytest.mark.parametrize("raw, why", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"hook_event_name": "Stop"}', "no session_id"),
    (b"\xff\xfe", "not JSON"),
])
def test_a_malformed_payload_exits_0_prints_nothing_and_logs_why(config: Config, raw: bytes, why: str) -> None:
    code, out = run_hook(config, raw)
    assert (code, out) == (0, "")
    assert why in log_text()
    assert why in spool.errors(config.state_dir())[-1]["error"]
    assert spool.jobs(config.state_dir()) == []


def test_a_vault_that_does_not_exist_is_logged_and_never_created(config: Config, tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    code, out = run_hook(config, {"session_id": "s1", "hook_event_name": "Stop"}, [f"vault={missing}"])
    assert (code, out) == (0, "")
    assert "vault folder not found" in log_text() and "memvault init" in log_text()
    assert not missing.exists()


def test_a_bad_config_value_is_logged_not_raised(config: Config) -> None:
    code, out = run_hook(config, {"session_id": "s1"}, [f"vault={config.vault}", "timezone=Mars/Base"])
    assert (code, out) == (0, "") and "timezone" in log_text()


def test_a_good_payload_leaves_a_job_and_starts_one_drainer(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[Path] = []
    monkeypatch.setattr(hook, "spawn_drainer", lambda state, *_: spawned.append(state) or 1)
    code, out = run_hook(config, {"session_id": "s1", "transcript_path": "/nowhere.jsonl", "cwd": "/p/x",
                                  "hook_event_name": "Stop", "stop_hook_active": False, "extra": "dropped"})
    assert (code, out) == (0, "") and spawned == [config.state_dir()]
    [job] = spool.jobs(config.state_dir())
    assert spool.read(job)["payload"] == {"session_id": "s1", "transcript_path": "/nowhere.jsonl", "cwd": "/p/x",
                                          "hook_event_name": "Stop", "stop_hook_active": False}
    lock = spool.DrainLock(config.state_dir())
    assert lock.try_acquire()  # a drainer at work: the next hook starts none
    try:
        run_hook(config, {"session_id": "s1", "hook_event_name": "Stop"})
    finally:
        lock.release()
    assert spawned == [config.state_dir()] and len(spool.jobs(config.state_dir())) == 2


def test_the_launcher_sends_only_the_hook_down_the_fast_path() -> None:
    assert hook_arguments(["hook", "claude-code"]) == (None, [])
    assert hook_arguments(["--config", "c.toml", "hook", "claude-code", "vault=/v"]) == ("c.toml", ["vault=/v"])
    assert hook_arguments(["hook", "claude-code", "--help"]) is None
    assert hook_arguments(["status"]) is None


def test_the_hook_process_imports_neither_the_pipeline_nor_the_scheduler(config: Config) -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "daemon", "hook", "claude-code",
                           f"vault={config.vault}"], input=b"{}", capture_output=True, cwd=REPO, timeout=60)
    assert done.returncode == 0 and done.stdout == b""
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line}
    assert "daemon.integrations.claude_code.hook" in imported
    assert not {m for m in imported if m.startswith(("daemon.pipeline", "daemon.cli", "apscheduler", "watchdog",
                                                     "daemon.links", "http.client", "subprocess"))}


@pytest.mark.corpus
def test_twenty_parallel_hooks_without_a_daemon_give_one_card_and_each_message_once(
        config: Config, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    sid, transcript = spotter_transcript(claude / "projects" / "-home-marco-projects-spotter")
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude)}
    payload = json.dumps({"session_id": sid, "transcript_path": str(transcript),
                          "cwd": "/home/marco/projects/spotter", "hook_event_name": "Stop"}).encode()
    command = [sys.executable, "-m", "daemon", "hook", "claude-code", f"vault={config.vault}", "timezone=UTC"]
    hooks = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=REPO, env=env) for _ in range(20)]
    results = [p.communicate(payload, timeout=120) + (p.returncode,) for p in hooks]
    assert all(out == b"" and code == 0 for out, _, code in results), results
    state = config.state_dir()
    assert wait_for(lambda: not spool.jobs(state) and not spool.DrainLock(state).held_elsewhere()
                    and sessions.load(state, sid).hooks > 0, 120)
    assert spool.errors(state) == []
    cards = list((config.vault / "daily" / "2026-02-10").glob("*.md"))
    assert len(cards) == 1 and "project: spotter" in cards[0].read_text(encoding="utf-8")
    ids = [json.loads(line)["id"] for line in
           (config.vault / "session" / "dialog" / f"claude-code-{sid}.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) >= 2
    assert sessions.load(state, sid).seen  # every uuid remembered: the next Stop reads nothing new


@pytest.mark.corpus
def test_a_running_daemon_takes_the_job_through_its_local_api(config: Config, ctx: Context, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sid, transcript = spotter_transcript(tmp_path / "claude" / "projects" / "p")
    monkeypatch.setattr(hook, "spawn_drainer", lambda *_: pytest.fail("no drainer while a daemon runs"))
    daemon = Daemon(config, ctx=ctx)
    daemon.start()
    try:
        started = time.monotonic()
        code, out = run_hook(config, {"session_id": sid, "transcript_path": str(transcript),
                                      "cwd": "/home/marco/projects/spotter", "hook_event_name": "SessionEnd"})
        assert (code, out) == (0, "")
        assert time.monotonic() - started < 5  # the API answers before the work is done
        assert wait_for(lambda: list((config.vault / "daily" / "2026-02-10").glob("*.md")) != [], 60)
        assert wait_for(lambda: spool.jobs(config.state_dir()) == [], 60)
    finally:
        daemon.stop()


@pytest.mark.corpus
def test_start_drains_jobs_left_while_nothing_ran_and_status_shows_errors(
        config: Config, ctx: Context, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sid, transcript = spotter_transcript(tmp_path / "t")
    spool.put(config.state_dir(), {"session_id": sid, "transcript_path": str(transcript), "hook_event_name": "Stop"})
    spool.put(config.state_dir(), {"session_id": "gone", "transcript_path": str(tmp_path / "gone.jsonl"),
                                   "hook_event_name": "Stop"})
    daemon = Daemon(config, ctx=ctx)
    daemon.start()
    try:
        assert wait_for(lambda: spool.jobs(config.state_dir()) == [], 60)
        assert list((config.vault / "daily" / "2026-02-10").glob("*.md"))
    finally:
        daemon.stop()
    from daemon.cli import main

    assert main(["status", f"vault={config.vault}"]) == 0
    shown = json.loads(capsys.readouterr().out)["claude_code"]
    assert shown["sessions"] == 1 and shown["last_hook"] and shown["waiting_jobs"] == 0
    assert "session gone: transcript not found" in shown["errors"][-1]["error"]


@pytest.mark.corpus
def test_session_start_answers_with_the_projects_recent_cards(config: Config, ctx: Context, tmp_path: Path) -> None:
    from daemon.integrations.claude_code.drain import process

    sid, transcript = spotter_transcript(tmp_path / "t")
    start = {"session_id": "new", "cwd": "/home/marco/projects/spotter", "hook_event_name": "SessionStart"}
    assert run_hook(config, start) == (0, "")  # no card yet: nothing to say
    process(ctx, config.state_dir(), {"session_id": sid, "transcript_path": str(transcript),
                                      "cwd": "/home/marco/projects/spotter"}, at=1.0, force=True)
    ctx.graph.index.close()
    code, out = run_hook(config, start)
    answer = json.loads(out)["hookSpecificOutput"]
    assert code == 0 and answer["hookEventName"] == "SessionStart"
    card = next((config.vault / "daily" / "2026-02-10").glob("*.md"))
    assert card.stem in answer["additionalContext"]
    assert spool.jobs(config.state_dir()) == []  # SessionStart records nothing
    other = {**start, "cwd": "/home/marco/projects/elsewhere"}
    assert run_hook(config, other) == (0, "")


@pytest.mark.corpus
def test_the_drainer_waits_for_the_vault_lock_instead_of_failing(config: Config, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from daemon.cli_claude import drain_worker
    from daemon.vault.state import VaultLock

    sid, transcript = spotter_transcript(tmp_path / "t")
    spool.put(config.state_dir(), {"session_id": sid, "transcript_path": str(transcript), "hook_event_name": "Stop"})
    held = VaultLock(config.state_dir(), "memvault ingest (a long import)")
    held.acquire()
    # Probing the drain lock takes it for a moment, and a drainer that finds it taken leaves: probe only once the
    # drainer holds it (waiting on the probe alone raced the drainer's own start).
    drainer_holds = threading.Event()
    try_acquire = spool.DrainLock.try_acquire

    def noting(lock: spool.DrainLock) -> bool:
        taken = try_acquire(lock)
        if taken and threading.current_thread() is worker:
            drainer_holds.set()
        return taken

    monkeypatch.setattr(spool.DrainLock, "try_acquire", noting)
    worker = threading.Thread(target=drain_worker, args=(config,))
    try:
        worker.start()
        assert drainer_holds.wait(30) and spool.DrainLock(config.state_dir()).held_elsewhere()  # it is waiting
        assert len(spool.jobs(config.state_dir())) == 1 and spool.errors(config.state_dir()) == []
    finally:
        held.release()
    worker.join(timeout=120)
    assert not worker.is_alive() and spool.jobs(config.state_dir()) == []
    assert list((config.vault / "daily" / "2026-02-10").glob("*.md")) and spool.errors(config.state_dir()) == []
