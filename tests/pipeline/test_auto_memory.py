"""auto_memory end to end through the pipeline, with a scripted distiller."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXED_NOW, FakeDistiller, snapshot_tree

from daemon.vault import props
from daemon.app import build
from daemon.config import load_config
from daemon.errors import DistillError
from daemon.models import Card, DistillRequest, Skip
from daemon.pipeline import Context, auto_memory


def msg(text: str, at: str | None = "2023-01-19T08:00:00", role: str = "user", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": role, "content": text, **extra}
    if at is not None:
        message["created_at"] = at
    return message


def record_lines(root: Path, sid: str) -> list[dict[str, Any]]:
    path = root / "session" / "dialog" / f"{sid}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_creates_card_record_and_daily_page(ctx: Context, vault_root: Path) -> None:
    result = auto_memory(ctx, "session-a", [msg("We chose JWT."), msg("Agreed.", role="assistant")])
    assert result["success"] is True
    meta = result["metadata"]
    assert meta["path"] == "daily/2023-01-19/topic.md"
    assert (meta["date"], meta["created"], meta["modified"], meta["n_messages"]) == ("2023-01-19", True, True, 2)
    assert meta["source_conversation"] == "[[session/dialog/session-a.jsonl]]"
    assert meta["index"] == {"path": "daily/2023-01-19.md", "created": True, "changed": True, "notes": 1}
    text = (vault_root / meta["path"]).read_text(encoding="utf-8")
    assert text.startswith('---\nname: topic\ndescription: 2 new lines\nsession_id: session-a\n'
                           'source_conversation: "[[session/dialog/session-a.jsonl]]"\nmemory_tags:')
    assert meta["auto_tag"]["processed"] == 1 and meta["auto_tag"]["results"][0]["change"] == "added"
    assert props.read(text)["source_conversation"] == "[[session/dialog/session-a.jsonl]]"
    assert "- user: We chose JWT." in text
    assert len(record_lines(vault_root, "session-a")) == 2
    page = (vault_root / "daily/2023-01-19.md").read_text(encoding="utf-8")
    assert "- [[daily/2023-01-19/topic|topic]] — 2 new lines" in page


def test_resending_the_same_messages_changes_nothing(ctx: Context, vault_root: Path, fake: FakeDistiller) -> None:
    messages = [msg("We chose JWT."), msg("No ids here.", at=None)]
    auto_memory(ctx, "s", messages, date="2023-01-19")
    before = snapshot_tree(vault_root)
    mtimes = {p: os.stat(vault_root / p).st_mtime_ns for p in before}
    again = auto_memory(ctx, "s", messages, date="2023-01-19")
    assert again["success"] and again["metadata"]["modified"] is False
    assert again["metadata"]["path"] == "daily/2023-01-19/topic.md"
    assert snapshot_tree(vault_root) == before
    assert {p: os.stat(vault_root / p).st_mtime_ns for p in before} == mtimes
    assert len(fake.calls) == 1


def test_new_messages_update_the_same_card(ctx: Context, vault_root: Path, fake: FakeDistiller) -> None:
    auto_memory(ctx, "s", [msg("first")])
    second = auto_memory(ctx, "s", [msg("first"), msg("second", at="2023-01-19T09:00:00")])
    assert second["metadata"]["created"] is False and second["metadata"]["modified"] is True
    assert [m.text for m in fake.calls[1].messages] == ["second"]
    assert fake.calls[1].existing is not None and fake.calls[1].existing.name == "topic"
    assert sorted(p.name for p in (vault_root / "daily/2023-01-19").iterdir()) == ["topic.md"]
    assert [r["content"] for r in record_lines(vault_root, "s")] == ["first", "second"]


@pytest.mark.parametrize(
    ("message", "field", "raw"),
    [
        ({"role": "user", "content": "x", "time_created": "2023-01-19T08:00:00"}, "created_at", "2023-01-19T08:00:00"),
        ({"role": "user", "content": "x", "timestamp": 1674115200}, "created_at", 1674115200),
        ({"role": "user", "content": "x", "createdAt": "2023-01-19T08:00:00Z"}, "created_at", "2023-01-19T08:00:00Z"),
        ({"role": "user", "content": "x", "metadata": {"timestamp": "2023-01-19T08:00:00"}}, "created_at",
         "2023-01-19T08:00:00"),
        ({"role": "user", "content": "x", "created_at": "2023-01-19T01:00:00", "timestamp": "2020-01-01"},
         "created_at", "2023-01-19T01:00:00"),
    ],
)
def test_timestamp_aliases_set_the_day_and_keep_the_raw_value(
    ctx: Context, vault_root: Path, message: dict[str, Any], field: str, raw: Any
) -> None:
    result = auto_memory(ctx, "s", [message])
    assert result["metadata"]["date"] == "2023-01-19"
    assert record_lines(vault_root, "s")[0][field] == raw


def test_day_is_the_latest_message_day_in_the_configured_zone(vault_root: Path, fake: FakeDistiller) -> None:
    def run(zone: str, sid: str) -> str:
        config = load_config(overrides=[f"vault={vault_root}", f"timezone={zone}"], environ={})
        ctx = build(config, distiller=fake, clock=lambda: FIXED_NOW)
        result = auto_memory(ctx, sid, [msg("a", at="2026-08-18T10:00:00"), msg("b", at="2026-08-19T16:30:00Z")])
        return result["metadata"]["date"]

    assert run("Asia/Shanghai", "s1") == "2026-08-20"
    assert run("UTC", "s2") == "2026-08-19"


def test_naive_times_keep_their_date_and_no_time_means_today(ctx: Context) -> None:
    assert auto_memory(ctx, "s1", [msg("a", at="2023-01-20T23:30:00")])["metadata"]["date"] == "2023-01-20"
    assert auto_memory(ctx, "s2", [msg("a", at=None)])["metadata"]["date"] == FIXED_NOW.date().isoformat()


def test_explicit_date_wins(ctx: Context) -> None:
    assert auto_memory(ctx, "s", [msg("a")], date="2020-02-02")["metadata"]["path"] == "daily/2020-02-02/topic.md"


@pytest.mark.parametrize("date", ["2023-01-19T08:00:00", "2023-1-19", "19.01.2023", "2023-02-30", 20230119])
def test_bad_date_is_rejected_and_nothing_is_written(ctx: Context, vault_root: Path, date: Any) -> None:
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s", [msg("a")], date=date)
    assert result == {"success": False, "answer": "Error: date must be YYYY-MM-DD",
                      "metadata": {"date": date, "modified": False, "n_messages": 1}}
    assert snapshot_tree(vault_root) == before


@pytest.mark.parametrize("sid", ["", "bad/session", "chat#1", "[chat]", "a|b", "x^y", "CON", " pad", "dot.", "..",
                                 "tab\there", "a:b"])
def test_bad_session_id_is_rejected_and_nothing_is_written(ctx: Context, vault_root: Path, sid: str) -> None:
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, sid, [msg("a")])
    assert result["success"] is False and "session_id" in result["answer"]
    assert snapshot_tree(vault_root) == before


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        ([{"role": "user", "content": "ok"}, {"content": "no role"}], "messages[1]: field 'role'"),
        ([{"role": "user", "content": 42}], "messages[0]: field 'content'"),
        ([{"role": "user", "content": "x", "created_at": "not a time"}], "messages[0]: field 'created_at'"),
        ([{"role": "user", "content": "x", "metadata": {"timestamp": "soon"}}], "field 'metadata.timestamp'"),
        ([{"role": "user", "content": [{"type": "text", "text": 3}]}], "messages[0]: content[0].text"),
        ([{"role": "user", "content": "x", "name": 7}], "messages[0]: field 'name'"),
        (["just a string"], "messages[0]: each message must be an object"),
        ({"role": "user"}, "messages must be a JSON list"),
    ],
)
def test_malformed_messages_name_the_message_and_field(
    ctx: Context, vault_root: Path, messages: Any, expected: str
) -> None:
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s", messages)
    assert result["success"] is False and expected in result["answer"]
    assert snapshot_tree(vault_root) == before


def test_no_messages_is_a_skip(ctx: Context, vault_root: Path) -> None:
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s", [])
    assert result["success"] is True and result["answer"] == "Skipped: no messages"
    assert result["metadata"]["modified"] is False and result["metadata"]["n_messages"] == 0
    assert snapshot_tree(vault_root) == before


def test_a_skip_keeps_the_record_and_writes_no_card_or_page(config: Any, vault_root: Path) -> None:
    ctx = build(config, distiller=FakeDistiller(make=lambda r: Skip("small talk")), clock=lambda: FIXED_NOW)
    result = auto_memory(ctx, "s", [msg("hi"), msg("hello!", role="assistant")])
    assert result["success"] is True and "skipped" in result["answer"].lower()
    assert result["metadata"]["path"] is None and result["metadata"]["modified"] is False
    assert len(record_lines(vault_root, "s")) == 2
    assert not (vault_root / "daily/2023-01-19").exists() and not (vault_root / "daily/2023-01-19.md").exists()


def test_record_is_ordered_by_parsed_time_and_appended_when_possible(ctx: Context, vault_root: Path) -> None:
    # As strings "2023-01-19T10:00:00+02:00" > "2023-01-19T09:00:00Z", but it is one hour earlier.
    auto_memory(ctx, "s", [msg("late", at="2023-01-19T09:00:00Z", id="b")])
    path = vault_root / "session/dialog/s.jsonl"
    first = path.read_bytes()
    auto_memory(ctx, "s", [msg("later", at="2023-01-19T11:00:00Z", id="c")])
    assert path.read_bytes().startswith(first)
    auto_memory(ctx, "s", [msg("early", at="2023-01-19T10:00:00+02:00", id="a")])
    assert [r["id"] for r in record_lines(vault_root, "s")] == ["a", "b", "c"]


def test_unparsable_record_lines_are_kept(ctx: Context, vault_root: Path) -> None:
    path = vault_root / "session/dialog/s.jsonl"
    path.write_text('{"id": "b", "role": "user", "content": "x", "created_at": "2023-01-19T09:00:00"}\nnot json\n')
    auto_memory(ctx, "s", [msg("early", at="2023-01-19T08:00:00", id="a")])
    lines = path.read_text().splitlines()
    assert [json.loads(l)["id"] for l in lines[:2]] == ["a", "b"] and lines[2] == "not json"


def test_tool_results_and_base64_are_not_saved(ctx: Context, vault_root: Path) -> None:
    content = [
        {"type": "text", "text": "see this"},
        {"type": "tool_result", "id": "t1", "output": "secret tool output"},
        {"type": "data", "source": {"type": "base64", "media_type": "image/png", "data": "aGVsbG8="}},
        {"type": "data", "source": {"type": "url", "media_type": "image/png", "url": "https://x.test/a.png"}},
    ]
    auto_memory(ctx, "s", [{"role": "user", "name": "u", "content": content, "created_at": "2023-01-19T08:00:00"}])
    saved = record_lines(vault_root, "s")[0]["content"]
    assert [b.get("type") for b in saved] == ["text", "data"]
    assert saved[1]["source"]["type"] == "url"
    raw = (vault_root / "session/dialog/s.jsonl").read_text()
    assert "aGVsbG8=" not in raw and "secret tool output" not in raw


def test_card_is_found_by_session_id_then_source_conversation(ctx: Context, vault_root: Path) -> None:
    auto_memory(ctx, "s", [msg("one")])
    card = vault_root / "daily/2023-01-19/topic.md"
    card.rename(vault_root / "daily/2023-01-19/renamed by user.md")
    text = (vault_root / "daily/2023-01-19/renamed by user.md").read_text()
    (vault_root / "daily/2023-01-19/renamed by user.md").write_text(text.replace("session_id: s\n", ""))
    result = auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    assert result["metadata"]["path"] == "daily/2023-01-19/renamed by user.md"
    assert sorted(p.name for p in (vault_root / "daily/2023-01-19").iterdir()) == ["renamed by user.md"]
    assert "session_id: s\n" in (vault_root / result["metadata"]["path"]).read_text()


def test_two_sessions_never_share_a_file(ctx: Context, vault_root: Path) -> None:
    auto_memory(ctx, "s1", [msg("one")])
    first = (vault_root / "daily/2023-01-19/topic.md").read_bytes()
    result = auto_memory(ctx, "s2", [msg("two")])
    assert result["metadata"]["path"] == "daily/2023-01-19/topic-2.md"
    assert (vault_root / "daily/2023-01-19/topic.md").read_bytes() == first


def test_name_collisions_ignore_case_and_a_doubled_md_is_stripped(config: Any, vault_root: Path) -> None:
    names = iter(["Topic.md", "topic"])
    ctx = build(config, distiller=FakeDistiller(make=lambda r: Card(next(names), "d", "b\n")), clock=lambda: FIXED_NOW)
    assert auto_memory(ctx, "s1", [msg("one")])["metadata"]["path"] == "daily/2023-01-19/Topic.md"
    assert auto_memory(ctx, "s2", [msg("two")])["metadata"]["path"] == "daily/2023-01-19/topic-2.md"


def test_invalid_names_from_the_distiller_are_made_safe(config: Any, vault_root: Path) -> None:
    ctx = build(config, distiller=FakeDistiller(make=lambda r: Card("C# tips [draft] | v2", "d", "b")),
                clock=lambda: FIXED_NOW)
    path = auto_memory(ctx, "s", [msg("one")])["metadata"]["path"]
    assert path == "daily/2023-01-19/C tips draft v2.md"


def renaming_distiller() -> FakeDistiller:
    def make(request: DistillRequest) -> Card:
        name = "second-name" if request.existing else "first-name"
        body = (request.existing.body if request.existing else "") + "".join(f"- {m.text}\n" for m in request.messages)
        return Card(name, f"about {name}", body)

    return FakeDistiller(make=make)


def test_a_new_name_renames_the_file_and_retargets_inbound_links(config: Any, vault_root: Path) -> None:
    ctx = build(config, distiller=renaming_distiller(), clock=lambda: FIXED_NOW)
    auto_memory(ctx, "s", [msg("one")])
    other = vault_root / "notes/other.md"
    other.parent.mkdir()
    other.write_text('---\nrelated: "[[first-name]]"\ntitle: x\n---\n'
                     "See [[daily/2023-01-19/first-name|the card]] and [[first-name#Notes]].\n"
                     "`[[first-name]]` in code stays.\n")
    result = auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    assert result["metadata"]["path"] == "daily/2023-01-19/second-name.md"
    assert not (vault_root / "daily/2023-01-19/first-name.md").exists()
    # A unique name is written bare, as Obsidian's default "shortest" link format does.
    assert other.read_text() == ('---\nrelated: "[[second-name]]"\ntitle: x\n---\n'
                                 "See [[second-name|the card]] and [[second-name#Notes]].\n"
                                 "`[[first-name]]` in code stays.\n")
    page = (vault_root / "daily/2023-01-19.md").read_text()
    assert "[[daily/2023-01-19/second-name|second-name]]" in page and "first-name" not in page
    card = (vault_root / "daily/2023-01-19/second-name.md").read_text()
    assert props.read(card)["name"] == "second-name" and "- one\n- two\n" in card


def test_a_rename_made_by_the_user_is_not_undone(config: Any, vault_root: Path) -> None:
    ctx = build(config, distiller=renaming_distiller(), clock=lambda: FIXED_NOW)
    auto_memory(ctx, "s", [msg("one")])
    folder = vault_root / "daily/2023-01-19"
    (folder / "first-name.md").rename(folder / "My own title.md")
    result = auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    assert result["metadata"]["path"] == "daily/2023-01-19/My own title.md"
    assert sorted(p.name for p in folder.iterdir()) == ["My own title.md"]
    assert "- two" in (folder / "My own title.md").read_text()


def test_user_edits_survive_an_update(config: Any, vault_root: Path) -> None:
    def make(request: DistillRequest) -> Card:
        # A model that rewrites the card from scratch and forgets the user's text.
        lines = "".join(f"- {m.text}\n" for m in request.messages)
        return Card("topic", "model description", "## Notes\n" + lines)

    ctx = build(config, distiller=FakeDistiller(make=make), clock=lambda: FIXED_NOW)
    auto_memory(ctx, "s", [msg("one")])
    card = vault_root / "daily/2023-01-19/topic.md"
    edited = card.read_text().replace("- one\n", "- one (the user corrected this)\n") + "\nMy own thought.\n"
    edited = edited.replace("description: model description", "description: my description")
    card.write_text(edited)
    auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    text = card.read_text()
    assert "- one (the user corrected this)" in text and "My own thought." in text and "- two" in text
    assert props.read(text)["description"] == "my description"


def test_user_text_around_the_daily_block_is_kept(ctx: Context, vault_root: Path) -> None:
    auto_memory(ctx, "s1", [msg("one")])
    page = vault_root / "daily/2023-01-19.md"
    page.write_text("My intro\n\n" + page.read_text().split("\n\n", 1)[1] + "\n## 我的笔记\nkeep me\n")
    auto_memory(ctx, "s2", [msg("two")])
    text = page.read_text()
    assert text.startswith("My intro\n\n<!-- notes:auto -->\n") and text.endswith("## 我的笔记\nkeep me\n")
    assert "[[daily/2023-01-19/topic|topic]]" in text and "[[daily/2023-01-19/topic-2|topic-2]]" in text


def test_images_with_the_extractive_backend_are_an_error_and_nothing_is_saved(ctx: Context, vault_root: Path) -> None:
    image = {"type": "data", "source": {"type": "base64", "media_type": "image/png", "data": "aGVsbG8="}}
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s", [{"role": "user", "content": [image]}], include_images=True)
    assert result["success"] is False
    assert "components.agent_wrapper.default.backend=agentscope" in result["answer"]
    assert snapshot_tree(vault_root) == before


def test_no_temp_files_are_left_behind(ctx: Context, vault_root: Path) -> None:
    auto_memory(ctx, "s", [msg("one")])
    auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    assert not [p for p in vault_root.rglob("*") if ".memvault-" in p.name]


def test_a_failed_distillation_is_retried_with_the_saved_messages(config: Any, vault_root: Path) -> None:
    class Flaky(FakeDistiller):
        def distill(self, request: DistillRequest) -> Card | Skip:
            if not self.calls:
                self.calls.append(request)
                raise DistillError("model timed out")
            return super().distill(request)

    flaky = Flaky()
    ctx = build(config, distiller=flaky, clock=lambda: FIXED_NOW)
    failed = auto_memory(ctx, "s", [msg("remember me")])
    assert failed["success"] is False and "model timed out" in failed["answer"]
    assert len(record_lines(vault_root, "s")) == 1 and not (vault_root / "daily/2023-01-19").exists()
    result = auto_memory(ctx, "s", [msg("remember me")])
    assert result["metadata"]["created"] is True
    assert [m.text for m in flaky.calls[-1].messages] == ["remember me"]
    assert "remember me" in (vault_root / result["metadata"]["path"]).read_text()


def test_a_card_edited_during_an_update_is_re_read_never_clobbered(ctx: Context, vault_root: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    auto_memory(ctx, "s", [msg("one")])
    card = vault_root / "daily/2023-01-19/topic.md"
    real_write = ctx.vault.write
    edits = []

    def racing_write(rel: str, text: str, expect: str) -> str:
        if rel.endswith("topic.md") and not edits:  # the user saves in Obsidian just before our write
            edits.append(rel)
            card.write_text(card.read_text() + "Typed by the user meanwhile.\n")
        return real_write(rel, text, expect)

    monkeypatch.setattr(ctx.vault, "write", racing_write)
    result = auto_memory(ctx, "s", [msg("two", at="2023-01-19T09:00:00")])
    assert result["success"] and edits
    text = card.read_text()
    assert "Typed by the user meanwhile." in text and "- user: two" in text
