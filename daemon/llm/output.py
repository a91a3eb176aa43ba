"""The model's answer: find the JSON in it, repair it, and validate it into a card or a list of tags.

A tool call's arguments are used when the answer has one; a server that
ignores tools answers in text, where the JSON may be fenced, surrounded by
prose, or written with Python's quoting. Nothing here talks to a model.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping

from daemon.models import Card, Skip
from daemon.vault.names import safe_name

__all__ = ["InvalidOutput", "answer_fields", "answer_text", "card_from_fields", "has_tool_call",
           "parse_json_object", "tags_from_answer"]

_FENCE = re.compile(r"```[\w-]*[ \t]*\n(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*(?=[}\]])")
_PY_LITERAL = re.compile(r"(?<![\w.])(True|False|None)\b")
_LITERALS = {"True": "true", "False": "false", "None": "null"}
_DECODER = json.JSONDecoder(strict=False)
# A name copied from a transcript header ("[Dana @ 2024-03-05T09:02:17]"): small models do it; never a topic.
_PLACEHOLDER = re.compile(r"[.…\s]+")
_HEADER_NAME = re.compile(r"^\[?[^\[\]@]*@\s*\d{4}-\d{2}-\d{2}")  # strict=False: raw line breaks inside strings are fine


class InvalidOutput(ValueError):
    """The model's answer is not a valid card (retried, then a DistillError)."""


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in a model's text: fenced or bare, with prose around it, repaired if need be.

    Repairs: trailing commas, single-quoted strings, Python's True/False/None, an answer cut off mid-way.

    Raises:
        InvalidOutput: no JSON object can be found or repaired.
    """
    value: dict[str, Any] | None = _find_json(text, "{", "}", dict)
    if value is None:
        raise InvalidOutput(f"no JSON object in the answer: {' '.join(text.split())[:120]!r}")
    return value


def _find_json(text: str, opener: str, closer: str, kind: type[Any]) -> Any:
    """The first ``kind`` value starting at ``opener`` in a fence or the whole text, else None."""
    for candidate in [m.group(1) for m in _FENCE.finditer(text)] + [text]:
        start, end = candidate.find(opener), candidate.rfind(closer)
        if start < 0:
            continue
        for attempt in (candidate[start:], _repair(candidate[start:end + 1]), _close(candidate[start:])):
            try:
                value, _ = _DECODER.raw_decode(attempt)
            except ValueError:
                continue
            if isinstance(value, kind):
                return value
    return None


def _close(text: str) -> str:
    """An answer cut off by the token budget, closed: the open string, then the open arrays and objects.

    A small model that repeats itself runs into ``max_tokens`` mid-string; what
    it wrote before is kept (the cut body ends where the model was stopped).
    """
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    if not stack:
        return text
    out = (text[:-1] if escaped else text) + ('"' if in_string else "")
    out = out.rstrip().rstrip(",")
    return out + ("null" if out.endswith(":") else "") + "".join(reversed(stack))


def _repair(text: str) -> str:
    """Single-quoted strings become JSON strings; outside strings, trailing commas go and literals map."""
    out: list[str] = []
    i = done = 0
    while i < len(text):
        if text[i] not in "\"'":
            i += 1
            continue
        out.append(_repair_bare(text[done:i]))
        quote, j, buf = text[i], i + 1, []
        while j < len(text) and text[j] != quote:
            if text[j] == "\\" and j + 1 < len(text):
                buf.append("'" if text[j + 1] == "'" else text[j:j + 2])
                j += 2
                continue
            buf.append('\\"' if text[j] == '"' else text[j])
            j += 1
        out.append('"' + "".join(buf) + '"')
        i = done = j + 1
    out.append(_repair_bare(text[done:]))
    return "".join(out)


def _repair_bare(text: str) -> str:
    return _PY_LITERAL.sub(lambda m: _LITERALS[m.group(1)], _TRAILING_COMMA.sub("", text))


def has_tool_call(response: Any) -> bool:
    """True when the answer holds a tool call (a server that ignores tools answers in text only)."""
    return any(getattr(b, "type", None) == "tool_call" for b in getattr(response, "content", None) or [])


def answer_text(response: Any) -> str:
    """The tool call's arguments, else the answer's text (servers that ignore tools answer in text).

    Raises:
        InvalidOutput: the answer has neither.
    """
    blocks = list(getattr(response, "content", None) or [])
    for block in blocks:
        if getattr(block, "type", None) == "tool_call":
            return str(block.input or "")
    text = "".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", None) == "text")
    if not text.strip():
        raise InvalidOutput("the answer has neither the tool call nor text")
    return text


def answer_fields(response: Any) -> dict[str, Any]:
    """The JSON object of the answer: the tool call's arguments, else the JSON in the text."""
    return parse_json_object(answer_text(response))


