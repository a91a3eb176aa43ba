"""Import-rate benchmark: does a long ChatGPT import slow down as the vault fills? (issue 17 item 2)

Generates one export of ``--conversations`` conversations, cuts it into ten files of
equal size and imports them one after the other through ``ingest_file`` into a fresh
vault, timing each tenth. Each source tree given with ``--tree`` (default: this
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
    seconds = []
    for tenth in range(10):
        path = home / f"tenth-{tenth}.json"
        path.write_text(json.dumps(everything[tenth * step : (tenth + 1) * step]), encoding="utf-8")
        started = time.perf_counter()
        result = ingest_file(ctx, path, None)
        seconds.append(time.perf_counter() - started)
        assert result.state == "imported", (result.state, result.reasons)
    links = ctx.graph.index.count("links")
    ctx.graph.index.close()
    shutil.rmtree(home, ignore_errors=True)
    import daemon

    print(json.dumps({"seconds": seconds, "per_tenth": step, "links": links, "package": daemon.__file__}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10000)
    parser.add_argument("--tree", action="append", help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.conversations)
    print(f"| tree | first tenth | last tenth | last / first | per tenth (conversations/s) |\n|---|---|---|---|---|")
    for tree in args.tree or [str(HERE.parent)]:
        env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
        out = subprocess.run([sys.executable, __file__, "--child", "--conversations", str(args.conversations)],
                             check=True, capture_output=True, text=True, env=env, cwd=tree).stdout
        row = json.loads(out.strip().splitlines()[-1])
        assert row["package"].startswith(str(Path(tree).resolve())), row["package"]
        rates = [row["per_tenth"] / s for s in row["seconds"]]
        print(f"| {tree} | {rates[0]:.0f}/s | {rates[-1]:.0f}/s | {rates[-1] / rates[0]:.0%} | "
              f"{' '.join(f'{r:.0f}' for r in rates)} |", flush=True)


if __name__ == "__main__":
    main()
