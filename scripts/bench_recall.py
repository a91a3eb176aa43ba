"""Recall benchmark: retrieval quality on LoCoMo, query latency and FTS build cost (a dev script, not a test).

    python scripts/bench_recall.py [--conversations 1-5] [--notes 10000] [--queries 200]
                                   [--skip-quality] [--skip-speed] [--json OUT]

**Quality.** Every session of LoCoMo's development conversations (1-5) goes through
``auto_memory`` (the embedded extractive distiller, tagging on) into a temporary vault.
Each QA question of categories 1-4 with evidence is then a ``search`` over the whole
vault; a hit is a card of one of the question's evidence sessions. Reported: recall@5
and MRR@10, overall and per category, for the cards and, in the same run and with the
same tokenizer and ranking, for the raw session transcripts (one document per session,
``Speaker: text`` lines) as the baseline. A card's row also holds its source conversation's
words (ranked no higher than its body); "card fields only" drops them, to show what they add.

**Speed.** A ``scripts/gen_vault.py`` vault of ``--notes`` notes is indexed with
``search.scope=vault`` (every note searchable; the generated notes are not cards):

- ``bench_index.py``'s cold index (a fresh process, the files evicted from the page cache,
  ``open_graph`` + ``rebuild`` into an empty state folder) with the full-text rows versus
  without (``search.scope=cards``: no generated note is a card, so no row is written),
  interleaved, best of 3 each, wall and CPU time (the process and its parse workers);
- the same documents loaded into a second FTS5 table with SQLite's ``trigram``
  tokenizer, for the CJK choice (load time and database size);
- query latency of ``recall.search.search`` (query, filters, snippets), p50/p95 over
  ``--queries`` queries of 1-4 words drawn from the vault's vocabulary (some CJK, some
  with a tag or date filter);
- the SessionStart context (``session_start_context``) on an index of 2,000 cards in
  8 projects: in process, in a fresh interpreter, and as ``memvault hook claude-code``
  answering a SessionStart event (``python -m daemon``), beside ``python -c pass``.

LoCoMo is CC BY-NC 4.0 (Maharana et al., arXiv:2402.17753): read from the shared
corpus folder for evaluation only, never copied into the project.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "scripts"
sys.path[:0] = [str(REPO), str(SCRIPTS)]

import bench_locomo  # noqa: E402
import gen_vault  # noqa: E402

TOP = 5
MRR_DEPTH = 10
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def isolated(home: Path) -> None:
    """Point the state and config folders into ``home`` (no user file, no ``MEMVAULT_*``)."""
    os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
    for name in [n for n in os.environ if n.startswith("MEMVAULT_")]:
        del os.environ[name]


def config_for(root: Path, *extra: str) -> Any:
    from daemon.config import load_config

    return load_config(overrides=[f"vault={root}", "timezone=UTC", *extra], environ={})


# ---- quality ----------------------------------------------------------------------

def quality(samples: list[dict[str, Any]], chosen: list[int], home: Path) -> dict[str, Any]:
    from daemon.app import build, init_vault
    from daemon.links.fulltext import SearchDoc, with_pieces
    from daemon.links.index import Index
    from daemon.pipeline import auto_memory
    from daemon.recall.search import search

    root = home / "locomo-vault"
    init_vault(root)
    ctx = build(config_for(root))
    baseline = Index(":memory:")
    started = time.perf_counter()
    with baseline.transaction():
        for number in chosen:
            sample = samples[number - 1]
            for n, session in sorted(bench_locomo.load_sessions(sample).items()):
                sid = f"locomo-{session.sample_id}-s{n}"
                messages = [{"id": f"D{n}:{i}", "role": "user", "name": speaker, "content": text,
                             "created_at": session.when.isoformat()} for i, (speaker, text) in enumerate(session.turns, 1)]
                result = auto_memory(ctx, sid, messages, date=session.when.date().isoformat())
                if not result["success"]:
                    raise SystemExit(f"auto_memory failed for {sid}: {result['answer']}")
                baseline.put_search(sid, with_pieces(SearchDoc(path=sid, kind="card", name="", description="", tags="",
                                                   project="", day=None, session_id=sid,
                                                   body=bench_locomo.transcript(session))))
    build_s = time.perf_counter() - started
    fields_only = Index(":memory:")  # the ablation: the cards without their source conversation's words
    with fields_only.transaction():
        for row in ctx.graph.index.db.execute(
                "SELECT d.path, d.kind, d.day, d.project, d.session_id, s.name, s.description, s.tags, s.body "
                "FROM search_docs d JOIN search s ON s.rowid = d.rowid"):
            fields_only.put_search(row[0], with_pieces(SearchDoc(row[0], row[1], row[5], row[6], row[7], row[3],
                                                                 row[2], row[4], row[8])))
    runs: dict[str, list[tuple[int, int | None]]] = {"cards": [], "transcripts": [], "card fields only": []}
    for number in chosen:
        sample = samples[number - 1]
        sessions = bench_locomo.load_sessions(sample)
        for item in sample["qa"]:
            if item.get("category") not in CATEGORIES:
                continue
            wanted = {f"locomo-{sample['sample_id']}-s{n}"
                      for n in bench_locomo.evidence_sessions(item.get("evidence", []), sessions)}
            if not wanted:
                continue
            for name, index in (("cards", ctx.graph.index), ("transcripts", baseline),
                                ("card fields only", fields_only)):
                hits = search(index, str(item["question"]), limit=MRR_DEPTH)
                rank = next((i for i, h in enumerate(hits, 1) if h.session_id in wanted), None)
                runs[name].append((item["category"], rank))
    cards = ctx.graph.index.db.execute("SELECT COUNT(*) FROM search_docs WHERE kind = 'card'").fetchone()[0]
    ctx.graph.index.close()
    return {"conversations": chosen, "cards": cards, "build_s": round(build_s, 1),
            "scores": {name: scores(rows) for name, rows in runs.items()}}


def scores(rows: list[tuple[int, int | None]]) -> dict[str, Any]:
    def of(picked: list[int | None]) -> dict[str, float]:
        return {"questions": len(picked),
                "recall@5": round(sum(r is not None and r <= TOP for r in picked) / len(picked), 3),
                "mrr@10": round(sum(1 / r for r in picked if r) / len(picked), 3)}

    out = {"all": of([r for _, r in rows])}
    for category, label in CATEGORIES.items():
        picked = [r for c, r in rows if c == category]
        if picked:
            out[f"{category} {label}"] = of(picked)
    return out


# ---- speed --------------------------------------------------------------------------

def speed(notes: int, queries: int, home: Path) -> dict[str, Any]:
    from daemon.app import build, init_vault
    from daemon.recall.search import filters, search

    root = home / "generated"
    gen_vault.generate(root, notes, 1)
    init_vault(root)  # the template's folders: build() refuses a folder that is not a vault
    out: dict[str, Any] = {"notes": notes}
    ctx = build(config_for(root, "search.scope=vault", "tagging.enabled=false"))
    runs: dict[str, list[dict[str, float]]] = {"cards": [], "vault": []}
    for round_ in range(3):  # interleaved, best of 3 each: the machine is shared and its load drifts
        for scope in runs:
            runs[scope].append(cold_index(root, scope, home / f"cold-{scope}-{round_}"))
    for scope, found in runs.items():
        out[f"cold_index_{scope}"] = {"s": round(min(r["seconds"] for r in found), 3),
                                      "cpu_s": round(min(r["cpu_s"] for r in found), 3),
                                      "all_s": [round(r["seconds"], 2) for r in found]}
    out["fts_overhead"] = round(out["cold_index_vault"]["s"] / out["cold_index_cards"]["s"] - 1, 3)
    out["fts_overhead_cpu"] = round(out["cold_index_vault"]["cpu_s"] / out["cold_index_cards"]["cpu_s"] - 1, 3)
    index = ctx.graph.index
    out["fts_rows"] = index.db.execute("SELECT COUNT(*) FROM search_docs").fetchone()[0]
    out.update(trigram(index, home))
    words = vocabulary(index)
    tags = [tag for tag, _ in index.tag_counts()[:20]] or ["none"]
    rng = random.Random(7)
    latencies = []
    for i in range(queries):
        query = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
        where = filters(tags=[rng.choice(tags)] if i % 5 == 0 else None,
                        since="2020-01-01" if i % 7 == 0 else None)
        started = time.perf_counter()
        search(index, query, where, 10)
        latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()
    out["query_ms"] = {"p50": round(statistics.median(latencies), 2),
                       "p95": round(latencies[int(len(latencies) * 0.95) - 1], 2),
                       "max": round(latencies[-1], 2), "queries": queries}
    index.close()
    out["session_start"] = session_start(home)
    return out


def cold_index(root: Path, scope: str, state: Path) -> dict[str, float]:
    """``bench_index.py``'s cold index, in a fresh process: evict the files, then ``open_graph`` + ``rebuild``
    into an empty state folder, with this ``search.scope``."""
    env = {**os.environ, "XDG_STATE_HOME": str(state), "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, __file__, "--cold-child", str(root), scope], capture_output=True,
                         text=True, check=True, env=env)
    shutil.rmtree(state, ignore_errors=True)
    return json.loads(run.stdout.splitlines()[-1])


def cold_child(root: Path, scope: str) -> None:
    import bench_index
    from daemon.app import open_graph
    from daemon.vault.files import Vault

    bench_index.evict(root)
    config = config_for(root, f"search.scope={scope}")
    started, cpu = time.perf_counter(), time.process_time()
    graph = open_graph(config, Vault(config.vault))
    graph.rebuild()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    graph.index.close()
    children = __import__("resource").getrusage(__import__("resource").RUSAGE_CHILDREN)
    print(json.dumps({"seconds": seconds, "cpu_s": cpu + children.ru_utime + children.ru_stime}))


def vocabulary(index: Any) -> list[str]:
    rows = index.db.execute("SELECT body FROM search LIMIT 200").fetchall()
    words = sorted({w for (body,) in rows for w in body.split() if w.isalpha() and len(w) > 3})
    return words + ["中文", "中文笔记"]


def trigram(index: Any, home: Path) -> dict[str, Any]:
    """The same documents in a trigram-tokenized FTS5 table: load time and size, beside ours."""
    trigrams = _fts_load(index, home / "trigram.sqlite3", "name, description, tags, project, body", "trigram")
    ours = _fts_load(index, home / "ours.sqlite3", "name, description, tags, project, body, source, cjk",
                     "porter unicode61 remove_diacritics 2")
    return {"fts_table": {"unicode61+bigrams": ours, "trigram": trigrams}}


def _fts_load(index: Any, target: Path, columns: str, tokenize: str) -> dict[str, float]:
    """Copy the search table's ``columns`` into a fresh FTS5 table at ``target``: load seconds and megabytes."""
    db = sqlite3.connect(target)
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5({columns}, tokenize='{tokenize}')")
    rows = index.db.execute(f"SELECT {columns} FROM search").fetchall()
    started = time.perf_counter()
    with db:
        db.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(columns.split(',')))})", rows)
    load_s = time.perf_counter() - started
    db.execute("VACUUM")
    db.close()
    return {"load_s": round(load_s, 3), "mb": round(target.stat().st_size / 1e6, 1)}


