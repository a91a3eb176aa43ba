"""Stage 1: parse outside JSON into Conversation values.

This module knows message shapes: plain ``{role, name?, content}`` dicts with a
string or a list of content blocks, AgentScope ``Msg`` JSON, timestamp aliases
and ids. It validates once, at the edge; a malformed message is an InputError
naming the message (by position) and the field.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, Iterator, Mapping

from daemon.conversations.spill import Spilled
from daemon.errors import InputError
from daemon.models import Message
from daemon.timeutil import TIME_KEYS, parse_timestamp

TEXT_TYPES = ("text", "input_text", "output_text")


def parse_messages(raw: Any, where: str = "messages") -> tuple[Message, ...]:
    """Parse a list of message objects; raises InputError naming the bad message and field."""
    return tuple(iter_messages(raw, where))


def iter_messages(raw: Any, where: str = "messages") -> Iterator[Message]:
    """``parse_messages`` one message at a time: a huge conversation is never held as one list of them.

    ``raw`` may be a ``Spilled`` list (a huge conversation's messages as read).
    """
    if not isinstance(raw, (list, Spilled)):
        raise InputError(f"{where} must be a JSON list of messages, got {type(raw).__name__}")
    seen: Counter[str] = Counter()
    for position, item in enumerate(raw):
        label = f"{where}[{position}]"
        if not isinstance(item, dict):
            raise InputError(f"{label}: each message must be an object, got {type(item).__name__}")
        yield _parse_message(item, label, seen)


def _parse_message(item: Mapping[str, Any], label: str, seen: Counter[str]) -> Message:
    role = item.get("role")
    if not isinstance(role, str) or not role.strip():
        raise InputError(f"{label}: field 'role' is required and must be a non-empty string")
    name = item.get("name")
    if name is not None and not isinstance(name, str):
        raise InputError(f"{label}: field 'name' must be a string")
    content = item.get("content")
    if content is None:  # a message without content would write a bare {role, id} line into the record
        raise InputError(f"{label}: field 'content' is required (a string or a list of blocks)")
    blocks = _blocks(content, label)
    raw_time, time_field = _raw_time(item)
    try:
        moment = parse_timestamp(raw_time)
    except ValueError as exc:
        raise InputError(f"{label}: field '{time_field}' is not a timestamp: {raw_time!r}") from exc
    message_id = _message_id(item, role, name, content, raw_time, label, seen)
    record = dict(item)
    record["id"] = message_id
    if raw_time is not None and "created_at" not in item:
        record["created_at"] = raw_time
    if isinstance(content, list):
        kept = [b for b in content if not _unsaved_block(b)]
        # One text block left once tool results are dropped: the record keeps it as plain text.
        alone = len(kept) == 1 and len(kept) < len(content) and isinstance(kept[0], dict) and \
            kept[0].get("type", "text") == "text" and set(kept[0]) <= {"type", "text"}
        record["content"] = kept[0].get("text", "") if alone else kept
    texts = [text for text in map(_block_text, blocks) if text]  # each once: a huge text is copied once
    return Message(
        id=message_id,
        role=role.strip(),
        name=(name or "").strip(),
        text="\n".join(texts).strip(),
        time=moment,
        record=record,
        blocks=tuple(blocks),
    )


def _blocks(content: Any, label: str) -> list[Any]:
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise InputError(f"{label}: field 'content' must be a string or a list of blocks")
    for index, block in enumerate(content):
        if isinstance(block, str):
            continue
        if not isinstance(block, dict):
            raise InputError(f"{label}: content[{index}] must be an object or a string")
        text = block.get("text")
        if block.get("type", "text") in TEXT_TYPES and text is not None and not isinstance(text, str):
            raise InputError(f"{label}: content[{index}].text must be a string")
    return content


def _block_text(block: Any) -> str:
    if isinstance(block, str):
        return block
    if block.get("type", "text") in TEXT_TYPES:
        return (block.get("text") or "").strip()
    return ""


def _raw_time(item: Mapping[str, Any]) -> tuple[Any, str]:
    if item.get("created_at"):
        return item["created_at"], "created_at"
    for key in TIME_KEYS:
        if item.get(key):
            return item[key], key
    metadata = item.get("metadata")
    if isinstance(metadata, dict):
        for key in ("created_at", *TIME_KEYS):
            if metadata.get(key):
                return metadata[key], f"metadata.{key}"
    return None, "created_at"


def _message_id(
    item: Mapping[str, Any], role: str, name: Any, content: Any, raw_time: Any, label: str, seen: Counter[str]
) -> str:
    given = item.get("id")
    if given is not None and given != "":
        if isinstance(given, bool) or not isinstance(given, (str, int)):
            raise InputError(f"{label}: field 'id' must be a string or an integer")
        return str(given)
    # A deterministic id: re-sending the same messages without ids must not
    # duplicate them. Identical messages in one payload are told apart by order.
    canonical = json.dumps([role, name, content, raw_time], sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:20]
    seen[digest] += 1
    return f"mv-{digest}" if seen[digest] == 1 else f"mv-{digest}-{seen[digest]}"


def _unsaved_block(block: Any) -> bool:
    """Tool results and inline Base64 data are never written to the source record."""
    if not isinstance(block, dict):
        return False
    if block.get("type") == "tool_result":
        return True
    source = block.get("source")
    if isinstance(source, dict) and source.get("type") == "base64":
        return True
    url = block.get("image_url")
    url = url.get("url") if isinstance(url, dict) else url
    return isinstance(url, str) and url.strip().lower().startswith("data:")
