"""Stage 4, distill: ``AgentscopeDistiller``, the agentscope backend of the ``Distiller`` protocol.

One structured-output call per card step (a forced ``write_memory_card``
tool call whose arguments are ``{skip, name, description, body}``); a server
without tool calling gets the same prompt with a JSON-in-text answer. On
update the model sees the existing card and returns the merged card. A
conversation too long for ``model.context_tokens`` is distilled in parts,
each merged into the running card; no message is truncated. The running
card is bounded: the model is asked to keep it within a size, and a card
that grows past it is trimmed before the next part (a model that keeps
appending would otherwise leave no room for messages). A failure after
some parts keeps the card as of the last finished part
(``PartialDistillError``); the pipeline writes it and leaves the rest pending.

Why not ``agentscope.agent.Agent``: it silently drops images over its
``max_image_num``, keeps state between replies and injects the current time.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Sequence

from daemon.conversations import images as imagekit
from daemon.distill.extractive import ExtractiveDistiller
from daemon.config import AGENT_KEY
from daemon.errors import DistillError, InputError, PartialDistillError
from daemon.llm.client import ModelUser
from daemon.llm.output import answer_fields, card_from_fields
from daemon.llm.prompts import SYSTEM, TEXT, TOOL, frame, language
from daemon.llm.transcript import Part, estimate, parts, render, split, trim
from daemon.models import Card, DistillRequest, Skip

__all__ = ["AgentscopeDistiller"]

MIN_HISTORY_TOKENS = 64      # less room than this for messages: the context is too small


def _derived_name(request: DistillRequest) -> str:
    """The name the embedded distiller gives this conversation, for an answer without one."""
    card = ExtractiveDistiller().distill(request)
    return card.name if isinstance(card, Card) else ""


def _language(request: DistillRequest) -> str:
    """The prompt language: the conversation's script (the existing card's when there is no text)."""
    text = " ".join(m.text for m in request.messages) or (request.existing.body if request.existing else "")
    return language(text)


class AgentscopeDistiller(ModelUser):
    """Distills through a chat model reached by agentscope (``components.agent_wrapper.default``).

    ``environ`` (default ``os.environ``) is where the key named by
    ``model.api_key_env`` is looked up; ``retry_delay`` is the first backoff
    between attempts (doubling, at most 30 s).

    Raises:
        ConfigError: a missing model name or key variable, an unknown provider, agentscope not installed.
    """


    def distill(self, request: DistillRequest) -> Card | Skip:
        """Create or update the card from ``request``, in parts when the conversation is too long.

        Raises:
            TransientDistillError: a timeout, rate limit, server or connection error (retry later).
            DistillError: any other model failure, or output still invalid after the retries.
        """
        s = self._settings
        try:  # the pipeline checked before saving anything; never send more than the limit
            found = imagekit.collect(request.messages) if request.include_images else []
            imagekit.validate(found, "agentscope", s.vision, s.max_images, s.provider)
        except InputError as exc:
            raise DistillError(str(exc)) from exc
        transcript = parts(request, found)
        if not transcript:
            return request.existing if request.existing is not None else Skip("no text to distill")
        lang = _language(request)
        return self._caller.run(lambda model: self._distill(model, request, transcript, lang))

    async def _distill(self, model: Any, request: DistillRequest, rest: list[Part], lang: str) -> Card | Skip:
        """The card steps, one a chunk; the last card wins, else the first skip.

        Raises:
            PartialDistillError: a part failed after earlier parts produced a card.
        """
        card, number = request.existing, 0
        verdict: Card | Skip | None = None
        whole = sum(p.tokens for p in rest) <= self._room(request, card, lang, rest, None)
        limit = self._card_limit(request, lang, rest)
        while rest:
            number += 1
            chunk: list[Part] = []
            try:
                chunk, rest = self._take(request, card, lang, rest, None if whole else number)
                note = None if whole else (number, bool(rest), limit * 3)
                result = await self._ask(model, request, card, lang, chunk, note)
            except DistillError as exc:
                if isinstance(verdict, Card):
                    waiting = {p.seq for p in chunk + rest}
                    done = tuple(m.id for i, m in enumerate(request.messages) if i not in waiting)
                    raise PartialDistillError(exc, verdict, done) from exc
                raise
            if isinstance(result, Card):
                verdict = result
                card = trim(result, limit) if rest else result
            elif verdict is None:
                verdict = result
        return verdict if verdict is not None else Skip("nothing to distill")

    def _card_limit(self, request: DistillRequest, lang: str, rest: Sequence[Part]) -> int:
        """The running card's bound in tokens: it must come back inside one answer (with the JSON around it),
        and leave at least as much room for the next part's messages as it takes itself."""
        t = TEXT[lang]
        free = self._room(request, None, lang, rest, 1) - estimate(t["update"] + t["card"] + t["earlier"])
        return max(MIN_HISTORY_TOKENS, min(self._settings.answer_tokens * 3 // 4, free // 2))

    def _frame(self, request: DistillRequest, card: Card | None, lang: str, note: tuple[int, bool, int] | None,
               with_images: bool) -> tuple[str, str]:
        return frame(request, card, lang, note, with_images, self._caller.text_mode)

    def _room(self, request: DistillRequest, card: Card | None, lang: str, rest: Sequence[Part],
              number: int | None) -> int:
        """Tokens left for messages once the prompt, the running card and the answer are counted."""
        s = self._settings
        before, after = self._frame(request, card, lang, (number, True, 99999) if number else None,
                                    any(p.image is not None for p in rest))
        return (s.context_tokens - s.answer_tokens - estimate(SYSTEM[lang]) - estimate(before + after)
                - estimate(json.dumps(TOOL)))

    def _take(self, request: DistillRequest, card: Card | None, lang: str, rest: list[Part],
              number: int | None) -> tuple[list[Part], list[Part]]:
        """The next chunk that fits, and the rest; a text too long for any chunk is split, never cut."""
        room = self._room(request, card, lang, rest, number)
        if room < MIN_HISTORY_TOKENS:
            raise DistillError(f"the prompt and the card leave no room for messages within {AGENT_KEY}."
                               f"model.context_tokens={self._settings.context_tokens}; set it to the model's "
                               "real context size")
        taken, used = 0, 0
        while taken < len(rest) and used + rest[taken].tokens <= room:
            used += rest[taken].tokens
            taken += 1
        if taken == 0:
            if rest[0].image is not None:
                raise DistillError(f"an image does not fit {AGENT_KEY}.model.context_tokens="
                                   f"{self._settings.context_tokens}; raise it")
            rest = split(rest[0], room) + rest[1:]
            taken = 1
        return rest[:taken], rest[taken:]

    async def _ask(self, model: Any, request: DistillRequest, card: Card | None, lang: str,
                   chunk: Sequence[Part], note: tuple[int, bool, int] | None) -> Card | Skip:
        """One card step: at most ``retries + 1`` requests, backing off between them."""
        def build() -> list[Any]:
            before, after = self._frame(request, card, lang, note, any(p.image is not None for p in chunk))
            return render(chunk, before, after, lang)

        name = cache(lambda: _derived_name(request))
        speakers = frozenset(" ".join(m.speaker.split()).lower() for m in request.messages)
        return await self._caller.ask(
            model, TOOL, build,
            lambda response: card_from_fields(answer_fields(response), card, request.session_id, name, speakers))
