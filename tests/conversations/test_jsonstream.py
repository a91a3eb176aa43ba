"""Issue 12, item 4: a huge value is read in pieces, and a huge conversation's messages spill to disk.

The limits are made small here (``BIG``, ``SLICE``, ``MEMORY_ITEMS``) so that
ordinary inputs take the piecewise path; what comes out must be exactly what
``json.loads`` and the whole-value path give.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from daemon.conversations import spill
from daemon.conversations.exports import BadConversation, ExportError, read_export
from daemon.conversations.exports import jsonstream
from daemon.conversations.exports.jsonstream import SPILL_KEYS, JsonStream
from daemon.conversations.spill import Spilled, Subset, pick
from daemon.models import Conversation

_ALPHABET = ["a", "b", " ", '"', "\\", "\n", "é", "\u2028", "😀", "\x01", "\udc80", "/", "u"]


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits so small that every value of a few hundred characters is read in pieces."""
    monkeypatch.setattr(jsonstream, "BIG", 200)
    monkeypatch.setattr(jsonstream, "SLICE", 23)
    monkeypatch.setattr(jsonstream, "CHUNK", 16)
    monkeypatch.setattr(spill, "MEMORY_ITEMS", 4)


def _document(rng: random.Random) -> dict[str, Any]:
    text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 400)))
    messages = [{"id": f"m{n}", "role": "user", "content": text if n == 2 else f"x{n}", "n": [n, 2.5, None]}
                for n in range(rng.randint(0, 25))]
    return {"session_id": "s", "messages": messages, "other": [True, {"text": text}], "text": text}


def _encoded(value: Any, rng: random.Random) -> bytes:
    return json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1])).encode(
        "utf-8", "surrogatepass")


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, Spilled) else value


@pytest.mark.parametrize("seed", range(40))
def test_a_value_read_in_pieces_is_exactly_what_json_gives(small: None, seed: int) -> None:
    rng = random.Random(seed)
    document = _document(rng)
    data = _encoded(document, rng)
    if b"\xed" in data:  # a raw lone surrogate is not UTF-8: such a file would be refused before
        data = json.dumps(document).encode()
    value = JsonStream(io.BytesIO(data), "f.json").value(SPILL_KEYS)
    messages = value["messages"]
    assert isinstance(messages, list) or messages.spilled  # long: moved to disk
    assert {key: _plain(item) for key, item in value.items()} == json.loads(data)


@pytest.mark.parametrize("offset", range(8))
def test_a_huge_string_is_decoded_in_slices_with_no_escape_cut_in_two(
        monkeypatch: pytest.MonkeyPatch, offset: int) -> None:
    monkeypatch.setattr(jsonstream, "BIG", 64)
    monkeypatch.setattr(jsonstream, "SLICE", 20)
    monkeypatch.setattr(jsonstream, "CHUNK", 16)
    # Escapes of every kind land on every slice boundary as the prefix shifts them along.
    text = "x" * offset + "\\\\\\u00e9\\n\\\"\\ud83d\\ude00\\/" * 60
    data = ('{"content": "' + text + '"}').encode()
    stream = JsonStream(io.BytesIO(data), "f.json")
    longest = 0
    more = stream._more  # noqa: SLF001

    def measured(size: int = 16) -> bool:
        nonlocal longest
        longest = max(longest, len(stream._buf))  # noqa: SLF001
        return more(size)

    monkeypatch.setattr(stream, "_more", measured)
    assert stream.value() == json.loads(data)
    assert longest < len(data) // 4  # the buffer held slices, never the whole string


def test_an_error_inside_a_value_read_in_pieces_names_the_line_and_column(small: None) -> None:
    lines = ['{"session_id": "s",', '"messages": ['] + ['{"id": "m%d", "role": "user"},' % n for n in range(20)]
    good = "\n".join(lines + ['{"id": "last", "role": "user"}', "]}"])
    for broken in (good.replace('"m7", "role"', '"m7" "role"'), good.replace('"m9", "role":', '"m9", "role"'),
                   good.replace('"m12"', '"m\\q"'), good.replace('"m15"', "m15"), good.replace('},\n{"id": "m4"', '}\n{"id": "m4"')):
        with pytest.raises(json.JSONDecodeError) as expected:
            json.loads(broken)
        with pytest.raises(ExportError) as caught:
            JsonStream(io.BytesIO(broken.encode()), "f.json").value(SPILL_KEYS)
        where = f"line {expected.value.lineno} column {expected.value.colno}"
        assert str(caught.value) == f"f.json: invalid JSON at {where}: {expected.value.msg}"


