"""Move benchmark: churn after downtime (issue 17 item 1) and a big folder move (item 4).

    python scripts/bench_moves.py [--notes 10000] [--sizes 250,500,1000,2000] [--repeat 3]
                                  [--only churn|folder|status] [--folder-runs 1] [--warm] [--tree DIR ...]

**Churn.**
Generates a vault with ``scripts/gen_vault.py``, computes each note's index row (hash and line
signature, as ``Graph.read`` does), then for each M takes M notes as "deleted" and M others as
"added" (a branch switch: unrelated notes), of which one in ten is an edited copy of a deleted
note (renamed *and* edited, which must be paired). It times ``pairing.detect_moves`` beside the
all-pairs version it replaced (the peer, run in the same process on the same rows) and reports
the growth per doubling of M. The target (issue 17): 2,000 + 2,000 within 3 s on a 10k vault, at
most x2.2 per doubling.

**Churn, end to end** (``--only status``): the same churn made on disk while memvault is
stopped (the first M notes deleted, the next M copied under ``moved/``, one in ten an edited copy of
a deleted one), then ``memvault status`` run as a new process, whose start catches the index up
(pairs the moves, repairs their links, indexes the rest). Each M starts from the same indexed vault
(copied back with its state folder, mtimes kept); each source tree (``--tree``, default this one)
is timed in turn, best of ``--repeat``, with the unchanged vault (M = 0) as the floor.

**Folder move.** In a fresh child process (its own state folder; peak RSS from ``os.wait4``, and the
move's own peak from ``VmHWM`` reset just before it): index
the vault, rename its largest top-level folder on disk, feed the watcher's events for it (the
folder, then each subfolder and file, as watchdog reports them) to ``Tracker.feed`` and
``apply_actions``. The floor, in the same child right after: durably rewrite the same files
(temp file, fsync, ``os.replace``), as the vault writer's ``write`` does; then again staged 200
at a time with one flush each, as a move writes them (``Vault.write_all``). With ``--folder-runs N`` the move
is made N times, each on a fresh copy of the vault, and the run with the median ratio is shown
(fsync times swing widely on a shared machine).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS))
sys.path.insert(0, str(SCRIPTS.parent))

import gen_vault  # noqa: E402

from daemon.links.graph import signature  # noqa: E402
from daemon.links.index import NoteRow  # noqa: E402
from daemon.links.pairing import SIMILARITY, _closest, _same_kind, detect_moves, similarity  # noqa: E402


def all_pairs(deleted: dict[str, NoteRow], added: dict[str, NoteRow]) -> dict[str, str]:
    """The replaced implementation: every deleted row against every free added row."""
    moves: dict[str, str] = {}
    free = dict(added)

    def take(old: str, new: str) -> None:
        moves[old] = new
        del free[new]

    for old, row in sorted(deleted.items()):
        same = [p for p, r in free.items() if r.hash == row.hash]
        if same:
            take(old, _closest(old, same))
    for old, row in sorted(deleted.items()):
        if old in moves or not row.identity:
            continue
        same = [p for p, r in free.items() if r.identity == row.identity and _same_kind(old, p)]
        if len(same) == 1:
            take(old, same[0])
    for old, row in sorted(deleted.items()):
        if old in moves or not row.signature:
            continue
        scored = sorted((similarity(row.signature, r.signature), p) for p, r in free.items() if _same_kind(old, p))
        if scored and scored[-1][0] >= SIMILARITY and (len(scored) < 2 or scored[-2][0] < scored[-1][0]):
            take(old, scored[-1][1])
    return moves


def rows_of(root: Path) -> dict[str, tuple[str, str]]:
    """path → (text, hash) for every note."""
    found = {}
    for path in sorted(root.rglob("*.md")):
        data = path.read_bytes()
        found[path.relative_to(root).as_posix()] = (data.decode("utf-8"), hashlib.sha256(data).hexdigest())
    return found


def churn(notes: dict[str, tuple[str, str]], m: int) -> tuple[dict[str, NoteRow], dict[str, NoteRow], int]:
    paths = sorted(notes)
    gone, new = paths[:m], paths[m:2 * m]
    deleted = {p: NoteRow(p, 1, 1, notes[p][1], None, signature(notes[p][0])) for p in gone}
    added = {}
    edited = 0
    for i, p in enumerate(new):
        text, digest = notes[p]
        if i % 10 == 0:  # an edited copy of a deleted note under a new name
            text = notes[gone[i]][0] + "\nOne line added after the rename.\n"
            digest, edited = hashlib.sha256(text.encode()).hexdigest(), edited + 1
        added[f"moved/{p}"] = NoteRow(f"moved/{p}", 1, 1, digest, None, signature(text))
    return deleted, added, edited


def best_of(repeat: int, fn, *args):  # type: ignore[no-untyped-def]
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - started)
    return min(times), result


def folder_move(root: Path) -> dict[str, Any]:
    """In this (child) process: index ``root``, move its largest top-level folder, repair, then the floor."""
    from daemon.app import build
    from daemon.config import load_config
    from daemon.links.events import MOVED, FileEvent
    from daemon.links.moves import Tracker
    from daemon.pipeline.renames import apply_actions

    config = load_config(overrides=[f"vault={root}", "timezone=UTC"], environ={})
    (root / ".obsidian").mkdir(exist_ok=True)  # what makes it a vault for memvault (adds no indexed file)
    ctx = build(config)
    sizes: dict[str, int] = {}
    for path in ctx.graph.paths.paths():
        if "/" in path:
            sizes[path.split("/")[0]] = sizes.get(path.split("/")[0], 0) + 1
    folder = max(sorted(sizes), key=lambda f: sizes[f])
    moved = folder + " (moved)"
    events = [FileEvent(MOVED, folder, moved, is_dir=True)]
    for dirpath, dirnames, filenames in os.walk(root / folder):
        rel = Path(dirpath).relative_to(root).as_posix()
        new = moved + rel[len(folder):]
        events += [FileEvent(MOVED, f"{rel}/{d}", f"{new}/{d}", is_dir=True) for d in sorted(dirnames)]
        events += [FileEvent(MOVED, f"{rel}/{f}", f"{new}/{f}") for f in sorted(filenames)]
    # Digests, not the files' bytes: holding 100,000 notes' text here would count in the move's RSS.
    before = {p: _digest(root / p) for p in ctx.graph.paths.paths() if p.endswith(".md")}
    os.rename(root / folder, root / moved)
    before_move_mb = _rss_mb("VmRSS")
    _reset_peak_rss()
    started, cpu = time.perf_counter(), time.process_time()
    actions = Tracker(ctx.graph).feed(events, now=1.0)
    apply_actions(ctx, actions)
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    move_peak_mb = _rss_mb("VmHWM")
    changed = [p for p in ctx.graph.paths.paths() if p.endswith(".md")
               and _digest(root / p) != before.get(p, before.get(folder + p[len(moved):], b""))]
    started = time.perf_counter()
    for rel in changed:  # the floor: durably rewrite the same files, as the vault writer does
        target = root / rel
        data = target.read_bytes()
        temp = target.with_name(f".{target.name}.bench.tmp")
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    floor = time.perf_counter() - started
    started = time.perf_counter()
    for start in range(0, len(changed), 200):  # the same, staged 200 at a time with one flush (Vault.write_all)
        staged = []
        for rel in changed[start:start + 200]:
            target = root / rel
            temp = target.with_name(f".{target.name}.bench.tmp")
            temp.write_bytes(target.read_bytes())
            staged.append((temp, target))
        os.sync()
        for temp, target in staged:
            os.replace(temp, target)
    chunked_floor = time.perf_counter() - started
    ctx.graph.index.close()
    return {"rss_before_move_mb": before_move_mb, "move_peak_rss_mb": move_peak_mb,
            "folder": folder, "notes_moved": len(actions.moves), "events": len(events), "rewritten": len(changed),
            "seconds": took, "cpu_seconds": cpu, "floor_seconds": floor, "chunked_floor_seconds": chunked_floor,
            "broken": None}


def _digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def _rss_mb(field: str) -> float | None:
    """``VmRSS`` or ``VmHWM`` (the peak) of this process in MB, from /proc (None elsewhere)."""
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) / 1024 for line in status if line.startswith(field + ":"))
    except (OSError, StopIteration):
        return None


def _reset_peak_rss() -> None:
    """Start ``VmHWM`` again from the current RSS (Linux: ``clear_refs`` 5), so the move's own peak
    is told apart from the index build's before it."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass


