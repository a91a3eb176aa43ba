"""Read-command benchmark: `backlinks`, `links`, `broken` and `tags` while a daemon holds the vault (issue 17 item 3).

Generates a vault (``scripts/gen_vault.py``), indexes it, then takes the vault lock and
writes ``api.json`` as a running daemon does, so every command takes the daemon-running
path. Each command runs ``--runs`` times as a fresh ``python -m daemon`` process per
source tree given with ``--tree`` (default: this checkout; an older checkout, e.g.
``git worktree add /tmp/before HEAD``, is the peer), beside a floor measured in the same
run: the interpreter importing ``daemon.cli`` and exiting. Reports the median wall time
and the largest peak RSS (``VmHWM``) of each.

    python scripts/bench_read_commands.py [--notes 10000] [--runs 5] [--tree /tmp/before --tree .]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


# Runs in the child: the command (or, for the floor, only the imports), then its peak RSS from
# /proc (VmHWM belongs to the process image; ru_maxrss would carry over this parent's peak at fork).
CHILD = """
import runpy, sys
try:
    if sys.argv[1] == "--floor":
        import daemon.cli
    else:
        runpy.run_module("daemon", run_name="__main__")
finally:
    peak = [l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
    sys.stderr.write(f"PEAK {peak}\\n")
"""


def measure(args: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, *args], env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    peak_kib = int(done.stderr.rpartition("PEAK ")[2])
    return seconds, peak_kib / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", action="append", help="a checkout to measure (repeatable; default: this one)")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="memvault-bench-read-"))
    os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
    from gen_vault import HUB, generate

    from daemon.app import build
    from daemon.config import load_config
    from daemon.vault.state import VaultLock

    vault = home / "vault"
    generate(vault, args.notes, seed=1)
    (vault / ".obsidian").mkdir(exist_ok=True)  # what makes it a vault to memvault
    config = load_config(overrides=[f"vault={vault}", "timezone=UTC"], environ={})
    build(config).graph.index.close()  # the index a daemon would keep current
    some_note = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))[len(HUB)]
    commands = {"floor: the interpreter importing daemon.cli": ["--floor"],
                "backlinks (hub, by name)": ["backlinks", Path(HUB).stem, f"vault={vault}"],
                "links (one note, by path)": ["links", some_note, f"vault={vault}"],
                "broken": ["broken", f"vault={vault}"], "tags": ["tags", f"vault={vault}"]}
    lock = VaultLock(config.state_dir(), "memvault start (benchmark)")
    lock.acquire(0)
    (config.state_dir() / "api.json").write_text("{}")
    try:
        print(f"{args.notes:,} notes, daemon holding the lock; median of {args.runs} runs, max peak RSS\n")
        print("| command | " + " | ".join(args.tree or ["this tree"]) + " |\n|---|" + "---|" * len(args.tree or [1]))
        for label, argv in commands.items():
            cells = []
            for tree in args.tree or [str(HERE.parent)]:
                env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
                runs = [measure(argv, env, tree) for _ in range(args.runs)]
                cells.append(f"{statistics.median(s for s, _ in runs):.3f} s, {max(m for _, m in runs):.0f} MB")
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    finally:
        (config.state_dir() / "api.json").unlink()
        lock.release()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
