"""The daily page's auto block, refreshed from the cards in ``daily/<day>/``.

Run after a card is written (``memory``, ``ingest``) and after a card is renamed
or moved (``renames``), so the page lists each card under its current name.
"""

from __future__ import annotations

from typing import Any

from daemon.errors import BusyError, ConflictError
from daemon.pipeline.context import Context
from daemon.vault import cards, daily
from daemon.vault.files import ABSENT

ATTEMPTS = 3


def refresh_daily(ctx: Context, day: str) -> dict[str, Any]:
    """Rewrite the auto block of ``daily/<day>.md`` from the cards in ``daily/<day>/``."""
    return refresh_daily_listing(ctx, day)[0]


def refresh_daily_listing(ctx: Context, day: str) -> tuple[dict[str, Any], list[cards.CardFile]]:
    """``refresh_daily``, also returning the day's cards it listed (so callers need not read them again)."""
    path = f"{ctx.config.daily_dir}/{day}.md"
    for _ in range(ATTEMPTS):
        day_cards = cards.list_cards(ctx.vault, ctx.config.daily_dir, day)
        entries = [daily.Entry(c.path, str(c.properties.get("name") or c.stem),
                               str(c.properties.get("description") or ""), str(c.properties.get("project") or ""))
                   for c in day_cards]
        snapshot = ctx.vault.read(path)
        text = daily.refresh(snapshot.text if snapshot else None, day, entries)
        result = {"path": path, "created": False, "changed": False, "notes": len(entries)}
        if text is None:
            return result, day_cards
        try:
            ctx.vault.write(path, text, snapshot.digest if snapshot else ABSENT)
        except ConflictError:
            continue
        return {**result, "created": snapshot is None, "changed": True}, day_cards
    raise BusyError(f"{path}: kept changing while being updated; try again")
