"""Reading chat exports from hostile or broken files: clear errors, bounded memory, no tracebacks."""

from __future__ import annotations

import copy
import io
import json
import tempfile
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daemon.conversations.exports import SUPPORTED, BadConversation, ExportError, Limits, read_export
from daemon.models import Conversation


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def error_of(path: Path, limits: Limits = Limits()) -> str:
    with pytest.raises(ExportError) as caught:
        list(read_export(path, limits))
    return str(caught.value)


def chatgpt(ident: str, text: str = "hello") -> dict[str, Any]:
    """A minimal ChatGPT conversation: root and one user message."""
    message = {"id": "u", "author": {"role": "user"}, "create_time": 1700000000.0,
               "content": {"content_type": "text", "parts": [text]}}
    return {"id": ident, "title": f"title {ident}", "current_node": "u",
            "mapping": {"r": {"id": "r", "message": None, "parent": None, "children": ["u"]},
                        "u": {"id": "u", "message": message, "parent": "r", "children": []}}}


def zipped(entries: dict[str, bytes | str], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# ---- whole-file errors -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("", "the file is empty"),
        (" \n\t ", "the file is empty"),
        ('[{"id": "a", "mapping": {}}, {"id": "b", "mapp', "line 1 column 47: the top-level array is not closed"),
        ('{"session_id": "s",\n "messages": [', "line 2 column 15: Expecting value (the file ends early"),
        ('{"session_id": "s", "messages": []} trailing, more', "Extra data"),
        ('[{"role": "user", "content": "x"},\n {"role": "user" "content": "y"}]',
         "line 2 column 18: Expecting ',' delimiter"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text"),
        ('{"session_id": "caf\xe9", "messages": []}'.encode("latin-1"), "not UTF-8 text (invalid byte near offset 19)"),
        ('"just a string"', "not a supported export"),
        ("[1, 2, 3]", "its first element is a number"),
        ('{"foo": {"bar": 1}}', "its first value is an object with keys foo"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("[" + "7" * 5000 + "]", "invalid JSON at line 1 column 2"),
    ],
    ids=["empty", "whitespace", "truncated-array", "truncated-object", "trailing-data", "syntax-error", "png",
         "latin-1", "string", "numbers", "unknown-object", "too-deep", "huge-integer"],
)
def test_unusable_file_is_one_clear_error(tmp_path: Path, data: str | bytes, expected: str) -> None:
    message = error_of(write(tmp_path, "export.json", data))
    assert message.startswith("export.json: ")
    assert expected in message


def test_unknown_shape_lists_what_is_supported(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, "odd.json", '{"hello": "world"}'))
    assert "not a supported export" in message and SUPPORTED in message


def test_bom_is_accepted_and_utf16_is_not(tmp_path: Path) -> None:
    native = {"session_id": "s-1", "messages": [{"role": "user", "content": "héllo"}]}
    (conversation,) = read_export(write(tmp_path, "bom.json", b"\xef\xbb\xbf" + json.dumps(native).encode()))
    assert isinstance(conversation, Conversation) and conversation.messages[0].text == "héllo"
    assert "not UTF-8 text" in error_of(write(tmp_path, "utf16.json", json.dumps(native).encode("utf-16")))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ([{"id": "x", "mapping": 5, "current_node": "u"}], "'mapping' must be an object, got a number"),
        ({"session_id": "s", "messages": [{"role": "user", "content": 5}]}, "'content' must be a string or a list"),
        ({"session_id": ["s"], "messages": []}, "'session_id' must be a non-empty string"),
        ([{"uuid": "c", "chat_messages": [{"sender": "robot", "text": "x"}]}], "'sender' must be 'human'"),
        ({"conversations": "hi"}, "'conversations' must be a list of turns"),
        ([{"sample_id": "conv-1", "conversation": {"session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "x"}],
                                                   "session_1_date_time": "yesterday"}}],
         "'session_1_date_time' is not a date"),
    ],
)
def test_wrong_types_in_the_only_conversation_fail_the_file(tmp_path: Path, value: Any, expected: str) -> None:
    message = error_of(write(tmp_path, "export.json", json.dumps(value)))
    assert message.startswith("export.json: no conversation could be read: ") and expected in message