def session_start(home: Path) -> dict[str, Any]:
    """SessionStart context on 2,000 cards in 8 projects: in process, and in a fresh interpreter."""
    from daemon.app import build, init_vault
    from daemon.recall.context import session_start_context

    root = home / "cards-vault"
    init_vault(root)
    rng = random.Random(3)
    for i in range(2000):
        day = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        path = root / "daily" / day / f"card-{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nname: card-{i}\ndescription: Card {i} about the gateway and its tokens.\n"
                        f"session_id: s-{i}\nproject: /home/me/src/project-{i % 8}\n---\nBody {i}.\n",
                        encoding="utf-8")
    config = config_for(root, "tagging.enabled=false")
    build(config).graph.index.close()
    times = []
    for _ in range(50):
        started = time.perf_counter()
        text = session_start_context(config, "/elsewhere/project-3", 4000)
        times.append((time.perf_counter() - started) * 1000)
    code = (f"import time; t = time.perf_counter(); from daemon.config import load_config; "
            f"from daemon.recall.context import session_start_context; "
            f"c = load_config(overrides=['vault={root}', 'timezone=UTC'], environ={{}}); "
            f"s = session_start_context(c, '/x/project-3'); print((time.perf_counter() - t) * 1000, len(s))")
    fresh, floor, hook = [], [], []
    event = json.dumps({"hook_event_name": "SessionStart", "cwd": "/x/project-3", "session_id": "b", "source": "startup"})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for _ in range(10):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        floor.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        answer = subprocess.run([sys.executable, "-m", "daemon", "hook", "claude-code", f"vault={root}"], input=event,
                                capture_output=True, text=True, cwd=REPO, env=env)
        hook.append((time.perf_counter() - started) * 1000)
        if "additionalContext" not in answer.stdout:
            raise SystemExit(f"the SessionStart hook gave no context: {answer.stdout!r} {answer.stderr!r}")
        started = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
        fresh.append(((time.perf_counter() - started) * 1000, float(run.stdout.split()[0])))
    times.sort()
    return {"chars": len(text), "in_process_ms": {"p50": round(statistics.median(times), 2),
                                                  "p95": round(times[int(len(times) * 0.95) - 1], 2)},
            "fresh_interpreter_ms": {"p50": round(statistics.median(t for t, _ in fresh), 1),
                                     "python_-c_pass_p50": round(statistics.median(floor), 1),
                                     "max": round(max(t for t, _ in fresh), 1),
                                     "imports_and_call_p50": round(statistics.median(c for _, c in fresh), 1)},
            "hook_command_ms": {"p50": round(statistics.median(hook), 1), "max": round(max(hook), 1)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", default="1-5", help="LoCoMo conversations (default: the dev split 1-5)")
    parser.add_argument("--corpus", type=Path, default=bench_locomo.DEFAULT_CORPUS)
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--cold-child", nargs=2, metavar=("VAULT", "SCOPE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold_child:
        cold_child(Path(args.cold_child[0]), args.cold_child[1])
        return 0
    chosen = bench_locomo.parse_range(args.conversations)
    if any(n > 5 for n in chosen):
        raise SystemExit("conversations 6-10 are held out: tune on 1-5 only")
    home = Path(tempfile.mkdtemp(prefix="memvault-recall-"))
    isolated(home)
    figures: dict[str, Any] = {}
    try:
        if not args.skip_quality:
            samples = json.loads(args.corpus.read_text(encoding="utf-8"))
            figures["quality"] = quality(samples, chosen, home)
            print(json.dumps(figures["quality"], indent=2))
        if not args.skip_speed:
            figures["speed"] = speed(args.notes, args.queries, home)
            print(json.dumps(figures["speed"], indent=2))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
