"""The link commands: ``mv``, ``backlinks``, ``links``, ``broken`` and ``reindex``. Parse, call, print.

The helpers shared with every command (``reading``, ``run_op``) live in ``cli``, which
imports this module for its command table; they are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Iterable

from daemon import ops
from daemon.config import load_config


def one_line(raw: str) -> str:
    """A link's text on one line: a markdown link may span lines (its text wraps)."""
    return raw.replace("\r\n", "\n").replace("\n", "\\n")


def print_lines(lines: Iterable[str], chunk: int = 1000) -> None:
    """Print lines a thousand at a time: ``print`` per line is a write per line on a terminal
    (``broken`` in a 100,000-note vault prints about 20,000)."""
    batch: list[str] = []
    for line in lines:
        batch.append(line)
        if len(batch) == chunk:
            sys.stdout.write("\n".join(batch) + "\n")
            batch = []
    if batch:
        sys.stdout.write("\n".join(batch) + "\n")


def cmd_mv(args: argparse.Namespace) -> int:
    from daemon.cli import _split, run_op  # cli imports this module: import its helpers when run

    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    src = ops.given_path(args.src, config.vault)
    dst = ops.given_path(args.dst, config.vault, destination=True)
    body = {"src": src, "dst": dst, "dry_run": args.dry_run}
    result = run_op(config, "memvault mv", "mv", body, lambda ctx: ops.move(ctx, src, dst, args.dry_run))
    verb = "would move" if result["dry_run"] else "moved"
    for old, new in result["moves"].items():
        print(f"{verb} {old} -> {new}")
    rewritten = result["rewritten"]
    prefix = "would rewrite" if result["dry_run"] else "rewrote"
    print(f"{prefix} links in {len(rewritten)} file(s)" + (": " + ", ".join(rewritten) if rewritten else ""))
    return 0


def cmd_backlinks(args: argparse.Namespace) -> int:
    from daemon.cli import reading

    with reading(args) as ctx:
        path = ops.note_path(ctx, args.path)
        rows = ctx.graph.index.backlinks(path)
        print_lines(f"{row.source}:{row.line}: {one_line(row.raw)}" for row in rows)
        print(f"{len(rows)} link(s) to {path}", file=sys.stderr)
    return 0


def cmd_links(args: argparse.Namespace) -> int:
    from daemon.cli import reading

    with reading(args) as ctx:
        path = ops.note_path(ctx, args.path)
        rows = ctx.graph.index.links_from(path)
        print_lines(f"{path}:{row.line}: {one_line(row.raw)} -> {row.resolved or '(unresolved)'}" for row in rows)
        print(f"{len(rows)} link(s) in {path}", file=sys.stderr)
    return 0


def cmd_broken(args: argparse.Namespace) -> int:
    from daemon.cli import reading

    with reading(args) as ctx:
        rows = ctx.graph.index.broken()
        print_lines(f"{row.source}:{row.line}: {one_line(row.raw)}" for row in rows)
        print(f"{len(rows)} unresolved link(s)", file=sys.stderr)
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    """Catch up (repairing renames made while nothing watched: this writes notes), then rebuild."""
    from daemon.cli import _split, run_op

    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)
    started = time.perf_counter()
    result = run_op(config, "memvault reindex", "reindex", {}, _reindex)
    for old, new in result.get("moves", {}).items():
        print(f"renamed while memvault was not watching: {old} -> {new}")
    rewritten = result.get("rewritten", [])
    if rewritten:
        print(f"rewrote links in {len(rewritten)} file(s): {', '.join(rewritten)}")
    print(f"indexed {result['files']} files in {time.perf_counter() - started:.2f} s")
    return 0


def _reindex(ctx: Any) -> dict[str, Any]:
    caught_up = ctx.caught_up  # building the context caught up; a first index needs no rebuild
    files = ctx.graph.index.count("notes") if ctx.graph.fresh else ctx.graph.rebuild()
    return {"files": files, "moves": dict(caught_up.moves) if caught_up else {},
            "rewritten": list(caught_up.rewritten) if caught_up else []}
