"""The daily page block."""

from __future__ import annotations

from daemon.vault.daily import END, START, Entry, refresh

ENTRIES = [Entry("daily/2023-01-19/alpha.md", "alpha", "实现 JWT\nand more"), Entry("daily/2023-01-19/b.md", "", "")]


def test_new_page() -> None:
    assert refresh(None, "2023-01-19", ENTRIES) == (
        "# 2023-01-19\n\n<!-- notes:auto -->\n- [[daily/2023-01-19/alpha|alpha]] — 实现 JWT and more\n"
        "- [[daily/2023-01-19/b|b]]\n<!-- /notes:auto -->\n"
    )


def test_no_page_without_cards_and_none_marker_on_existing_page() -> None:
    assert refresh(None, "2023-01-19", []) is None
    assert refresh(f"x\n{START}\n- old\n{END}\ny\n", "2023-01-19", []) == f"x\n{START}\n(none)\n{END}\ny\n"


def test_only_the_block_changes_and_unchanged_means_none() -> None:
    page = refresh(None, "2023-01-19", ENTRIES) or ""
    edited = "intro\r\n" + page.replace("\n", "\r\n") + "## mine\r\n"
    assert refresh(edited, "2023-01-19", ENTRIES) is None
    updated = refresh(edited, "2023-01-19", ENTRIES[:1]) or ""
    assert updated.startswith("intro\r\n# 2023-01-19\r\n\r\n") and updated.endswith(f"{END}\r\n## mine\r\n")
    assert "b|b" not in updated


def test_block_appended_when_markers_missing() -> None:
    assert refresh("my notes", "d", ENTRIES[1:]) == f"my notes\n\n{START}\n- [[daily/2023-01-19/b|b]]\n{END}\n"


def test_a_cards_project_is_shown_after_its_link() -> None:
    text = refresh(None, "2026-02-10", [Entry("daily/2026-02-10/fix.md", "fix", "Fixed the build.", "spotter"),
                                        Entry("daily/2026-02-10/chat.md", "chat", "Small talk.")])
    assert "- [[daily/2026-02-10/fix|fix]] (spotter) — Fixed the build.\n" in text
    assert "- [[daily/2026-02-10/chat|chat]] — Small talk.\n" in text
