"""Issue 12, item 4: one huge conversation costs bounded memory.

The record keeps everything, written piece by piece; the distiller sees each
message capped (saying so) and a huge conversation in parts. Sizes here are
small stand-ins; ``scripts/bench_inbox.py --huge`` measures the real inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXED_NOW, FakeDistiller, snapshot_tree

from daemon.conversations import spill
from daemon.conversations.exports import jsonstream
from daemon.conversations.sessions import dump_line, merge_record
from daemon.models import Card, DistillRequest, Message
from daemon.pipeline import Context, bounded
from daemon.pipeline.ingest import ingest_file
from daemon.vault.files import Vault, digest


def export(*texts: str) -> dict[str, object]:
    return {"session_id": "big", "messages": [
        {"id": f"m{n}", "role": "user", "content": text, "created_at": f"2026-01-05T10:{n % 60:02d}:00"}
        for n, text in enumerate(texts)]}


def test_a_huge_message_is_capped_for_the_distiller_and_kept_whole_in_the_record(
        ctx: Context, fake: object, vault_root: Path) -> None:
    huge = "We deploy with Helm and pin the chart. " * 80_000  # 3.1 MB
    path = ctx.config.inbox / "big.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export("Short question?", huge)), encoding="utf-8")
    assert ingest_file(ctx, path, ctx.config.inbox).state == "imported"
    [request] = fake.calls  # type: ignore[attr-defined]
    seen = request.messages[1].text
    assert len(seen) < bounded.MESSAGE_CHARS + 100 and seen.endswith("(message 2 shortened: 3 MB)")
    assert request.messages[0].text == "Short question?"
    record = (vault_root / "session/dialog/big.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(record[1])["content"] == huge
    card = next((vault_root / "daily").glob("*/*.md")).read_text(encoding="utf-8")
    assert card.count("(message 2 shortened: 3 MB)") == 1  # the card says what the distiller did not see


def test_the_card_names_a_shortened_message_even_if_the_distiller_dropped_it(
        ctx: Context, fake: object, vault_root: Path) -> None:
    fake.make = lambda request: Card("topic", "d", "## Notes\n- Helm it is.\n")  # type: ignore[attr-defined]
    path = ctx.config.inbox / "big.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export("x" * (bounded.MESSAGE_CHARS + 1))), encoding="utf-8")
    assert ingest_file(ctx, path, ctx.config.inbox).state == "imported"
    card = next((vault_root / "daily").glob("*/*.md")).read_text(encoding="utf-8")
    assert "- Helm it is." in card and "(message 1 shortened: 20 kB)" in card


def test_a_huge_conversation_is_distilled_in_parts_each_updating_the_card(
        ctx: Context, fake: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "PART_MESSAGES", 4)
    path = ctx.config.inbox / "long.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export(*[f"Fact {n}." for n in range(10)])), encoding="utf-8")
    assert ingest_file(ctx, path, ctx.config.inbox).state == "imported"
    calls: list[DistillRequest] = fake.calls  # type: ignore[attr-defined]
    assert [len(c.messages) for c in calls] == [4, 4, 2]
    assert calls[0].existing is None and calls[1].existing is not None and "Fact 3." in calls[1].existing.body
    assert "Fact 7." in (calls[2].existing or Card("", "", "")).body


def test_a_huge_record_is_written_streaming_with_the_same_bytes(tmp_path: Path) -> None:
    from daemon.conversations.formats import parse_messages

    messages = parse_messages([{"id": "a", "role": "user", "content": "é\n\"x\"" * 400_000},
                               {"id": "b", "role": "user", "content": "small"}])
    update = merge_record(None, messages, None)
    expected = "".join(dump_line(m.record) + "\n" for m in messages)
    assert update.text == expected
    vault = Vault(tmp_path)
    written = vault.write_pieces("r.jsonl", update.pieces(), "absent")  # type: ignore[misc]
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8") == expected
    assert written == digest(expected.encode("utf-8"))


def test_the_reader_drops_a_huge_value_once_it_is_decoded() -> None:
    import io

    from daemon.conversations.exports.jsonstream import JsonStream

    data = json.dumps([{"text": "x" * 5_000_000}, {"text": "y"}]).encode()
    stream = JsonStream(io.BytesIO(data), "big.json")
    values = stream.elements()
    first = next(values)
    assert len(first["text"]) == 5_000_000 and len(stream._buf) < 1_000_000  # noqa: SLF001
    assert next(values) == {"text": "y"}


def test_a_stop_between_parts_keeps_the_finished_parts_and_leaves_the_rest_pending(
        ctx: Context, fake: object, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setattr(bounded, "PART_MESSAGES", 4)
    stopping = threading.Event()

    def first_part_then_stop(request: DistillRequest) -> Card:
        stopping.set()  # SIGTERM arrives while the first part is being distilled
        body = "".join(f"- {m.text}\n" for m in request.messages)
        return Card("topic", "d", (request.existing.body if request.existing else "") + body)

    fake.make = first_part_then_stop  # type: ignore[attr-defined]
    path = ctx.config.inbox / "long.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export(*[f"Fact {n}." for n in range(10)])), encoding="utf-8")
    report = ingest_file(ctx, path, ctx.config.inbox, stop=stopping.is_set)
    assert report.state == "interrupted"
    assert path.exists() and not (ctx.config.inbox / "failed").exists()  # the file stays in the inbox
    assert len(fake.calls) == 1  # type: ignore[attr-defined]
    [card] = list((ctx.config.vault / "daily").glob("*/*.md"))
    assert "Fact 3." in card.read_text(encoding="utf-8")  # the finished part is kept
    assert ctx.bases.pending("big", "2026-01-05") == [f"m{n}" for n in range(4, 10)]

    fake.calls.clear()  # type: ignore[attr-defined]
    assert ingest_file(ctx, path, ctx.config.inbox).state in ("imported", "updated")
    assert [[m.id for m in c.messages] for c in fake.calls] == [  # type: ignore[attr-defined]
        ["m4", "m5", "m6", "m7"], ["m8", "m9"]]
    text = next((ctx.config.vault / "daily").glob("*/*.md")).read_text(encoding="utf-8")
    assert "Fact 3." in text and "Fact 9." in text and not path.exists()
    assert ctx.bases.pending("big", "2026-01-05") == []


def test_a_stop_before_any_part_made_a_card_raises_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import date

    from daemon.conversations.formats import parse_messages
    from daemon.errors import Interrupted
    from daemon.models import Skip

    monkeypatch.setattr(bounded, "PART_MESSAGES", 4)
    calls: list[DistillRequest] = []

    class SkipsFirst:
        def distill(self, request: DistillRequest) -> Card | Skip:
            calls.append(request)
            return Skip("small talk")

    messages = parse_messages([{"id": f"m{n}", "role": "user", "content": "Hi."} for n in range(10)])
    request = DistillRequest("s", date(2026, 1, 5), messages, None, None, None)
    with pytest.raises(Interrupted):
        bounded.distill(SkipsFirst(), request, stop=lambda: bool(calls))
    assert len(calls) == 1


def _long_export() -> str:
    """Two days of messages, some out of time order, some without a time, a repeated id and one huge message."""
    messages: list[dict[str, object]] = []
    for n in range(60):
        message: dict[str, object] = {"id": f"m{n}", "role": "user" if n % 2 else "assistant",
                                      "content": f"Fact {n}: we keep item {n % 7}."}
        if n % 11:  # every eleventh has no time: it takes the conversation's latest day
            message["created_at"] = f"2026-01-0{5 + n // 30}T10:{(n * 7) % 60:02d}:00"
        messages.append(message)
    messages[40]["content"] = "Huge. " * 5_000
    messages.append({"id": "m3", "role": "user", "content": "a repeat of m3: the first copy is kept"})
    return json.dumps({"session_id": "long", "messages": messages})


def _import_into(tmp_path: Path, name: str, data: str, fake: FakeDistiller) -> tuple[str, dict[str, bytes]]:
    from daemon.app import build, init_vault
    from daemon.config import load_config

    root = tmp_path / name
    init_vault(root)
    ctx = build(load_config(overrides=[f"vault={root}", "timezone=UTC"], environ={}), distiller=fake,
                clock=lambda: FIXED_NOW)
    path = tmp_path / f"{name}.json"
    path.write_text(data, encoding="utf-8")
    state = ingest_file(ctx, path, None).state
    pending = {day: ctx.bases.pending("long", day) for day in ("2026-01-05", "2026-01-06")}
    ctx.graph.index.close()
    assert pending == {"2026-01-05": [], "2026-01-06": []}
    return state, snapshot_tree(root)


def test_a_conversation_kept_on_disk_imports_exactly_like_one_held_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded, "PART_MESSAGES", 7)
    held, spilled = FakeDistiller(), FakeDistiller()
    expected = _import_into(tmp_path, "held", _long_export(), held)
    monkeypatch.setattr(jsonstream, "BIG", 500)  # read in pieces, messages spilled past 5
    monkeypatch.setattr(spill, "MEMORY_ITEMS", 5)
    assert _import_into(tmp_path, "spilled", _long_export(), spilled) == expected
    assert [[(m.id, m.text) for m in c.messages] for c in spilled.calls] == \
           [[(m.id, m.text) for m in c.messages] for c in held.calls]
    assert len(held.calls) > 2 and any("(message " in m.text for c in held.calls for m in c.messages)


def test_a_long_conversation_is_never_held_whole_on_its_way_to_the_card(
        ctx: Context, fake: FakeDistiller, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from daemon.pipeline import memory

    monkeypatch.setattr(jsonstream, "BIG", 1000)
    monkeypatch.setattr(spill, "MEMORY_ITEMS", 50)
    monkeypatch.setattr(bounded, "PART_MESSAGES", 100)
    alive: list[int] = []

    def count() -> None:
        gc.collect()
        alive.append(sum(1 for o in gc.get_objects() if isinstance(o, Message)))

    def counting_merge(*args: object) -> object:
        update = merge_record(*args)  # type: ignore[arg-type]
        count()
        return update

    def counting_distill(request: DistillRequest) -> Card:
        fake.calls.clear()  # the fake keeps its requests; this test keeps none
        count()
        return Card("topic", "d", (request.existing.body if request.existing else "") + f"- {len(request.messages)}\n")

    gc.collect()
    before = sum(1 for o in gc.get_objects() if isinstance(o, Message))  # (other tests' module-level messages)
    monkeypatch.setattr(memory, "merge_record", counting_merge)
    fake.make = counting_distill
    path = ctx.config.inbox / "long.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(export(*[f"Fact {n}." for n in range(3000)])), encoding="utf-8")
    assert ingest_file(ctx, path, ctx.config.inbox).state == "imported"
    assert len(alive) == 31  # the record, then 30 parts
    assert max(alive) - before < 300, (before, alive)  # a part and a batch at most, never the 3,000
    record = (ctx.config.vault / "session/dialog/big.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["content"] for line in record) == sorted(f"Fact {n}." for n in range(3000))


def test_a_bad_message_deep_in_a_spilled_conversation_fails_the_file_and_writes_nothing(
        ctx: Context, vault_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonstream, "BIG", 500)
    monkeypatch.setattr(spill, "MEMORY_ITEMS", 5)
    data = export(*[f"Fact {n}." for n in range(40)])
    data["messages"][37]["created_at"] = "not a time"  # type: ignore[index]
    inbox = ctx.config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    path = inbox / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot_tree(vault_root / "daily"), snapshot_tree(vault_root / "session")
    report = ingest_file(ctx, path, inbox)
    assert report.state == "failed" and "messages[37]: field 'created_at' is not a timestamp" in report.reasons[0]
    assert (snapshot_tree(vault_root / "daily"), snapshot_tree(vault_root / "session")) == before
    assert (inbox / "failed" / "long.json").read_bytes() == json.dumps(data).encode()