def test_an_object_cut_short_in_a_huge_value_says_the_file_ends_early(small: None) -> None:
    data = json.dumps({"session_id": "s", "messages": [{"id": n} for n in range(40)]})[:-1]
    with pytest.raises(ExportError, match="the object is not closed .the file ends early"):
        JsonStream(io.BytesIO(data.encode()), "f.json").value(SPILL_KEYS)


def test_a_string_cut_short_in_a_huge_value_says_the_file_ends_early(small: None) -> None:
    with pytest.raises(ExportError, match="the file ends early"):
        JsonStream(io.BytesIO(b'{"text": "' + b"x" * 1000), "f.json").value()


def _conversations(path: Path) -> list[Conversation | BadConversation]:
    found = list(read_export(path))
    return found


def _same_messages(one: Conversation, other: Conversation) -> None:
    assert one.session_id == other.session_id and one.source == other.source
    assert len(one.messages) == len(other.messages)
    for a, b in zip(one.messages, other.messages, strict=True):
        assert (a.id, a.role, a.name, a.text, a.time, dict(a.record), a.blocks) == \
               (b.id, b.role, b.name, b.text, b.time, dict(b.record), b.blocks)


EXPORTS: dict[str, Any] = {
    "native": {"session_id": "long", "messages": [
        *({"id": f"m{n}", "role": "user" if n % 2 else "assistant", "content": f"Fact {n}: é \n",
           "created_at": f"2026-01-05T10:{n % 60:02d}:00"} for n in range(30)),
        {"id": "m3", "role": "user", "content": "a second copy of m3: the first is kept"},
        {"role": "user", "content": "no id"}, {"role": "user", "content": "no id"},
        {"role": "assistant", "content": [{"type": "text", "text": "blocks"}, {"type": "tool_result"}]}]},
    "openai": {"messages": [{"role": "user" if n % 2 else "assistant", "content": f"Turn {n}"} for n in range(30)]},
    "sharegpt": {"conversations": [{"from": "human" if n % 2 else "gpt", "value": f"Turn {n}"} for n in range(30)]},
    "claude": [{"uuid": "c1", "name": "t", "chat_messages": [
        {"uuid": f"u{n}", "sender": "human" if n % 2 else "assistant", "text": f"Turn {n}",
         "created_at": f"2026-01-05T10:{(59 - n) % 60:02d}:00Z"} for n in range(30)]}],
    "bare": [{"role": "user", "content": f"Line {n}"} for n in range(30)],
}


@pytest.mark.parametrize("shape", sorted(EXPORTS))
def test_a_conversation_read_one_message_at_a_time_gives_the_same_messages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(EXPORTS[shape], ensure_ascii=False), encoding="utf-8")
    [whole] = _conversations(path)
    assert isinstance(whole, Conversation) and isinstance(whole.messages, tuple)
    monkeypatch.setattr(jsonstream, "BIG", 200)
    monkeypatch.setattr(spill, "MEMORY_ITEMS", 4)
    [streamed] = _conversations(path)
    assert isinstance(streamed, Conversation) and isinstance(streamed.messages, Spilled)
    _same_messages(streamed, whole)


def test_a_bad_message_deep_in_a_spilled_conversation_fails_it_naming_the_message(
        tmp_path: Path, small: None) -> None:
    messages: list[Any] = [{"id": f"m{n}", "role": "user", "content": f"Fact {n}"} for n in range(40)]
    messages[33] = {"id": "m33", "content": "no role"}
    path = tmp_path / "export.json"
    path.write_text(json.dumps([{"session_id": "a", "messages": messages}]), encoding="utf-8")
    with pytest.raises(ExportError, match=r"messages\[33\]: field 'role' is required"):
        list(read_export(path))


def test_spilled_keeps_the_first_copy_of_a_key_and_reads_back_in_order() -> None:
    items = Spilled(((f"k{n % 7}", n) for n in range(30)), key=lambda item: item[0], memory_items=3)
    assert items.spilled and len(items) == 7
    assert list(items) == [(f"k{n}", n) for n in range(7)]
    assert items[-1] == ("k6", 6) and items[2:4] == (("k2", 2), ("k3", 3))
    with pytest.raises(IndexError):
        items[7]
    in_memory = Spilled(((f"k{n % 7}", n) for n in range(30)), key=lambda item: item[0], memory_items=10)
    assert not in_memory.spilled and in_memory.settled() == tuple(items)
    items.close()
    assert len(items) == 0


def test_a_subset_of_a_spilled_sequence_reads_only_its_items() -> None:
    items = Spilled(range(100), memory_items=10)
    picked = pick(items, [3, 50, 99])
    assert isinstance(picked, Subset) and list(picked) == [3, 50, 99] and picked[1] == 50
    assert list(pick(picked, [0, 2])) == [3, 99] and list(pick(picked, [])) == []
    assert pick((10, 11, 12), [0, 2]) == (10, 12)