def build_index(root: Path) -> None:
    """In a child process: index the vault, as a daemon's first start does, and exit."""
    from daemon.app import build
    from daemon.config import load_config

    (root / ".obsidian").mkdir(exist_ok=True)
    build(load_config(overrides=[f"vault={root}", "timezone=UTC"], environ={})).graph.index.close()


def run_folder_move(vault: Path, work: Path, warm: bool = False) -> dict[str, Any]:
    """The folder move in a child process; ``warm``: the index is built by another child first, so
    the measured one starts on an existing index as a restarted daemon does."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(XDG_STATE_HOME=str(work / "state"), XDG_CONFIG_HOME=str(work / "config"))
    out = work / "folder.json"
    if warm:
        subprocess.run([sys.executable, __file__, "--index-child", str(vault)], env=env, check=True)
    child = subprocess.Popen([sys.executable, __file__, "--folder-move-child", str(vault), str(out)], env=env)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit("the folder-move child failed")
    result = json.loads(out.read_text())
    result["peak_rss_mb"] = usage.ru_maxrss / 1024
    return result


def churn_on_disk(vault: Path, m: int) -> None:
    """``churn`` made on disk: the first M notes deleted, the next M copied under ``moved/``."""
    paths = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))
    gone, new = paths[:m], paths[m:2 * m]
    texts = {p: (vault / p).read_text(encoding="utf-8") for p in gone + new}
    for p in gone:
        (vault / p).unlink()
    for i, p in enumerate(new):  # one in ten an edited copy of a deleted note under a new name
        text = texts[gone[i]] + "\nOne line added after the rename.\n" if i % 10 == 0 else texts[p]
        (vault / "moved" / p).parent.mkdir(parents=True, exist_ok=True)
        (vault / "moved" / p).write_text(text, encoding="utf-8")


def status_after_churn(work: Path, sizes: list[int], trees: list[Path], repeat: int) -> dict[str, dict[int, float]]:
    """Seconds of ``memvault status`` (a new process) right after M + M changed files, per tree and M."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(XDG_STATE_HOME=str(work / "state"), XDG_CONFIG_HOME=str(work / "config"))
    vault = work / "vault"
    command = [sys.executable, "-m", "daemon", "status", f"vault={vault}", "timezone=UTC"]
    subprocess.run(command, env=dict(env, PYTHONPATH=str(SCRIPTS.parent)), cwd=SCRIPTS.parent, check=True,
                   capture_output=True)
    for name in ("vault", "state"):  # the indexed vault every run starts from (cp -a keeps the mtimes)
        subprocess.run(["cp", "-a", str(work / name), str(work / f"{name}.orig")], check=True)
    found: dict[str, dict[int, float]] = {str(tree): {} for tree in trees}
    for m in [0] + sizes:
        for _ in range(repeat):
            for tree in trees:  # taking turns: load from other jobs falls on both
                for name in ("vault", "state"):
                    shutil.rmtree(work / name)
                    subprocess.run(["cp", "-a", str(work / f"{name}.orig"), str(work / name)], check=True)
                churn_on_disk(vault, m)
                os.sync()
                started = time.perf_counter()
                subprocess.run(command, env=dict(env, PYTHONPATH=str(tree)), cwd=tree, check=True,  # -m: cwd first
                               capture_output=True)
                took = time.perf_counter() - started
                found[str(tree)][m] = min(took, found[str(tree)].get(m, took))
    return found


