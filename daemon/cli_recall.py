"""The recall commands: ``memvault search`` and ``memvault mcp``. Parse, call ``daemon.recall``, print.

The helpers shared with every command (``reading``, ``run_op``) live in ``cli``, which
imports this module for its command table; they are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from daemon import ops
from daemon.recall.search import Hit, filters, search

_OVERRIDE = re.compile(r"^[A-Za-z_][\w.]*=")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def cmd_search(args: argparse.Namespace) -> int:
    from daemon.cli import reading  # cli imports this module: import its helpers when run

    args.settings = [w for w in args.words if _OVERRIDE.match(w)]
    query = " ".join(w for w in args.words if not _OVERRIDE.match(w))
    where = filters(args.tag, args.project, args.since, args.until)
    with reading(args) as ctx:
        hits = search(ctx.graph.index, query, where, args.limit)
    if args.json:
        print(json.dumps([h.as_dict() for h in hits], ensure_ascii=False, indent=2))
        return 0
    bold = sys.stdout.isatty()
    for hit in hits:
        print(format_hit(hit, bold))
    print(f"{len(hits)} result(s)" + (f" for {query!r}" if query.strip() else ", newest first"), file=sys.stderr)
    return 0


def format_hit(hit: Hit, bold: bool = False) -> str:
    """Two or three lines a terminal shows well: path, then name · date · score · tags, then the snippet."""
    facts = [hit.name, hit.date or "undated", f"score {hit.score:g}"]
    if hit.tags:
        facts.append("#" + " #".join(hit.tags))
    snippet = _BOLD.sub("\033[1m\\1\033[0m", hit.snippet) if bold else hit.snippet
    return "\n".join([hit.path, "  " + " · ".join(facts)] + (["  " + snippet] if snippet else [])) + "\n"


def cmd_mcp(args: argparse.Namespace) -> int:
    from daemon.cli import _split, run_op  # cli imports this module: import its helpers when run
    from daemon.app import build
    from daemon.config import load_config
    from daemon.errors import LockError
    from daemon.recall.mcp import serve
    from daemon.vault.state import VaultLock

    _, overrides = _split(args.settings)
    config = load_config(args.config, overrides)

    def remember(params: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = run_op(config, "memvault mcp (remember)", "auto_memory", params,
                                        lambda ctx: ops.run_auto_memory(ctx, params))
        return result

    lock = VaultLock(config.state_dir(), "memvault mcp (catching up)")
    try:  # no daemon keeps the index current: bring it up to date once before answering
        lock.acquire()
    except LockError:
        pass
    else:
        try:
            if config.vault.is_dir():
                build(config).graph.index.close()
        finally:
            lock.release()
    serve(config, remember)
    return 0
