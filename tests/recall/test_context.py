"""The SessionStart context: a project's newest cards, as valid hook JSON, within the budget."""

from __future__ import annotations

import json
from pathlib import Path

from daemon.config import Config, load_config
from daemon.pipeline import Context
from daemon.pipeline.renames import reconcile
from daemon.recall.context import HEADER, session_start_context, session_start_output
from recall_cards import card


def fill(ctx: Context, root: Path) -> None:
    for day in range(1, 21):
        card(root, f"daily/2024-05-{day:02d}/gateway-{day}.md", f"gateway-{day}",
             f"Day {day} of the gateway work, " + "tokens and sessions " * 5, "body", f"g-{day}",
             project="/home/dana/src/gateway")
    card(root, "daily/2024-06-01/other.md", "other", "Not this project.", "body", "o-1", project="pottery")
    card(root, "daily/2024-06-02/none.md", "none", "No project at all.", "body", "n-1")
    reconcile(ctx)
    ctx.graph.index.close()


def test_names_only_that_projects_newest_cards_within_budget(ctx: Context, config: Config, vault_root: Path) -> None:
    fill(ctx, vault_root)
    text = session_start_context(config, "/work/clones/gateway", 1000)
    assert text.startswith(HEADER) and len(text) <= 1000
    lines = text.splitlines()[1:]
    assert lines[0].startswith("- gateway-20 (2024-05-20) [[daily/2024-05-20/gateway-20]]: Day 20 of the gateway work,")
    assert lines[1].startswith("- gateway-19 (2024-05-19)")
    assert 3 <= len(lines) < 20 and all("gateway" in line for line in lines)
    full = session_start_context(config, "/home/dana/src/gateway/", None)  # claude_code.context_chars: 4,000
    assert len(full) <= 4000 and len(full.splitlines()) > len(lines) + 1
    assert session_start_context(config, "/somewhere/unknown", 4000) == ""


def test_hook_answer_is_valid_hook_json(ctx: Context, config: Config, vault_root: Path) -> None:
    fill(ctx, vault_root)
    answer = json.loads(json.dumps(session_start_output(config, "/x/pottery", 4000)))
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "[[daily/2024-06-01/other]]" in context and "gateway" not in context and "none" not in context


def test_no_index_yet_is_an_empty_context(config: Config) -> None:
    assert not (config.state_dir() / "index.sqlite3").exists()
    assert session_start_context(config, "/home/dana/src/gateway", 4000) == ""
    assert not (config.state_dir() / "index.sqlite3").exists()  # reading never creates it


def test_the_budget_comes_from_claude_code_context_chars(ctx: Context, config: Config, vault_root: Path) -> None:
    fill(ctx, vault_root)
    small = load_config(overrides=[f"vault={vault_root}", "timezone=UTC", "claude_code.context_chars=400"], environ={})
    text = session_start_context(small, "/x/gateway")
    assert 0 < len(text) <= 400 and len(text.splitlines()) == 2
    off = load_config(overrides=[f"vault={vault_root}", "timezone=UTC", "claude_code.context_chars=0"], environ={})
    assert session_start_output(off, "/x/gateway")["hookSpecificOutput"]["additionalContext"] == ""
