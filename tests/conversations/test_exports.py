"""Reading chat exports: every real corpus file, pinned as golden summaries, and each format's rules.

The corpus lives outside the project (``<repo>/../shared/corpus``; LoCoMo is
CC BY-NC, so it is read in place, never copied). Expectations below were
derived once, checked by eye against the raw files, then pinned.
"""

from __future__ import annotations

import copy
import json
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from daemon.conversations.exports import BadConversation, read_export
from daemon.models import Conversation
from daemon.vault.names import component_problem

from shared_corpus import CORPUS  # tests/ is on sys.path, as for conftest

needs_corpus = pytest.mark.corpus

Summary = tuple[str, int, date | None, date | None]


def conversations(path: Path) -> list[Conversation]:
    items = list(read_export(path))
    assert not [item for item in items if isinstance(item, BadConversation)]
    return [item for item in items if isinstance(item, Conversation)]


def summary(conversation: Conversation) -> Summary:
    """Session id, message count, and the day (UTC for aware times) of the first and last message."""
    days = [m.time.date() for m in conversation.messages if m.time is not None]
    return conversation.session_id, len(conversation.messages), min(days, default=None), max(days, default=None)


D = date
GOLDEN: dict[str, list[Summary]] = {
    "chatgpt/chatgpt2graph_conversations.json": [
        # 45 nodes; 8 user prompts + 12 visible assistant texts + 11 code cells; tool output and hidden
        # system nodes left out.
        ("chatgpt-966da5c4-5bb7-4e4d-ab6d-a7316b96266e", 31, D(2023, 9, 21), D(2023, 9, 22)),
    ],
    "claude_ai/anthropic-data_conversations.json": [
        ("claude-b49c0fc0-85d8-475c-bd2d-ee89f31f592c", 2, D(2025, 7, 6), D(2025, 7, 6)),
    ],
    # Export side files: recognised, no conversations in them.
    "claude_ai/anthropic-data_projects.json": [],
    "claude_ai/anthropic-data_users.json": [],
    "claude_ai/anthropic-data_memories.json": [],
    "claude_code/spotter_short.jsonl": [
        # the prompt, and one reply merged from 4 lines (text + 2 tool calls); rejections/interrupt dropped
        ("claude-code-55604662-cf2a-4331-851a-ec234028f8ca", 2, D(2026, 2, 10), D(2026, 2, 10)),
    ],
    "claude_code/spotter_tool_heavy.jsonl": [
        ("claude-code-d6e0bada-1959-4eec-a9d2-0bfade768d8f", 6, D(2026, 2, 10), D(2026, 2, 10)),
    ],
    "claude_code/spotter_subagent_agent-aac57f5.jsonl": [
        ("claude-code-ae4a77f8-aedd-4bc1-888f-c94edc91af04-agent-aac57f5", 4, D(2026, 2, 12), D(2026, 2, 12)),
    ],
    # A compaction helper only restates its session.
    "claude_code/spotter_subagent_agent-acompact-fffbd0.jsonl": [],
    "claude_code/spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl": [
        # a reply before the boundary, "continue implementation", and the reply to it; summary and /compact dropped
        ("claude-code-ae4a77f8-aedd-4bc1-888f-c94edc91af04", 3, D(2026, 2, 12), D(2026, 2, 12)),
    ],
    "longmemeval/popoto_longmemeval_s_sample.json": [
        ("longmemeval-e47becba-sharegpt_yywfIrx_0", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-e47becba-85a1be56_1", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-e47becba-answer_280352e9", 2, D(2023, 5, 30), D(2023, 5, 30)),
        ("longmemeval-118b2229-db73b7e4_4", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-118b2229-sharegpt_5V5H2HN_0", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-118b2229-answer_40a90d51", 2, D(2023, 5, 22), D(2023, 5, 22)),
        ("longmemeval-51a45a95-sharegpt_9MbC1u2_0", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-51a45a95-ultrachat_122409", 2, D(2023, 5, 20), D(2023, 5, 20)),
        ("longmemeval-51a45a95-answer_d61669c7", 2, D(2023, 5, 29), D(2023, 5, 29)),
    ],
    "sharegpt/axolotl_conversation.json": [("sharegpt-b154daff3276", 12, None, None)],
    # the empty first gpt turn is dropped
    "sharegpt/axolotl_conversation.missingturns.json": [("sharegpt-8e3e2d4aa365", 11, None, None)],
    "sharegpt/fastchat_dummy_conversation_first5.json": [
        ("sharegpt-identity_0", 4, None, None),
        ("sharegpt-identity_1", 2, None, None),
        ("sharegpt-identity_2", 6, None, None),
        ("sharegpt-identity_3", 4, None, None),
        ("sharegpt-identity_4", 2, None, None),
    ],
}

# LoCoMo, per sample: sessions (s1..sK), messages (turns), first and last session day.
LOCOMO: dict[str, tuple[int, int, date, date]] = {
    "conv-26": (19, 419, D(2023, 5, 8), D(2023, 10, 22)),
    "conv-30": (19, 369, D(2023, 1, 20), D(2023, 7, 23)),
    "conv-41": (32, 663, D(2022, 12, 17), D(2023, 8, 16)),
    "conv-42": (29, 629, D(2022, 1, 21), D(2022, 11, 11)),
    "conv-43": (29, 680, D(2023, 5, 21), D(2024, 1, 12)),
    "conv-44": (28, 675, D(2023, 3, 27), D(2023, 11, 22)),
    "conv-47": (31, 689, D(2022, 3, 17), D(2022, 11, 7)),
    "conv-48": (30, 681, D(2023, 1, 23), D(2023, 9, 20)),
    "conv-49": (25, 509, D(2023, 5, 18), D(2024, 1, 11)),
    "conv-50": (30, 568, D(2023, 3, 23), D(2023, 11, 17)),
}


@needs_corpus
def test_every_corpus_file_has_a_golden() -> None:
    found = {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.suffix in (".json", ".jsonl")}
    assert found == set(GOLDEN) | {"locomo/locomo10.json"}


@needs_corpus
@pytest.mark.parametrize("relative", sorted(GOLDEN))
def test_corpus_file_imports_as_pinned(relative: str) -> None:
    found = conversations(CORPUS / relative)
    assert [summary(c) for c in found] == GOLDEN[relative]
    for conversation in found:
        assert component_problem(conversation.session_id, "session_id") is None
        assert len({m.id for m in conversation.messages}) == len(conversation.messages)
        assert all(m.text.strip() for m in conversation.messages)


@needs_corpus
def test_locomo_sessions_are_conversations_at_their_own_date() -> None:
    found = conversations(CORPUS / "locomo" / "locomo10.json")
    assert len(found) == 272 and sum(len(c.messages) for c in found) == 5882
    for sample, (sessions, total, first, last) in LOCOMO.items():
        mine = [c for c in found if c.session_id.startswith(f"locomo-{sample}-s")]
        assert [c.session_id for c in mine] == [f"locomo-{sample}-s{n}" for n in range(1, sessions + 1)]
        assert sum(len(c.messages) for c in mine) == total
        assert (summary(mine[0])[2], summary(mine[-1])[3]) == (first, last)
        for conversation in mine:
            assert len({m.time for m in conversation.messages}) == 1  # one date per session
    first = found[0].messages[0]
    assert (first.id, first.role, first.name) == ("D1:1", "user", "Caroline")
    assert first.time == datetime(2023, 5, 8, 13, 56) and first.record["created_at"] == "2023-05-08T13:56:00"
    assert first.text == "Hey Mel! Good to see you! How have you been?"
    images = [m for c in found for m in c.messages if "[shares an image: " in m.text]
    assert len(images) == 1226  # every blip_caption, with or without img_url
    assert any(m.text.endswith("[shares an image: a photo of a dog walking past a wall with a painting of a woman]")
               for m in images)


@needs_corpus
def test_chatgpt_fixture_keeps_only_visible_text() -> None:
    (conversation,) = conversations(CORPUS / "chatgpt" / "chatgpt2graph_conversations.json")
    first, last = conversation.messages[0], conversation.messages[-1]
    assert first.id.startswith("aaa22f3c") and first.role == "user"
    assert first.text.startswith("given two random independent variables x,y in U(0,1)")
    assert first.time == datetime.fromtimestamp(1695326273.969279, tz=timezone.utc)
    assert last.id.startswith("875ad56f") and last.role == "assistant"
    assert not any("<<ImageDisplayed>>" in m.text for m in conversation.messages)  # tool output stays out
    cells = [m for m in conversation.messages if m.text.startswith("```python\n")]
    assert len(cells) == 11 and any("import numpy as np" in m.text for m in cells)


@needs_corpus
def test_claude_builds_text_from_blocks_without_thinking() -> None:
    (conversation,) = conversations(CORPUS / "claude_ai" / "anthropic-data_conversations.json")
    human, reply = conversation.messages
    assert (human.role, reply.role) == ("user", "assistant")
    assert human.id == "f5885afd-1881-4093-9616-c296a8d71fa6"
    assert reply.text.startswith("Dog saliva does contain some antibacterial compounds")
    assert "The user is asking" not in reply.text


@needs_corpus
def test_claude_code_short_session_policy() -> None:
    (conversation,) = conversations(CORPUS / "claude_code" / "spotter_short.jsonl")
    prompt, reply = conversation.messages
    assert (prompt.id, prompt.text) == ("7d48cbd2-6615-4dd8-87f6-38f12b8167d6", "mix phx.server doesnt seem to start")
    assert reply.id == "msg_01MKH1ccEGrZGNPvu8pYiiQa"
    assert reply.text == ("Let me check the project structure and try running the server to see the error.\n"
                          "[tool Bash: mix phx.server 2>&1 | head -80]\n[tool Glob: mix.exs]")
    assert reply.time == datetime(2026, 2, 10, 21, 11, 59, 186000, tzinfo=timezone.utc)


@needs_corpus
def test_claude_code_drops_compact_summary_and_command_echoes() -> None:
    path = CORPUS / "claude_code" / "spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl"
    (conversation,) = conversations(path)
    texts = [m.text for m in conversation.messages]
    assert texts[1] == "continue implementation"
    assert not any("continued from a previous conversation" in t or "<command-name>" in t for t in texts)


@needs_corpus
@pytest.mark.parametrize("relative", sorted(GOLDEN) + ["locomo/locomo10.json"])
def test_rereading_gives_identical_conversations(relative: str) -> None:
    assert list(read_export(CORPUS / relative)) == list(read_export(CORPUS / relative))


# ---- ChatGPT built in code -------------------------------------------------------------------


def node(node_id: str, parent: str | None, children: list[str], role: str | None = None, text: str = "",
         when: float | None = None, **extra: Any) -> dict[str, Any]:
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role, "name": None, "metadata": {}}, "create_time": when,
                   "content": extra.pop("content", {"content_type": "text", "parts": [text]}),
                   "weight": 1.0, "recipient": "all", "metadata": extra.pop("metadata", {}), **extra}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def chatgpt(mapping: list[dict[str, Any]], current: str | None, **extra: Any) -> dict[str, Any]:
    return {"id": "conv-1", "title": "Branches", "create_time": 1700000000.5, "update_time": 1700000100.0,
            "mapping": {n["id"]: n for n in reversed(mapping)}, "current_node": current, **extra}


