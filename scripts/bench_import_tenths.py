"""Import-rate benchmark: does a long ChatGPT import slow down as the vault fills? (issue 17 item 2)

Generates one export of ``--conversations`` conversations, cuts it into ten files of
equal size and imports them one after the other through ``ingest_file`` into a fresh
vault, timing each tenth by the wall clock and by the process's CPU time (which other
jobs on a shared machine inflate less). Each source tree given with ``--tree`` (default: this
checkout) runs in its own child process in the same run, so an older checkout
(``git worktree add /tmp/before HEAD``) is the peer the change is measured against.

    python scripts/bench_import_tenths.py [--conversations 10000] [--tree /tmp/before --tree .]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(conversations: int) -> None:
    """In a child whose ``sys.path`` starts at one tree: import ten tenths, print seconds per tenth."""
    home = Path(tempfile.mkdtemp(prefix="memvault-bench-tenths-"))
    os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
    sys.path.insert(0, str(HERE))
    from gen_chatgpt_export import export

    from daemon.app import build, init_vault
    from daemon.config import load_config
    from daemon.pipeline.ingest import ingest_file

    init_vault(home / "vault")
    ctx = build(load_config(overrides=[f"vault={home / 'vault'}", "timezone=UTC"], environ={}))
    everything = export(conversations, seed=1)
    step = conversations // 10
    seconds, cpu = [], []
    for tenth in range(10):
        path = home / f"tenth-{tenth}.json"
        path.write_text(json.dumps(everything[tenth * step : (tenth + 1) * step]), encoding="utf-8")
        started, used = time.perf_counter(), time.process_time()
        result = ingest_file(ctx, path, None)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        assert result.state == "imported", (result.state, result.reasons)
    links = ctx.graph.index.count("links")
    ctx.graph.index.close()
    shutil.rmtree(home, ignore_errors=True)
    import daemon

    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu, "per_tenth": step, "links": links,
                      "package": daemon.__file__}))


def run(tree: str | Path, conversations: int) -> dict:
    """Import ``conversations`` in tenths with ``tree``'s package, in a child process; its row, with ``rates``."""
    tree = Path(tree).resolve()
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--conversations",
                          str(conversations)], check=True, capture_output=True, text=True, env=env, cwd=tree).stdout
    row = json.loads(out.strip().splitlines()[-1])
    assert row["package"].startswith(str(tree)), row["package"]
    row["rates"] = [row["per_tenth"] / s for s in row["seconds"]]
    row["cpu_rates"] = [row["per_tenth"] / s for s in row["cpu_seconds"]]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10000)
    parser.add_argument("--tree", action="append", help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.conversations)
    print("| tree | clock | first tenth | last tenth | last / first | per tenth (conversations/s) |\n"
          "|---|---|---:|---:|---:|---|")
    for tree in args.tree or [str(HERE.parent)]:
        row = run(tree, args.conversations)
        for clock, rates in (("wall", row["rates"]), ("CPU", row["cpu_rates"])):
            print(f"| {tree} | {clock} | {rates[0]:.0f}/s | {rates[-1]:.0f}/s | {rates[-1] / rates[0]:.0%} | "
                  f"{' '.join(f'{r:.0f}' for r in rates)} |", flush=True)


if __name__ == "__main__":
    main()
