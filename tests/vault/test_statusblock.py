"""The status block of Memvault.md: rendered from facts, merged between markers, the user's text kept."""

from __future__ import annotations

from daemon.vault.statusnote import (END, START, BrokenLink, FailedFile, ImportLine, NextStep, StatusView, code, link,
                                     merge, render_block)

VIEW = StatusView(
    version="0.1.0", state="running (watcher native)",
    imports=(ImportLine("2026-11-30 12:00", "two.json", "imported", ("daily/2023-01-19/topic.md",)),
             ImportLine("2026-11-30 12:01", "users.json", "skipped: Claude account file, no conversations")),
    failed=(FailedFile("cut.json", "invalid JSON at line 1", "inbox/failed/cut.json.error.txt"),),
    broken_count=1, broken=(BrokenLink("notes/a.md", 3, "[[missing|x]]"),),
    retag="schedule `0 3 * * *`",
    next_steps=(NextStep("daily/2023-01-19/topic.md", "2023-01-19", "Deploy the gateway"),),
)


def test_the_block_shows_each_part_with_links() -> None:
    block = render_block(VIEW)
    assert block.startswith(START + "\n**memvault 0.1.0** · daemon running (watcher native)") and block.endswith(END)
    assert "- 2026-11-30 12:00 `two.json` imported: [[daily/2023-01-19/topic|topic]]" in block
    assert "- 2026-11-30 12:01 `users.json` skipped: Claude account file, no conversations" in block
    assert "- `cut.json`: invalid JSON at line 1 ([[inbox/failed/cut.json.error.txt|why]])" in block
    assert "### Broken links (1)\n- [[notes/a|a]] line 3: `[[missing|x]]`" in block  # shown as code, never a link
    assert "### Re-tagging\nschedule `0 3 * * *`" in block
    assert "### Next steps older than 14 days (1)\n- [[daily/2023-01-19/topic|topic]] (2023-01-19): Deploy" in block
    assert render_block(VIEW) == block  # no clock of its own: the same facts give the same bytes


def test_long_lists_are_cut_with_a_count() -> None:
    many = tuple(BrokenLink(f"n{i}.md", 1, "[[x]]") for i in range(20))
    block = render_block(StatusView("v", "s", broken_count=57, broken=many))
    assert "### Broken links (57)" in block and "- … and 37 more" in block


def test_merge_keeps_the_users_text_and_writes_nothing_when_unchanged() -> None:
    block = render_block(VIEW)
    assert merge(None, block) == f"# Memvault\n\n{block}\n"
    mine = "# My status page\r\n\r\nNotes of mine.\r\n"
    first = merge(mine, block)
    assert first is not None and first.startswith(mine) and "\r\n- [[notes/a|a]] line 3" in first
    assert merge(first, block) is None
    edited = first.replace("Notes of mine.", "Notes of mine, edited.") + "After the block.\r\n"
    second = merge(edited, render_block(StatusView("0.2.0", "running")))
    assert second is not None and "Notes of mine, edited." in second and second.endswith("After the block.\r\n")
    assert "0.2.0" in second and "0.1.0" not in second


def test_unlinkable_paths_and_backticks_are_shown_as_code() -> None:
    assert link("notes/a#b.md") == "`notes/a#b.md`"
    assert link("/home/me/inbox/failed/x.error.txt", "why") == "`/home/me/inbox/failed/x.error.txt`"
    assert code("a `b` c") == "``a `b` c``"
    assert code("`x`") == "`` `x` ``"
