"""The agentscope adapter: the model-backed distiller (stage 4) and tagger (stage 7), and ``memvault doctor``.

``AgentscopeDistiller`` asks a chat model, through agentscope 2.x, for a
session's memory card; ``AgentscopeTagger`` asks it for a card's entity tags;
``check_endpoint`` sends one tiny request and ``check_context`` reads the
context size a local server runs with (``memvault doctor``); ``presets``
holds working model sections for the servers people run. Each answer is one structured-output
call (a forced tool call), with a JSON-in-text fallback for servers without
tool calling that is repaired and validated here.

Modules: ``settings`` (the configuration tree and the key), ``client`` (the
model, one HTTP call, retries, error classes, event loops), ``prompts``
(English and Chinese), ``transcript`` (the conversation as model input, in
chunks), ``output`` (JSON repair and validation), ``distiller``, ``tagger``,
``probe`` (the server's context size), ``presets``.

This package is the only one that imports agentscope, and only inside
functions: importing ``daemon.llm`` costs nothing, the first model call ~1.2 s.

May import: ``conversations``, ``distill``, ``vault``, the nouns.
"""

from __future__ import annotations

from daemon.llm.client import check_endpoint
from daemon.llm.distiller import AgentscopeDistiller
from daemon.llm.output import InvalidOutput, card_from_fields, parse_json_object
from daemon.llm.probe import check_context
from daemon.llm.tagger import AgentscopeTagger

__all__ = ["AgentscopeDistiller", "AgentscopeTagger", "InvalidOutput", "card_from_fields", "check_context",
           "check_endpoint", "parse_json_object"]
