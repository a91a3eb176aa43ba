"""The tagging flow: after memory (only changed cards), and re-tagging (now or on schedule).

Tagging never fails or rolls back a memory result: per-file failures are
reported in ``metadata.auto_tag``. Every tagged card's content key (its text
without the tag property) is remembered, so a scheduled run re-tags only
cards whose content changed since they were last tagged.
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterable

from daemon.vault.cards import CardFile, find_session_card, list_cards
from daemon.conversations.sessions import record_link
from daemon.distill.tagging import TagResult, content_key, summary, tag_file
from daemon.pipeline.context import Context

ADDED, MODIFIED = "added", "modified"


def auto_tag(ctx: "Context", changes: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Tag each (change, final path) once; returns the ``auto_tag`` summary.

    The caller indexes the tagged paths afterwards (with the rest of what it wrote).
    """
    results: list[TagResult] = []
    seen: set[str] = set()
    for change, path in changes:
        if path in seen or ctx.tagger is None:
            continue
        seen.add(path)
        results.append(_tag(ctx, path, change))
    return summary(results)


def _tag(ctx: "Context", path: str, change: str) -> TagResult:
    tagging = ctx.config.data["tagging"]
    result = tag_file(ctx.vault, path, ctx.tagger, tagging["key"], tagging["max_tags_per_file"], change)
    if result.success:
        snapshot = ctx.vault.read(path)
        if snapshot is not None:
            ctx.graph.index.set_meta(f"tagged:{path}", content_key(snapshot.text, tagging["key"]))
    return result


def untagged_card(ctx: "Context", session_id: str, day: str, listed: list[CardFile] | None = None) -> str | None:
    """The session's card of ``day`` when it has never been tagged (its tagging was interrupted)."""
    if ctx.tagger is None:
        return None
    link = record_link(ctx.config.session_dir, session_id)
    day_cards = listed if listed is not None else list_cards(ctx.vault, ctx.config.daily_dir, day)
    found = find_session_card(day_cards, session_id, link)
    if found is None or ctx.graph.index.get_meta(f"tagged:{found.path}") is not None:
        return None
    return found.path


def cards(ctx: "Context") -> list[str]:
    """Every memory card in the vault: notes under the daily folder that carry a ``session_id``."""
    prefix = ctx.config.daily_dir.rstrip("/") + "/"
    return sorted(p for p, row in ctx.graph.index.notes().items()
                  if p.startswith(prefix) and p.endswith(".md") and row.identity)


def stale(ctx: "Context", paths: Iterable[str]) -> list[str]:
    """The cards whose content changed since they were last tagged (or were never tagged)."""
    key = ctx.config.data["tagging"]["key"]
    out = []
    for path in paths:
        snapshot = ctx.vault.read(path)
        if snapshot is not None and ctx.graph.index.get_meta(f"tagged:{path}") != content_key(snapshot.text, key):
            out.append(path)
    return out


def retag(ctx: "Context", paths: list[str] | None = None, everything: bool = False,
          now: float | None = None) -> dict[str, Any]:
    """Re-tag the given cards, every card (``everything``), or the stale ones; records the run."""
    chosen = paths if paths else cards(ctx)
    todo = chosen if (everything or paths) else stale(ctx, chosen)
    report = auto_tag(ctx, [(MODIFIED, p) for p in todo]) if ctx.tagger is not None else summary([])
    ctx.graph.sync(todo)
    ctx.graph.index.set_meta("retag.last", json.dumps({"at": now if now is not None else time.time(),
                                                       "processed": report["processed"],
                                                       "failed": report["failed"]}))
    return report
