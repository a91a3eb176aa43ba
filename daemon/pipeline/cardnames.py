"""After a move: a card the user renamed takes its new file name as ``name``, and its day's page follows.

Part of the rename flow (``renames.on_moves`` runs it after the links are repaired).
The card's ``name`` line is the only one that changes (a surgical frontmatter edit
through ``vault.cards``); the daily page's auto block is then refreshed, so its link
shows the new name as the alias. A card memvault renamed itself already carries its
new name: nothing is written for it.
"""

from __future__ import annotations

import re

from daemon.errors import ConflictError, VaultError
from daemon.pipeline.context import Context
from daemon.pipeline.dailypage import refresh_daily
from daemon.vault import cards

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def follow_card_names(ctx: Context, moves: dict[str, str]) -> list[str]:
    """Set each renamed card's ``name`` to its file name and refresh the pages of its days; the paths written."""
    written: list[str] = []
    days: set[str] = set()
    plain = _not_cards(ctx, [new for new in moves.values() if new.lower().endswith(".md")])
    for old, new in moves.items():
        if not new.lower().endswith(".md"):
            continue
        text = None
        if new not in plain:
            try:
                snapshot = ctx.vault.read(new)
            except VaultError:
                continue  # not UTF-8: not a card
            if snapshot is None:
                continue
            text = cards.follow_file_name(snapshot.text, new)
            if text is not None:
                try:
                    ctx.vault.write(new, text, snapshot.digest)
                except ConflictError:
                    continue  # written meanwhile by someone else: their version stands
                written.append(new)
        old_day, new_day = card_day(ctx.config.daily_dir, old), card_day(ctx.config.daily_dir, new)
        if text is not None or old_day != new_day:
            days.update(day for day in (old_day, new_day) if day)
    for day in sorted(days):
        page = refresh_daily(ctx, day)
        if page["changed"]:
            written.append(page["path"])
    return written


def _not_cards(ctx: Context, paths: list[str]) -> set[str]:
    """Those of ``paths`` that the index, still in step with the file, says have no ``session_id``.

    A big folder move is mostly plain notes: reading each again only to find it is not a
    card cost as much as moving its rows. A file whose size or mtime differs from its row
    (changed since indexed) is read as before.
    """
    return {path for path, row in ctx.graph.in_step(paths).items() if row.identity is None}


def card_day(daily_dir: str, path: str) -> str | None:
    """``YYYY-MM-DD`` when ``path`` is a card's place, ``<daily_dir>/YYYY-MM-DD/<name>.md``."""
    prefix = daily_dir.strip("/") + "/"
    if not path.startswith(prefix):
        return None
    parts = path[len(prefix):].split("/")
    return parts[0] if len(parts) == 2 and _DAY.fullmatch(parts[0]) else None
