"""Issue 12, item 3: an update while an editor saves a card in place (open with truncate, then write).

The "editor" here is real: it opens the card with ``O_TRUNC`` and writes through
that one descriptor in steps. Its next step runs from ``Vault.pause`` (memvault
waiting for the save to settle) or right after memvault's ``os.replace`` (a
write through the old descriptor), never after a sleep.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest

from daemon.pipeline import Context
from daemon.pipeline.ingest import ingest_file

USER_LINES = [f"- my note {n}" for n in range(1, 21)]


def export(*contents: str) -> dict[str, Any]:
    return {"session_id": "chat-1", "messages": [
        {"id": f"m{n}", "role": "user", "content": text, "created_at": f"2026-01-05T1{n}:00:00"}
        for n, text in enumerate(contents)]}


def drop(ctx: Context, data: Any) -> Path:
    path = ctx.config.inbox / "c.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def the_cards(root: Path) -> list[Path]:
    return sorted((root / "daily").glob("*/*.md"))


class Editor:
    """An in-place save: truncate the file, then write ``text`` in pieces through one descriptor."""

    def __init__(self, path: Path, text: str) -> None:
        self.data = text.encode("utf-8")
        self.done = 0
        self.fd = os.open(path, os.O_WRONLY | os.O_TRUNC)

    def write(self, upto: int | None = None) -> None:
        end = len(self.data) if upto is None else upto
        os.write(self.fd, self.data[self.done:end])
        self.done = end

    def close(self) -> None:
        os.close(self.fd)


def user_version(card: Path) -> str:
    return card.read_text(encoding="utf-8").rstrip("\n") + "\n" + "\n".join(USER_LINES) + "\n"


def finish_on_pause(editor: Editor) -> Callable[[int], None]:
    def pause(attempt: int) -> None:
        editor.write()

    return pause


@pytest.mark.parametrize("first_bytes", [0, 9], ids=["empty", "frontmatter-cut-off"])
def test_a_card_mid_save_is_waited_for_never_duplicated(ctx: Context, vault_root: Path, first_bytes: int) -> None:
    assert ingest_file(ctx, drop(ctx, export("We picked Grafana.")), ctx.config.inbox).state == "imported"
    [card] = the_cards(vault_root)
    editor = Editor(card, user_version(card))
    editor.write(first_bytes)
    waited: list[int] = []
    ctx.vault.pause = lambda attempt: (waited.append(attempt), editor.write())  # type: ignore[method-assign]
    try:
        report = ingest_file(ctx, drop(ctx, export("We picked Grafana.", "And Loki for logs.")), ctx.config.inbox)
    finally:
        editor.close()
    assert the_cards(vault_root) == [card], "a second card was created for the session and day"
    assert report.state == "updated" and waited
    text = card.read_text(encoding="utf-8")
    assert all(line in text for line in USER_LINES) and "Loki" in text


def test_a_save_that_never_settles_is_retried_later_not_failed(ctx: Context, vault_root: Path) -> None:
    assert ingest_file(ctx, drop(ctx, export("We picked Grafana.")), ctx.config.inbox).state == "imported"
    [card] = the_cards(vault_root)
    editor = Editor(card, user_version(card))
    ctx.vault.pause = lambda attempt: None  # type: ignore[method-assign]  # the editor stalls
    path = drop(ctx, export("We picked Grafana.", "And Loki for logs."))
    try:
        report = ingest_file(ctx, path, ctx.config.inbox)
        assert report.state == "retry" and path.exists() and not (ctx.config.inbox / "failed").exists()
        assert "busy" in report.reasons[0] and the_cards(vault_root) == [card]
        editor.write()
    finally:
        editor.close()
    again = ingest_file(ctx, path, ctx.config.inbox)
    assert again.state == "updated" and the_cards(vault_root) == [card]
    assert all(line in card.read_text(encoding="utf-8") for line in USER_LINES)


def test_bytes_written_through_an_old_descriptor_after_our_replace_are_kept(
        ctx: Context, vault_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ingest_file(ctx, drop(ctx, export("We picked Grafana.")), ctx.config.inbox).state == "imported"
    [card] = the_cards(vault_root)
    full = user_version(card)
    editor = Editor(card, full)
    editor.write(len(full.encode("utf-8")) - len("\n".join(USER_LINES[10:]).encode("utf-8")) - 1)  # 10 lines in
    real_replace = os.replace
    late: list[str] = []

    def replace(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        if Path(dst) == card and not late:
            late.append("written")
            editor.write()  # the editor's second half lands in the file memvault just unlinked

    monkeypatch.setattr(os, "replace", replace)
    try:
        report = ingest_file(ctx, drop(ctx, export("We picked Grafana.", "And Loki for logs.")), ctx.config.inbox)
    finally:
        editor.close()
    assert late and report.state == "updated" and the_cards(vault_root) == [card]
    text = card.read_text(encoding="utf-8")
    assert [line for line in USER_LINES if line not in text] == [] and "Loki" in text
