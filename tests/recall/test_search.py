"""Full-text search: kept in step with the vault, filters, any script, hostile queries, the CLI."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from daemon import cli, ops
from daemon.app import build
from daemon.config import Config, load_config
from daemon.errors import ConfigError, InputError
from daemon.links.moves import Tracker
from daemon.links.index import MIGRATIONS, Index
from daemon.pipeline import Context
from daemon.pipeline.renames import apply_actions, reconcile
from daemon.recall.search import filters, search, snippet
from daemon.runtime.watcher import CREATED, DELETED, MODIFIED, MOVED, FileEvent
from recall_cards import card


def paths(ctx: Context, query: str, **where: object) -> list[str]:
    return [h.path for h in search(ctx.graph.index, query, filters(**where))]  # type: ignore[arg-type]


@pytest.fixture
def cards(ctx: Context, vault_root: Path) -> Context:
    card(vault_root, "daily/2024-03-14/jwt-decision.md", "jwt-decision", "Dana chose JWT access tokens.",
         "## Decisions\n- Drop server sessions for JWT because the mobile client loses cookies.", "s-a",
         tags=["auth", "jwt"], project="gateway")
    card(vault_root, "daily/2024-03-20/pottery-class.md", "pottery-class", "Caroline signed up for pottery.",
         "## Key facts\n- The class is on Saturday; she mentioned tokens for the bus.", "s-b",
         tags=["hobby"], project="/home/c/src/Life")
    card(vault_root, "daily/2024-04-02/登录重构.md", "登录重构", "我们决定重构登录系统。",
         "## 决定\n- 使用新的令牌方案，下周一完成。", "s-c", tags=["auth"], project="gateway")
    (vault_root / "notes").mkdir()
    (vault_root / "notes/plain.md").write_text("JWT mentioned in a plain note, not a card.\n", encoding="utf-8")
    reconcile(ctx)
    return ctx


def test_name_and_description_rank_above_the_body(cards: Context) -> None:
    hits = search(cards.graph.index, "tokens")
    assert [h.path for h in hits][:2] == ["daily/2024-03-14/jwt-decision.md", "daily/2024-03-20/pottery-class.md"]
    assert hits[0].score > hits[1].score
    assert hits[0].date == "2024-03-14" and hits[0].tags == ("auth", "jwt") and hits[0].session_id == "s-a"
    assert "**tokens**" in snippet("Dana chose JWT access tokens.", ["tokens"])


def test_only_cards_by_default_and_every_note_with_scope_vault(cards: Context, config: Config) -> None:
    assert "notes/plain.md" not in paths(cards, "jwt")
    wide = build(load_config(overrides=[f"vault={config.vault}", "timezone=UTC", "search.scope=vault"], environ={}))
    try:
        assert "notes/plain.md" in [h.path for h in search(wide.graph.index, "jwt")]
    finally:
        wide.graph.index.close()


def test_filters_tags_any_and_with_project_and_dates(cards: Context) -> None:
    assert sorted(paths(cards, "", tags=["auth", "hobby"])) == sorted(
        ["daily/2024-03-14/jwt-decision.md", "daily/2024-03-20/pottery-class.md", "daily/2024-04-02/登录重构.md"])
    assert sorted(paths(cards, "", tags=["#Auth"], project="gateway")) == [
        "daily/2024-03-14/jwt-decision.md", "daily/2024-04-02/登录重构.md"]
    assert paths(cards, "", tags=["auth"], since="2024-03-15") == ["daily/2024-04-02/登录重构.md"]
    assert paths(cards, "tokens", until="2024-03-19") == ["daily/2024-03-14/jwt-decision.md"]
    assert paths(cards, "", project="life") == ["daily/2024-03-20/pottery-class.md"]  # a folder's last part
    assert paths(cards, "", project="/elsewhere/Life/") == ["daily/2024-03-20/pottery-class.md"]
    assert paths(cards, "") == ["daily/2024-04-02/登录重构.md", "daily/2024-03-20/pottery-class.md",
                                "daily/2024-03-14/jwt-decision.md"]  # no words: newest first


@pytest.mark.parametrize("bad, message", [
    ({"tags": ["#", "  "]}, "no valid tag"),
    ({"since": "2024-3-1"}, "since"),
    ({"since": "2024-05-01", "until": "2024-04-01"}, "after until"),
])
def test_bad_filters_are_clear_errors(bad: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        filters(**bad)  # type: ignore[arg-type]


def test_cjk_queries_of_one_two_and_more_characters(cards: Context) -> None:
    target = "daily/2024-04-02/登录重构.md"
    for query in ("登录", "登录系统", "令牌", "重构登录", "登"):
        assert paths(cards, query)[:1] == [target], query
    assert paths(cards, "录登") == []  # the pieces must be adjacent and in order
    hit = search(cards.graph.index, "令牌")[0]
    assert "**令牌**" in hit.snippet


@pytest.mark.parametrize("query", ['"', '"jwt', "NEAR(jwt tokens", "jwt NEAR/2 tokens", "*", "jwt*", "(((", "a)",
                                   "AND OR NOT", "name:jwt", "^jwt", "-jwt", "{name}: x", "'; DROP TABLE notes; --",
                                   "\x00", "jwt\u3000\u200b", "🙂"])
def test_hostile_queries_never_error(cards: Context, query: str) -> None:
    hits = search(cards.graph.index, query)
    if "jwt" in query.lower():
        assert "daily/2024-03-14/jwt-decision.md" in [h.path for h in hits]
    assert cards.graph.index.count("notes") > 0


def test_search_follows_create_update_rename_delete_and_reindex(cards: Context, vault_root: Path) -> None:
    index = cards.graph.index
    card(vault_root, "daily/2024-05-01/kiln.md", "kiln", "Firing schedule.", "The kiln fires at 1200 C.", "s-d")
    reconcile(cards)
    assert paths(cards, "kiln") == ["daily/2024-05-01/kiln.md"]
    card(vault_root, "daily/2024-05-01/kiln.md", "kiln", "Firing schedule.", "Glaze test on Friday.", "s-d")
    reconcile(cards)
    assert paths(cards, "1200") == [] and paths(cards, "glaze") == ["daily/2024-05-01/kiln.md"]
    ops.move(cards, "daily/2024-05-01/kiln.md", "daily/2024-05-01/kiln-glaze.md")
    assert paths(cards, "glaze") == ["daily/2024-05-01/kiln-glaze.md"]
    (vault_root / "daily/2024-05-01/kiln-glaze.md").rename(vault_root / "daily/2024-05-01/renamed-outside.md")
    reconcile(cards)  # a rename found after the fact: no stale path (the reference's PR #534 bug)
    assert paths(cards, "glaze") == ["daily/2024-05-01/renamed-outside.md"]
    assert paths(cards, "", tags=["auth"]) and "kiln" not in json.dumps(paths(cards, "", tags=["auth"]))
    (vault_root / "daily/2024-05-01/renamed-outside.md").unlink()
    reconcile(cards)
    assert paths(cards, "glaze") == []
    rows = index.db.execute("SELECT COUNT(*) FROM search_docs").fetchone()[0]
    cards.graph.rebuild()
    assert index.db.execute("SELECT COUNT(*) FROM search_docs").fetchone()[0] == rows == 3
    assert paths(cards, "pottery") == ["daily/2024-03-20/pottery-class.md"]
    fts_rows = index.db.execute("SELECT COUNT(*) FROM search").fetchone()[0]
    assert fts_rows == rows  # no orphaned words left behind


def test_watcher_events_keep_search_in_step(cards: Context, vault_root: Path) -> None:
    """The watcher's path, with its events built in code: a move, an edit, a delete+create move, a deletion."""
    tracker = Tracker(cards.graph, grace=2.0)
    old, new = "daily/2024-03-20/pottery-class.md", "daily/2024-03-20/clay.md"
    (vault_root / old).rename(vault_root / new)
    apply_actions(cards, tracker.feed([FileEvent(MOVED, old, new)], now=1.0))
    assert paths(cards, "pottery") == [new]
    text = (vault_root / new).read_text(encoding="utf-8")
    (vault_root / new).write_text(text.replace("Saturday", "Sunday"), encoding="utf-8")
    apply_actions(cards, tracker.feed([FileEvent(MODIFIED, new)], now=2.0))
    assert paths(cards, "saturday") == [] and paths(cards, "sunday") == [new]
    content = (vault_root / new).read_text(encoding="utf-8")
    (vault_root / new).unlink()
    assert not tracker.feed([FileEvent(DELETED, new)], now=3.0)
    (vault_root / "daily/2024-03-21").mkdir()
    (vault_root / "daily/2024-03-21/moved.md").write_text(content, encoding="utf-8")
    apply_actions(cards, tracker.feed([FileEvent(CREATED, "daily/2024-03-21/moved.md")], now=3.5))
    assert [(h.path, h.date) for h in search(cards.graph.index, "pottery")] == [
        ("daily/2024-03-21/moved.md", "2024-03-21")]
    (vault_root / "daily/2024-03-21/moved.md").unlink()
    tracker.feed([FileEvent(DELETED, "daily/2024-03-21/moved.md")], now=4.0)
    apply_actions(cards, tracker.feed([], now=10.0))  # the grace period ran out: a deletion
    assert paths(cards, "pottery") == []


