"""Rename rewrites planned by `daemon.links.plan` (U1–U10 of obsidian-links.md §1.5)."""

from __future__ import annotations

from typing import Mapping

import pytest

from daemon.links.plan import Relinked, after_moves, plan_moves, rewrite
from daemon.links.scan import scan
from daemon.links.resolve import PathIndex, PathsAfter


def plan(files: Mapping[str, str], moves: Mapping[str, str], others: tuple[str, ...] = ()) -> dict[str, str]:
    return plan_moves(files, moves, PathIndex([*files, *others]))


def test_inbound_wikilinks_keep_everything_but_the_target() -> None:
    text = ("see [[Note]], [[Note|alias]], [[Note#Heading]], [[Note#H1#H2|x]], [[note#^blk-1]]\n"
            "![[Note]] ![[Note#^blk-1|300]]\n| cell | [[Note\\|esc]] | ![[Note\\|200]] |\n")
    out = plan({"Note.md": "body\n", "a/src.md": text}, {"Note.md": "Renamed.md"})
    assert out == {"a/src.md": text.replace("[[Note", "[[Renamed").replace("[[note", "[[Renamed")}


def test_moved_note_itself_is_keyed_by_its_new_path_when_it_changes() -> None:
    files = {"Note.md": "self [[Note#Top]] and [[Other]]\n", "Other.md": "[[Note]]\n", "b/Other.md": ""}
    out = plan(files, {"Other.md": "c/Other.md"})
    # [[Other]] from Note.md pointed at the root file; now only b/ and c/ exist and b/ is shorter.
    assert out == {"Note.md": "self [[Note#Top]] and [[c/Other]]\n"}


def test_markdown_links_keep_their_encoding_style() -> None:
    text = "[a](My%20Note.md) [b](<My Note.md>) [c](My%20Note.md#Part%202) ![d](<My Note.md#^b>)\n"
    out = plan({"My Note.md": "", "src.md": text}, {"My Note.md": "New Name.md"})
    assert out == {"src.md": "[a](New%20Name.md) [b](<New Name.md>) [c](New%20Name.md#Part%202) "
                             "![d](<New Name.md#^b>)\n"}


def test_markdown_link_without_extension_stays_without() -> None:
    out = plan({"Old.md": "", "src.md": "[a](Old)\n"}, {"Old.md": "New one.md"})
    assert out == {"src.md": "[a](New%20one)\n"}


def test_frontmatter_links_rewritten_with_quoting_and_key_order_kept() -> None:
    text = ("---\r\nzeta: 1\r\nup: \"[[Old]]\"\r\nrel:\r\n  - '[[Old|O]]'\r\n  - \"[[Keep]]\"\r\n"
            "imgs: [\"[[Old#H]]\", '[[Keep]]']\r\nalpha: [[Old]]\r\n---\r\nbody [[Old]]\r\n")
    out = plan({"Old.md": "", "Keep.md": "", "src.md": text}, {"Old.md": "It's \"new\".md"})
    assert out == {"src.md": text.replace('"[[Old', '"[[It\'s \\"new\\"').replace("'[[Old", "'[[It''s \"new\"")
                   .replace("body [[Old]]", "body [[It's \"new\"]]")}
    assert "alpha: [[Old]]" in out["src.md"]  # unquoted YAML is not a link


def test_bom_and_crlf_survive() -> None:
    text = "\ufeff---\r\nup: \"[[Old]]\"\r\n---\r\n\r\n[[Old|x]]\r\n"
    out = plan({"Old.md": "", "src.md": text}, {"Old.md": "New.md"})
    assert out == {"src.md": "\ufeff---\r\nup: \"[[New]]\"\r\n---\r\n\r\n[[New|x]]\r\n"}


def test_rename_obsidian_already_handled_is_a_no_op() -> None:
    files = {"Old.md": "", "src.md": '---\nup: "[[New]]"\n---\n[[New#H|a]] [x](New.md) [y](<sub/../New.md>)\n'}
    assert plan(files, {"Old.md": "New.md"}) == {}  # links already name the new file (U10)


def test_unique_bare_link_after_folder_move_is_a_no_op() -> None:
    files = {"Note.md": "", "src.md": "[[Note]] ![[Note|x]] [m](Note.md)\n"}
    assert plan(files, {"Note.md": "deep/er/Note.md"}) == {}  # U3


