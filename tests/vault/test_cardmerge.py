"""The three-way merge that keeps the user's card edits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from daemon.vault.cardmerge import merge_body

BASE = "## Facts\n- a\n- b\n## Next\n- c\n"


def test_no_user_edits_takes_the_new_body() -> None:
    assert merge_body(BASE, BASE, "## Facts\n- z\n") == "## Facts\n- z\n"


def test_nothing_new_keeps_the_users_body() -> None:
    mine = BASE + "mine\n"
    assert merge_body(BASE, mine, BASE) == mine


def test_changed_and_added_lines_survive_a_rewrite() -> None:
    current = "## Facts\n- a\n- b, corrected by me\n- my line\n## Next\n- c\n"
    new = "## Facts\n- a\n- b\n- d\n## Next\n- c2\n"
    merged = merge_body(BASE, current, new)
    assert merged == "## Facts\n- a\n- b, corrected by me\n- my line\n- d\n## Next\n- c2\n"


def test_lines_the_user_deleted_stay_deleted() -> None:
    current = "## Facts\n- a\n## Next\n- c\n"
    assert "- b" not in merge_body(BASE, current, BASE + "- e\n")


def test_without_a_base_every_current_line_is_kept() -> None:
    current = "## Facts\n- a\n- mine\n## Next\n- c\n"
    merged = merge_body(None, current, "## Facts\n- a\n- new\n## Next\n- c\n")
    assert merged.splitlines() == ["## Facts", "- a", "- mine", "- new", "## Next", "- c"]


lines = st.lists(st.sampled_from(["- a", "- b", "- c", "## H", "- d", "", "x"]), max_size=8)


@given(lines, lines, lines)
def test_user_lines_always_survive(base: list[str], current: list[str], new: list[str]) -> None:
    b, c, n = ("\n".join(x) + "\n" for x in (base, current, new))
    merged = merge_body(b, c, n).splitlines()
    for line in set(current) - set(base):
        if line.strip():
            assert line in merged
    for line in set(current) | set(new):
        if line.strip() and line not in base:
            assert line in merged or line not in current
