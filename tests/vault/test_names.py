"""The one file-name validator, and making distiller names safe."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daemon.errors import InputError
from daemon.vault.names import component_problem, safe_name, validate_component


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "is required"),
        (".", "cannot be '.' or '..'"),
        ("..", "cannot be '.' or '..'"),
        (" x", "leading or trailing whitespace"),
        ("x ", "leading or trailing whitespace"),
        ("bad/name", "contains a character"),
        ("a\\b", "contains a character"),
        ("a:b", "contains a character"),
        ("C# tips", "contains a character"),
        ("^block", "contains a character"),
        ("[x]", "contains a character"),
        ("a|b", "contains a character"),
        ("nl\nx", "contains a character"),
        ("del\x7f", "contains a character"),
        ("dot.", "cannot end with '.'"),
        ("CON", "Windows-reserved"),
        ("con.md", "Windows-reserved"),
        ("lpt9", "Windows-reserved"),
        ("x" * 201, "too long"),
    ],
)
def test_rejected(value: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        validate_component(value, "name")


@pytest.mark.parametrize("value", ["session-a", ".hidden", "COM0", "登录重构", "100%", "a.b", "it's fine", "x" * 200])
def test_accepted(value: str) -> None:
    assert validate_component(value, "session_id") == value


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("topic.md", "topic"), ("a.md.md", "a.md"), ("C# tips [draft]", "C tips draft"), ("CON", "CON-note"),
     ("...", "conversation"), ("", "conversation"), ("  spaced  out  ", "spaced out")],
)
def test_safe_name(raw: str, expected: str) -> None:
    assert safe_name(raw) == expected


@given(st.text(max_size=300))
def test_safe_name_is_always_valid(raw: str) -> None:
    name = safe_name(raw)
    assert component_problem(name, "name") is None
    assert not name.lower().endswith(".md")


@given(st.text(min_size=1, max_size=60))
def test_valid_names_are_stable_under_safe_name(raw: str) -> None:
    # Valid, already-NFC names come back unchanged (safe_name normalizes to NFC, as macOS would).
    if component_problem(raw, "name") is None and not raw.lower().endswith(".md") and "  " not in raw \
            and unicodedata.normalize("NFC", raw) == raw \
            and raw.strip(" .-") == raw and "--" not in raw and not any(c.isspace() and c != " " for c in raw):
        assert safe_name(raw) == raw


@pytest.mark.parametrize("control", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u061c", "\x85"])
def test_bidirectional_controls_are_refused_and_dropped_from_card_names(control: str) -> None:
    with pytest.raises(InputError, match="bidirectional control"):
        validate_component(f"session{control}gpj.md", "session_id")
    name = safe_name(f"invoice{control}fdp.exe")
    assert control not in name and component_problem(name, "name") is None
