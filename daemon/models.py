"""The nouns of the data flow, as frozen values: Message, Conversation, Card, Skip.

Parsing (``formats``) turns outside JSON into these once; every later stage
passes them around instead of raw dictionaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any, Mapping, Protocol


@dataclass(frozen=True)
class Message:
    """One chat message.

    ``time`` is the parsed timestamp (aware or naive, ``None`` when absent);
    ``record`` is the JSON object kept in the source record: the original
    message with its ``id`` and ``created_at`` filled in and with tool results
    and Base64 data removed. ``blocks`` are the original content blocks (images
    included), for the stages that need more than text.
    """

    id: str
    role: str
    name: str
    text: str
    time: datetime | None = None
    record: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    blocks: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def speaker(self) -> str:
        return self.name or self.role or "?"


@dataclass(frozen=True)
class Conversation:
    """A session's messages as parsed from one request or export."""

    session_id: str
    messages: tuple[Message, ...]
    source: str = "native"
    title: str = ""  # the export's own title (ChatGPT "title", Claude "name"), when it has one


@dataclass(frozen=True)
class Card:
    """A memory card's distilled content; the vault adds the bookkeeping keys."""

    name: str
    description: str
    body: str


@dataclass(frozen=True)
class Skip:
    """The distiller's verdict that nothing is worth a card (e.g. pure small talk)."""

    reason: str


@dataclass(frozen=True)
class DistillRequest:
    """What a distiller receives.

    ``messages`` are the new messages for the card of ``day``; ``existing`` is
    the card as it is now in the vault (user edits included), or ``None`` when
    the card is being created. ``timezone`` is the vault's zone (``None``:
    system local) for turning timestamps into calendar days. With
    ``include_images``, ``image_sources`` maps (message id, block index) of each
    image block to its source: ``[[session/images/…]]`` for a saved attachment,
    or the http(s) URL; a distiller places it beside the image. ``title`` is the
    export's own title of the conversation ("" when it has none).
    """

    session_id: str
    day: date
    messages: tuple[Message, ...]
    existing: Card | None = None
    hint: str | None = None
    timezone: tzinfo | None = None
    include_images: bool = False
    image_sources: Mapping[tuple[str, int], str] = field(default_factory=dict)
    title: str = ""  # the conversation's title in its export, if any: a name its author chose


class Distiller(Protocol):
    """Turns new messages (and the existing card) into a card, or decides to skip."""

    def distill(self, request: DistillRequest) -> Card | Skip: ...
