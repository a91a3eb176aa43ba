"""Parsing messages: shapes, timestamps, ids."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daemon.errors import InputError
from daemon.conversations.formats import parse_messages
from daemon.conversations.images import collect


def test_string_and_block_content_and_agentscope_msg() -> None:
    agentscope = {"id": "abc", "name": "Jon", "role": "user", "created_at": "2023-01-19T08:00:00",
                  "content": [{"type": "text", "text": "line one"}, {"type": "thinking", "thinking": "hmm"},
                              {"text": "no type is text"}], "metadata": {}}
    plain = {"role": "assistant", "content": "hello"}
    first, second = parse_messages([agentscope, plain])
    assert (first.id, first.name, first.role, first.speaker) == ("abc", "Jon", "user", "Jon")
    assert first.text == "line one\nno type is text"
    assert first.time == datetime(2023, 1, 19, 8, 0)
    assert second.speaker == "assistant" and second.text == "hello" and second.time is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2023-01-19T08:00:00", datetime(2023, 1, 19, 8)),
        ("2023-01-19T08:00:00Z", datetime(2023, 1, 19, 8, tzinfo=timezone.utc)),
        ("2023-01-19T08:00:00+08:00", datetime(2023, 1, 19, tzinfo=timezone.utc)),
        (1674115200, datetime(2023, 1, 19, 8, tzinfo=timezone.utc)),
        (1674115200.5, datetime(2023, 1, 19, 8, 0, 0, 500000, tzinfo=timezone.utc)),
        (1674115200000, datetime(2023, 1, 19, 8, tzinfo=timezone.utc)),
        ("1674115200", datetime(2023, 1, 19, 8, tzinfo=timezone.utc)),
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
    ],
)
def test_timestamps(value: Any, expected: datetime) -> None:
    (message,) = parse_messages([{"role": "user", "content": "x", "created_at": value}])
    assert message.time == expected
    assert message.record["created_at"] == value


def test_alias_order_top_level_before_metadata() -> None:
    (message,) = parse_messages([{"role": "user", "content": "x", "timeCreated": "2023-01-02",
                                  "created_time": "2023-01-03", "metadata": {"timestamp": "2023-01-04"}}])
    assert message.time == datetime(2023, 1, 2) and message.record["created_at"] == "2023-01-02"


def test_ids_are_deterministic_and_distinct() -> None:
    raw = [{"role": "user", "content": "ok"}, {"role": "user", "content": "ok"}, {"role": "user", "content": "no"}]
    ids = [m.id for m in parse_messages(raw)]
    assert ids == [m.id for m in parse_messages(raw)]
    assert len(set(ids)) == 3
    other = parse_messages([{"role": "user", "content": "ok", "name": "b"}])[0].id
    assert other not in ids
    assert parse_messages([{"role": "user", "content": "ok", "id": 7}])[0].id == "7"


def test_images_detected_from_original_blocks() -> None:
    image = {"type": "data", "source": {"type": "base64", "media_type": "image/png", "data": "aGk="}}
    audio = {"type": "data", "source": {"type": "url", "media_type": "audio/mp3", "url": "https://a"}}
    (with_image,) = parse_messages([{"role": "user", "content": [image]}])
    (with_audio,) = parse_messages([{"role": "user", "content": [audio]}])
    assert len(collect([with_image])) == 1 and collect([with_audio]) == []
    assert with_image.record["content"] == []


@pytest.mark.parametrize("bad_id", [True, 1.5, {"a": 1}, [1]])
def test_bad_id(bad_id: Any) -> None:
    with pytest.raises(InputError, match=r"messages\[0\]: field 'id'"):
        parse_messages([{"role": "user", "content": "x", "id": bad_id}])


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
                           max_leaves=8)


@given(st.lists(st.dictionaries(st.sampled_from(["role", "content", "name", "id", "created_at", "metadata", "x"]),
                                json_values, max_size=6), max_size=4))
def test_arbitrary_json_parses_or_fails_clearly(raw: list[dict[str, Any]]) -> None:
    try:
        messages = parse_messages(raw)
    except InputError as exc:
        assert str(exc).startswith("messages[")
    else:
        assert len(messages) == len(raw)
        assert all(isinstance(m.text, str) and m.id for m in messages)
