"""Reading memories back: one card (with its source excerpt), the recent cards, the tags.

Only reads: the index through a read-only connection, and the card and record files.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Iterator

from daemon.config import Config
from daemon.conversations.formats import parse_messages
from daemon.conversations.sessions import record_messages
from daemon.errors import InputError, MemvaultError
from daemon.links.index import Index
from daemon.recall.search import Filters, search
from daemon.timeutil import today
from daemon.vault import props
from daemon.vault.files import Vault

SOURCE_CHARS = 4000


def index_path(config: Config) -> Path:
    return config.state_dir() / "index.sqlite3"


@contextmanager
def reading(config: Config) -> Iterator[Index]:
    """The vault's index, read-only, for the length of a ``with`` block."""
    index = Index.open_readonly(index_path(config))
    try:
        yield index
    finally:
        index.close()


def read_memory(config: Config, index: Index, path: str | None = None, session_id: str | None = None,
                include_source: bool = False, source_chars: int = SOURCE_CHARS) -> dict[str, Any]:
    """A card's text by path (or name, or wikilink) or every card of a session; with the source excerpt on request.

    Raises:
        InputError: neither or both of path and session_id, or nothing matches.
    """
    if bool(path) == bool(session_id):
        raise InputError("give either path or session_id")
    if path:
        found = [_resolve(index, path)]
    else:
        found = [r[0] for r in index.db.execute(
            "SELECT path FROM search_docs WHERE session_id = ? ORDER BY day, path", (str(session_id).strip(),))]
        if not found:
            raise InputError(f"no card of session {session_id!r} in the index")
    vault = Vault(config.vault)
    cards = []
    for rel in found:
        snap = vault.read(rel)
        if snap is None:
            raise MemvaultError(f"{rel} is in the index but not in the vault; run `memvault reindex`")
        text = snap.text
        card: dict[str, Any] = {"path": rel, "date": _day_of(index, rel), "text": text}
        if include_source:
            card["source"] = source_excerpt(vault, props.read(text), source_chars)
        cards.append(card)
    return {"cards": cards}


def _resolve(index: Index, given: str) -> str:
    wanted = given.strip().removeprefix("[[").removesuffix("]]").split("|")[0].split("#")[0].strip().lstrip("/")
    candidates = (wanted, wanted + ".md")
    for candidate in candidates:
        if index.db.execute("SELECT 1 FROM search_docs WHERE path = ?", (candidate,)).fetchone():
            return candidate
    stem = wanted.rpartition("/")[2].removesuffix(".md").casefold()
    rows = [r[0] for r in index.db.execute("SELECT path FROM search_docs ORDER BY day DESC, path")
            if r[0].rpartition("/")[2].removesuffix(".md").casefold() == stem]
    if not rows:
        raise InputError(f"no memory {given!r} in the index (give its vault path, name or session_id)")
    return rows[0]


def _day_of(index: Index, rel: str) -> str | None:
    row = index.db.execute("SELECT day FROM search_docs WHERE path = ?", (rel,)).fetchone()
    return row[0] if row else None


def source_excerpt(vault: Vault, properties: dict[str, Any], limit: int = SOURCE_CHARS) -> dict[str, Any] | None:
    """The start of the card's source conversation, one ``speaker: text`` line per message, in ``limit`` chars."""
    link = str(properties.get("source_conversation") or "").strip().strip('"')
    rel = link.removeprefix("[[").removesuffix("]]").split("|")[0]
    if not rel:
        return None
    snap = vault.read(rel)
    if snap is None:
        return {"path": rel, "excerpt": "", "truncated": False, "missing": True}
    records = record_messages(snap.text)
    try:
        messages = parse_messages(records, where=rel)
    except MemvaultError:
        messages = ()
    lines, used, truncated = [], 0, False
    for message in messages:
        line = f"{message.speaker}: {' '.join(message.text.split())}"
        if used + len(line) > limit:
            lines.append(line[: max(0, limit - used)] + "…")
            truncated = True
            break
        lines.append(line)
        used += len(line) + 1
    return {"path": rel, "excerpt": "\n".join(lines), "truncated": truncated, "messages": len(messages)}


def recent(config: Config, index: Index, days: int = 7, project: str | None = None,
           limit: int = 20) -> list[dict[str, Any]]:
    """Cards of the last ``days`` days (today included), newest first.

    Raises:
        InputError: days below 1.
    """
    if int(days) < 1:
        raise InputError(f"days must be 1 or more, got {days}")
    since = (today(config.tz) - timedelta(days=int(days) - 1)).isoformat()
    where = Filters(project=(project or "").strip() or None, since=since, kind="card")
    return [_brief(h.as_dict()) for h in search(index, "", where, limit)]


def _brief(hit: dict[str, Any]) -> dict[str, Any]:
    return {k: hit[k] for k in ("path", "name", "date", "description", "tags", "project", "session_id")}


def tags(index: Index) -> list[dict[str, Any]]:
    return [{"tag": tag, "notes": count} for tag, count in index.tag_counts()]
