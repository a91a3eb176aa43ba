"""Shared pieces of the export readers: result types, limits, ids and message assembly.

Every reader turns one provider's JSON into plain message dicts and hands them
to ``formats.parse_messages``, so imported records look exactly like records
that arrived through the HTTP API. Nothing here knows a provider's shape.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from itertools import chain
from dataclasses import dataclass, fields, replace
from operator import attrgetter
from typing import Any, Callable, Iterator, Mapping

from daemon.errors import InputError
from daemon.conversations.formats import iter_messages
from daemon.conversations.spill import Spilled
from daemon.models import Conversation, Message
from daemon.vault.names import component_problem
from daemon.timeutil import parse_timestamp

SUPPORTED = (
    "memvault JSON ({session_id, messages}) or a bare message list, "
    "ChatGPT export (conversations.json, conversations-NNN.json or the .zip), "
    "Claude.ai export (conversations.json or the .zip), Claude Code session .jsonl, "
    "LoCoMo, LongMemEval, ShareGPT, OpenAI chat messages ({\"messages\": [...]})"
)


@dataclass(frozen=True)
class BadConversation:
    """One conversation of an otherwise readable export that could not be read."""

    label: str  # which conversation (provider id and/or title, or position)
    reason: str  # readable reason


@dataclass(frozen=True)
class Limits:
    """Caps that keep a hostile or accidental file from exhausting memory or disk."""

    max_file_bytes: int = 2 * 1024**3
    max_zip_entries: int = 10_000
    max_uncompressed_bytes: int = 4 * 1024**3
    max_ratio: float = 200.0  # a ZIP entry inflating more than this is a bomb


class ExportError(InputError):
    """The whole file cannot be imported; the message names the file and why."""


Item = Conversation | BadConversation
_TYPE_NAMES: dict[object, str] = {dict: "an object", list: "a list", str: "a string"}
_UNSAFE = re.compile(r'[<>:"/\\|?*#^\[\]\x00-\x1f\x7f\s]+')
# The argument that best says what a tool call did, most telling first.
_TOOL_KEYS = ("description", "title", "command", "file_path", "pattern", "query", "url", "path",
              "prompt", "subagent_type", "skill", "name")


def unsupported(name: str, detail: str) -> ExportError:
    """The error for a file whose shape matches none of the supported formats."""
    return ExportError(f"{name}: not a supported export ({detail}); supported: {SUPPORTED}")


def describe(value: Any) -> str:
    """A short description of a JSON value's shape, for error messages."""
    if isinstance(value, dict):
        keys = ", ".join(sorted(str(k) for k in value)[:8])
        return f"an object with keys {keys}" if keys else "an empty object"
    if value == "":
        return "an empty string"
    return {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def digest(value: Any, length: int = 12) -> str:
    """A short, deterministic hash of a JSON value (key order and whitespace do not matter).

    A ``Spilled`` list hashes as the list it stands for, one element at a time.
    """
    hashed = hashlib.sha256()
    for piece in _canonical(value):
        hashed.update(piece.encode("utf-8", "surrogatepass"))
    return hashed.hexdigest()[:length]


def _canonical(value: Any) -> Iterator[str]:
    if not isinstance(value, Spilled):
        yield json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        return
    yield "["
    for n, item in enumerate(value):
        yield from ([","] if n else [])
        yield from _canonical(item)
    yield "]"


def session_name(prefix: str, raw: Any) -> str:
    """``<prefix>-<provider id>`` as a valid single file-name component.

    Valid ids pass unchanged; others are cleaned and suffixed with a hash of
    the raw id, so two ids that clean to the same text stay distinct and the
    result is the same on every read.
    """
    # Lone surrogates (legal in JSON escapes) cannot be file names; "?" is cleaned below.
    text = unicodedata.normalize("NFC", str(raw)).encode("utf-8", "replace").decode("utf-8")
    name = f"{prefix}-{text}" if prefix else text
    if component_problem(name, "session_id") is None:
        return name
    cleaned = _UNSAFE.sub("-", name).strip(" .-")
    cleaned = cleaned.encode("utf-8")[:100].decode("utf-8", "ignore").strip(" .-")
    candidate = f"{cleaned or prefix or 'import'}-{digest(text, 10)}"
    return candidate if component_problem(candidate, "session_id") is None else f"{prefix or 'import'}-{digest(text, 10)}"


def provider_id(value: Any) -> str | None:
    """A provider id as text, or None when it is missing or not a string/integer."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        return None
    return str(value)


def label(kind: str, index: int, ident: Any = None, title: Any = None) -> str:
    """Which conversation a BadConversation is about: position, provider id and title when known."""
    details = []
    if provider_id(ident):
        details.append(f"id {str(ident)[:80]}")
    if isinstance(title, str) and title.strip():
        details.append(f"“{title.strip()[:60]}”")
    return f"{kind} conversation {index}" + (f" ({', '.join(details)})" if details else "")


def iso(*candidates: Any) -> str | None:
    """The first candidate that is a valid timestamp, as an ISO string; None when none is."""
    for value in candidates:
        try:
            moment = parse_timestamp(value)
        except ValueError:
            continue
        if moment is not None:
            return moment.isoformat()
    return None


def need(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` when it has the JSON type ``kind``; InputError naming ``where`` otherwise.

    A ``Spilled`` list (a huge conversation's messages as read) counts as a list.
    """
    value = obj.get(key)
    if kind is list and isinstance(value, Spilled):
        return value
    if isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool) and value != "":
        return value
    expected = _TYPE_NAMES.get(kind, "a number")
    found = "missing" if key not in obj else describe(value)
    raise InputError(f"{where}: '{key}' must be {expected}, got {found}")