def status_table(found: dict[str, dict[int, float]]) -> None:
    print("| tree | M | `memvault status` | vs. previous M |")
    print("|---|---:|---:|---:|")
    for tree, times in found.items():
        previous = None
        for m, seconds in times.items():
            growth = f"×{seconds / previous:.2f}" if previous and m else "–"
            previous = seconds if m else None
            print(f"| {tree} | {m:,} | {seconds:.2f} s | {growth} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--sizes", default="250,500,1000,2000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-peer-above", type=int, default=2000, help="skip the all-pairs peer above this M")
    parser.add_argument("--only", choices=("churn", "folder", "status"),
                        help="run one part (status: the churn end to end, not run otherwise)")
    parser.add_argument("--tree", action="append", type=Path, help="status: a source tree to time (repeatable)")
    parser.add_argument("--folder-runs", type=int, default=1, help="folder moves, each on a fresh copy")
    parser.add_argument("--warm", action="store_true", help="folder move: start on an index built beforehand")
    parser.add_argument("--folder-move-child", nargs=2, metavar=("VAULT", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--index-child", metavar="VAULT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.index_child:
        build_index(Path(args.index_child))
        return 0
    if args.folder_move_child:
        Path(args.folder_move_child[1]).write_text(json.dumps(folder_move(Path(args.folder_move_child[0]))))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        gen_vault.generate(Path(tmp) / "vault", notes=args.notes)
        if args.only == "status":
            (Path(tmp) / "vault" / ".obsidian").mkdir(exist_ok=True)
            status_table(status_after_churn(Path(tmp), sizes, args.tree or [SCRIPTS.parent], args.repeat))
            return 0
        if args.only != "folder":
            churn_table(rows_of(Path(tmp) / "vault"), sizes, args)
        if args.only == "churn":
            return 0
        runs = []
        for i in range(args.folder_runs):
            work = Path(tmp) / f"run{i}"
            shutil.copytree(Path(tmp) / "vault", work / "vault")
            runs.append(run_folder_move(work / "vault", work, args.warm))
            shutil.rmtree(work)
            print(f"folder move {i + 1}: {runs[-1]['seconds']:.2f} s, floor {runs[-1]['floor_seconds']:.2f} s, "
                  f"{runs[-1]['seconds'] / runs[-1]['floor_seconds']:.2f}×", file=sys.stderr)
        moved = sorted(runs, key=lambda r: r["seconds"] / r["floor_seconds"])[len(runs) // 2]
    print()
    print(f"Folder move: {moved['folder']}/ ({moved['notes_moved']:,} files, {moved['events']:,} watcher events), "
          f"links rewritten in {moved['rewritten']:,} files")
    print("| measurement | memvault | floor: durably rewrite those files | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| event → links repaired and index updated | {moved['seconds']:.2f} s | {moved['floor_seconds']:.2f} s | "
          f"{moved['seconds'] / moved['floor_seconds']:.1f}× |")
    print(f"| … CPU time | {moved['cpu_seconds']:.2f} s | – | – |")
    print(f"| the floor staged 200 files at a time, one flush each (as the move writes) | – | "
          f"{moved['chunked_floor_seconds']:.2f} s | {moved['seconds'] / moved['chunked_floor_seconds']:.1f}× |")
    start = "started on the index built before" if args.warm else "the index built in it first"
    print(f"| peak RSS of the process ({start}) | {moved['peak_rss_mb']:.0f} MB | – | – |")
    if moved["move_peak_rss_mb"] is not None:
        print(f"| peak RSS during the move (RSS before it: {moved['rss_before_move_mb']:.0f} MB) | "
              f"{moved['move_peak_rss_mb']:.0f} MB | – | – |")
    return 0


def churn_table(notes: dict[str, tuple[str, str]], sizes: list[int], args: argparse.Namespace) -> None:
    print(f"{len(notes)} notes; M deleted + M added, one added in ten an edited copy of a deleted note")
    print("| M | detect_moves | all pairs (peer) | peer / ours | ours vs. previous M | paired (edited copies) |")
    print("|---:|---:|---:|---:|---:|---:|")
    previous = None
    for m in sizes:
        deleted, added, edited = churn(notes, m)
        ours, moves = best_of(args.repeat, detect_moves, deleted, added)
        peer_text, ratio = "–", "–"
        if m <= args.skip_peer_above:
            peer, expected = best_of(1, all_pairs, deleted, added)
            assert moves == expected, "the pairing differs from the all-pairs version"
            peer_text, ratio = f"{peer:.2f} s", f"{peer / ours:.0f}×"
        growth = f"×{ours / previous:.1f}" if previous else "–"
        previous = ours
        print(f"| {m:,} | {ours:.3f} s | {peer_text} | {ratio} | {growth} | {len(moves)} ({edited}) |")


if __name__ == "__main__":
    raise SystemExit(main())
