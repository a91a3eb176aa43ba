"""Stage 7, tagging: ``AgentscopeTagger``, the agentscope backend of the ``Tagger`` protocol.

One structured-output call per card: a forced ``write_tags`` tool call whose
arguments are ``{tags: [str]}``; a server without tool calling gets the same
prompt with a JSON-in-text answer. The model sees the whole card, properties
included, and names its central entities (reference: ReMe auto_tag, §1.7
item 63). The prompt is English or Chinese by the card's script. The caller
(``daemon.distill.tagging.tag_file``) normalizes, caps and writes the tags, and
reports a failure per file; errors here are the distiller's:
TransientDistillError when worth retrying, DistillError otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from daemon.vault import props
from daemon.config import AGENT_KEY
from daemon.errors import DistillError
from daemon.llm.client import ModelUser
from daemon.llm.output import tags_from_answer
from daemon.llm.prompts import TAG_SYSTEM, TAG_TEXT, TAG_TOOL, language
from daemon.llm.transcript import estimate

__all__ = ["AgentscopeTagger"]

MIN_CARD_TOKENS = 64         # less room than this for the card: the context is too small
ANSWER_TOKENS = 512          # room kept for the answer: a short list of short tags


def _card_language(text: str) -> str:
    """The card's script, judged by its name, description and body (property keys are always English)."""
    properties = props.read(text)
    head = " ".join(str(properties.get(key) or "") for key in ("name", "description"))
    return language(f"{head} {props.body(text)}")


class AgentscopeTagger(ModelUser):
    """Tags cards through a chat model reached by agentscope (``components.agent_wrapper.default``).

    ``environ`` and ``retry_delay`` are as for ``AgentscopeDistiller``; the
    same ``model`` settings (timeout, retries, context_tokens) apply.

    Raises:
        ConfigError: a missing model name or key variable, an unknown provider, agentscope not installed.
    """


    def tag(self, text: str, max_tags: int) -> list[str]:
        """Entity tags for the Markdown card ``text``, most central first; ``[]`` when nothing is useful.

        The list is as the model wrote it, without non-string items and at most
        ``2 * max_tags`` long: the caller normalizes it and keeps ``max_tags``.

        Raises:
            TransientDistillError: a timeout, rate limit, server or connection error (retry later).
            DistillError: any other model failure, or output still invalid after the retries.
        """
        if max_tags < 1 or not text.strip():
            return []
        lang = _card_language(text)
        card = self._fit(text, lang, max_tags)

        async def work(model: Any) -> list[str]:
            return await self._caller.ask(model, TAG_TOOL, lambda: self._messages(card, lang, max_tags),
                                          tags_from_answer, max_tokens=min(ANSWER_TOKENS, self._settings.answer_tokens))

        return self._caller.run(work)[: 2 * max_tags]

    def _prompt(self, card: str, lang: str, max_tags: int) -> str:
        t = TAG_TEXT[lang]
        return t["ask"].format(max_tags=max_tags, card=card) + (t["json"] if self._caller.text_mode else "")

    def _fit(self, text: str, lang: str, max_tags: int) -> str:
        """The card, cut at the end (with a note) if it does not fit ``model.context_tokens``.

        Tags name what the card is about, which its properties and beginning
        say; a card longer than the whole context is rare.
        """
        s = self._settings
        frame = (estimate(TAG_SYSTEM[lang]) + estimate(self._prompt("", lang, max_tags))
                 + estimate(TAG_TEXT[lang]["json"] + TAG_TEXT[lang]["cut"]) + estimate(json.dumps(TAG_TOOL)))
        room = s.context_tokens - ANSWER_TOKENS - frame
        if room < MIN_CARD_TOKENS:
            raise DistillError(f"the tagging prompt leaves no room for the card within {AGENT_KEY}."
                               f"model.context_tokens={s.context_tokens}; set it to the model's real context size")
        if estimate(text) <= room:
            return text
        return text.encode("utf-8")[: room * 3].decode("utf-8", "ignore") + TAG_TEXT[lang]["cut"]

    def _messages(self, card: str, lang: str, max_tags: int) -> list[Any]:
        from agentscope.message import SystemMsg, TextBlock, UserMsg

        return [SystemMsg(name="system", content=TAG_SYSTEM[lang]),
                UserMsg(name="user", content=[TextBlock(text=self._prompt(card, lang, max_tags))])]
