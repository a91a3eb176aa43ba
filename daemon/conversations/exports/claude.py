"""Claude.ai data export (``conversations.json``, a bare array): one conversation → one Conversation.

Text is built from the ``content`` blocks when they exist (2025+): the flat
``text`` field then holds the thinking and the answer run together. Thinking
and tool results are left out, tool calls become one short line. Code the user
saw is kept: an artifact the assistant created or rewrote (``tool_use`` named
``artifacts``) follows its tool line as a fenced block with its language, and
an update's new text likewise. Uploaded files appear in the text as
``[attachment: name]`` / ``[file: name]`` placeholders; an attachment's
``extracted_content`` (the uploaded text itself) is kept in the source record
under ``attachments``, not in the text a card is distilled from, since an
upload may be a whole document.
Messages are put in time order (2024 exports are often shuffled), with the
human first when a reply carries exactly the prompt's timestamp.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterator, Mapping, Sequence

from daemon.errors import InputError
from daemon.conversations.exports.base import (Item, attempt, build, digest, fenced, iso, label, need, provider_id,
                                               session_name, titled, tool_line)
from daemon.conversations.spill import Spilled
from daemon.models import Conversation

SOURCE = "claude"
_ROLES = {"human": "user", "assistant": "assistant"}


def read(value: Any, index: int) -> Iterator[Item]:
    """One exported conversation object → a Conversation (or a BadConversation saying why)."""
    raw = value if isinstance(value, dict) else {}
    yield from attempt(label("Claude", index, raw.get("uuid"), raw.get("name")),
                       lambda: titled(_conversation(raw), raw.get("name")))


def _conversation(raw: Mapping[str, Any]) -> Conversation | None:
    items = need(raw, "chat_messages", list, "conversation")
    ident = provider_id(raw.get("uuid"))
    session_id = session_name(SOURCE, ident) if ident else f"{SOURCE}-{digest(items)}"
    messages: Spilled[dict[str, Any]] = Spilled()  # a huge conversation's messages move to a temporary file
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"chat_messages[{position}] must be an object, got {type(item).__name__}")
        message = _message(item, position)
        if message is not None:
            messages.append(message)
    return build(session_id, SOURCE, _in_time_order(messages.settled(list)))


def _message(item: Mapping[str, Any], position: int) -> dict[str, Any] | None:
    where = f"chat_messages[{position}]"
    sender = item.get("sender")
    if not isinstance(sender, str) or sender not in _ROLES:
        raise InputError(f"{where}: 'sender' must be 'human' or 'assistant', got {sender!r}")
    content = item.get("content")
    if content is None:
        text = item.get("text")
        if text is not None and not isinstance(text, str):
            raise InputError(f"{where}: 'text' must be a string")
        lines = [(text or "").strip()]
    elif isinstance(content, list):
        lines = [_block_text(block) for block in content]
    else:
        raise InputError(f"{where}: 'content' must be a list of blocks, got {type(content).__name__}")
    lines += _file_lines(item)
    text = "\n".join(line for line in lines if line)
    if not text:
        return None
    message: dict[str, Any] = {"role": _ROLES[sender], "content": text, "created_at": iso(item.get("created_at"))}
    uploads = _uploads(item)
    if uploads:
        message["attachments"] = uploads
    if provider_id(item.get("uuid")):
        message["id"] = str(item["uuid"])
    return message


def _block_text(block: Any) -> str:
    if not isinstance(block, dict):
        return ""
    kind = block.get("type")
    if kind in ("text", "voice_note") and isinstance(block.get("text"), str):
        return block["text"].strip()
    if kind == "tool_use":
        return "\n".join(filter(None, (tool_line(block.get("name"), block.get("input")), _artifact_code(block))))
    return ""  # thinking, tool_result, token_budget and block types not known yet


def _artifact_code(block: Mapping[str, Any]) -> str:
    """The code of an artifact the user was shown, fenced with its language ('' for other tools)."""
    arguments = block.get("input")
    if block.get("name") != "artifacts" or not isinstance(arguments, dict):
        return ""
    code = arguments.get("content") if arguments.get("command") in ("create", "rewrite") else arguments.get("new_str")
    if not isinstance(code, str) or not code.strip():
        return ""
    language = arguments.get("language")
    if not isinstance(language, str) or not language.strip():
        kind = arguments.get("type")
        language = kind.rsplit("/", 1)[-1] if isinstance(kind, str) and kind.startswith("text/") else ""
    return fenced(code, language)


def _uploads(item: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Uploaded files with their extracted text, for the record: nothing the user gave may be lost."""
    entries = item.get("attachments")
    kept = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("extracted_content"), str) and entry["extracted_content"]:
            kept.append({key: entry[key] for key in ("file_name", "file_type", "file_size", "extracted_content")
                         if isinstance(entry.get(key), (str, int)) and not isinstance(entry.get(key), bool)})
    return kept


def _file_lines(item: Mapping[str, Any]) -> list[str]:
    lines = []
    for key, kind in (("attachments", "attachment"), ("files", "file")):
        entries = item.get(key)
        for entry in entries if isinstance(entries, list) else []:
            name = entry.get("file_name") if isinstance(entry, dict) else None
            lines.append(f"[{kind}: {name}]" if isinstance(name, str) and name else f"[{kind}]")
    return lines


def _in_time_order(messages: Sequence[dict[str, Any]]) -> Sequence[dict[str, Any]]:
    """Stable sort by time, human before assistant on ties; file order when a time is missing."""
    times = [m["created_at"] for m in messages]
    if any(t is None for t in times):
        return messages
    instants = [datetime.fromisoformat(t) for t in times]
    if len({moment.tzinfo is None for moment in instants}) > 1:
        return messages  # naive and aware times cannot be compared
    users = [m["role"] == "user" for m in messages]
    order = sorted(range(len(messages)), key=lambda i: (instants[i], not users[i]))
    return Spilled(messages[i] for i in order).settled(list)