def write(tmp_path: Path, name: str, value: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


BRANCHED = [
    node("root", None, ["sys"]),
    node("sys", "root", ["q1"], "system", "", None, weight=0.0, metadata={"is_visually_hidden_from_conversation": True}),
    node("q1", "sys", ["a1-old", "a1-new"], "user", "first question", 1700000001),
    node("a1-old", "q1", ["q2-old"], "assistant", "abandoned answer", 1700000002),
    node("q2-old", "a1-old", [], "user", "abandoned follow-up", 1700000003),
    node("a1-new", "q1", ["q2"], "assistant", "regenerated answer", 1700000004),
    node("q2", "a1-new", ["a2"], "user", "follow-up", 1700000005),
    node("a2", "q2", [], "assistant", "final answer", 1700000006),
]


def test_chatgpt_follows_current_node_and_leaves_abandoned_branch_out(tmp_path: Path) -> None:
    (conversation,) = conversations(write(tmp_path, "conversations.json", [chatgpt(BRANCHED, "a2")]))
    assert conversation.session_id == "chatgpt-conv-1"
    assert [m.id for m in conversation.messages] == ["q1", "a1-new", "q2", "a2"]
    assert [m.text for m in conversation.messages][1] == "regenerated answer"


def test_chatgpt_without_current_node_takes_newest_leaf(tmp_path: Path) -> None:
    (conversation,) = conversations(write(tmp_path, "c.json", [chatgpt(BRANCHED, None)]))
    assert [m.id for m in conversation.messages] == ["q1", "a1-new", "q2", "a2"]


def test_chatgpt_hidden_tool_parts_and_missing_times(tmp_path: Path) -> None:
    parts = ["look:", {"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-1",
                       "size_bytes": 10}, {"content_type": "audio_transcription", "text": "spoken words"}]
    mapping = [
        node("root", None, ["ctx"]),
        node("ctx", "root", ["u"], "user", content={"content_type": "user_editable_context", "user_profile": "me"},
             metadata={"is_visually_hidden_from_conversation": True}),
        node("u", "ctx", ["call"], "user", content={"content_type": "multimodal_text", "parts": parts}),
        node("call", "u", ["out"], "assistant", content={"content_type": "code", "text": "1+1"}, recipient="python"),
        node("out", "call", ["think"], "tool", content={"content_type": "execution_output", "text": "2"}),
        node("think", "out", ["a"], "assistant", "hmm", 1700000050, channel="analysis"),
        node("a", "think", [], "assistant", "It is 2.", "2023-11-14T22:14:20Z"),
    ]
    (conversation,) = conversations(write(tmp_path, "c.json", [chatgpt(mapping, "a")]))
    user, cell, answer = conversation.messages
    assert user.text == "look:\n[image]\nspoken words"
    assert (cell.id, cell.text) == ("call", "```python\n1+1\n```\nOutput: 2")  # code kept, its output as one line
    assert user.record["created_at"] == "2023-11-14T22:13:20.500000+00:00"  # the conversation's create_time
    assert answer.text == "It is 2." and answer.time == datetime(2023, 11, 14, 22, 14, 20, tzinfo=timezone.utc)


def test_newer_export_keeps_session_and_extends_message_ids(tmp_path: Path) -> None:
    older = copy.deepcopy(chatgpt(BRANCHED[:3] + BRANCHED[5:6], "a1-new"))
    older["mapping"]["a1-new"]["children"] = []
    (before,) = conversations(write(tmp_path, "old.json", [older]))
    (after,) = conversations(write(tmp_path, "new.json", [chatgpt(BRANCHED, "a2")]))
    assert before.session_id == after.session_id
    assert {m.id for m in before.messages} < {m.id for m in after.messages}


# ---- Claude.ai, Claude Code, ShareGPT, OpenAI, native built in code ------------------------------


def test_claude_2024_export_is_sorted_human_first_on_ties(tmp_path: Path) -> None:
    messages = [
        {"uuid": "m3", "sender": "assistant", "text": " second answer", "created_at": "2024-06-01T10:05:00Z"},
        {"uuid": "m2", "sender": "human", "text": "second", "created_at": "2024-06-01T10:05:00Z",
         "attachments": [{"file_name": "notes.txt", "extracted_content": "secret"}], "files": [{"file_name": "a.png"}]},
        {"uuid": "m1", "sender": "human", "text": "first", "created_at": "2024-06-01T10:00:00Z"},
    ]
    value = [{"uuid": "c-1", "name": "", "created_at": "2024-06-01T10:00:00Z", "chat_messages": messages}]
    (conversation,) = conversations(write(tmp_path, "conversations.json", value))
    assert conversation.session_id == "claude-c-1"
    assert [m.id for m in conversation.messages] == ["m1", "m2", "m3"]
    assert conversation.messages[1].text == "second\n[attachment: notes.txt]\n[file: a.png]"
    assert conversation.messages[2].text == "second answer"


def test_chatgpt_and_claude_exports_carry_their_own_title(tmp_path: Path) -> None:
    (titled,) = conversations(write(tmp_path, "c.json", [chatgpt(BRANCHED, "a2", title="  SQLite   locked ")]))
    assert titled.title == "SQLite locked"
    messages = [{"uuid": "m1", "sender": "human", "text": "first", "created_at": "2024-06-01T10:00:00Z"}]
    named = [{"uuid": "c-1", "name": "Dog saliva myth", "created_at": "2024-06-01T10:00:00Z", "chat_messages": messages},
             {"uuid": "c-2", "name": "", "created_at": "2024-06-01T10:00:00Z", "chat_messages": messages},
             {"uuid": "c-3", "name": None, "created_at": "2024-06-01T10:00:00Z", "chat_messages": messages}]
    assert [c.title for c in conversations(write(tmp_path, "claude.json", named))] == ["Dog saliva myth", "", ""]


def cc_line(uuid: str, kind: str, content: Any, when: str, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if "msg" in extra:
        message["id"] = extra.pop("msg")
    return {"type": kind, "uuid": uuid, "parentUuid": None, "sessionId": extra.pop("session", "s-1"),
            "timestamp": when, "message": message, **extra}


def write_lines(tmp_path: Path, name: str, lines: list[Any], tail: str = "") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + tail, encoding="utf-8")
    return path


def test_claude_code_merges_dedupes_and_drops_injected(tmp_path: Path) -> None:
    t = "2026-02-10T21:11:5{}.000Z"
    lines = [
        {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}},
        cc_line("u1", "user", "hello <system-reminder>be nice</system-reminder>", t.format(1)),
        cc_line("u1", "user", "hello <system-reminder>be nice</system-reminder>", t.format(1)),  # resumed copy
        cc_line("a1", "assistant", [{"type": "thinking", "thinking": "..."}], t.format(2), msg="msg_1"),
        cc_line("a2", "assistant", [{"type": "text", "text": "Looking."}], t.format(3), msg="msg_1"),
        cc_line("r1", "user", [{"type": "tool_result", "tool_use_id": "t", "content": "SECRET"}], t.format(4)),
        cc_line("a3", "assistant", [{"type": "tool_use", "id": "t", "name": "Read",
                                     "input": {"file_path": "/x.py"}}], t.format(5), msg="msg_1"),
        cc_line("m1", "user", "<local-command-caveat>Caveat</local-command-caveat>", t.format(6), isMeta=True),
        cc_line("c1", "user", "<command-name>/model</command-name>", t.format(6)),
        cc_line("i1", "user", [{"type": "text", "text": "[Request interrupted by user]"}], t.format(7)),
        cc_line("k1", "user", "This session is being continued…", t.format(8), isCompactSummary=True),
        cc_line("o1", "user", "other session", t.format(9), session="s-2"),
    ]
    found = conversations(write_lines(tmp_path, "s-1.jsonl", lines, tail='{"type": "user", "uu'))
    assert [c.session_id for c in found] == ["claude-code-s-1", "claude-code-s-2"]
    hello, reply = found[0].messages
    assert (hello.id, hello.text) == ("u1", "hello")
    assert (reply.id, reply.text) == ("msg_1", "Looking.\n[tool Read: /x.py]")
    assert reply.time == datetime(2026, 2, 10, 21, 11, 52, tzinfo=timezone.utc)
    assert "SECRET" not in json.dumps([dict(m.record) for m in found[0].messages])


