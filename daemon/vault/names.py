"""File-name rules shared by session ids, card names and paths.

One validator for everything the daemon turns into a file name: what Windows,
macOS and Linux accept, plus what Obsidian can link (no ``# ^ [ ] |``). A name
that passes can be a file name and a wikilink target on every platform.
"""

from __future__ import annotations

import re
import unicodedata

from daemon.errors import InputError

_FORBIDDEN = set('<>:"/\\|?*#^[]')
# Bidirectional controls (U+202E "right-to-left override" and friends) make a name display as
# something else (``evil\u202egpj.md`` shows as ``evilbmd.jpg``): refused like control characters.
_BIDI = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def _unsafe(ch: str) -> bool:
    return ch in _FORBIDDEN or ch in _BIDI or ord(ch) < 32 or 127 <= ord(ch) < 160
_DEVICE_NAMES = {"CON", "PRN", "AUX", "NUL"} | {f"{p}{i}" for p in ("COM", "LPT") for i in range(1, 10)}
_MAX_LEN = 120


def component_problem(value: str, kind: str) -> str | None:
    """Say why ``value`` is not a valid single file-name component, or None when it is."""
    if not isinstance(value, str) or not value:
        return f"{kind} is required"
    if value in (".", ".."):
        return f"{kind} cannot be '.' or '..': {value!r}"
    if value != value.strip():
        return f"{kind} cannot have leading or trailing whitespace: {value!r}"
    if any(_unsafe(ch) for ch in value):
        return (
            f"{kind} contains a character that cannot be in a file name or an Obsidian link "
            f"(one of < > : \" / \\ | ? * # ^ [ ], a control or a bidirectional control character): {value!r}"
        )
    if value.endswith("."):
        return f"{kind} cannot end with '.': {value!r}"
    if value.split(".")[0].upper() in _DEVICE_NAMES:
        return f"{kind} is a Windows-reserved device name: {value!r}"
    if len(value.encode("utf-8")) > 200:
        return f"{kind} is too long (at most 200 bytes): {value[:40]!r}…"
    return None


def validate_component(value: str, kind: str) -> str:
    """Return ``value`` when it is a valid component, else raise InputError naming ``kind``."""
    problem = component_problem(value, kind)
    if problem:
        raise InputError(problem)
    return value


def safe_name(raw: str, fallback: str = "conversation") -> str:
    """Turn any proposed card name into a valid, readable file-name stem.

    Strips a trailing ``.md`` (no doubled extensions), replaces forbidden
    characters with ``-``, trims dots and spaces, and shortens long names at a
    word boundary.
    """
    name = unicodedata.normalize("NFC", str(raw or "")).strip()
    if name.lower().endswith(".md"):
        name = name[:-3]
    name = "".join(" " if _unsafe(ch) else ch for ch in name)
    name = re.sub(r"\s+", " ", name)
    name = re.sub(r"-{2,}", "-", name).strip(" .-")
    if len(name) > _MAX_LEN:
        cut = name[:_MAX_LEN]
        name = (cut.rsplit("-", 1)[0] if "-" in cut[40:] else cut).strip(" .-")
    if not name or component_problem(name, "name"):
        name = f"{name}-note" if name and name.split(".")[0].upper() in _DEVICE_NAMES else fallback
    return name
