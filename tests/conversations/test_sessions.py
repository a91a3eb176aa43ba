"""Merging messages into the source record."""

from __future__ import annotations

import json
from datetime import timezone
from pathlib import Path

from daemon.conversations.formats import parse_messages
from daemon.conversations.sessions import merge_record, record_messages


def parse(*items: dict) -> tuple:
    return parse_messages(list(items))


def test_append_when_old_lines_are_a_prefix() -> None:
    first = merge_record(None, parse({"id": "a", "role": "user", "content": "x", "created_at": "2023-01-01T00:00:00"}),
                         timezone.utc)
    assert first.text is not None and first.appended
    second = merge_record(first.text, parse({"id": "b", "role": "user", "content": "y",
                                             "created_at": "2023-01-02T00:00:00"}), timezone.utc)
    assert second.text is not None and second.text.startswith(first.text) and second.appended
    assert [m.id for m in second.new] == ["b"]


def test_rewrite_when_an_earlier_message_arrives() -> None:
    text = merge_record(None, parse({"id": "b", "role": "user", "content": "y", "created_at": 1674115300}),
                        timezone.utc).text
    update = merge_record(text, parse({"id": "a", "role": "user", "content": "x",
                                       "created_at": "2023-01-19T08:00:00Z"}), timezone.utc)
    assert not update.appended
    assert [r["id"] for r in record_messages(update.text or "")] == ["a", "b"]


def test_same_messages_are_no_change_and_an_edit_replaces_by_id() -> None:
    messages = parse({"id": "a", "role": "user", "content": "x"})
    text = merge_record(None, messages, None).text
    assert merge_record(text, messages, None).text is None
    edited = merge_record(text, parse({"id": "a", "role": "user", "content": "x, edited"}), None)
    assert [r["content"] for r in record_messages(edited.text or "")] == ["x, edited"]
    assert [m.text for m in edited.new] == ["x, edited"]


def test_messages_without_time_keep_their_place() -> None:
    update = merge_record(None, parse(
        {"id": "1", "role": "user", "content": "a", "created_at": "2023-01-01T10:00:00"},
        {"id": "2", "role": "user", "content": "b"},
        {"id": "0", "role": "user", "content": "c", "created_at": "2023-01-01T09:00:00"},
    ), timezone.utc)
    assert [json.loads(line)["id"] for line in (update.text or "").splitlines()] == ["0", "1", "2"]


def test_line_separators_inside_text_do_not_split_records() -> None:
    text = merge_record(None, parse({"id": "a", "role": "user", "content": "one\u2028two\x85three"}), None).text
    again = merge_record(text, parse({"id": "a", "role": "user", "content": "one\u2028two\x85three"}), None)
    assert again.text is None and [r["content"] for r in record_messages(text or "")] == ["one\u2028two\x85three"]


def test_an_older_shorter_snapshot_never_shrinks_a_message() -> None:
    full = parse({"id": "a", "role": "assistant", "content": "Use Helm 3; pin the chart version; run helm diff first."})
    text = merge_record(None, full, None).text
    older = merge_record(text, parse({"id": "a", "role": "assistant", "content": "Use Helm 3; pin"},
                                     {"id": "b", "role": "user", "content": "ok"}), None)
    assert [m.id for m in older.new] == ["b"]  # the cut-off "a" is not new: nothing to distill
    assert [r["content"] for r in record_messages(older.text or "")] == [
        "Use Helm 3; pin the chart version; run helm diff first.", "ok"]
    assert merge_record(text, parse({"id": "a", "role": "assistant", "content": "Use Helm"}), None).text is None


def test_record_ids_read_line_by_line_are_the_ids_of_the_parsed_record(tmp_path: Path) -> None:
    from daemon.conversations.sessions import record_ids

    text = ('{"id":"a","content":"one\u2028two"}\n\nnot json\n{"no_id":1}\n[1]\n'
            '{"id":"b","content":"x"}\n{"id":3}')
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    with open(path, encoding="utf-8", newline="\n") as lines:
        assert record_ids(lines) == {str(r["id"]) for r in record_messages(text)} == {"a", "b", "3"}
