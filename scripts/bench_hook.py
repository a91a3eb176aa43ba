"""Claude Code hook benchmark: wall time of ``memvault hook claude-code`` from process start to exit.

Runs the hook 50 times with a Stop payload, interleaved with ``python -c pass`` (the
bare interpreter, the floor) so that load on a shared machine hits both alike, and
reports p50/p95 of each and their ratio. Three cases:

* ``spool``: no daemon, a drainer already at work (the usual case in a burst of
  Stops): the hook only leaves its job;
* ``daemon``: a daemon runs (in this process) and the hook pokes its local API;
* ``spawn``: no daemon, no drainer: the hook also starts one detached drainer
  (fewer runs, each waits for its drainer to finish before the next starts).

Everything runs in a temporary home; nothing touches yours. Target: p95 ≤ 150 ms
and ≤ 3× the bare interpreter.

    python scripts/bench_hook.py [--runs 50]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


CPU: dict[str, list[float]] = {}


def timed(command: list[str], stdin: bytes, env: dict[str, str], cwd: Path, case: str = "") -> float:
    """Wall time of one run; its CPU time (user + system, which load does not inflate) goes to CPU[case]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or done.stdout:
        raise SystemExit(f"{command} failed: {done.returncode} {done.stdout!r} {done.stderr!r}")
    CPU.setdefault(case, []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return elapsed


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def wait_until(condition, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    """Poll ``condition`` (a benchmark may poll; tests never do)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise TimeoutError("the drainer did not finish in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--spawn-runs", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_STATE_HOME": str(home / ".state"), "XDG_DATA_HOME": str(home / ".data"),
               "XDG_CACHE_HOME": str(home / ".cache"), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
        os.environ.update(env)  # the in-process daemon and the spool helpers see the same home
        from daemon.app import init_vault
        from daemon.config import load_config
        from daemon.integrations.claude_code import spool

        vault = home / "vault"
        init_vault(vault)
        overrides = [f"vault={vault}", "timezone=UTC"]
        config = load_config(overrides=overrides, environ={})
        transcript = home / ".claude" / "projects" / "-tmp-bench" / "bench-session.jsonl"
        transcript.parent.mkdir(parents=True)
        line = {"type": "user", "uuid": "u1", "sessionId": "bench-session", "cwd": "/tmp/bench",
                "timestamp": "2026-02-10T10:00:00.000Z", "message": {"role": "user", "content": "benchmark turn"}}
        transcript.write_text(json.dumps(line) + "\n", encoding="utf-8")
        payload = json.dumps({"session_id": "bench-session", "transcript_path": str(transcript),
                              "cwd": "/tmp/bench", "hook_event_name": "Stop"}).encode()
        script = Path(sys.executable).parent / "memvault"
        entry = script.is_file() and "daemon.launch" in script.read_text(encoding="utf-8", errors="replace")
        hook = ([str(script)] if entry else [sys.executable, "-P", "-m", "daemon"]) + ["hook", "claude-code", *overrides]
        bare = [sys.executable, "-c", "pass"]
        state = config.state_dir()
        results: dict[str, list[float]] = {"python -c pass": [], "hook: spool": [], "hook: daemon": [],
                                           "hook: spawn": []}

        lock = spool.DrainLock(state)
        assert lock.try_acquire()
        for _ in range(options.runs):
            results["python -c pass"].append(timed(bare, b"", env, home, "python -c pass"))
            results["hook: spool"].append(timed(hook, payload, env, home, "hook: spool"))
        lock.release()
        for job in spool.jobs(state):
            job.unlink()

        from daemon.runner import Daemon

        daemon = Daemon(config)
        daemon.start()
        try:
            for _ in range(options.runs):
                results["hook: daemon"].append(timed(hook, payload, env, home, "hook: daemon"))
            wait_until(lambda: not spool.jobs(state))
        finally:
            daemon.stop()

        for _ in range(options.spawn_runs):
            results["hook: spawn"].append(timed(hook, payload, env, home, "hook: spawn"))
            wait_until(lambda: not spool.jobs(state) and not spool.DrainLock(state).held_elsewhere())

        floor = percentiles(results["python -c pass"])
        print(f"command: {' '.join(hook[:2])} …  ({'console script' if entry else 'python -P -m daemon'}); "
              f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
        cpu_floor = percentiles(CPU["python -c pass"])
        print(f"{'case':<16} {'runs':>4} {'p50 ms':>8} {'p95 ms':>8} {'p95 / bare p95':>15} "
              f"{'CPU p50 ms':>11} {'CPU / bare':>11}")
        for name, values in results.items():
            p50, p95 = percentiles(values)
            cpu50 = percentiles(CPU[name])[0]
            print(f"{name:<16} {len(values):>4} {p50 * 1000:8.1f} {p95 * 1000:8.1f} {p95 / floor[1]:15.2f} "
                  f"{cpu50 * 1000:11.1f} {cpu50 / cpu_floor[0]:11.2f}")


if __name__ == "__main__":
    main()
