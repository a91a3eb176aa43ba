"""``memvault mcp``: started as a subprocess and driven by the MCP SDK's own stdio client."""

from __future__ import annotations

import json
import os
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import snapshot_tree
from daemon.config import Config
from daemon.runner import Daemon
from recall_cards import card

pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install 'memvault[mcp]')")
anyio = pytest.importorskip("anyio")

from mcp.client.session import ClientSession  # noqa: E402

RECENT = (date.today() - timedelta(days=1)).isoformat()  # a card from yesterday, whenever the suite runs
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MESSAGES = [{"role": "user", "name": "ana", "created_at": "2023-03-01T10:00:00",
             "content": "I decided to move the backups to the NAS because the cloud bill doubled."},
            {"role": "assistant", "content": "Moving the backups to the NAS saves the cloud bill."}]


def server(config: Config, home: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k in ("HOME", "PATH") or k.startswith("XDG_")}
    env.update(PYTHONPATH=str(REPO), HOME=str(home))
    return StdioServerParameters(command=sys.executable, args=["-m", "daemon", "mcp", f"vault={config.vault}",
                                                               "timezone=UTC"], env=env, cwd=str(REPO))


def drive(params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[str], list[Any]]:
    """List the tools, then call each (name, arguments) in order; returns names and results."""
    async def run() -> tuple[list[str], list[Any]]:
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = [t.name for t in (await session.list_tools()).tools]
                    results = [await session.call_tool(name, args) for name, args in calls]
        return tools, results

    return anyio.run(run)


def payload(result: Any) -> Any:
    assert result.content, result
    return json.loads(result.content[0].text)


@pytest.fixture
def cards(config: Config, vault_root: Path) -> Path:
    card(vault_root, "daily/2024-03-14/jwt-decision.md", "jwt-decision", "Dana chose JWT access tokens.",
         "## Decisions\n- Drop server sessions for JWT because the mobile client loses cookies.", "s-a",
         tags=["auth", "jwt"], project="gateway")
    card(vault_root, f"daily/{RECENT}/kiln.md", "kiln", "Glaze firing plan.", "Fire the kiln on Friday.", "s-k",
         tags=["pottery"], project="studio")
    record = vault_root / "session/dialog/s-a.jsonl"
    record.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"id": "1", "role": "user", "name": "dana", "content": "Let's drop server sessions for JWT."},
             {"id": "2", "role": "assistant", "content": "Agreed: the mobile client loses cookies."}]
    record.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    text = (vault_root / "daily/2024-03-14/jwt-decision.md").read_text(encoding="utf-8")
    (vault_root / "daily/2024-03-14/jwt-decision.md").write_text(
        text.replace("session_id: s-a", 'session_id: s-a\nsource_conversation: "[[session/dialog/s-a.jsonl]]"'),
        encoding="utf-8")
    return vault_root


def test_tools_answer_and_read_tools_never_write(cards: Path, config: Config, isolated_home: Path) -> None:
    params = server(config, isolated_home)
    before = snapshot_tree(cards)
    tools, results = drive(params, [
        ("search_memories", {"query": "jwt cookies", "tags": ["auth"], "since": "2024-01-01"}),
        ("search_memories", {"query": 'NEAR("(( *'}),
        ("read_memory", {"path": "jwt-decision", "include_source": True}),
        ("read_memory", {"session_id": "s-k"}),
        ("recent_memories", {"days": 3}),
        ("list_tags", {}),
        ("search_memories", {"query": "x", "tags": ["#"]}),
        ("read_memory", {"path": "../../etc/passwd"}),
    ])
    assert sorted(tools) == ["list_tags", "read_memory", "recent_memories", "remember", "search_memories"]
    found = payload(results[0])["results"]
    assert [r["path"] for r in found] == ["daily/2024-03-14/jwt-decision.md"] and "**JWT**" in found[0]["snippet"]
    assert payload(results[1]) == {"results": []}
    read = payload(results[2])["cards"][0]
    assert read["path"] == "daily/2024-03-14/jwt-decision.md" and "mobile client loses cookies" in read["text"]
    assert read["source"]["excerpt"].splitlines() == ["dana: Let's drop server sessions for JWT.",
                                                      "assistant: Agreed: the mobile client loses cookies."]
    assert [c["path"] for c in payload(results[3])["cards"]] == [f"daily/{RECENT}/kiln.md"]
    assert [r["path"] for r in payload(results[4])["results"]] == [f"daily/{RECENT}/kiln.md"]  # (yesterday)
    assert {"tag": "pottery", "notes": 1} in payload(results[5])["tags"]
    assert results[6].is_error and "no valid tag" in results[6].content[0].text
    assert results[7].is_error and "no memory" in results[7].content[0].text
    assert snapshot_tree(cards) == before


def test_remember_writes_one_card_in_process_and_through_a_daemon(cards: Path, config: Config,
                                                                  isolated_home: Path) -> None:
    params = server(config, isolated_home)
    args = {"session_id": "nas", "messages": MESSAGES}
    _, results = drive(params, [("remember", args), ("remember", args),
                                ("search_memories", {"query": "backups NAS"}),
                                ("remember", {"session_id": "bad", "messages": "not a list"})])
    first, again = payload(results[0]), payload(results[1])
    assert first["success"] and first["metadata"]["created"] and not again["metadata"]["modified"]
    made = sorted(p.relative_to(cards).as_posix() for p in (cards / "daily/2023-03-01").glob("*.md"))
    assert made == [first["metadata"]["path"]]
    assert [r["path"] for r in payload(results[2])["results"]] == made
    assert results[3].is_error and "messages" in results[3].content[0].text

    daemon = Daemon(config)
    daemon.start()
    try:  # while a daemon holds the vault, remember goes through its API
        _, results = drive(params, [("remember", {"session_id": "nas-2", "messages": MESSAGES,
                                                  "date": "2023-03-02"})])
    finally:
        daemon.stop()
    second = payload(results[0])
    assert second["success"] and (cards / second["metadata"]["path"]).exists()
