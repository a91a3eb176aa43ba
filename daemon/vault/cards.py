"""Memory-card files: rendering, reading back, and finding a session's card for a day.

A card is found by its ``session_id`` property (then ``source_conversation``),
never by file name, so a user may rename it freely. A card file that reads
empty or with its frontmatter cut off, and changed in the last few seconds, is
taken as being saved in place by an editor (truncate, then write): it is read
again until it settles, and if it does not, BusyError says so, so that no
second card is ever created for a session while its card may be mid-save.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from daemon.errors import BusyError, VaultError
from daemon.vault import props
from daemon.models import Card
from daemon.vault.files import Snapshot, Vault
from daemon.vault.names import component_problem

SETTLE_SECONDS = 30.0  # an empty or cut-off card changed this recently is taken as mid-save
SETTLE_ATTEMPTS = 8  # reads, with ``Vault.pause`` between them (about 3 s by default)


@dataclass(frozen=True)
class CardFile:
    """A card as found in the vault."""

    snapshot: Snapshot
    properties: Mapping[str, Any]

    @property
    def path(self) -> str:
        return self.snapshot.path

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[-1][: -len(".md")]

    def card(self) -> Card:
        return Card(
            name=str(self.properties.get("name") or ""),
            description=str(self.properties.get("description") or ""),
            body=props.body(self.snapshot.text),
        )


def render(card: Card, session_id: str, source_link: str, extra: Mapping[str, Any] | None = None) -> str:
    """A new card file: properties in a fixed order, then the body."""
    keys: dict[str, Any] = {
        "name": card.name,
        "description": card.description,
        "session_id": session_id,
        "source_conversation": source_link,
        **(extra or {}),
    }
    block = "".join(props.render(k, v) for k, v in keys.items() if v is not None)
    return f"---\n{block}---\n{normalize_body(card.body)}"


def normalize_body(body: str) -> str:
    text = body.strip("\n")
    return text + "\n" if text else ""


def day_folder(daily_dir: str, day: str) -> str:
    return f"{daily_dir}/{day}"


def list_cards(vault: Vault, daily_dir: str, day: str) -> list[CardFile]:
    """The Markdown files directly inside ``daily/<day>/``, sorted by name."""
    folder = day_folder(daily_dir, day)
    found = []
    for name in vault.listdir(folder):
        if not name.endswith(".md") or name.startswith("."):
            continue
        snapshot = read_settled(vault, f"{folder}/{name}")
        if snapshot is not None:
            found.append(CardFile(snapshot, props.read(snapshot.text)))
    return found


def read_settled(vault: Vault, rel: str) -> Snapshot | None:
    """Read a card, waiting (bounded) while it looks mid-save; raises BusyError if it never settles."""
    for attempt in range(SETTLE_ATTEMPTS):
        try:
            snapshot = vault.read(rel)
        except VaultError:  # cut inside a UTF-8 sequence looks like this too
            if not vault.changed_within(rel, SETTLE_SECONDS):
                raise
        else:
            if snapshot is None or not mid_save(snapshot.text) or not vault.changed_within(rel, SETTLE_SECONDS):
                return snapshot  # an old empty note is the user's, not a save in progress
        vault.pause(attempt)
    raise BusyError(f"{rel}: another program is still writing it (it reads empty or cut off); trying again later")


def mid_save(text: str) -> bool:
    """True when a card's text looks like a save in progress: empty, or frontmatter not closed."""
    if not text.strip():
        return True
    return text.lstrip("\ufeff").startswith("---") and props.split(text) is None


def find_session_card(cards: list[CardFile], session_id: str, source_link: str) -> CardFile | None:
    """The card of ``session_id``: by ``session_id`` first, then by ``source_conversation``."""
    for card in cards:
        if str(card.properties.get("session_id", "")).strip() == session_id:
            return card
    for card in cards:
        if str(card.properties.get("source_conversation", "")).strip() == source_link:
            return card
    return None


def unique_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… so that no two cards of a day share a file name.

    Compared case-insensitively: Obsidian links and macOS/Windows file systems ignore case.
    """
    lowered = {t.lower() for t in taken}
    if wanted.lower() not in lowered:
        return wanted
    number = 2
    while f"{wanted}-{number}".lower() in lowered:
        number += 1
    return f"{wanted}-{number}"


def follow_file_name(text: str, path: str) -> str | None:
    """A renamed card's text with ``name`` set to its new file name, or None when nothing should change.

    Only a card (it has a ``session_id``) whose ``name`` differs from its file name,
    and only when that file name is a valid card name; only the ``name`` line changes.
    """
    properties = props.read(text)
    stem = path.rsplit("/", 1)[-1][: -len(".md")] if path.lower().endswith(".md") else ""
    if not stem or not str(properties.get("session_id") or "").strip():
        return None
    if str(properties.get("name") or "") == stem or component_problem(stem, "name") is not None:
        return None
    return props.set_props(text, {"name": stem})
