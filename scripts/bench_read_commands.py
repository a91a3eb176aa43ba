"""Read-command benchmark: `backlinks`, `links`, `broken` and `tags` while a daemon holds the vault (issue 17 item 3).

Generates a vault (``scripts/gen_vault.py``), indexes it, then takes the vault lock and
writes ``api.json`` as a running daemon does, so every command takes the daemon-running
path. Each command runs ``--runs`` times as a fresh ``python -m daemon`` process per
source tree given with ``--tree`` (default: this checkout; an older checkout, e.g.
``git worktree add /tmp/before HEAD``, is the peer), beside a floor measured in the same
run: the interpreter importing ``daemon.cli`` and exiting. Reports the median wall time
and the largest peak RSS (``VmHWM``) of each.

    python scripts/bench_read_commands.py [--notes 10000] [--runs 5] [--tree /tmp/before --tree .] [--keep DIR]

``--keep DIR`` generates the vault (and its index state) into DIR once and reuses it on
later runs: generating and indexing 100,000 notes takes minutes, measuring seconds.
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


BUILD = """
import sys
from daemon.app import build
from daemon.config import load_config
build(load_config(overrides=[f"vault={sys.argv[1]}", "timezone=UTC"], environ={})).graph.index.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tree", action="append", help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--keep", type=Path, help="generate into this folder once and reuse it (not deleted)")
    args = parser.parse_args()
    home = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="memvault-bench-read-"))
    trees = [str(Path(tree).resolve()) for tree in args.tree or [str(HERE.parent)]]
    from gen_vault import HUB, generate

    from daemon.config import load_config
    from daemon.vault.state import VaultLock

    vault = home / "vault"
    if not (args.keep and vault.is_dir()):
        generate(vault, args.notes, seed=1)
    (vault / ".obsidian").mkdir(exist_ok=True)  # what makes it a vault to memvault
    some_note = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))[len(HUB)]
    commands = {"floor: the interpreter importing daemon.cli": ["--floor"],
                "backlinks (hub, by name)": ["backlinks", Path(HUB).stem, f"vault={vault}"],
                "links (one note, by path)": ["links", some_note, f"vault={vault}"],
                "broken": ["broken", f"vault={vault}"], "tags": ["tags", f"vault={vault}"]}
    # Each tree gets the index its own code builds (and migrates) in its own state folder, held
    # as a running daemon holds it: a schema change is measured with its schema.
    envs, locks = [], []
    for i, tree in enumerate(trees):
        env = dict(os.environ, PYTHONPATH=tree, XDG_STATE_HOME=str(home / f"state-{i}"),
                   XDG_CONFIG_HOME=str(home / "config"))
        subprocess.run([sys.executable, "-c", BUILD, str(vault)], env=env, cwd=tree, check=True)
        os.environ["XDG_STATE_HOME"] = env["XDG_STATE_HOME"]  # where platformdirs looks
        state_dir = load_config(overrides=[f"vault={vault}"], environ={}).state_dir()
        lock = VaultLock(state_dir, "memvault start (benchmark)")
        lock.acquire(0)
        (state_dir / "api.json").write_text("{}")
        envs.append(env)
        locks.append((lock, state_dir / "api.json"))
    try:
        print(f"{args.notes:,} notes, daemon holding the lock; median of {args.runs} runs (the trees taking "
              f"turns), max peak RSS\n")
        print("| command | " + " | ".join(args.tree or ["this tree"]) + " |\n|---|" + "---|" * len(trees))
        for label, argv in commands.items():
            runs: list[list[tuple[float, float]]] = [[] for _ in trees]
            for _ in range(args.runs):
                for i, tree in enumerate(trees):
                    runs[i].append(measure(argv, envs[i], tree))
            cells = [f"{statistics.median(s for s, _ in r):.3f} s, {max(m for _, m in r):.0f} MB" for r in runs]
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    finally:
        for lock, api in locks:
            api.unlink()
            lock.release()
        if not args.keep:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