# ---- a card -------------------------------------------------------------------------

def card_from_fields(fields: Mapping[str, Any], existing: Card | None, fallback_name: str,
                     derive_name: Callable[[], str] | None = None, speakers: frozenset[str] = frozenset()
                     ) -> Card | Skip:
    """Validate ``{skip, name, description, body}``; the name is made a safe file name here, not by the model.

    Repairs rather than fails: ``skip: true`` with a body is a card (a skip
    with content is not a skip), and a card without a name (or with a transcript
    header copied as its name, or a speaker's name alone: ``speakers`` lower-cased)
    takes the existing card's, else ``derive_name()`` (the embedded distiller's name).

    Raises:
        InvalidOutput: a field has the wrong type, a card without a body, or no name and nothing to derive one.
    """
    skip = _flag(fields.get("skip", False))
    description = " ".join(_text(fields, "description").split())
    body = re.sub(r"\A\s*---\r?\n.*?\r?\n---[ \t]*(\r?\n|\Z)", "", _text(fields, "body"), flags=re.S).strip()
    if skip and not body:
        return Skip(description or "the model found nothing worth remembering")
    if not body:
        raise InvalidOutput("body is empty (and skip is false)")
    if _PLACEHOLDER.fullmatch(body):  # the JSON form's example copied back ({"body": "..."}): not a card
        raise InvalidOutput(f"body is the form's placeholder {body!r}, not a card")
    if _PLACEHOLDER.fullmatch(description):
        description = ""
    name = _text(fields, "name").strip()
    if _HEADER_NAME.match(name) or name.lower() in speakers:
        name = ""
    name = name or (existing.name if existing else "")
    if not name and derive_name is not None:
        name = derive_name().strip() or " ".join(description.split()[:5])
    if not name:
        raise InvalidOutput("name is empty")
    return Card(safe_name(name, fallback=existing.name if existing else fallback_name), description, body + "\n")


def _flag(value: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0", ""):
        return value.strip().lower() in ("true", "yes", "1")
    raise InvalidOutput(f"skip must be true or false, got {value!r:.40}")


def _text(fields: Mapping[str, Any], key: str) -> str:
    value = fields.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise InvalidOutput(f"{key} must be a string, got {type(value).__name__}")


# ---- tags ---------------------------------------------------------------------------

def tags_from_answer(response: Any) -> list[str]:
    """The tags of a ``write_tags`` answer: ``{"tags": [...]}``, or a bare JSON list in a text answer.

    Numbers become strings; other non-string items are dropped; the caller normalizes and caps
    (``daemon.distill.tagging.normalize_tags``).

    Raises:
        InvalidOutput: no ``tags`` list in the answer.
    """
    text = answer_text(response)
    value = _find_json(text, "{", "}", dict)
    if value is None:
        listed = _find_json(text, "[", "]", list)
        if listed is None:
            raise InvalidOutput(f"no tags in the answer: {' '.join(text.split())[:120]!r}")
        value = {"tags": listed}
    tags = value.get("tags")
    if not isinstance(tags, list):
        raise InvalidOutput(f"tags must be a list of strings, got {type(tags).__name__}")
    return [str(t).strip() for t in tags
            if isinstance(t, str) or (isinstance(t, (int, float)) and not isinstance(t, bool))]