def tool_line(name: Any, arguments: Any) -> str:
    """A tool call in one short line: its name and its most telling argument, never the payload."""
    title = name.strip() if isinstance(name, str) and name.strip() else "tool"
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)  # OpenAI sends arguments as a JSON string
        except (ValueError, RecursionError):
            pass
    detail = arguments if isinstance(arguments, str) else ""
    if isinstance(arguments, dict):
        known = (arguments.get(key) for key in _TOOL_KEYS)
        anything = (value for value in arguments.values())  # an unknown tool: its first text argument
        detail = next((v for v in chain(known, anything) if isinstance(v, str) and v.strip()), "")
    detail = " ".join(detail.split())
    if len(detail) > 100:
        detail = detail[:99] + "…"
    return f"[tool {title}: {detail}]" if detail else f"[tool {title}]"


def fenced(code: str, language: str = "") -> str:
    """Code as a Markdown fenced block with its language; the fence outgrows any backtick run inside."""
    code = code.replace("\r\n", "\n").strip("\n")
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language.strip()}\n{code}\n{fence}"


def build(session_id: str, source: str, raw_messages: Any) -> Conversation | None:
    """A Conversation from assembled message dicts; duplicate message ids keep their first copy.

    The messages are a tuple, or for a huge conversation a ``Spilled`` sequence
    (kept in a temporary file, read back one at a time). Returns None when
    nothing is left: an empty conversation has nothing to remember.
    """
    unique: Spilled[Message] = Spilled(iter_messages(raw_messages), key=_message_id, pack=_fields,
                                       unpack=_message)
    if not len(unique):
        return None
    return Conversation(session_id=session_id, messages=unique.settled(), source=source)  # type: ignore[arg-type]


def _message_id(message: Message) -> str:
    return message.id


# A spilled message is pickled as the tuple of its fields, in the dataclass's order.
_fields = attrgetter(*(field.name for field in fields(Message)))


def _message(values: tuple[Any, ...]) -> Message:
    return Message(*values)


def attempt(where: str, make: Callable[[], Conversation | None]) -> Iterator[Item]:
    """Run one conversation's reader; a malformed conversation becomes a BadConversation."""
    try:
        conversation = make()
    except RecursionError:
        yield BadConversation(where, "the JSON is nested too deeply")
        return
    except (InputError, ValueError) as exc:
        yield BadConversation(where, str(exc))
        return
    if conversation is not None:
        yield conversation


def titled(conversation: Conversation | None, title: Any) -> Conversation | None:
    """The conversation with its export's title, when that is a string worth keeping."""
    if conversation is None or not isinstance(title, str) or not title.strip():
        return conversation
    return replace(conversation, title=" ".join(title.split())[:200])
