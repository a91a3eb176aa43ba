"""ChatGPT data export (``conversations.json`` / ``conversations-NNN.json``): one conversation → one Conversation.

A conversation is a message tree (FORMATS.md §3). The transcript the user last
saw is the path from ``current_node`` back to the root; abandoned branches
(edited prompts, regenerated answers) are left out. Only what the user saw is
kept: hidden context, system and tool nodes, tool calls (``recipient`` other
than ``all``), internal reasoning channels and empty placeholders are dropped.
Images are exported as asset pointers, so they become the text ``[image]``.

Code the user saw is kept, always: a Code Interpreter cell (``content_type:
"code"`` addressed to the ``python`` tool) becomes an assistant message of its
own, the code in a fenced block with its language, followed by one short
outcome line taken from the tool's ``execution_output`` ("Output: 1/3",
"Error: NameError: …", "Output: image"). The output itself is a tool result
and stays out, as every tool result does. Calls to other tools (browser,
DALL·E, memory) are requests the user did not see as code, and stay out.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Mapping

from daemon.errors import InputError
from daemon.conversations.exports.base import (Item, attempt, build, digest, fenced, iso, label, need, provider_id,
                                               session_name, titled)
from daemon.models import Conversation
from daemon.timeutil import parse_timestamp

SOURCE = "chatgpt"
_TEXT_TYPES = ("text", "multimodal_text")
# Content types that are never shown as a message of their own.
_HIDDEN_TYPES = ("user_editable_context", "model_editable_context", "thoughts", "reasoning_recap",
                 "system_error", "execution_output")
_SILENT_PARTS = ("audio_asset_pointer", "real_time_user_audio_video_asset_pointer")
# Tools whose code the ChatGPT UI shows as a code cell ("python_user_visible": newer reasoning models).
_CODE_TOOLS = {"python": "python", "python_user_visible": "python"}
_OUTCOME_CHARS = 120


def read(value: Any, index: int) -> Iterator[Item]:
    """One exported conversation object → a Conversation (or a BadConversation saying why)."""
    raw = value if isinstance(value, dict) else {}
    where = label("ChatGPT", index, raw.get("id") or raw.get("conversation_id"), raw.get("title"))
    yield from attempt(where, lambda: titled(_conversation(raw), raw.get("title")))


def _conversation(raw: Mapping[str, Any]) -> Conversation | None:
    mapping = need(raw, "mapping", dict, "conversation")
    ident = provider_id(raw.get("id")) or provider_id(raw.get("conversation_id"))
    # Without a provider id the content is the only stable identity there is.
    session_id = session_name(SOURCE, ident) if ident else f"{SOURCE}-{digest(mapping)}"
    fallback = iso(raw.get("create_time"), raw.get("update_time"))
    messages = []
    path = _branch(mapping, raw.get("current_node"))
    for position, node_id in enumerate(path):
        if _code_cell(mapping[node_id].get("message")):
            after = mapping[path[position + 1]] if position + 1 < len(path) else None
            message = _code_message(node_id, mapping[node_id]["message"], after, fallback)
        else:
            message = _message(node_id, mapping[node_id], fallback)
        if message is not None:
            messages.append(message)
    return build(session_id, SOURCE, messages)


def _branch(mapping: Mapping[str, Any], current: Any) -> list[str]:
    """Node ids from the root down to ``current_node`` (or the newest leaf when it is missing)."""
    leaf = current if isinstance(current, str) and current in mapping else _newest_leaf(mapping)
    path: list[str] = []
    seen: set[str] = set()
    node_id = leaf
    while isinstance(node_id, str) and node_id in mapping:
        if node_id in seen:
            raise InputError(f"mapping: the message tree has a cycle at node {node_id!r}")
        seen.add(node_id)
        path.append(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise InputError(f"mapping[{node_id!r}] must be an object, got {type(node).__name__}")
        node_id = node.get("parent")  # a parent trimmed out of the export ends the walk like the root
    path.reverse()
    return path


def _newest_leaf(mapping: Mapping[str, Any]) -> str | None:
    """The childless node with the latest message time; the first one in the mapping on ties."""
    best: str | None = None
    best_time = -math.inf
    for node_id, node in mapping.items():
        if not isinstance(node, dict) or node.get("children"):
            continue
        message = node.get("message")
        when = _instant(message.get("create_time")) if isinstance(message, dict) else -math.inf
        if best is None or when > best_time:
            best, best_time = node_id, when
    return best


def _instant(value: Any) -> float:
    """Epoch seconds of a timestamp, -inf when it is missing or unusable."""
    try:
        moment = parse_timestamp(value)
        return moment.timestamp() if moment is not None else -math.inf
    except (ValueError, OverflowError, OSError):
        return -math.inf


def _message(node_id: str, node: Mapping[str, Any], fallback: str | None) -> dict[str, Any] | None:
    """The message dict for a visible node, or None for hidden, tool and empty nodes."""
    message = node.get("message")
    if message is None:
        return None
    if not isinstance(message, dict):
        raise InputError(f"mapping[{node_id!r}].message must be an object, got {type(message).__name__}")
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if role not in ("user", "assistant") or _hidden(message):
        return None
    content = need(message, "content", dict, f"mapping[{node_id!r}].message")
    text = _content_text(content, node_id)
    if not text.strip():
        return None
    created = iso(message.get("create_time"), message.get("update_time")) or fallback
    return {"id": node_id, "role": role, "content": text.strip(), "created_at": created}


def _code_cell(message: Any) -> bool:
    """Whether a node is a code cell the user saw: assistant code for a visible code tool (or for no tool)."""
    if not isinstance(message, dict) or not isinstance(message.get("content"), dict):
        return False
    author = message.get("author")
    return (isinstance(author, dict) and author.get("role") == "assistant"
            and message["content"].get("content_type") == "code"
            and isinstance(message["content"].get("text"), str) and bool(message["content"]["text"].strip())
            and (message.get("recipient") in (None, "all") or message.get("recipient") in _CODE_TOOLS)
            and message.get("channel") not in ("analysis", "commentary") and message.get("weight") != 0
            and not _visually_hidden(message))


def _code_message(node_id: str, message: Mapping[str, Any], after: Any, fallback: str | None) -> dict[str, Any]:
    """A code cell as a fenced block with its language, and the outcome line of the output that follows it."""
    content = message["content"]
    language = content.get("language")
    if not isinstance(language, str) or language.strip().lower() in ("", "unknown"):
        language = _CODE_TOOLS.get(message.get("recipient") or "", "")
    text = fenced(content["text"], language)
    outcome = _outcome(after.get("message") if isinstance(after, dict) else None)
    if outcome:
        text += "\n" + outcome
    created = iso(message.get("create_time"), message.get("update_time")) or fallback
    return {"id": node_id, "role": "assistant", "content": text, "created_at": created}


def _outcome(message: Any) -> str:
    """One short line saying how a code cell ran, from the execution_output that answers it ('' if none)."""
    if not isinstance(message, dict) or not isinstance(message.get("content"), dict):
        return ""
    if message["content"].get("content_type") != "execution_output":
        return ""
    lines = [line.strip() for line in str(message["content"].get("text") or "").splitlines() if line.strip()]
    metadata = message.get("metadata")
    result = metadata.get("aggregate_result") if isinstance(metadata, dict) else None
    failed = isinstance(result, dict) and (bool(result.get("in_kernel_exception"))
                                           or result.get("status") in ("failed", "error"))
    if not lines:
        return ""
    line = lines[-1] if failed else lines[0]
    if line == "<<ImageDisplayed>>":
        return "Output: image"
    if len(line) > _OUTCOME_CHARS:
        line = line[: _OUTCOME_CHARS - 1] + "…"
    more = " …" if len(lines) > 1 and not failed else ""
    return f"{'Error' if failed else 'Output'}: {line}{more}"


def _visually_hidden(message: Mapping[str, Any]) -> bool:
    metadata = message.get("metadata")
    return isinstance(metadata, dict) and (metadata.get("is_visually_hidden_from_conversation") is True
                                           or bool(metadata.get("user_context_message_data")))


def _hidden(message: Mapping[str, Any]) -> bool:
    if _visually_hidden(message):
        return True
    content = message.get("content")
    kind = content.get("content_type") if isinstance(content, dict) else None
    return (message.get("weight") == 0
            or message.get("recipient") not in (None, "all")
            or message.get("channel") in ("analysis", "commentary")
            or kind in _HIDDEN_TYPES)


def _content_text(content: Mapping[str, Any], node_id: str) -> str:
    kind = content.get("content_type")
    if kind in _TEXT_TYPES:
        parts = need(content, "parts", list, f"mapping[{node_id!r}].message.content")
        return "\n".join(filter(None, (_part_text(part) for part in parts)))
    text = content.get("text")
    if isinstance(text, str):
        return text  # code, tether_quote and similar carry their text here
    return f"[{kind}]" if isinstance(kind, str) else ""


def _part_text(part: Any) -> str:
    """A content part as text: strings as they are, images as ``[image]``, never bytes."""
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return ""
    kind = part.get("content_type")
    if kind == "image_asset_pointer":
        return "[image]"
    if isinstance(part.get("text"), str):
        return part["text"]  # audio_transcription and text-like parts
    if kind in _SILENT_PARTS:
        return ""  # the spoken words come as a separate audio_transcription part
    return f"[{kind}]" if isinstance(kind, str) else ""
