"""What a user hits in the first hour, in the pipeline: honest reports, rejected malformed input."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from conftest import snapshot_tree

from daemon import ops
from daemon.conversations.formats import parse_messages
from daemon.errors import InputError
from daemon.pipeline import Context, auto_memory
from daemon.pipeline import renames
from daemon.pipeline.ingest import InboxQueue, ingest_file
from daemon.vault import props


@pytest.mark.parametrize("messages", [
    [{"role": "user"}],
    [{"role": "user", "content": "fine", "created_at": "2023-01-19T08:00:00"}, {"role": "user", "id": "m2"}],
    [{"role": "user", "content": None}],
], ids=["only-role", "second-lacks-content", "null-content"])
def test_a_message_without_content_is_rejected_and_writes_nothing(ctx: Context, vault_root: Path,
                                                                  messages: list[dict[str, object]]) -> None:
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s1", messages)
    assert result["success"] is False
    index = len(messages) - 1
    assert f"messages[{index}]: field 'content' is required" in result["answer"]
    assert snapshot_tree(vault_root) == before


def test_parse_names_the_message_and_field() -> None:
    with pytest.raises(InputError, match=r"^messages\[0\]: field 'content' is required"):
        parse_messages([{"role": "user", "id": "x"}])


# ---- item 1: a file with no conversation says why, never "unchanged" ----------------------------

def drop(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def compaction_line(n: int) -> str:
    return json.dumps({"type": "user" if n % 2 else "assistant", "sessionId": "s-1", "agentId": "acompact-ff",
                       "isSidechain": True, "uuid": f"u{n}", "timestamp": "2026-02-12T10:00:00Z",
                       "message": {"role": "user" if n % 2 else "assistant", "content": f"summary part {n}"}})


@pytest.mark.parametrize(("name", "text", "note"), [
    ("users.json", json.dumps([{"uuid": "u-1", "full_name": "Ann", "email_address": "a@example.org"}]),
     "skipped: Claude account file, no conversations"),
    ("projects.json", json.dumps([{"uuid": "p-1", "name": "P", "docs": [], "prompt_template": ""}]),
     "skipped: Claude account file, no conversations"),
    ("memories.json", json.dumps([{"conversations_memory": "Ann likes tea", "account_uuid": "u-1"}]),
     "skipped: Claude account file, no conversations"),
    ("agent-acompact-ff.jsonl", "\n".join(compaction_line(n) for n in range(1, 5)) + "\n",
     "skipped: compaction helper, its content is in the session transcript"),
    ("empty.json", "[]", "skipped: an empty export, no conversations"),
], ids=["users", "projects", "memories", "compaction-helper", "empty-array"])
def test_a_file_without_conversations_is_reported_as_skipped_with_why(ctx: Context, name: str, text: str,
                                                                      note: str) -> None:
    path = drop(ctx.config.inbox, name, text)
    report = ingest_file(ctx, path, ctx.config.inbox)
    assert (report.state, report.note, report.reasons) == ("skipped", note, [])
    assert report.moved_to is not None and report.moved_to.parent.parent.name == "processed"
    assert report.summary().startswith(f"{name}: {note}")
    again = ingest_file(ctx, drop(ctx.config.inbox, name, text), ctx.config.inbox)
    assert (again.state, again.note) == ("skipped", note)  # dropped again: still the truth, not "unchanged"
    real = json.dumps({"session_id": "s1", "messages": [{"role": "user", "content": "We chose JWT.",
                                                         "created_at": "2023-01-19T08:00:00"}]})
    first = ingest_file(ctx, drop(ctx.config.inbox, "a.json", real), ctx.config.inbox)
    again = ingest_file(ctx, drop(ctx.config.inbox, "a.json", real), ctx.config.inbox)
    assert (first.state, again.state, again.note) == ("imported", "unchanged", "")  # a re-import: unchanged


# ---- item 2: where the cards went --------------------------------------------------------------

TWO_DAYS = json.dumps({"session_id": "s2", "messages": [
    {"role": "user", "content": "Day one: we chose JWT.", "created_at": "2023-01-19T08:00:00"},
    {"role": "user", "content": "Day two: tokens last 15 minutes.", "created_at": "2023-01-20T08:00:00"}]})


def test_the_report_lists_each_card_the_file_wrote(ctx: Context, vault_root: Path) -> None:
    report = ingest_file(ctx, drop(ctx.config.inbox, "two.json", TWO_DAYS), ctx.config.inbox)
    assert report.cards == ["daily/2023-01-19/topic.md", "daily/2023-01-20/topic.md"]
    assert all((vault_root / card).is_file() for card in report.cards)
    assert report.summary() == ("two.json: imported (1 imported); "
                                "cards: daily/2023-01-19/topic.md, daily/2023-01-20/topic.md")
    again = ingest_file(ctx, drop(ctx.config.inbox, "two.json", TWO_DAYS), ctx.config.inbox)
    assert again.cards == []


def test_the_log_line_for_a_failure_gives_the_reason_once(ctx: Context) -> None:
    report = ingest_file(ctx, drop(ctx.config.inbox, "cut.json", '[{"session_id": "s", "messages": ['),
                         ctx.config.inbox)
    line = report.summary()
    assert line.startswith("cut.json: failed (1 failed): ") and "not closed" in line
    assert line.count("cut.json") == 1


# ---- item 3: a folder given to ingest --------------------------------------------------------------

def test_a_folder_tries_only_exports_and_lists_the_rest_once(ctx: Context, tmp_path: Path) -> None:
    folder = tmp_path / "export"
    drop(folder, "README.md", "# My export\n")
    drop(folder, "FORMATS.md", "formats\n")
    drop(folder, "two.json", TWO_DAYS)
    reports = ops.ingest(ctx, [str(folder)])
    by_name = {r["name"]: r for r in reports}
    assert len(reports) == 3
    assert by_name["two.json"]["state"] == "imported" and by_name["two.json"]["cards"]
    for name in ("README.md", "FORMATS.md"):
        assert (by_name[name]["state"], by_name[name]["note"], by_name[name]["failed"]) == \
            ("skipped", "skipped (not an export)", 0)
    assert (folder / "README.md").exists() and (folder / "two.json").exists()  # outside the inbox: left alone
    (named,) = ops.ingest(ctx, [str(folder / "FORMATS.md")])  # a file named explicitly is still tried
    assert named["state"] == "failed" and named["reasons"]


# ---- item 4: a bad file is announced at once, not after 30 s of silence -----------------------------

@pytest.mark.parametrize(("content", "why"), [
    ('[{"session_id": "s", "messages": [', "incomplete JSON"),
    ("", "the file is empty"),
    ("hello, not json", "not JSON, JSONL or ZIP"),
])
def test_an_incomplete_file_is_logged_as_waiting_once_right_away(ctx: Context, caplog: pytest.LogCaptureFixture,
                                                                 content: str, why: str) -> None:
    drop(ctx.config.inbox, "bad.json", content)
    queue = InboxQueue(ctx.config.inbox, window=1.0)
    with caplog.at_level(logging.INFO, logger="memvault.inbox"):
        queue.tick(ctx, now=0.0)
        assert not [r for r in caplog.records if "bad.json" in r.getMessage()]
        for now in (1.5, 2.0, 5.0):  # stable, still incomplete: waiting, said once
            assert queue.tick(ctx, now=now) == []
    said = [r.getMessage() for r in caplog.records if "bad.json" in r.getMessage()]
    assert len(said) == 1, said
    assert said[0].startswith(f"inbox: bad.json: {why}") and said[0].endswith(
        "; waiting up to 30 s for the writer to finish")


# ---- item 6: a card's name follows the user's rename, and so does the daily page -----------------------

def make_card(ctx: Context, vault_root: Path) -> Path:
    result = auto_memory(ctx, "session-a", [{"role": "user", "content": "We chose JWT.",
                                             "created_at": "2023-01-19T08:00:00"}])
    assert result["metadata"]["path"] == "daily/2023-01-19/topic.md"
    card = vault_root / "daily/2023-01-19/topic.md"
    # a property line of the user's own, quoted their way, must survive byte for byte
    card.write_text(card.read_text(encoding="utf-8").replace("---\nname:", "---\nmine: 'kept'\nname:", 1),
                    encoding="utf-8")
    renames.reconcile(ctx)
    return card


@pytest.mark.parametrize("how", ["after-downtime", "memvault-mv"])
def test_a_renamed_cards_name_and_daily_alias_follow_the_file_name(ctx: Context, vault_root: Path,
                                                                   how: str) -> None:
    card = make_card(ctx, vault_root)
    before = card.read_text(encoding="utf-8")
    new = card.with_name("JWT decision.md")
    if how == "after-downtime":
        card.rename(new)
        renames.reconcile(ctx)
    else:
        ops.move(ctx, "daily/2023-01-19/topic.md", "daily/2023-01-19/JWT decision.md")
    after = new.read_text(encoding="utf-8")
    assert props.read(after)["name"] == "JWT decision"
    assert after == before.replace("\nname: topic\n", "\nname: JWT decision\n")  # only that line changed
    page = (vault_root / "daily/2023-01-19.md").read_text(encoding="utf-8")
    assert "[[daily/2023-01-19/JWT decision|JWT decision]]" in page and "|topic]]" not in page
    auto_memory(ctx, "session-a", [{"role": "user", "content": "Tokens last 15 minutes.",
                                    "created_at": "2023-01-19T09:00:00"}])
    assert props.read(new.read_text(encoding="utf-8"))["name"] == "JWT decision"  # the rename is not undone
    assert not card.exists()
    note = vault_root / "notes" / "a.md"  # a plain note (no session_id) keeps its properties when renamed
    note.parent.mkdir()
    note.write_text("---\nname: a\n---\nplain\n", encoding="utf-8")
    renames.reconcile(ctx)
    note.rename(note.with_name("b.md"))
    renames.reconcile(ctx)
    assert (vault_root / "notes/b.md").read_text(encoding="utf-8") == "---\nname: a\n---\nplain\n"


def test_a_card_memvault_renames_writes_no_extra_name_change(ctx: Context, vault_root: Path) -> None:
    card = make_card(ctx, vault_root)
    text = card.read_text(encoding="utf-8")
    assert renames.follow_card_names(ctx, {"daily/2023-01-19/x.md": "daily/2023-01-19/topic.md"}) == []
    assert card.read_text(encoding="utf-8") == text


def test_following_card_names_reads_only_files_that_may_be_cards(ctx: Context, vault_root: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A big folder move is mostly plain notes: the index (in step with the file) says which are not cards."""
    card = make_card(ctx, vault_root)
    (vault_root / "notes").mkdir()
    (vault_root / "notes/plain.md").write_text("plain\n", encoding="utf-8")
    (vault_root / "notes/edited.md").write_text("plain\n", encoding="utf-8")
    renames.reconcile(ctx)
    (vault_root / "notes").rename(vault_root / "kept")
    card.rename(card.with_name("JWT decision.md"))
    moves = {"notes/plain.md": "kept/plain.md", "notes/edited.md": "kept/edited.md",
             "daily/2023-01-19/topic.md": "daily/2023-01-19/JWT decision.md"}
    ctx.graph.apply_moves(moves)  # as on_moves does first
    (vault_root / "kept/edited.md").write_text("---\nsession_id: session-a\n---\nnow a card\n",
                                               encoding="utf-8")  # not yet seen by the index
    read: list[str] = []
    real = ctx.vault.read
    monkeypatch.setattr(ctx.vault, "read", lambda rel: (read.append(rel), real(rel))[1])
    written = renames.follow_card_names(ctx, moves)
    assert "kept/plain.md" not in read and {"kept/edited.md", "daily/2023-01-19/JWT decision.md"} <= set(read)
    assert {"daily/2023-01-19/JWT decision.md", "kept/edited.md"} <= set(written)
    assert props.read((vault_root / "kept/edited.md").read_text(encoding="utf-8"))["name"] == "edited"