def test_sharegpt_and_openai_keep_the_visible_conversation(tmp_path: Path) -> None:
    share = {"conversations": [{"from": "system", "value": "You are"}, {"from": "human", "value": "hi"},
                               {"from": "gpt", "value": ""}, {"from": "gpt", "value": "hello"}]}
    (one,) = conversations(write(tmp_path, "share.json", share))
    assert [(m.role, m.text) for m in one.messages] == [("user", "hi"), ("assistant", "hello")]
    assert one.session_id.startswith("sharegpt-") and one.messages[0].time is None
    chat = {"messages": [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": [{"type": "text", "text": "weather?"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c", "type": "function", "function": {"name": "get_weather",
                                                                      "arguments": "{\"city\": \"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
    ]}
    (two,) = conversations(write_lines(tmp_path, "train.jsonl", [chat, chat]))  # repeats are yielded once
    assert [m.text for m in two.messages] == ["weather?\n[image]", "[tool get_weather: Paris]", "Sunny."]
    assert "base64" not in json.dumps([dict(m.record) for m in two.messages])


def test_native_and_bare_lists(tmp_path: Path) -> None:
    native = [{"session_id": "my session", "messages": [{"role": "user", "content": "a", "id": "1"},
                                                        {"role": "user", "content": "a again", "id": "1"}]},
              {"session_id": "bad/name:x", "messages": [{"role": "user", "content": "b"}]}]
    first, second = conversations(write(tmp_path, "native.json", native))
    assert first.session_id == "my session" and [m.text for m in first.messages] == ["a"]  # duplicate id deduped
    assert component_problem(second.session_id, "s") is None and second.session_id.startswith("bad-name-x-")
    bare = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "r"}]
    (one,) = conversations(write(tmp_path, "bare.json", bare))
    indented = tmp_path / "bare-indented.json"
    indented.write_text(json.dumps(bare, indent=2), encoding="utf-8")
    (again,) = conversations(indented)
    assert one.session_id.startswith("import-") and len(one.session_id) == len("import-") + 12
    assert one == again