# ---- one bad conversation among good ones ----------------------------------------------------------


def test_bad_conversation_is_reported_in_place_and_the_others_import(tmp_path: Path) -> None:
    broken_parts = copy.deepcopy(chatgpt("c"))
    broken_parts["mapping"]["u"]["message"]["content"]["parts"] = "not a list"
    value = [chatgpt("a"), {"id": "b", "title": "Broken", "mapping": []}, broken_parts, 42, chatgpt("d")]
    items = list(read_export(write(tmp_path, "conversations.json", json.dumps(value))))
    assert [type(item).__name__ for item in items] == ["Conversation", "BadConversation", "BadConversation",
                                                       "BadConversation", "Conversation"]
    assert items[1] == BadConversation("ChatGPT conversation 2 (id b, “Broken”)",
                                       "conversation: 'mapping' must be an object, got a list")
    assert "'parts' must be a list" in items[2].reason and items[2].label.startswith("ChatGPT conversation 3 (id c")
    assert items[3] == BadConversation("ChatGPT conversation 4", "expected a ChatGPT conversation, got a number")


def test_bad_conversations_before_the_first_good_one_are_still_yielded(tmp_path: Path) -> None:
    value = [{"id": "b", "mapping": None}, chatgpt("a")]
    items = list(read_export(write(tmp_path, "conversations.json", json.dumps(value))))
    assert isinstance(items[0], BadConversation) and isinstance(items[1], Conversation)


def test_locomo_bad_session_does_not_sink_the_sample(tmp_path: Path) -> None:
    turn = {"speaker": "A", "dia_id": "D1:1", "text": "hi"}
    sample = {"sample_id": "conv-9", "conversation": {
        "session_1": [turn], "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_2": [{"speaker": 7}], "session_2_date_time": "2:00 pm on 9 May, 2023",
        "session_3_date_time": "2:00 pm on 10 May, 2023"}}
    good, bad = read_export(write(tmp_path, "locomo.json", json.dumps([sample])))
    assert isinstance(good, Conversation) and good.session_id == "locomo-conv-9-s1"
    assert bad == BadConversation("LoCoMo sample conv-9 session 2", "session_2[0]: 'text' must be a string")


def test_duplicate_ids_are_deduplicated(tmp_path: Path) -> None:
    twin = chatgpt("same")
    changed = chatgpt("same", "hello again")
    value = [twin, twin, changed]
    items = list(read_export(write(tmp_path, "conversations.json", json.dumps(value))))
    # an exact repeat is yielded once; a different copy of the same session is yielded for the merge by id
    assert [(c.session_id, c.messages[0].text) for c in items if isinstance(c, Conversation)] == [
        ("chatgpt-same", "hello"), ("chatgpt-same", "hello again")]
    claude = [{"uuid": "c", "chat_messages": [{"uuid": "m", "sender": "human", "text": "one"},
                                              {"uuid": "m", "sender": "human", "text": "copy"}]}]
    (conversation,) = read_export(write(tmp_path, "claude.json", json.dumps(claude)))
    assert isinstance(conversation, Conversation) and [m.text for m in conversation.messages] == ["one"]


# ---- JSON Lines -----------------------------------------------------------------------------


def line(uuid: str, text: str) -> str:
    return json.dumps({"type": "user", "uuid": uuid, "sessionId": "s", "timestamp": "2026-02-10T21:11:56.846Z",
                       "message": {"role": "user", "content": text}}) + "\n"


def test_jsonl_tolerates_a_half_written_last_line_only(tmp_path: Path) -> None:
    live = write(tmp_path, "s.jsonl", line("1", "one") + line("2", "two") + '{"type": "user", "uuid": "3", "mes')
    (conversation,) = read_export(live)
    assert isinstance(conversation, Conversation) and [m.text for m in conversation.messages] == ["one", "two"]
    broken = write(tmp_path, "b.jsonl", line("1", "one") + '{"type": "user", oops}\n' + line("2", "two"))
    assert "b.jsonl: invalid JSON at line 2 column 18" in error_of(broken)


