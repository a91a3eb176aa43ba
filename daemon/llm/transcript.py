"""The distiller's transcript: messages as parts (texts and images in order), their cost, the model input.

A conversation too long for ``model.context_tokens`` is sent in chunks of
whole parts; a text too long for any chunk is split at whitespace, never
cut. Token counts are rough, generous estimates: no tokenizer is loaded.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from daemon.conversations import images as imagekit
from daemon.errors import DistillError
from daemon.conversations.formats import TEXT_TYPES
from daemon.llm.prompts import SYSTEM, TEXT
from daemon.models import Card, DistillRequest, Message

__all__ = ["IMAGE_TOKENS", "Part", "estimate", "parts", "render", "split", "trim"]

IMAGE_TOKENS = 1500          # a rough per-image cost; providers charge 85-1600


def estimate(text: str) -> int:
    """A rough, generous token count: 3 UTF-8 bytes a token (~1 a CJK character, ~0.75 an English word)."""
    return (len(text.encode("utf-8")) + 2) // 3


@dataclass(frozen=True)
class Part:
    """A piece of the transcript: a message's text (or a slice of it), or one image with its source."""

    seq: int
    header: str
    first: bool
    text: str = ""
    image: imagekit.Image | None = None
    source: str = ""

    @property
    def tokens(self) -> int:
        cost = estimate(self.header) + estimate(self.text) + 2
        return cost + (IMAGE_TOKENS + estimate(self.source) + 6 if self.image is not None else 0)


def _header(message: Message) -> str:
    """``[speaker @ created_at]`` with the raw timestamp as received (``[speaker]`` without one)."""
    raw = message.record.get("created_at") if message.record else None
    if raw in (None, "") and message.time is not None:
        raw = message.time.isoformat()
    speaker = " ".join(message.speaker.split())
    return f"[{speaker} @ {' '.join(str(raw).split())}]" if raw not in (None, "") else f"[{speaker}]"


def _block_text(block: Any) -> str:
    if isinstance(block, str):
        return block.strip()
    if isinstance(block, Mapping) and block.get("type", "text") in TEXT_TYPES:
        return str(block.get("text") or "").strip()
    return ""


def parts(request: DistillRequest, found: Sequence[imagekit.Image]) -> list[Part]:
    """The transcript in conversation order; images sit between their message's texts, as sent.

    Raises:
        DistillError: a Base64 image has no saved attachment in ``request.image_sources``.
    """
    by_key = {image.key: image for image in found}
    out: list[Part] = []
    for seq, message in enumerate(request.messages):
        header = _header(message)
        if not any((message.id, i) in by_key for i in range(len(message.blocks))):
            if message.text.strip():
                out.append(Part(seq, header, True, text=message.text.strip()))
            continue
        texts: list[str] = []
        start = len(out)
        for index, block in enumerate(message.blocks):
            image = by_key.get((message.id, index))
            if image is None:
                texts += [t for t in [_block_text(block)] if t]
                continue
            if texts:
                out.append(Part(seq, header, len(out) == start, text="\n".join(texts)))
                texts = []
            out.append(Part(seq, header, len(out) == start, image=image, source=_image_source(request, image)))
        if texts:
            out.append(Part(seq, header, len(out) == start, text="\n".join(texts)))
    return out


def _image_source(request: DistillRequest, image: imagekit.Image) -> str:
    source = request.image_sources.get(image.key)
    if source:
        return source
    if image.url is not None:
        return image.url
    raise DistillError(f"image {image.block_index} of message {image.message_id!r} has no saved attachment in "
                       "image_sources; Base64 images must be saved before distilling")


def split(part: Part, room: int) -> list[Part]:
    """Cut a text part that alone exceeds ``room`` tokens at whitespace (or anywhere in CJK runs); lossless."""
    limit = max(1, (room - estimate(part.header) - 4) * 3)
    pieces, current = [], ""
    for token in re.findall(r"\S+\s*|\s+", part.text):
        while len(token.encode("utf-8")) > limit:  # one word longer than the room: cut by characters
            cut = len(token.encode("utf-8")[:limit].decode("utf-8", "ignore")) or 1
            if current:
                pieces.append(current)
                current = ""
            pieces.append(token[:cut])
            token = token[cut:]
        if current and len((current + token).encode("utf-8")) > limit:
            pieces.append(current)
            current = ""
        current += token
    pieces += [current] if current else []
    return [Part(part.seq, part.header, part.first and i == 0, text=p) for i, p in enumerate(pieces)]


_SENTENCE = re.compile(r"[^.!?。！？]+(?:[.!?。！？]+|$)\s*")
DESCRIPTION_SENTENCES = 3


def trim(card: Card, limit: int) -> Card:
    """The running card, bounded: a description of at most three sentences, and within ``limit`` tokens
    the body cut at a line end. Only the card sent with the next part is trimmed."""
    description = "".join(_SENTENCE.findall(card.description)[:DESCRIPTION_SENTENCES]).strip()
    if estimate(card.name + description + card.body) <= limit:
        return Card(card.name, description, card.body)
    room = max(0, limit - estimate(card.name + description)) * 3
    kept, used = [], 0
    for line in card.body.splitlines(keepends=True):
        size = len(line.encode("utf-8"))
        if used + size > room:
            break
        kept.append(line)
        used += size
    return Card(card.name, description, "".join(kept).rstrip("\n") + "\n")


def render(chunk: Sequence[Part], before: str, after: str, lang: str) -> list[Any]:
    """The model input for one chunk: the system prompt, then one user message with texts and images in order.

    Raises:
        ValueError: agentscope refused a block (pydantic validation), before any request.
    """
    from agentscope.message import Base64Source, DataBlock, SystemMsg, TextBlock, URLSource, UserMsg

    t = TEXT[lang]
    content: list[Any] = []
    text = before
    for i, part in enumerate(chunk):
        if i == 0 or part.seq != chunk[i - 1].seq:
            text += ("\n\n" if i else "") + part.header + ("" if part.first or i else t["continued"]) + "\n"
        else:
            text += "\n"
        if part.image is None:
            text += part.text
            continue
        content.append(TextBlock(text=text + t["source"] + part.source))
        image = part.image
        source = (Base64Source(data=base64.b64encode(image.data).decode("ascii"), media_type=image.media_type)
                  if image.data is not None
                  else URLSource.model_validate({"url": image.url, "media_type": image.media_type}))
        content.append(DataBlock(source=source))
        text = ""
    content.append(TextBlock(text=text + after))
    return [SystemMsg(name="system", content=SYSTEM[lang]), UserMsg(name="user", content=content)]
