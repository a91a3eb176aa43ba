"""Claude Code sessions recorded from hook jobs: the increment by uuid, the throttle, compaction, subagents.

Hook payloads are built in code; the transcripts are the ``claude_code`` files of
the shared corpus, copied into a temporary Claude projects folder.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from daemon.integrations.claude_code import sessions, spool
from daemon.integrations.claude_code.drain import drain, process, process_safely
from daemon.pipeline import Context
from shared_corpus import CORPUS

pytestmark = pytest.mark.corpus
SHORT = "55604662"  # spotter_short.jsonl's session id prefix
CC = CORPUS / "claude_code"


def lines_of(name: str) -> list[str]:
    return (CC / name).read_text(encoding="utf-8").splitlines(keepends=True)


def session_id_of(name: str) -> str:
    return next(json.loads(l)["sessionId"] for l in lines_of(name) if '"sessionId"' in l)


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    return home / "projects" / "-home-marco-projects-spotter"


def transcript(claude: Path, name: str, lines: list[str] | None = None) -> tuple[str, Path]:
    sid = session_id_of(name)
    path = claude / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines if lines is not None else lines_of(name)), encoding="utf-8")
    return sid, path


def payload(sid: str, path: Path, event: str = "Stop", cwd: str = "/home/marco/projects/spotter") -> dict[str, Any]:
    return {"session_id": sid, "transcript_path": str(path), "cwd": cwd, "hook_event_name": event,
            "stop_hook_active": False}


def state_dir(ctx: Context) -> Path:
    return ctx.config.state_dir()


def record_ids(ctx: Context, sid: str) -> list[str]:
    text = (ctx.config.vault / "session" / "dialog" / f"claude-code-{sid}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line)["id"] for line in text.splitlines()]


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_repeated_stop_writes_nothing(ctx: Context, claude: Path, fake: Any) -> None:
    sid, path = transcript(claude, "spotter_short.jsonl")
    first = process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    assert first["state"] == "imported" and first["recorded"] == len(record_ids(ctx, sid)) >= 2
    before, calls = tree(ctx.config.vault), len(fake.calls)
    again = process(ctx, state_dir(ctx), payload(sid, path), at=5000.0)
    assert again["state"] == "unchanged" and again["recorded"] == 0
    assert tree(ctx.config.vault) == before and len(fake.calls) == calls


def test_a_stop_after_new_turns_appends_only_those(ctx: Context, claude: Path, fake: Any) -> None:
    lines = lines_of("spotter_tool_heavy.jsonl")
    sid, path = transcript(claude, "spotter_tool_heavy.jsonl", lines[:12])
    process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    earlier = record_ids(ctx, sid)
    path.write_text("".join(lines), encoding="utf-8")
    report = process(ctx, state_dir(ctx), payload(sid, path), at=2000.0)
    now = record_ids(ctx, sid)
    assert now[: len(earlier)] == earlier and len(now) == len(set(now)) > len(earlier)
    assert report["state"] == "updated"
    # the second distillation saw the new messages (and an assistant reply that grew), not the first turn again
    second = {m.id for m in fake.calls[-1].messages}
    assert set(now) - set(earlier) <= second and earlier[0] not in second
    for message in fake.calls[-1].messages:
        assert message.time is not None and message.time.year == 2026 and fake.calls[-1].day.isoformat() == "2026-02-10"


def test_stops_are_throttled_but_recorded_and_session_end_forces_the_card(ctx: Context, claude: Path, fake: Any) -> None:
    lines = lines_of("spotter_tool_heavy.jsonl")
    sid, path = transcript(claude, "spotter_tool_heavy.jsonl", lines[:12])
    process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    card = next((ctx.config.vault / "daily" / "2026-02-10").glob("*.md"))
    text, calls = card.read_text(encoding="utf-8"), len(fake.calls)
    path.write_text("".join(lines), encoding="utf-8")
    waiting = process(ctx, state_dir(ctx), payload(sid, path), at=1010.0)  # within the 300 s default
    assert waiting["state"] == "recorded" and waiting["recorded"] > 0 and "the card waits" in waiting["reasons"][0]
    assert len(record_ids(ctx, sid)) > 2 and card.read_text(encoding="utf-8") == text and len(fake.calls) == calls
    ended = process(ctx, state_dir(ctx), payload(sid, path, "SessionEnd"), at=1020.0, force=True)
    assert ended["state"] == "updated" and len(fake.calls) == calls + 1
    assert {m.id for m in fake.calls[-1].messages} == set(record_ids(ctx, sid)) - set(record_ids(ctx, sid)[:2])
    assert sessions.load(state_dir(ctx), sid).waiting == {}


def test_the_card_carries_the_project_and_the_record_the_path(ctx: Context, claude: Path) -> None:
    sid, path = transcript(claude, "spotter_short.jsonl")
    process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    card = next((ctx.config.vault / "daily" / "2026-02-10").glob("*.md")).read_text(encoding="utf-8")
    assert "\nproject: spotter\n" in card
    record = (ctx.config.vault / "session" / "dialog" / f"claude-code-{sid}.jsonl").read_text(encoding="utf-8")
    assert all(json.loads(line)["cwd"] == "/home/marco/projects/spotter" for line in record.splitlines())


def test_a_compaction_summary_is_not_recorded_as_conversation(ctx: Context, claude: Path) -> None:
    lines = lines_of("spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl")
    boundary = next(i for i, l in enumerate(lines) if '"compact_boundary"' in l)
    sid, path = transcript(claude, "spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl", lines[:boundary])
    process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    before = record_ids(ctx, sid)
    # The compaction alone: the boundary, the summary and the /compact echoes.
    path.write_text("".join(lines[: boundary + 5]), encoding="utf-8")
    report = process(ctx, state_dir(ctx), payload(sid, path, "PreCompact"), at=1010.0, force=True)
    assert record_ids(ctx, sid) == before and report["recorded"] == 0
    assert any("compaction" in note and "nothing new" in note for note in report["reasons"])
    # The conversation after it is recorded; the summary never is.
    path.write_text("".join(lines), encoding="utf-8")
    after = process(ctx, state_dir(ctx), payload(sid, path), at=2000.0)
    assert after["recorded"] > 0
    record = (ctx.config.vault / "session" / "dialog" / f"claude-code-{sid}.jsonl").read_text(encoding="utf-8")
    assert "being continued from a previous conversation" not in record and "continue implementation" in record


def test_a_subagent_transcript_is_recorded_and_a_compaction_helper_is_not(ctx: Context, claude: Path) -> None:
    sid, path = transcript(claude, "spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl")
    agents = claude / sid / "subagents"
    agents.mkdir(parents=True)
    shutil.copyfile(CC / "spotter_subagent_agent-aac57f5.jsonl", agents / "agent-aac57f5.jsonl")
    shutil.copyfile(CC / "spotter_subagent_agent-acompact-fffbd0.jsonl", agents / "agent-acompact-fffbd0.jsonl")
    process(ctx, state_dir(ctx), payload(sid, path, "SessionEnd"), at=1000.0, force=True)
    dialog = ctx.config.vault / "session" / "dialog"
    agent = dialog / f"claude-code-{sid}-agent-aac57f5.jsonl"
    assert agent.exists() and "hex.pm" in agent.read_text(encoding="utf-8")
    assert not [p for p in dialog.iterdir() if "acompact" in p.name]
    assert process(ctx, state_dir(ctx), payload(sid, path, "SessionEnd"), at=2000.0, force=True)["recorded"] == 0


def test_a_missing_transcript_is_reported_and_kept_for_status(ctx: Context, claude: Path) -> None:
    spool.put(state_dir(ctx), payload("0000-gone", claude / "0000-gone.jsonl"))
    [report] = drain(ctx, state_dir(ctx))
    assert report["state"] == "failed" and "transcript not found" in report["reasons"][0]
    assert "transcript not found" in spool.errors(state_dir(ctx))[-1]["error"]
    assert spool.jobs(state_dir(ctx)) == []


def test_piled_up_jobs_of_one_session_are_read_once(ctx: Context, claude: Path, fake: Any) -> None:
    sid, path = transcript(claude, "spotter_short.jsonl")
    for event in ("Stop", "Stop", "SessionEnd", "Stop"):
        spool.put(state_dir(ctx), payload(sid, path, event))
    [report] = drain(ctx, state_dir(ctx))
    assert report["state"] == "imported" and len(fake.calls) == 1
    assert sessions.load(state_dir(ctx), sid).last_event and spool.jobs(state_dir(ctx)) == []


def test_a_card_left_waiting_is_written_by_a_later_drain(ctx: Context, claude: Path, fake: Any) -> None:
    """A session killed without SessionEnd: the next drain, for any session, writes its waiting card."""
    lines = lines_of("spotter_tool_heavy.jsonl")
    sid, path = transcript(claude, "spotter_tool_heavy.jsonl", lines[:12])
    process(ctx, state_dir(ctx), payload(sid, path), at=1000.0)
    path.write_text("".join(lines), encoding="utf-8")
    assert process(ctx, state_dir(ctx), payload(sid, path), at=1010.0)["state"] == "recorded"
    calls = len(fake.calls)
    [report] = drain(ctx, state_dir(ctx))  # no job in the spool; the clock is long past 1010 + 300
    assert report["name"] == sid and report["state"] == "updated" and len(fake.calls) == calls + 1
    assert sessions.load(state_dir(ctx), sid).waiting == {} and drain(ctx, state_dir(ctx)) == []


def test_a_model_failure_keeps_the_card_waiting_for_the_next_drain(ctx: Context, claude: Path, fake: Any) -> None:
    from daemon.errors import DistillError
    from daemon.models import DistillRequest

    def down(request: DistillRequest) -> Any:
        raise DistillError("the model server is down")

    sid, path = transcript(claude, "spotter_short.jsonl")
    fake.make = down
    [failed] = [process_safely(ctx, state_dir(ctx), payload(sid, path, "SessionEnd"), 1000.0, True)]
    assert failed["state"] == "failed" and "model server is down" in failed["reasons"][0]
    assert len(record_ids(ctx, sid)) >= 2 and sessions.load(state_dir(ctx), sid).waiting  # recorded, card waits
    fake.make = None
    [report] = drain(ctx, state_dir(ctx))  # the next drain writes it
    assert report["state"] == "imported" and sessions.load(state_dir(ctx), sid).waiting == {}
