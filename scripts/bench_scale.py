"""Scale benchmark: how memvault's costs grow with the vault, each beside a floor from the same run (issue 17).

    python scripts/bench_scale.py [--sizes 1000,10000,30000,100000] [--churn 250,500,1000,2000]
                                  [--conversations 30000] [--runs 3] [--quick] [--no-write]

For each size it generates a vault (``gen_vault.py``, seed 1) and measures, each in fresh
child processes with their own state folder (the phases of ``bench_index.py``, the read
commands of ``bench_read_commands.py`` and the folder move of ``bench_moves.py``, imported
as modules):

- **reindex**: ``open_graph`` + ``rebuild`` from an empty state, files cached; floor: read
  every file and run one link regex over each note (best of ``--runs`` passes);
- **warm start**: ``build(config)`` on that index (open, path list, reconcile) and a
  second ``reconcile``; floor: ``stat`` every file of the vault;
- **memory and disk**: peak RSS of the reindex child beside a child that only imports the
  daemon; the index file's size beside the vault's;
- **read commands** (``backlinks``, ``links``, ``broken``, ``tags``) with a daemon holding
  the vault, each a fresh process, median of ``--runs``; floor: the interpreter importing
  ``daemon.cli``;
- **a big folder move**: the vault's largest top-level folder renamed, as the watcher
  reports it; floor: durably rewriting the same files.

Vaults are generated in child processes and this process never reads one whole before the
last step: a child's peak RSS counts its parent's peak at the fork.

Then, on the vault nearest 10,000 notes, **churn while stopped** (``detect_moves`` for M
deleted + M added; floor: hashing and signing the 2M changed texts), and the **import rate
per tenth** of a ChatGPT export of ``--conversations`` (``bench_import_tenths.py``; the
first tenth is the floor of the others, by the wall clock and by CPU time).

It writes its tables into ``docs/benchmarks.md`` between the ``bench_scale`` markers (a
rerun replaces them) and, when matplotlib is installed (``pip install -e ".[bench]"``),
a log-log chart of time per note and per item against size to ``docs/bench_scale.svg``.
``--quick`` runs small sizes (500 and 2,000 notes, 1,000 conversations), one run each: about a minute.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import platform
import shutil
import subprocess
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
sys.path.insert(0, str(SCRIPTS))
sys.path.insert(0, str(ROOT))

import bench_import_tenths  # noqa: E402
import bench_index  # noqa: E402
import bench_moves  # noqa: E402
import bench_read_commands  # noqa: E402

BEGIN = "<!-- bench_scale: begin (written by scripts/bench_scale.py; a rerun replaces this block) -->"
END = "<!-- bench_scale: end -->"
HEADING = "## Scale (`scripts/bench_scale.py`)"
DOC = ROOT / "docs" / "benchmarks.md"
SVG = DOC.with_name("bench_scale.svg")
FULL = {"sizes": "1000,10000,30000,100000", "churn": "250,500,1000,2000", "conversations": 30000}
QUICK = {"sizes": "500,2000", "churn": "25,50,100,200", "conversations": 1000}
CHURN_VAULT = 10000  # the churn runs on the vault nearest this size
READ_COMMANDS = ("backlinks", "links", "broken", "tags")


# ================================================================ per vault size
def stat_walk(root: Path) -> int:
    """The warm start's floor: ``stat`` every file below ``root`` (dot-folders skipped); the count."""
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):  # no list of every path: this process stays small
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            os.stat(os.path.join(dirpath, name))
            count += 1
    return count


