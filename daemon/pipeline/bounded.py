"""What the distiller sees of a huge conversation: each message capped, and the whole in parts.

The source record keeps everything the user saw; the distiller gets a bounded
view, so one 200 MB message or a million-message session costs bounded time
and memory. A capped message says so in its text, which the card then shows,
e.g. "(message 12 shortened: 200 MB)". A conversation above ``PART_CHARS``
characters or ``PART_MESSAGES`` messages is distilled part by part, each part
updating the card the previous one produced (the LLM path also chunks inside a
part, by tokens).
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import chain, islice
from typing import Any, Callable, Iterator, Sequence

from daemon.conversations.spill import Lazy
from daemon.errors import DistillError, Interrupted, PartialDistillError
from daemon.models import Card, DistillRequest, Distiller, Message, Skip

MESSAGE_CHARS = 20_000  # characters of one message the distiller sees
PART_CHARS = 2_000_000  # characters of messages per distiller call
PART_MESSAGES = 5_000  # messages per distiller call
_SHORTENED = re.compile(r"\(message \d+ shortened: [^)]*\)$")


def view(messages: Sequence[Message], cap: int = MESSAGE_CHARS) -> Sequence[Message]:
    """The messages with each text (and each text block) cut to ``cap`` characters, saying so.

    A tuple for a tuple; for a huge conversation's messages (read from disk
    when asked) a sequence that cuts each one as it is read.
    """
    capped = _Capped(messages, cap)
    return tuple(capped) if isinstance(messages, tuple) else capped


class _Capped(Lazy[Message]):
    """``messages`` with each one cut to ``cap`` as it is read."""

    def __init__(self, messages: Sequence[Message], cap: int) -> None:
        self._messages, self._cap = messages, cap

    def __len__(self) -> int:
        return len(self._messages)

    def __iter__(self) -> Iterator[Message]:
        return (self._cut(m, n) for n, m in enumerate(self._messages, 1))

    def _at(self, index: int) -> Message:
        return self._cut(self._messages[index], index + 1)

    def _cut(self, message: Message, number: int) -> Message:
        if len(message.text) > self._cap or _big_blocks(message, self._cap):
            return _capped(message, number, self._cap)
        return message


def _capped(message: Message, number: int, cap: int) -> Message:
    note = f"\n\n(message {number} shortened: {_size(message.text)})"
    blocks = tuple(_cut_block(b, number, cap) for b in message.blocks)
    text = message.text[:cap] + note if len(message.text) > cap else message.text
    return replace(message, text=text, blocks=blocks)


def _big_blocks(message: Message, cap: int) -> bool:
    return any(isinstance(b, dict) and isinstance(b.get("text"), str) and len(b["text"]) > cap
               for b in message.blocks)


def _cut_block(block: Any, number: int, cap: int) -> Any:
    if isinstance(block, dict) and isinstance(block.get("text"), str) and len(block["text"]) > cap:
        return {**block, "text": block["text"][:cap] + f"\n\n(message {number} shortened: {_size(block['text'])})"}
    return block


def _size(text: str) -> str:
    """The UTF-8 size of ``text``, counted in 1 MB slices (never a second full copy)."""
    step = 1 << 20
    size = sum(len(text[i:i + step].encode("utf-8", "surrogatepass")) for i in range(0, len(text), step))
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.0f} {unit}"
    return f"{size} bytes"


def parts(messages: Sequence[Message], max_chars: int = PART_CHARS,
          max_messages: int = PART_MESSAGES) -> Iterator[tuple[Message, ...]]:
    """Consecutive runs of messages, each under both limits (a message is never split)."""
    run: list[Message] = []
    chars = 0
    for message in messages:
        if run and (chars + len(message.text) > max_chars or len(run) >= max_messages):
            yield tuple(run)
            run, chars = [], 0
        run.append(message)
        chars += len(message.text)
    if run:
        yield tuple(run)


def distill(distiller: Distiller, request: DistillRequest,
            stop: Callable[[], bool] | None = None) -> Card | Skip:
    """Distill ``request`` in one call, or part by part when it is above the limits.

    ``stop`` is asked between parts: once it says True no further part starts.

    Raises:
        PartialDistillError: a part failed after earlier parts produced a card
            (the card and the ids of the messages it covers go with it).
        DistillError: the first part failed.
        Interrupted: ``stop`` said True before the first part finished with a card
            (after one did, it comes as the cause of a ``PartialDistillError``).
    """
    notes: list[str] = []  # filled part by part: the messages are read once
    return _say_shortened(_distill(distiller, request, stop, notes), notes)


def _say_shortened(result: Card | Skip, notes: list[str]) -> Card | Skip:
    """The card names every message the distiller saw shortened, whatever the distiller wrote."""
    if not isinstance(result, Card):
        return result
    missing = [note for note in notes if note not in result.body]
    if not missing:
        return result
    return replace(result, body=result.body.rstrip("\n") + "\n\n" + "\n".join(missing) + "\n")


def _shortened(messages: Sequence[Message]) -> list[str]:
    """The notes of the messages that were shortened for the distiller."""
    return [m.text[m.text.rfind("(message "):] for m in messages if _SHORTENED.search(m.text)]


def _distill(distiller: Distiller, request: DistillRequest, stop: Callable[[], bool] | None,
             notes: list[str]) -> Card | Skip:
    chunks = parts(request.messages, PART_CHARS, PART_MESSAGES)  # made one at a time: a part is all that is held
    first, second = next(chunks, ()), next(chunks, None)
    if second is None:
        notes.extend(_shortened(first))
        return distiller.distill(request if isinstance(request.messages, tuple) else replace(request, messages=first))
    card, result, done = request.existing, None, 0  # type: ignore[var-annotated]
    ahead = [first, second]
    del first, second  # each part is let go once distilled
    for chunk in chain((ahead.pop(0) for _ in range(2)), chunks):
        if done and stop is not None and stop():  # the daemon is stopping: keep what the parts so far made
            if card is None or card is request.existing:
                raise Interrupted("stopped between parts")
            raise PartialDistillError(Interrupted("stopped between parts"), card, _ids(request.messages, done))
        notes.extend(_shortened(chunk))
        try:
            result = distiller.distill(replace(request, messages=chunk, existing=card))
        except DistillError as exc:
            if card is None or card is request.existing:
                raise
            raise PartialDistillError(exc, card, _ids(request.messages, done)) from exc
        if isinstance(result, Card):
            card = result
        done += len(chunk)
    if card is None or card is request.existing:
        return result if isinstance(result, Skip) else Skip("nothing worth a card")
    return card


def _ids(messages: Sequence[Message], count: int) -> tuple[str, ...]:
    """The ids of the first ``count`` messages: the ones the finished parts covered."""
    return tuple(m.id for m in islice(messages, count))