def test_rename_making_a_name_ambiguous_pins_the_other_files_links() -> None:
    files = {"a/Foobar.md": "", "b/Other.md": "", "x.md": "[[Foobar]] [[Foobar|f]] [[Other]]\n",
             "c/y.md": "[[Foobar]]\n"}
    out = plan(files, {"b/Other.md": "Foobar.md"})
    # At the root the new file is an exact vault path and would capture every [[Foobar]] (U4).
    assert out == {"x.md": "[[a/Foobar]] [[a/Foobar|f]] [[Foobar]]\n", "c/y.md": "[[a/Foobar]]\n"}
    out = plan(files, {"b/Other.md": "c/Foobar.md"})
    # In c/ the new file is in c/y.md's own folder; x.md still prefers a/ (tie, lexicographic).
    assert out == {"c/y.md": "[[a/Foobar]]\n", "x.md": "[[Foobar]] [[Foobar|f]] [[c/Foobar]]\n"}


def test_moved_notes_own_relative_links_are_fixed() -> None:
    text = "[up](../Top.md) [side](./sib.md) [deep](sub/d.md) [name](Top.md) [[sib]]\n"
    files = {"Top.md": "", "a/note.md": text, "a/sib.md": "", "a/sub/d.md": ""}
    out = plan(files, {"a/note.md": "x/y/note.md"})
    assert out == {"x/y/note.md": "[up](../../Top.md) [side](../../a/sib.md) [deep](../../a/sub/d.md) "
                                  "[name](Top.md) [[sib]]\n"}


def test_relative_links_into_a_moved_folder() -> None:
    files = {"a/n.md": "[d](sub/d.md) [e](../e.md)\n", "a/sub/d.md": "[n](../n.md)\n", "e.md": "[d](a/sub/d.md)\n"}
    out = plan(files, {"a/n.md": "b/n.md", "a/sub/d.md": "b/sub/d.md"})
    assert out == {"e.md": "[d](b/sub/d.md)\n"}  # relative links inside the moved folder still hold


def test_folder_move_many_files() -> None:
    files = {"proj/A.md": "[[B]] [[proj/B]] [b](B.md)\n", "proj/B.md": "[[A]]\n", "B.md": "",
             "idx.md": "[[proj/A]] [[proj/B|b]] [[A]] ![[proj/img.png]]\n", "proj/img.png": "binary?"}
    moves = {"proj/A.md": "archive/proj/A.md", "proj/B.md": "archive/proj/B.md",
             "proj/img.png": "archive/proj/img.png"}
    out = plan(files, moves)
    # [[proj/B]] would still resolve by suffix (R7, unverified in Obsidian): a vault path
    # the author wrote is rewritten to the new vault path instead.
    assert out == {
        # [[B]] from proj/A.md meant the root B.md (exact path wins) and still does.
        "archive/proj/A.md": "[[B]] [[archive/proj/B]] [b](B.md)\n",
        # A unique name is written bare (Obsidian's "shortest" format); B is not unique.
        "idx.md": "[[A]] [[archive/proj/B|b]] [[A]] ![[img.png]]\n",
    }


def test_suffix_link_that_already_relied_on_suffix_matching_is_left_alone() -> None:
    files = {"x/proj/A.md": "", "idx.md": "[[proj/A]]\n"}
    assert plan(files, {"x/proj/A.md": "y/proj/A.md"}) == {}


def test_case_only_rename_is_a_no_op() -> None:
    files = {"JavaScript.md": "", "src.md": "[[JavaScript]] [[javascript.md|js]] [j](JavaScript.md)\n"}
    assert plan(files, {"JavaScript.md": "javascript.md"}) == {}


def test_links_in_code_and_comments_are_untouched() -> None:
    text = ("[[Old]]\n```\n[[Old]]\n```\n`[[Old]]` %%[[Old]]%% <!-- [[Old]] --> $[[Old]]$\n\n"
            "    [[Old]]\n\n\\[[Old]] [[Old|x]]\n")
    out = plan({"Old.md": "", "src.md": text}, {"Old.md": "New.md"})
    expected = text.replace("[[Old]]\n```", "[[New]]\n```", 1).replace("[[Old|x]]", "[[New|x]]")
    assert out == {"src.md": expected}