def test_search_scope_is_checked(vault_root: Path) -> None:
    with pytest.raises(ConfigError, match="search.scope"):
        load_config(overrides=[f"vault={vault_root}", "search.scope=everything"], environ={})


def test_an_index_from_before_search_is_migrated_and_filled(cards: Context, config: Config) -> None:
    db_path = config.state_dir() / "index.sqlite3"
    cards.graph.index.close()
    db = sqlite3.connect(db_path)
    db.executescript("DROP TABLE search; DROP TABLE search_docs; DELETE FROM meta WHERE key = 'search.scope';"
                     "DELETE FROM migrations WHERE name = '0004_full_text_search';")
    db.close()
    with pytest.raises(Exception, match="predates search"):
        Index.open_readonly(db_path)
    again = build(config)
    try:
        assert paths(again, "pottery") == ["daily/2024-03-20/pottery-class.md"]
        assert "0004_full_text_search" in [name for name, _ in MIGRATIONS]
    finally:
        again.graph.index.close()


def test_cli_search_prints_results_and_json(cards: Context, config: Config,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    cards.graph.index.close()
    vault = f"vault={config.vault}"
    assert cli.main(["search", "tokens", "--tag", "auth", "--tag", "hobby", "--since", "2024-03-01", vault]) == 0
    out = capsys.readouterr().out
    assert out.index("jwt-decision.md") < out.index("pottery-class.md") and "2024-03-14" in out
    assert cli.main(["search", "--json", "--project", "gateway", "登录", vault]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["path"] for d in data] == ["daily/2024-04-02/登录重构.md"]
    assert {"path", "name", "date", "score", "snippet"} <= set(data[0])
    assert cli.main(["search", '"NEAR((', "*", vault]) == 0
    assert cli.main(["search", "--tag", "#", "x", vault]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1] == "Error: no valid tag in ['#']: a tag needs at least one letter or digit"


def test_a_card_is_found_by_its_source_conversation_too(cards: Context, vault_root: Path) -> None:
    rel = "daily/2024-03-20/pottery-class.md"
    text = (vault_root / rel).read_text(encoding="utf-8")
    (vault_root / rel).write_text(text.replace("session_id: s-b", 'session_id: s-b\nsource_conversation: '
                                                                  '"[[session/dialog/s-b.jsonl]]"'), encoding="utf-8")
    record = vault_root / "session/dialog/s-b.jsonl"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"id": "1", "role": "user", "name": "caroline",
                                  "content": [{"type": "text", "text": "The instructor is called Okonkwo."}]}) + "\n",
                      encoding="utf-8")
    reconcile(cards)
    hit = search(cards.graph.index, "Okonkwo")
    assert [h.path for h in hit] == [rel] and "Okonkwo" not in hit[0].snippet  # the snippet shows the card
    record.write_text(json.dumps({"id": "1", "role": "user", "content": "Now it is Adaeze."}) + "\n", encoding="utf-8")
    reconcile(cards)  # only the record changed: the card's row follows it
    assert paths(cards, "Okonkwo") == [] and paths(cards, "adaeze") == [rel]


def test_function_words_do_not_pull_in_every_card(cards: Context) -> None:
    assert paths(cards, "when did the pottery class start") == ["daily/2024-03-20/pottery-class.md"]
    assert paths(cards, "the")  # nothing but function words: they are the query


def test_mcp_without_the_extra_is_a_one_line_error(cards: Context, config: Config, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cards.graph.index.close()
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)  # as if the extra were not installed
    assert cli.main(["mcp", f"vault={config.vault}"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == (
        "Error: `memvault mcp` needs the MCP SDK: pip install 'memvault[mcp]'")
