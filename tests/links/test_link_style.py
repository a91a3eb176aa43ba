"""How rewritten links are spelled (issue 11 items 3 and 8): markdown destinations resolved
like wikilinks, and new targets written as Obsidian writes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

import pytest

from daemon.links.plan import plan_moves
from daemon.links.resolve import PathIndex
from daemon.pipeline import Context
from daemon.pipeline.renames import on_moves, reconcile


def plan(files: Mapping[str, str], moves: Mapping[str, str], others: tuple[str, ...] = (),
         style: str = "shortest") -> dict[str, str]:
    extra = {} if style == "shortest" else {"style": style}
    return plan_moves(files, moves, PathIndex([*files, *others]), **extra)


# ------------------------------------------------------------ item 3: markdown resolution
def test_a_markdown_link_to_the_root_note_follows_its_rename() -> None:
    """`[r](Root.md)` in sub1/ meant the root note (exact path first), not sub1/Root.md."""
    files = {"sub1/src.md": "[r](Root.md) and [s](./Root.md)\n", "Root.md": "", "sub1/Root.md": ""}
    assert plan(files, {"Root.md": "Top.md"}) == {"sub1/src.md": "[r](Top.md) and [s](./Root.md)\n"}


# ------------------------------------------------------- item 8: Obsidian's link format
def test_a_unique_name_is_written_bare() -> None:
    files = {"notes/Beta.md": "", "src.md": "[[notes/Beta|b]]\n"}
    assert plan(files, {"notes/Beta.md": "notes/deeper/Beta.md"}) == {"src.md": "[[Beta|b]]\n"}


def test_a_shared_name_is_written_as_the_full_path() -> None:
    files = {"rel/Gamma.md": "", "Epsilon.md": "", "src.md": "[[Epsilon]]\n"}
    assert plan(files, {"Epsilon.md": "x/Gamma.md"}) == {"src.md": "[[x/Gamma]]\n"}


@pytest.mark.parametrize("style,expected", [("absolute", "[[notes/deeper/Beta]]"),
                                            ("relative", "[[../notes/deeper/Beta]]"),
                                            ("shortest", "[[Beta]]")])
def test_the_new_link_format_is_followed(style: str, expected: str) -> None:
    files = {"notes/Beta.md": "", "a/src.md": "[[notes/Beta]]\n"}
    assert plan(files, {"notes/Beta.md": "notes/deeper/Beta.md"}, style=style) == {"a/src.md": expected + "\n"}


def test_balanced_parentheses_stay_literal() -> None:
    files = {"notes/Plan (draft).md": "", "src.md": "[t](notes/Plan%20(draft).md) [u](notes/Plan%20%28draft%29.md)\n"}
    out = plan(files, {"notes/Plan (draft).md": "archive/Plan (draft).md"})
    assert out == {"src.md": "[t](archive/Plan%20(draft).md) [u](archive/Plan%20%28draft%29.md)\n"}


def test_the_vaults_app_json_sets_the_format(ctx: Context, vault_root: Path) -> None:
    (vault_root / ".obsidian").mkdir(exist_ok=True)
    (vault_root / ".obsidian/app.json").write_text(json.dumps({"newLinkFormat": "absolute"}))
    (vault_root / "Epsilon.md").write_text("epsilon\n")
    (vault_root / "src.md").write_text("[[Epsilon]]\n")
    reconcile(ctx)
    (vault_root / "x").mkdir()
    (vault_root / "Epsilon.md").rename(vault_root / "x/Zeta.md")
    on_moves(ctx, {"Epsilon.md": "x/Zeta.md"})
    assert (vault_root / "src.md").read_text() == "[[x/Zeta]]\n"


# ------------------------------------------------------------- item 9: Unicode normal forms
NFC, NFD = "cr\u00e8me", "cre\u0300me"


@pytest.mark.parametrize("stored,written", [(NFD, NFC), (NFC, NFD)], ids=["NFD file, NFC link", "NFC file, NFD link"])
def test_names_compare_after_nfc_normalisation(stored: str, written: str) -> None:
    index = PathIndex([f"{stored}.md", f"sub/{stored} br\u00fbl\u00e9e.md"])
    assert index.resolve_target(written, "x.md") == f"{stored}.md"
    assert index.resolve_target(f"{written}.md", "x.md", markdown=True) == f"{stored}.md"
    assert index.resolve_target(f"sub/{written} br\u00fbl\u00e9e", "x.md") == f"sub/{stored} br\u00fbl\u00e9e.md"


def test_a_rewritten_link_keeps_the_form_it_was_written_in() -> None:
    files = {f"{NFD}.md": "", "src.md": f"[[{NFC}]] and [m]({NFC}.md)\n"}
    out = plan(files, {f"{NFD}.md": f"sub/{NFD} 2.md"})
    assert out == {"src.md": f"[[{NFC} 2]] and [m]({NFC}%202.md)\n"}


def test_a_moved_nfd_file_is_found_by_an_nfc_link_in_the_index(ctx: Context, vault_root: Path) -> None:
    (vault_root / f"{NFD}.md").write_text("body\n")
    (vault_root / "src.md").write_text(f"[[{NFC}]]\n")
    reconcile(ctx)
    assert [r.resolved for r in ctx.graph.index.links_from("src.md")] == [f"{NFD}.md"]
    (vault_root / f"{NFD}.md").rename(vault_root / f"{NFD} 2.md")
    on_moves(ctx, {f"{NFD}.md": f"{NFD} 2.md"})
    assert (vault_root / "src.md").read_text() == f"[[{NFC} 2]]\n"