def test_unresolved_links_are_left_alone() -> None:
    files = {"Old.md": "", "src.md": "[[Missing]] [[New]] [m](gone.md)\n"}
    assert plan(files, {"Old.md": "New.md"}) == {}  # [[New]] did not resolve before: not ours to fix


def test_names_a_wikilink_cannot_spell_are_left_alone() -> None:
    files = {"Old.md": "", "src.md": "[[Old]] [[Old|x]] [m](Old.md) [a](<Old.md>)\n"}
    out = plan(files, {"Old.md": "C# and a|b.md"})
    # `[[C# and a|b]]` would point at note "C"; markdown links can encode the name.
    assert out == {"src.md": "[[Old]] [[Old|x]] [m](C%23%20and%20a%7Cb.md) [a](<C%23 and a%7Cb.md>)\n"}


def test_swap_two_files() -> None:
    files = {"A.md": "", "B.md": "", "src.md": "[[A]] [[B]]\n"}
    assert plan(files, {"A.md": "B.md", "B.md": "A.md"}) == {"src.md": "[[B]] [[A]]\n"}


def test_after_moves_builds_the_new_file_list() -> None:
    before = PathIndex(["a.md", "b.md", "d/c.md"])
    after = after_moves(before, {"a.md": "b.md", "b.md": "a.md", "d/c.md": "e/c.md"})
    assert after.paths() == ["a.md", "b.md", "e/c.md"] and before.paths() == ["a.md", "b.md", "d/c.md"]


def test_a_view_after_moves_keeps_the_bearers_only_of_names_no_move_touches() -> None:
    """A swap leaves the same paths but not the same files at them: its names are not kept."""
    before = PathIndex(["a.md", "b.md", "d/c.md", "d/Café.md", "x.md"])
    after = after_moves(before, {"a.md": "b.md", "b.md": "a.md", "d/c.md": "e/c.md", "d/Café.md": "e/Café.md"})
    assert isinstance(after, PathsAfter)
    assert [name for name in ("a", "b", "c", "c.md", "café", "x", "x.md", "y") if after.keeps_bearers(name)] == [
        "x", "x.md", "y"]


def test_rewrite_replaces_only_target_spans() -> None:
    text = "x [[A|a]] y [t](<B b.md#h>) z"
    links = scan(text)
    assert rewrite(text, [(links[1], "C"), (links[0], "LongerName")]) == "x [[LongerName|a]] y [t](<C#h>) z"
    assert rewrite(text, []) == text


def test_rewrite_refuses_stale_or_overlapping_links() -> None:
    link = scan("[[A]]")[0]
    with pytest.raises(ValueError, match="changed"):
        rewrite("[[B]]", [(link, "C")])
    with pytest.raises(ValueError, match="overlapping"):
        rewrite("[[A]]", [(link, "C"), (link, "D")])


@pytest.mark.parametrize(("text", "derived"), [
    ("---\nup: \"[[proj/A]]\"\n---\nsee [[proj/A|a]], [b](proj/B.md) and [[proj/A]] `code` $x$\n", True),
    ("[![[proj/A]]](proj/B.md) nested: the outer link's text holds the inner one\n", False),
])
def test_a_planned_rewrite_gives_its_links_without_a_second_scan(text: str, derived: bool) -> None:
    """What ``put_written`` indexes: equal to scanning and resolving the new text, or left out."""
    before = PathIndex(["proj/A.md", "proj/B.md", "n.md", "A.md"])
    moves = {"proj/A.md": "arch/A.md", "proj/B.md": "arch/B.md"}
    after = PathIndex(["arch/A.md", "arch/B.md", "n.md", "A.md"])
    relinked: Relinked = {}
    planned = plan_moves({"n.md": text}, moves, before, relinked=relinked)
    assert "n.md" in planned and ("n.md" in relinked) == derived
    if derived:
        assert relinked["n.md"] == [(link, after.resolve(link, "n.md")) for link in scan(planned["n.md"])]
        assert [r for _, r in relinked["n.md"]] == ["arch/A.md", "arch/A.md", "arch/B.md", "arch/A.md"]