def test_claude_code_line_with_wrong_content_type_marks_its_session(tmp_path: Path) -> None:
    bad = json.dumps({"type": "user", "uuid": "9", "sessionId": "t", "message": {"role": "user", "content": 5}})
    items = list(read_export(write(tmp_path, "s.jsonl", line("1", "fine") + bad + "\n")))
    assert isinstance(items[0], Conversation) and items[0].session_id == "claude-code-s"
    assert items[1] == BadConversation("Claude Code session claude-code-t",
                                       "line uuid 9: user message content must be a string or a list of blocks, "
                                       "got int")


# ---- ZIP ------------------------------------------------------------------------------------


def test_chatgpt_and_claude_zips_read_their_conversation_files(tmp_path: Path) -> None:
    sharded = zipped({"conversations-001.json": json.dumps([chatgpt("b")]), "user.json": "{}",
                      "conversations-000.json": json.dumps([chatgpt("a")]), "chat.html": "<html>",
                      "file-abc.png": b"\x89PNG"})
    assert [c.session_id for c in read_export(write(tmp_path, "export.zip", sharded))] == ["chatgpt-a", "chatgpt-b"]
    claude = [{"uuid": "u-1", "chat_messages": [{"uuid": "m", "sender": "human", "text": "hi"}]}]
    archive = zipped({"conversations.json": json.dumps(claude), "users.json": "[]", "projects.json": "[]"})
    assert [c.session_id for c in read_export(write(tmp_path, "claude.zip", archive))] == ["claude-u-1"]


@pytest.mark.parametrize(
    ("entries", "limits", "expected"),
    [
        ({"../evil.json": "[]"}, Limits(), "unsafe ZIP entry '../evil.json': '..' in the path"),
        ({"a/../../evil.json": "[]"}, Limits(), "'..' in the path"),
        ({"/etc/evil.json": "[]"}, Limits(), "unsafe ZIP entry '/etc/evil.json': absolute path"),
        ({"C:\\evil.json": "[]"}, Limits(), "absolute path"),
        ({"conversations.json": "[" + " " * (8 << 20) + "]"}, Limits(), "(a ZIP bomb?)"),
        ({f"{n}.json": "[]" for n in range(5)}, Limits(max_zip_entries=4), "5 entries, more than the limit of 4"),
        ({"conversations.json": "[]" + " " * 5000}, Limits(max_uncompressed_bytes=1000), "more than the limit"),
        ({"readme.txt": "hi", "users.json": "[]"}, Limits(), "the ZIP holds no conversations file"),
    ],
    ids=["dot-dot", "nested-dot-dot", "absolute", "drive-letter", "bomb", "entry-count", "total-size", "no-conversations"],
)
def test_unsafe_or_empty_zip_is_refused(tmp_path: Path, entries: dict[str, str], limits: Limits,
                                        expected: str) -> None:
    assert expected in error_of(write(tmp_path, "export.zip", zipped(entries)), limits)


