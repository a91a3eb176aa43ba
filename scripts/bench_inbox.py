"""Inbox benchmark: a 1,000-conversation ChatGPT export through the running daemon's inbox.

Reports conversations per second with the embedded extractive distiller, and
drop-to-card latency for single-conversation files (p50/p95, also beyond the
stability window). Everything runs in a temporary home; nothing touches yours.

    python scripts/bench_inbox.py [--conversations 1000] [--window 2.0] [--drops 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def wait_until(condition, timeout: float) -> float:  # type: ignore[no-untyped-def]
    """Poll ``condition`` (a benchmark may poll; tests never do); returns the time it became true."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if condition():
            return time.perf_counter()
        time.sleep(0.005)
    raise TimeoutError("the daemon did not finish in time")


def drop(staging: Path, inbox: Path, name: str, data: str) -> float:
    """Write outside the inbox, then rename in: the file appears complete at once, as a browser would."""
    path = staging / name
    path.write_text(data, encoding="utf-8")
    os.rename(path, inbox / name)
    return time.perf_counter()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--window", type=float, default=2.0)
    parser.add_argument("--drops", type=int, default=20)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="memvault-bench-"))
    os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
    from gen_chatgpt_export import export

    from daemon.app import init_vault
    from daemon.config import load_config
    from daemon.runner import Daemon

    vault, staging = home / "vault", home / "staging"
    staging.mkdir()
    init_vault(vault)
    config = load_config(overrides=[f"vault={vault}", "timezone=UTC", f"watch.inbox_stable_seconds={args.window}"],
                         environ={})
    inbox = config.inbox
    daemon = Daemon(config)
    daemon.start()
    try:
        data = json.dumps(export(args.conversations, seed=1))
        started = drop(staging, inbox, "conversations.json", data)
        done = wait_until(lambda: any((inbox / "processed").rglob("conversations.json")), timeout=3600)
        total = done - started
        cards = len(list((vault / "daily").glob("*/*.md")))
        latencies = []
        for i in range(args.drops):
            body = json.dumps({"session_id": f"drop-{i}", "messages": [
                {"role": "user", "content": f"I decided to name release {i} after the Kafka migration because it "
                                            "went smoothly.", "created_at": "2026-11-30T10:00:00Z"}]})
            at = drop(staging, inbox, f"drop-{i}.json", body)
            latencies.append(wait_until(lambda i=i: any((inbox / "processed").rglob(f"drop-{i}.json")),
                                        timeout=60) - at)
    finally:
        daemon.stop()
    rate = args.conversations / max(total - args.window, 1e-9)
    beyond = [l - args.window for l in latencies]
    print("| measure | value |\n|---|---|")
    print(f"| conversations imported | {args.conversations} ({cards} cards) |")
    print(f"| drop to archived, whole export | {total:.2f} s (window {args.window:.1f} s included) |")
    print(f"| conversations per second (after the window) | {rate:.0f} |")
    print(f"| drop-to-card latency p50 / p95 | {statistics.median(latencies):.2f} s / "
          f"{percentile(latencies, 0.95):.2f} s |")
    print(f"| beyond the window p50 / p95 | {statistics.median(beyond):.2f} s / {percentile(beyond, 0.95):.2f} s |")


if __name__ == "__main__":
    main()
