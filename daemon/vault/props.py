"""Obsidian properties (YAML frontmatter): read them, and change single keys surgically.

``set_props`` rewrites only the lines of the keys it is given; every other
key, its order, quoting and comments, the body, line endings and a BOM stay
byte-for-byte. Reading uses PyYAML's safe loader.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

import yaml

_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^\n]*")
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL = "tag:yaml.org,2002:bool"


class _Loader(_BASE_LOADER):  # type: ignore[misc,valid-type]
    """YAML 1.2 booleans, as Obsidian reads them: ``no``, ``on`` and ``yes`` are words, not booleans."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL]
    for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_LOADER = _Loader
# Characters YAML does not allow raw (or reads as line breaks) inside a double-quoted scalar.
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_KEY_LINE = re.compile(r"^([^\s#:][^:]*?)\s*:(?:\s|$)")


@dataclass(frozen=True)
class Split:
    """Where the frontmatter is: ``text[yaml_start:yaml_end]`` is the YAML, ``text[body_start:]`` the body."""

    yaml_start: int
    yaml_end: int
    body_start: int
    newline: str


def split(text: str) -> Split | None:
    """Locate the frontmatter block, or None when the note has none."""
    offset = 1 if text.startswith("\ufeff") else 0
    first = text.find("\n", offset)
    if first < 0 or text[offset:first].rstrip("\r").rstrip() != "---":
        return None
    newline = "\r\n" if text[first - 1 : first] == "\r" else "\n"
    pos = first + 1
    while pos <= len(text):
        end = text.find("\n", pos)
        line_end = len(text) if end < 0 else end
        line = text[pos:line_end].rstrip("\r").rstrip()
        if line in ("---", "..."):
            return Split(first + 1, pos, len(text) if end < 0 else end + 1, newline)
        if end < 0:
            return None
        pos = end + 1
    return None


def read(text: str) -> dict[str, Any]:
    """The properties as a dict; {} when there are none or the YAML is not a mapping."""
    where = split(text)
    if where is None:
        return {}
    try:
        value = yaml.load(text[where.yaml_start : where.yaml_end], Loader=_LOADER)
    except yaml.YAMLError:
        return {}
    return value if isinstance(value, dict) else {}


def body(text: str) -> str:
    where = split(text)
    return text if where is None else text[where.body_start :]


def render(key: str, value: Any, newline: str = "\n") -> str:
    """``key: value`` as YAML lines (lists in block style, strings quoted when needed)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return f"{key}: []{newline}"
        return f"{key}:{newline}" + "".join(f"  - {scalar(v)}{newline}" for v in value)
    return f"{key}: {scalar(value)}{newline}"


def scalar(value: Any) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and ": " not in text and " #" not in text and not text.endswith(":"):
        try:
            if yaml.safe_load(text) == text:
                return text
        except yaml.YAMLError:
            pass
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def set_props(text: str, updates: Mapping[str, Any]) -> str:
    """Set (or, with None, delete) top-level keys, touching only their lines."""
    where = split(text)
    if where is None:
        newline = "\r\n" if "\r\n" in text else "\n"
        block = "".join(render(k, v, newline) for k, v in updates.items() if v is not None)
        if not block:
            return text
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        return f"{bom}---{newline}{block}---{newline}{text[len(bom):]}"
    # Split on "\n" only: str.splitlines would also break at U+0085 or U+2028 inside a value.
    lines = [line + "\n" for line in text[where.yaml_start : where.yaml_end].split("\n")]
    lines[-1] = lines[-1][:-1]
    if lines and lines[-1] == "":
        lines.pop()
    spans = _key_spans(lines)
    pending = dict(updates)
    out: list[str] = []
    index = 0
    while index < len(lines):
        key = _top_key(lines[index])
        if key is not None and key in pending:
            value = pending.pop(key)
            if value is not None:
                out.append(render(key, value, where.newline))
            index = spans[index]
            continue
        out.append(lines[index])
        index += 1
    if out and not out[-1].endswith("\n"):
        out[-1] += where.newline
    out.extend(render(k, v, where.newline) for k, v in pending.items() if v is not None)
    return text[: where.yaml_start] + "".join(out) + text[where.yaml_end :]


def _top_key(line: str) -> str | None:
    match = _KEY_LINE.match(line)
    if not match:
        return None
    key = match.group(1).strip()
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
        key = key[1:-1]
    return key


def _key_spans(lines: list[str]) -> dict[int, int]:
    """For each top-level key line, the index just past its value's continuation lines."""
    spans: dict[int, int] = {}
    for index, line in enumerate(lines):
        if _top_key(line) is None:
            continue
        end = index + 1
        while end < len(lines) and (lines[end][:1] in (" ", "\t", "-") or not lines[end].strip()):
            if not lines[end].strip() and not _continues(lines, end):
                break
            end += 1
        spans[index] = end
    return spans


def _continues(lines: list[str], index: int) -> bool:
    """A blank line belongs to a value only when an indented line follows it."""
    for later in lines[index + 1 :]:
        if later.strip():
            return later[:1] in (" ", "\t")
    return False
