"""Plain chat shapes: memvault's own JSON, bare message lists, OpenAI chat messages and ShareGPT.

memvault JSON (``{session_id, messages}``) and bare message lists pass through
``parse_messages`` untouched, exactly as the HTTP API would take them. OpenAI
and ShareGPT files are training or log data: only the visible conversation is
kept (system prompts and tool output dropped, tool calls as one short line,
images as ``[image]``). None of these carry a provider id reliably, so a
missing id is replaced by a hash of the content: re-reading gives the same
session, but a longer copy of the conversation is a different one.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping

from daemon.errors import InputError
from daemon.conversations.exports.base import Item, attempt, build, describe, digest, label, provider_id, session_name, tool_line
from daemon.conversations.spill import Spilled
from daemon.models import Conversation

_SHAREGPT_ROLES = {"human": "user", "user": "user", "gpt": "assistant", "assistant": "assistant",
                   "chatgpt": "assistant", "bard": "assistant", "bing": "assistant", "model": "assistant",
                   "function_call": "assistant"}
_SHAREGPT_DROPPED = ("system", "observation", "function_response", "tool")
_OPENAI_DROPPED = ("system", "developer", "tool", "function")
_TEXT_PARTS = ("text", "input_text", "output_text")
_IMAGE_PARTS = ("image_url", "input_image", "image")


def read_native(value: Any, index: int) -> Iterator[Item]:
    """``{session_id, messages}`` → a Conversation with that session id (cleaned only when invalid)."""
    raw = value if isinstance(value, dict) else {}
    yield from attempt(label("memvault", index, raw.get("session_id")), lambda: _native(raw))


def _native(raw: Mapping[str, Any]) -> Conversation | None:
    ident = provider_id(raw.get("session_id"))
    if ident is None:
        raise InputError(f"'session_id' must be a non-empty string, got {describe(raw.get('session_id'))}")
    return build(session_name("", ident), "native", raw.get("messages"))


def read_bare(values: Iterable[Any], name: str) -> Iterator[Item]:
    """A bare message list (a JSON array or one message per line) → one Conversation ``import-<hash>``."""
    messages = Spilled(values).settled(list)  # a huge list moves to a temporary file
    yield from attempt(f"message list in {name}", lambda: build(f"import-{digest(messages)}", "native", messages))


def read_openai(value: Any, index: int) -> Iterator[Item]:
    """``{"messages": [...]}`` in the Chat Completions shape → a Conversation ``openai-<id or hash>``."""
    raw = value if isinstance(value, dict) else {}
    yield from attempt(label("OpenAI chat", index, raw.get("id")), lambda: _openai(raw))


def _openai(raw: Mapping[str, Any]) -> Conversation | None:
    items = raw.get("messages")
    if not isinstance(items, (list, Spilled)):
        raise InputError(f"'messages' must be a list of messages, got {describe(items)}")
    ident = provider_id(raw.get("id"))
    session_id = session_name("openai", ident) if ident else f"openai-{digest(items)}"
    messages: Spilled[dict[str, Any]] = Spilled()
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"messages[{position}] must be an object, got {type(item).__name__}")
        message = _openai_message(item, position)
        if message is not None:
            messages.append(message)
    return build(session_id, "openai", messages.settled(list))


def _openai_message(item: Mapping[str, Any], position: int) -> dict[str, Any] | None:
    role = item.get("role")
    if not isinstance(role, str) or not role.strip():
        raise InputError(f"messages[{position}]: 'role' must be a non-empty string")
    if role in _OPENAI_DROPPED:
        return None
    lines = [_openai_content(item.get("content"), position)]
    calls = item.get("tool_calls")
    for call in calls if isinstance(calls, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            lines.append(tool_line(function.get("name"), function.get("arguments")))
    legacy = item.get("function_call")
    if isinstance(legacy, dict):
        lines.append(tool_line(legacy.get("name"), legacy.get("arguments")))
    text = "\n".join(line for line in lines if line)
    if not text:
        return None
    message = {"role": role, "content": text}
    if isinstance(item.get("name"), str):
        message["name"] = item["name"]
    return message


def _openai_content(content: Any, position: int) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        raise InputError(f"messages[{position}]: 'content' must be a string, null or a list of parts")
    texts = []
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in _TEXT_PARTS and isinstance(part.get("text"), str):
            texts.append(part["text"].strip())
        elif kind == "refusal" and isinstance(part.get("refusal"), str):
            texts.append(part["refusal"].strip())
        elif kind in _IMAGE_PARTS:
            texts.append("[image]")  # URLs may be data: URLs holding the bytes; keep neither
        elif isinstance(part, str):
            texts.append(part.strip())
    return "\n".join(text for text in texts if text)


def read_sharegpt(value: Any, index: int) -> Iterator[Item]:
    """``{id?, conversations: [{from, value}]}`` → a Conversation ``sharegpt-<id or hash>``."""
    raw = value if isinstance(value, dict) else {}
    yield from attempt(label("ShareGPT", index, raw.get("id")), lambda: _sharegpt(raw))


def _sharegpt(raw: Mapping[str, Any]) -> Conversation | None:
    turns = raw.get("conversations")
    if not isinstance(turns, (list, Spilled)):
        raise InputError(f"'conversations' must be a list of turns, got {describe(turns)}")
    ident = provider_id(raw.get("id"))
    session_id = session_name("sharegpt", ident) if ident else f"sharegpt-{digest(turns)}"
    messages: Spilled[dict[str, Any]] = Spilled()
    for position, turn in enumerate(turns):
        message = _sharegpt_turn(turn, position)
        if message is not None:
            messages.append(message)
    return build(session_id, "sharegpt", messages.settled(list))


def _sharegpt_turn(turn: Any, position: int) -> dict[str, Any] | None:
    where = f"conversations[{position}]"
    if not isinstance(turn, dict):
        raise InputError(f"{where} must be an object, got {type(turn).__name__}")
    speaker, text = turn.get("from"), turn.get("value")
    if not isinstance(speaker, str) or not speaker.strip():
        raise InputError(f"{where}: 'from' must be a non-empty string")
    if text is not None and not isinstance(text, str):
        raise InputError(f"{where}: 'value' must be a string, got {type(text).__name__}")
    key = speaker.strip().lower()
    if key in _SHAREGPT_DROPPED or not text or not text.strip():
        return None  # the .missingturns variant has empty gpt turns: nothing was said
    if key == "function_call":
        text = tool_line(*_call_parts(text))
    return {"role": _SHAREGPT_ROLES.get(key, key), "content": text.strip()}


def _call_parts(text: str) -> tuple[Any, Any]:
    try:
        call = json.loads(text)
    except (ValueError, RecursionError):
        return None, text
    return (call.get("name"), call.get("arguments")) if isinstance(call, dict) else (None, text)
