"""Claude Code session transcripts (``~/.claude/projects/<cwd>/<sessionId>.jsonl``): lines → Conversations.

Policy (FORMATS.md §5; reference auto-memory §1.3):

* Only ``user`` and ``assistant`` lines count; progress, system, snapshot,
  queue-operation and 1.x summary lines are UI bookkeeping.
* Lines are deduplicated by ``uuid``: resumed sessions repeat earlier lines.
* One API reply is spread over several lines sharing ``message.id``; they are
  merged into one message at the first line's place and time.
* What the human did not type is dropped: ``isMeta`` lines, compact summaries,
  ``<system-reminder>`` blocks, slash-command echoes and caveats, interruption
  markers, client-made (``<synthetic>``) replies, and ``tool_result`` blocks
  (tool output is bulky, may hold secrets, and the assistant restates what
  matters).
* Tool calls are kept as one short line, ``[tool Bash: <description or
  command>]``, so a card can say what was done without the payload.
  Thinking is dropped.
* For the distiller, each call also travels as a ``tool_result`` block on
  its assistant message, carrying the call's name, its short arguments
  (command, path, pattern) and the head of its result when the result came
  in the same file. Tool results are never written to the source record,
  so the record holds the same text as before.
* Lines group into one Conversation per ``sessionId`` (a file may hold
  several); a subagent sidechain is its own Conversation,
  ``claude-code-<sessionId>-agent-<agentId>``. Compaction helpers
  (``agent-acompact-*``) only restate the session and are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Iterable, Iterator, Mapping

from daemon.errors import InputError
from daemon.conversations.exports.base import Item, attempt, build, iso, session_name, tool_line
from daemon.models import Conversation

SOURCE = "claude-code"
LINE_TYPES = ("user", "assistant", "system", "progress", "file-history-snapshot", "queue-operation", "summary")
_ENVELOPE_KEYS = ("sessionId", "uuid", "parentUuid", "leafUuid", "messageId")
_INJECTED_TAGS = ("<local-command-caveat>", "<local-command-stdout>", "<local-command-stderr>", "<command-name>",
                  "<command-message>", "<command-args>", "<system-reminder>", "<bash-input>", "<bash-stdout>",
                  "<bash-stderr>")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
_TAG_PAIR = re.compile(r"<([a-z][a-z-]*)>.*?</\1>", re.DOTALL)
_INTERRUPTED = re.compile(r"\[Request interrupted by user[^\]]*\]")
_SKIPPED_FLAGS = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly")


def looks_like(value: Any) -> bool:
    """Whether a JSON value is a Claude Code transcript line."""
    return (isinstance(value, dict) and value.get("type") in LINE_TYPES
            and any(key in value for key in _ENVELOPE_KEYS))


@dataclass
class _Turn:
    id: str
    role: str
    time: str | None
    parts: list[str] = field(default_factory=list)
    tools: list[dict[str, Any]] = field(default_factory=list)  # calls, each with its result once it came


@dataclass
class _Session:
    session_id: str
    turns: list[_Turn] = field(default_factory=list)
    replies: dict[str, _Turn] = field(default_factory=dict)  # message.id → merged assistant turn
    calls: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool_use id → its block on the turn
    problem: str | None = None


def read(lines: Iterable[Any], name: str) -> Iterator[Item]:
    """All transcript lines of one file → one Conversation per session (and per subagent)."""
    fallback = PurePosixPath(name.replace("\\", "/")).stem or "session"
    sessions: dict[tuple[str, str], _Session] = {}
    seen: set[str] = set()
    for line in lines:
        if not looks_like(line) or line.get("type") not in ("user", "assistant"):
            continue
        uuid = line.get("uuid")
        if isinstance(uuid, str):
            if uuid in seen:
                continue
            seen.add(uuid)
        key = _session_key(line, fallback)
        if key[1].startswith("acompact"):
            continue
        session = sessions.setdefault(key, _Session(session_name(SOURCE, "-agent-".join(filter(None, key)))))
        if session.problem is None:
            try:
                _add(session, line)
            except InputError as exc:
                session.problem = f"line uuid {uuid}: {exc}"
    for session in sessions.values():
        yield from attempt(f"Claude Code session {session.session_id}", lambda s=session: _conversation(s))


def _session_key(line: Mapping[str, Any], fallback: str) -> tuple[str, str]:
    session = line.get("sessionId")
    agent = line.get("agentId")
    if not isinstance(agent, str) or not agent:
        agent = "sidechain" if line.get("isSidechain") is True else ""
    return (session if isinstance(session, str) and session else fallback), agent


def _conversation(session: _Session) -> Conversation | None:
    if session.problem:
        raise InputError(session.problem)
    messages = [{"id": turn.id, "role": turn.role, "created_at": turn.time,
                 "content": [{"type": "text", "text": "\n".join(turn.parts)}, *turn.tools] if turn.tools
                 else "\n".join(turn.parts)}
                for turn in session.turns if turn.parts]
    return build(session.session_id, SOURCE, messages)


def _add(session: _Session, line: Mapping[str, Any]) -> None:
    message = line.get("message")
    if not isinstance(message, dict):
        raise InputError("'message' must be an object")
    uuid = line.get("uuid") if isinstance(line.get("uuid"), str) else None
    time = iso(line.get("timestamp"))
    if line.get("type") == "user":
        _attach_results(session, message.get("content"))
        text = _user_text(line, message)
        if text and uuid:
            session.turns.append(_Turn(uuid, "user", time, [text]))
        return
    if message.get("model") == "<synthetic>":
        return
    reply_id = message.get("id") if isinstance(message.get("id"), str) else uuid
    if reply_id is None:
        return
    turn = session.replies.get(reply_id)
    if turn is None:
        turn = session.replies[reply_id] = _Turn(reply_id, "assistant", time)
        session.turns.append(turn)
    turn.parts.extend(_assistant_parts(message.get("content")))
    for block in message.get("content") if isinstance(message.get("content"), list) else ():
        if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
            call = {"type": "tool_result", "tool_use_id": block["id"], "name": block.get("name"),
                    "input": _short_arguments(block.get("input"))}
            turn.tools.append(call)
            session.calls[block["id"]] = call


_ARGUMENT_KEYS = ("command", "description", "file_path", "path", "notebook_path", "pattern", "query", "url")
_RESULT_CHARS = 2000
_EDIT_CHARS = 3000  # an edit this small shows its changed lines on the card


def _short_arguments(arguments: Any) -> dict[str, Any]:
    """The arguments that say what a call did; never a payload (file contents), but a small edit's before and
    after, which the distiller reads for the lines it changed. (Calls are never written to the source record.)"""
    if not isinstance(arguments, dict):
        return {}
    out: dict[str, Any] = {k: v[:300] for k in _ARGUMENT_KEYS if isinstance(v := arguments.get(k), str)}
    edits = arguments.get("edits") if isinstance(arguments.get("edits"), list) else [arguments]
    small = [{"old_string": e["old_string"], "new_string": e["new_string"]} for e in edits if isinstance(e, dict)
             and isinstance(e.get("old_string"), str) and isinstance(e.get("new_string"), str)
             and len(e["old_string"]) + len(e["new_string"]) <= _EDIT_CHARS]
    if small:
        out["edits"] = small
    return out


def _attach_results(session: _Session, content: Any) -> None:
    """A user line's ``tool_result`` blocks: the head of each result goes to the call it answers."""
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        call = session.calls.get(str(block.get("tool_use_id")))
        if call is None:
            continue
        result = block.get("content")
        if isinstance(result, list):
            result = "\n".join(str(p.get("text", "")) for p in result if isinstance(p, dict))
        call["content"] = str(result or "")[:_RESULT_CHARS]
        call["is_error"] = block.get("is_error") is True