def test_damaged_zip_and_oversized_file_are_refused(tmp_path: Path) -> None:
    whole = zipped({"conversations.json": json.dumps([chatgpt("a")])})
    assert "not a readable ZIP archive" in error_of(write(tmp_path, "cut.zip", whole[: len(whole) // 2]))
    assert "more than the limit of 10" in error_of(write(tmp_path, "big.json", "[]" + " " * 20), Limits(10))


def test_zip_entry_with_bad_crc_is_refused(tmp_path: Path) -> None:
    data = bytearray(zipped({"conversations.json": json.dumps([chatgpt("a", "x" * 200)])}, zipfile.ZIP_STORED))
    at = bytes(data).index(b"xxxx")
    data[at] = ord("y")  # the stored bytes no longer match the CRC in the header
    assert "Bad CRC-32" in error_of(write(tmp_path, "crc.zip", bytes(data)))


# ---- streaming ------------------------------------------------------------------------------


def test_big_array_is_streamed_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for n in range(20_000):
            out.write(("," if n else "") + json.dumps(chatgpt(f"c{n}", f"message {n} " + "x" * 900)))
        out.write("]")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        count = sum(1 for item in read_export(path) if isinstance(item, Conversation))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 20_000
    assert size > 20_000_000 and peak < size / 4, (size, peak)


# ---- properties -----------------------------------------------------------------------------

KEYS = ["mapping", "current_node", "id", "title", "create_time", "message", "author", "role", "content",
        "content_type", "parts", "parent", "children", "chat_messages", "uuid", "sender", "text", "sample_id",
        "conversation", "session_1", "session_1_date_time", "speaker", "dia_id", "blip_caption",
        "haystack_sessions", "haystack_session_ids", "haystack_dates", "question_id", "session_id", "messages",
        "conversations", "from", "value", "type", "sessionId", "agentId", "isMeta", "timestamp", "created_at",
        "tool_calls", "function", "name", "input", "attachments", "files", "recipient", "metadata"]
scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
           | st.sampled_from(KEYS + ["user", "assistant", "human", "gpt", "text", "tool_use", "u", "r"]))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4),
                                                                      children, max_size=6),
    max_leaves=40,
)

SAMPLES: list[Any] = [
    [chatgpt("a"), chatgpt("b")],
    [{"uuid": "c", "name": "n", "chat_messages": [
        {"uuid": "m", "sender": "human", "created_at": "2024-06-01T10:00:00Z",
         "content": [{"type": "text", "text": "hi"}, {"type": "tool_use", "name": "x", "input": {}}]}]}],
    {"sample_id": "conv-1", "conversation": {
        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "x", "blip_caption": "c"}],
        "session_1_date_time": "1:56 pm on 8 May, 2023"}},
    [{"question_id": "q", "haystack_session_ids": ["s"], "haystack_dates": ["2023/05/20 (Sat) 02:21"],
      "haystack_sessions": [[{"role": "user", "content": "x"}]]}],
    {"session_id": "s", "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]},
    {"messages": [{"role": "assistant", "content": None,
                   "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}]},
    [{"id": "i", "conversations": [{"from": "human", "value": "x"}, {"from": "function_call", "value": "{}"}]}],
    [{"type": "user", "uuid": "1", "sessionId": "s", "message": {"role": "user", "content": "x"}},
     {"type": "assistant", "uuid": "2", "sessionId": "s", "message": {"id": "m", "content": [{"type": "text"}]}}],
]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position in a JSON value, for replacing one subtree."""
    found = [prefix]
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in children:
        found += paths(child, prefix + (key,))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = copy.deepcopy(value)
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copied


def only_export_errors(text: str) -> None:
    """Reading ``text`` as a file either works or raises ExportError: never another exception."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "export.json"
        path.write_text(text, encoding="utf-8")
        try:
            items = list(read_export(path))
        except ExportError:
            return
        assert all(isinstance(item, (Conversation, BadConversation)) for item in items)


quick: Callable[[Any], Any] = settings(max_examples=300, deadline=None,
                                       suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                              HealthCheck.too_slow])


@quick
@given(json_values)
def test_arbitrary_json_raises_nothing_but_export_error(value: Any) -> None:
    only_export_errors(json.dumps(value))


@quick
@given(st.sampled_from(SAMPLES).flatmap(lambda sample: st.tuples(st.just(sample), st.sampled_from(paths(sample)))),
       json_values)
def test_valid_exports_with_one_subtree_replaced_raise_nothing_but_export_error(
        target: tuple[Any, tuple[Any, ...]], new: Any) -> None:
    sample, path = target
    only_export_errors(json.dumps(replaced(sample, path, new)))


@quick
@given(st.lists(json_values, min_size=1, max_size=4))
def test_arbitrary_json_lines_raise_nothing_but_export_error(values: list[Any]) -> None:
    only_export_errors("\n".join(json.dumps(value) for value in values))
