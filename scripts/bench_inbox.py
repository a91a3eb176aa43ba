"""Inbox benchmark: a 1,000-conversation ChatGPT export through the running daemon's inbox.

Reports conversations per second with the embedded extractive distiller, and
drop-to-card latency for single-conversation files (p50/p95, also beyond the
stability window). Everything runs in a temporary home; nothing touches yours.

    python scripts/bench_inbox.py [--conversations 1000] [--window 2.0] [--drops 20]

``--huge`` instead measures the two bounded-memory inputs of issue 12, each
imported in a fresh child process with its time and peak RSS, beside a floor
child that only builds the pipeline (same run, so a busy machine shows in both):
one message of ``--message-mb`` MB (default 200) and one conversation of
``--messages`` messages (default 1,000,000). The target is a peak RSS of at
most 500 MB for each.

    python scripts/bench_inbox.py --huge [--message-mb 200] [--messages 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET_MB = 500  # issue 12 item 4: peak RSS for each huge input
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


def write_huge(path: Path, kind: str, size: int) -> None:
    """Generate one input: ``message`` (one message of ``size`` MB) or ``messages`` (``size`` messages)."""
    with open(path, "w", encoding="utf-8") as out:
        if kind == "message":
            out.write('{"session_id": "huge-message", "messages": [{"id": "m1", "role": "user", '
                      '"created_at": "2026-01-05T10:00:00", "content": "')
            chunk = "We decided to deploy with Helm and to pin the chart version. " * 1000
            for _ in range(size * 1_000_000 // len(chunk)):
                out.write(chunk)
            out.write('"}]}')
            return
        out.write('{"session_id": "huge-session", "messages": [')
        for n in range(size):
            out.write(("," if n else "") + json.dumps({
                "id": f"m{n}", "role": "user" if n % 2 == 0 else "assistant",
                "created_at": f"2026-01-05T{10 + n // 3_600_000 % 10:02d}:{n // 60_000 % 60:02d}:{n // 1000 % 60:02d}",
                "content": f"Message {n}: we talked about item {n % 97} and decided to keep it."}))
        out.write("]}")


def huge_child(kind: str, size: int) -> None:
    """One measurement, run in its own process: generate, import, print JSON with seconds and peak RSS."""
    import resource

    home = Path(tempfile.mkdtemp(prefix="memvault-bench-huge-"))
    os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
    from daemon.app import build, init_vault
    from daemon.config import load_config
    from daemon.pipeline.ingest import ingest_file

    init_vault(home / "vault")
    ctx = build(load_config(overrides=[f"vault={home / 'vault'}", "timezone=UTC"], environ={}))
    path = home / "input.json"
    if kind != "floor":
        write_huge(path, kind, size)
    started = time.perf_counter()
    state = ingest_file(ctx, path, None).state if kind != "floor" else "-"
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    file_mb = path.stat().st_size / 1e6 if path.exists() else 0
    ctx.graph.index.close()
    shutil.rmtree(home, ignore_errors=True)  # the inputs and their records are hundreds of MB
    print(json.dumps({"kind": kind, "size": size, "state": state, "seconds": seconds, "peak_mb": peak,
                      "file_mb": file_mb}))


def huge(message_mb: int, messages: int) -> None:
    import subprocess

    rows = []
    for kind, size in (("floor", 0), ("message", message_mb), ("messages", messages)):
        out = subprocess.run([sys.executable, __file__, "--huge-child", kind, str(size)], check=True,
                             capture_output=True, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    print("| input | file | result | time | peak RSS | target met |\n|---|---|---|---|---|---|")
    for row in rows:
        label = {"floor": "floor: build the pipeline only", "message": f"one message of {row['size']} MB",
                 "messages": f"one conversation of {row['size']:,} messages"}[row["kind"]]
        met = "" if row["kind"] == "floor" else ("yes" if row["peak_mb"] <= TARGET_MB else "no")
        print(f"| {label} | {row['file_mb']:.0f} MB | {row['state']} | {row['seconds']:.1f} s | "
              f"{row['peak_mb']:,.0f} MB | {met} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--window", type=float, default=2.0)
    parser.add_argument("--drops", type=int, default=20)
    parser.add_argument("--huge", action="store_true", help="measure the two huge-conversation inputs instead")
    parser.add_argument("--message-mb", type=int, default=200)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--huge-child", nargs=2, metavar=("KIND", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.huge_child:
        return huge_child(args.huge_child[0], int(args.huge_child[1]))
    if args.huge:
        return huge(args.message_mb, args.messages)
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