def _user_text(line: Mapping[str, Any], message: Mapping[str, Any]) -> str:
    """What the human typed on a user line; '' for tool results and injected text."""
    if any(line.get(flag) is True for flag in _SKIPPED_FLAGS):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        pieces = [content]
    elif isinstance(content, list):
        pieces = [_user_block(block) for block in content]
    else:
        raise InputError(f"user message content must be a string or a list of blocks, got {type(content).__name__}")
    text = _REMINDER.sub("", "\n".join(p for p in pieces if p)).strip()
    if _INTERRUPTED.fullmatch(text) or _injected_only(text):
        return ""
    return text


def _user_block(block: Any) -> str:
    if not isinstance(block, dict):
        return block if isinstance(block, str) else ""
    if block.get("type") == "text" and isinstance(block.get("text"), str):
        return block["text"]
    if block.get("type") == "image":
        return "[image]"
    return ""  # tool_result and unknown blocks


def _injected_only(text: str) -> bool:
    """Text the client wrapped in its own tags, with next to nothing else (reference §1.3, rule 37)."""
    return text.startswith(_INJECTED_TAGS) and len(_TAG_PAIR.sub("", text).strip()) < 16


def _assistant_parts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content.strip()] if content.strip() else []
    if not isinstance(content, list):
        raise InputError(f"assistant message content must be a list of blocks, got {type(content).__name__}")
    parts = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            parts.append(block["text"].strip())
        elif block.get("type") == "tool_use":
            parts.append(tool_line(block.get("name"), block.get("input")))
    return parts