def generate(vault: Path, notes: int) -> dict[str, Any]:
    """``gen_vault.py`` in a child process; its summary.

    Each child's peak RSS (``ru_maxrss``) counts this process's peak before the exec, so this
    process never holds a whole vault: generating one here would raise every later figure.
    """
    done = subprocess.run([sys.executable, str(SCRIPTS / "gen_vault.py"), str(vault), "--notes", str(notes)],
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def a_note(vault: Path) -> str:
    """One note in a folder (the first found), for ``links``."""
    for dirpath, dirnames, filenames in os.walk(vault):
        dirnames.sort()
        found = sorted(f for f in filenames if f.endswith(".md"))
        if found and dirpath != str(vault):
            return Path(dirpath, found[0]).relative_to(vault).as_posix()
    raise LookupError(f"no note in a folder of {vault}")


def best(runs: int, fn: Any, *args: Any) -> float:
    return bench_moves.best_of(max(runs, 1), fn, *args)[0]


@contextlib.contextmanager
def daemon_running(vault: Path) -> Iterator[None]:
    """Hold the vault lock and write ``api.json`` as a running daemon does (read commands then read the index)."""
    from daemon.config import load_config
    from daemon.vault.state import VaultLock

    state = load_config(overrides=[f"vault={vault}"], environ={}).state_dir()
    lock = VaultLock(state, "memvault start (benchmark)")
    lock.acquire(0)
    (state / "api.json").write_text("{}")
    try:
        yield
    finally:
        (state / "api.json").unlink()
        lock.release()


def read_commands(vault: Path, hub: str, env: dict[str, str], runs: int) -> dict[str, dict[str, float]]:
    """Median seconds and largest peak RSS (MB) of each read command, and of the floor."""
    argv = {"floor": ["--floor"], "backlinks": ["backlinks", Path(hub).stem], "links": ["links", a_note(vault)],
            "broken": ["broken"], "tags": ["tags"]}
    env = dict(env, PYTHONPATH=str(ROOT))
    found = {}
    with daemon_running(vault):
        for name, args in argv.items():
            args = args if name == "floor" else args + [f"vault={vault}"]
            done = [bench_read_commands.measure(args, env, str(ROOT)) for _ in range(max(runs, 1))]
            found[name] = {"s": statistics.median(s for s, _ in done), "mb": max(mb for _, mb in done)}
    return found


def index_bytes(state: Path) -> int:
    return sum(p.stat().st_size for p in state.rglob("index.sqlite3*"))


def measure_size(notes: int, work: Path, runs: int) -> dict[str, Any]:
    """Every per-size measurement on a fresh ``notes``-note vault in ``work``."""
    runner = bench_index.Runner(work, runs)
    saved = {k: os.environ.get(k) for k in runner.env if k.startswith("XDG_")}
    os.environ.update({k: v for k, v in runner.env.items() if k.startswith("XDG_")})  # lock and api.json go there
    try:
        vault = work / "vault"
        summary = generate(vault, notes)
        (vault / ".obsidian").mkdir(exist_ok=True)  # what makes it a vault for memvault (adds no indexed file)
        result: dict[str, Any] = {"notes": notes, "vault_bytes": summary["bytes"], "load": [os.getloadavg()[0]]}
        result["imports_only"] = runner.phase("import", vault)
        result["floor"] = runner.phase("floor", vault)
        result["index"] = runner.phase("index", vault)
        result["index_bytes"] = index_bytes(runner.state_dir())
        result["stat_floor_s"] = best(runs, stat_walk, vault)
        result["warm"] = runner.phase("warm", vault)
        result["read"] = read_commands(vault, result["warm"]["hub_now"], runner.env, runs)
        result["folder_move"] = bench_moves.run_folder_move(vault, work / "move")
        result["load"].append(os.getloadavg()[0])
        return result
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


# ============================================================ churn and imports
def churn(vault: Path, sizes: list[int], runs: int) -> list[dict[str, Any]]:
    """``detect_moves`` for M deleted + M added notes, beside hashing and signing the 2M changed texts."""
    from daemon.links.graph import signature

    notes = bench_moves.rows_of(vault)
    texts = [text for text, _ in notes.values()]
    rows = []
    for m in sizes:
        if 2 * m > len(notes):
            continue
        deleted, added, edited = bench_moves.churn(notes, m)
        seconds, moves = bench_moves.best_of(max(runs, 1), bench_moves.detect_moves, deleted, added)
        changed = texts[: 2 * m]
        floor = best(runs, lambda: [(hashlib.sha256(t.encode()).digest(), signature(t)) for t in changed])
        rows.append({"m": m, "seconds": seconds, "floor_s": floor, "paired": len(moves), "edited": edited})
    return rows


def imports(conversations: int) -> dict[str, Any]:
    """The import rate per tenth of a ``conversations``-conversation ChatGPT export, this tree, in a child."""
    return bench_import_tenths.run(ROOT, conversations)


def measure(sizes: list[int], churn_sizes: list[int], conversations: int, runs: int, work: Path,
            say: Any = print, keep: Path | None = None) -> dict[str, Any]:
    """Everything, as plain data (``tables`` and ``chart`` turn it into the report); saved to ``keep`` as it grows."""
    churn_at = min(sizes, key=lambda n: abs(n - CHURN_VAULT))
    results: dict[str, Any] = {"sizes": [], "runs": runs, "started": datetime.now(timezone.utc).isoformat(),
                               "machine": f"{os.cpu_count()} CPUs, Python {platform.python_version()}"}
    for notes in sizes:
        say(f"{notes:,} notes ...")
        folder = work / f"size-{notes}"
        folder.mkdir()
        results["sizes"].append(measure_size(notes, folder, runs))
        shutil.rmtree(folder, ignore_errors=True)
        if keep:
            keep.write_text(json.dumps(results, indent=2))
    say(f"churn on {churn_at:,} notes ...")  # last: it reads the vault into this process
    generate(work / "churn", churn_at)
    results["churn"] = {"notes": churn_at, "rows": churn(work / "churn", churn_sizes, runs)}
    say(f"import of {conversations:,} conversations in tenths ...")
    results["import"] = imports(conversations)
    if keep:
        keep.write_text(json.dumps(results, indent=2))
    return results


# ===================================================================== report
def _s(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def _us(seconds: float, count: int) -> str:
    return f"{seconds / count * 1e6:,.0f} µs"


def _x(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b else "–"


def tables(results: dict[str, Any]) -> str:
    """The report as Markdown tables, each figure beside its floor."""
    sizes = results["sizes"]
    out = [f"Measured {results['started'][:16].replace('T', ' ')} UTC on {results['machine']}, load average "
           f"{min(min(r['load']) for r in sizes):.1f}–{max(max(r['load']) for r in sizes):.1f} "
           f"(other jobs share the machine: compare a figure with its floor, in the same row). "
           f"Medians or best of {results['runs']} runs.", "",
           "**Reindex and warm start** (files cached; per note = time ÷ notes)", "",
           "| notes | reindex | floor: read + regex | × | reindex per note | warm start `build` | "
           "second `reconcile` | floor: stat every file | × |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sizes:
        n, index, floor = r["notes"], r["index"]["seconds"], r["floor"]["warm_s"]
        reconcile = statistics.median(r["warm"]["reconcile_all"])
        out.append(f"| {n:,} | {_s(index)} | {_s(floor)} | {_x(index, floor)} | {_us(index, n)} | "
                   f"{_s(r['warm']['build_s'])} | {_s(reconcile)} | {_s(r['stat_floor_s'])} | "
                   f"{_x(reconcile, r['stat_floor_s'])} |")
    out += ["", "**Memory and disk**", "",
            "| notes | peak RSS, reindex | floor: a process importing the daemon | index file | per note | "
            "vault's notes | index ÷ vault |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sizes:
        out.append(f"| {r['notes']:,} | {r['index']['peak_rss_mb']:.0f} MB | "
                   f"{r['imports_only']['peak_rss_mb']:.0f} MB | "
                   f"{r['index_bytes'] / 1e6:.1f} MB | {r['index_bytes'] / r['notes'] / 1e3:.1f} KB | "
                   f"{r['vault_bytes'] / 1e6:.1f} MB | {r['index_bytes'] / r['vault_bytes']:.1f}× |")
    out += ["", "**Read commands with a daemon running** (a fresh process each; time and peak RSS)", "",
            "| notes | floor: interpreter importing `daemon.cli` | " + " | ".join(f"`{c}`" for c in READ_COMMANDS)
            + " |", "|---:|" + "---:|" * (1 + len(READ_COMMANDS))]
    for r in sizes:
        read = r["read"]
        out.append(f"| {r['notes']:,} | " + " | ".join(f"{read[c]['s']:.3f} s, {read[c]['mb']:.0f} MB"
                                                       for c in ("floor",) + READ_COMMANDS) + " |")
    out += ["", "**A big folder move** (the largest top-level folder, as the watcher reports it; to links "
            "repaired and index updated)", "",
            "| notes | files moved | files rewritten | move | floor: durably rewrite them | × | per file moved | "
            "peak RSS |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sizes:
        move = r["folder_move"]
        out.append(f"| {r['notes']:,} | {move['notes_moved']:,} | {move['rewritten']:,} | {_s(move['seconds'])} | "
                   f"{_s(move['floor_seconds'])} | {_x(move['seconds'], move['floor_seconds'])} | "
                   f"{_us(move['seconds'], move['notes_moved'])} | {move['peak_rss_mb']:.0f} MB |")
    if "churn" in results:
        out += ["", f"**Churn while stopped** ({results['churn']['notes']:,}-note vault: M notes deleted and M "
                "others added, one added in ten an edited copy of a deleted one)", "",
                "| M | `detect_moves` | floor: hash and sign the 2M texts | × | per changed file | "
                "vs. previous M | paired (edited copies) |", "|---:|---:|---:|---:|---:|---:|---:|"]
        previous = None
        for c in results["churn"]["rows"]:
            growth = f"×{c['seconds'] / previous:.1f}" if previous else "–"
            previous = c["seconds"]
            out.append(f"| {c['m']:,} | {_s(c['seconds'])} | {_s(c['floor_s'])} | {_x(c['seconds'], c['floor_s'])} | "
                       f"{_us(c['seconds'], 2 * c['m'])} | {growth} | {c['paired']:,} ({c['edited']:,}) |")
    imp = results["import"]
    step = imp["per_tenth"]
    out += ["", f"**Import rate per tenth** (a ChatGPT export of {10 * step:,} conversations, ten files of "
            f"{step:,} imported one after the other; floor: the first tenth)", "",
            "| tenth | conversations already in | rate, wall clock | vs. first | rate, CPU time | vs. first |",
            "|---:|---:|---:|---:|---:|---:|"]
    for i, (wall, cpu) in enumerate(zip(imp["rates"], imp["cpu_rates"])):
        out.append(f"| {i + 1} | {i * step:,} | {wall:.0f}/s | {wall / imp['rates'][0]:.0%} | {cpu:.0f}/s | "
                   f"{cpu / imp['cpu_rates'][0]:.0%} |")
    return "\n".join(out)


def per_note_series(results: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    """Lines of the chart: (size, seconds per note or per item)."""
    sizes = results["sizes"]
    series: dict[str, list[tuple[float, float]]] = {
        "reindex, per note": [(r["notes"], r["index"]["seconds"] / r["notes"]) for r in sizes],
        "floor: read + regex, per note": [(r["notes"], r["floor"]["warm_s"] / r["notes"]) for r in sizes],
        "warm start (reconcile), per note": [(r["notes"], statistics.median(r["warm"]["reconcile_all"]) / r["notes"])
                                             for r in sizes],
        "floor: stat, per note": [(r["notes"], r["stat_floor_s"] / r["notes"]) for r in sizes],
        "folder move, per file moved": [(r["notes"], r["folder_move"]["seconds"] / r["folder_move"]["notes_moved"])
                                        for r in sizes],
        "floor: durable rewrite, per file moved": [
            (r["notes"], r["folder_move"]["floor_seconds"] / r["folder_move"]["notes_moved"]) for r in sizes],
    }
    return series


def chart(results: dict[str, Any], svg: Path) -> str:
    """Draw the log-log chart into ``svg``; what happened, as one line (skipped without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("svg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return "chart skipped: matplotlib is not installed (pip install -e \".[bench]\")"
    plt.rcParams["svg.hashsalt"] = "memvault"  # stable ids: a rerun changes only what changed
    figure, axes = plt.subplots(2, 2, figsize=(12, 9))
    sizes = results["sizes"]
    panels = [
        (axes[0][0], "Per note against vault size", "notes in the vault", "seconds per note or per file",
         per_note_series(results)),
        (axes[0][1], "Read commands against vault size", "notes in the vault", "seconds per command",
         {c if c != "floor" else "floor: interpreter + imports": [(r["notes"], r["read"][c]["s"]) for r in sizes]
          for c in ("floor",) + READ_COMMANDS}),
        (axes[1][0], "Churn while stopped, per changed file", "M (deleted) + M (added)", "seconds per changed file",
         {"detect_moves": [(2 * c["m"], c["seconds"] / (2 * c["m"])) for c in results.get("churn", {}).get("rows", [])],
          "floor: hash + sign": [(2 * c["m"], c["floor_s"] / (2 * c["m"]))
                                 for c in results.get("churn", {}).get("rows", [])]}),
        (axes[1][1], "Import, per conversation, tenth by tenth", "conversations already imported",
         "seconds per conversation", import_series(results["import"])),
    ]
    for ax, title, xlabel, ylabel, lines in panels:
        ys = [y for points in lines.values() for _, y in points if y > 0]
        for label, points in lines.items():
            if points:
                style = "--" if label.startswith("floor") else "-"
                ax.plot([x for x, _ in points], [y for _, y in points], style, marker="o", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())  # decades only: no crowded labels
        if ys:  # a decade of room each side: noise of a few per cent must not look like growth
            ax.set_ylim(min(ys) / 10, max(ys) * 10)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    figure.suptitle("memvault at scale: flat lines mean the cost per note or item does not grow")
    figure.tight_layout()
    figure.savefig(svg, metadata={"Date": None})
    plt.close(figure)
    return f"chart written to {svg}"


def import_series(imp: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    step = imp["per_tenth"]
    return {"wall clock": [((i + 0.5) * step, 1 / r) for i, r in enumerate(imp["rates"])],
            "CPU time": [((i + 0.5) * step, 1 / r) for i, r in enumerate(imp["cpu_rates"])]}


def write_section(doc: Path, body: str) -> None:
    """Put ``body`` between the markers in ``doc`` (adding the section at the end the first time)."""
    text = doc.read_text(encoding="utf-8") if doc.exists() else ""
    block = f"{BEGIN}\n{body}\n{END}"
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        text = head + block + rest.partition(END)[2]
    else:
        text = text.rstrip("\n") + f"\n\n{HEADING}\n\n{block}\n"
    doc.write_text(text, encoding="utf-8")


def report(results: dict[str, Any], doc: Path, svg: Path) -> str:
    """Write the chart (when possible) and the tables into ``doc``; what was done, as lines."""
    drawn = chart(results, svg)
    picture = (f"![Time per note and per item against size, log-log]({os.path.relpath(svg, doc.parent)})"
               if drawn.startswith("chart written") else f"(No chart in this run: {drawn}.)")
    write_section(doc, tables(results) + "\n\n" + picture)
    return f"{drawn}\ntables written to {doc}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", help=f"vault sizes in notes (default {FULL['sizes']}; --quick {QUICK['sizes']})")
    parser.add_argument("--churn", help=f"values of M (default {FULL['churn']})")
    parser.add_argument("--conversations", type=int,
                        help=f"export size for the import (default {FULL['conversations']})")
    parser.add_argument("--runs", type=int, default=3, help="runs of each repeated measurement (default 3)")
    parser.add_argument("--quick", action="store_true", help="small sizes, one run each: about a minute")
    parser.add_argument("--doc", type=Path, default=DOC, help="the Markdown file to write the tables into")
    parser.add_argument("--svg", type=Path, default=SVG, help="where the chart goes")
    parser.add_argument("--json", type=Path, help="also write the raw results here (after each size)")
    parser.add_argument("--from-json", type=Path, help="no measuring: report the results a --json run saved")
    parser.add_argument("--no-write", action="store_true", help="print the tables only")
    args = parser.parse_args(argv)
    preset = QUICK if args.quick else FULL
    sizes = [int(s) for s in (args.sizes or preset["sizes"]).split(",")]
    churn_sizes = [int(s) for s in (args.churn or preset["churn"]).split(",")]
    runs = 1 if args.quick and "--runs" not in (argv or sys.argv) else args.runs
    started = time.perf_counter()
    if args.from_json:
        results = json.loads(args.from_json.read_text())
    else:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            results = measure(sizes, churn_sizes, args.conversations or preset["conversations"], runs, Path(tmp),
                              say=lambda text: print(f"[{time.perf_counter() - started:7.1f} s] {text}",
                                                     file=sys.stderr), keep=args.json)
    print(tables(results))
    if not args.no_write:
        print("\n" + report(results, args.doc, args.svg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
