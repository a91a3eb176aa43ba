"""``memvault mcp``: the memories as Model Context Protocol tools, over stdio.

Built on the official ``mcp`` SDK (the optional extra ``mcp``), imported only inside
``build_server`` so nothing else pays for it or needs it. Standard output is the protocol
channel: nothing here prints.

The read tools open the index read-only for each call and never write. ``remember``
is the one writing tool; the caller hands it in (the CLI sends it through the running
daemon's API, or runs it here under the vault lock).
"""

from __future__ import annotations

from typing import Any, Callable

from daemon.config import Config
from daemon.errors import MemvaultError
from daemon.recall import memories
from daemon.recall.search import filters, search

Remember = Callable[[dict[str, Any]], dict[str, Any]]
INSTRUCTIONS = (
    "memvault keeps one memory card per conversation session per day in the user's Obsidian vault: "
    "a name, a one-paragraph description, tags, and a body of preferences, facts, decisions, next steps and "
    "commands, with absolute dates. Search it before answering questions about past work, decisions or "
    "preferences; read a card for its details; remember a conversation to keep it."
)


def build_server(config: Config, write_memory: Remember) -> Any:
    """The MCP server with memvault's tools (not started).

    Raises:
        MemvaultError: the ``mcp`` extra is not installed.
    """
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError as exc:
        raise MemvaultError("`memvault mcp` needs the MCP SDK: pip install 'memvault[mcp]'") from exc

    server = MCPServer(name="memvault", instructions=INSTRUCTIONS)

    def answer(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except MemvaultError as exc:  # a user's mistake or a missing index: a tool error the model can read
            raise ToolError(str(exc)) from exc

    def read(fn: Callable[[Any], Any]) -> Any:
        def run() -> Any:
            with memories.reading(config) as index:
                return fn(index)
        return answer(run)

    @server.tool()
    def search_memories(query: str, tags: list[str] | None = None, project: str | None = None,
                        since: str | None = None, until: str | None = None, limit: int = 10) -> dict[str, Any]:
        """Full-text search of the user's memory cards, best match first.

        Use it before answering anything about earlier conversations, decisions, preferences,
        people or plans. `query` is plain words in any language (no operators needed; an empty
        query lists the newest cards). Optional filters: `tags` (a card matching any of them),
        `project`, `since`/`until` (YYYY-MM-DD, the card's day), `limit` (1-100, default 10).
        Each result has the card's path, name, date, description, tags and a snippet with the
        matched words in **bold**; pass the path to read_memory for the whole card.
        """
        where = answer(lambda: filters(tags, project, since, until))
        return read(lambda index: {"results": [h.as_dict() for h in search(index, query, where, limit)]})

    @server.tool()
    def read_memory(path: str | None = None, session_id: str | None = None,
                    include_source: bool = False) -> dict[str, Any]:
        """The full text of a memory card, found by `path` (as returned by search_memories, or the card's
        name) or by `session_id` (every card of that session, one per day).

        Set `include_source` to also get the start of the original conversation the card was
        distilled from (who said what), when the card's summary is not enough.
        """
        return read(lambda index: memories.read_memory(config, index, path, session_id, include_source))

    @server.tool()
    def recent_memories(days: int = 7, project: str | None = None) -> dict[str, Any]:
        """The memory cards of the last `days` days (default 7, today included), newest first,
        optionally only those of one `project`. Use it to catch up on recent work."""
        return read(lambda index: {"results": memories.recent(config, index, days, project)})

    @server.tool()
    def list_tags() -> dict[str, Any]:
        """Every tag in the vault with the number of notes carrying it, most used first.
        Use the tag names as the `tags` filter of search_memories."""
        return read(lambda index: {"tags": memories.tags(index)})

    @server.tool()
    def remember(session_id: str, messages: list[dict[str, Any]], date: str | None = None,
                 memory_hint: str | None = None) -> dict[str, Any]:
        """Save a conversation as a memory: it is distilled into the session's card for the day.

        `session_id` names the conversation (sending more messages later with the same id updates
        the same card; messages already sent are not duplicated). `messages` is a list of
        {"role": "user" | "assistant", "content": "..."} objects, optionally with "name" and
        "created_at". `date` (YYYY-MM-DD) is the day the conversation happened when the messages
        carry no times; `memory_hint` says what matters most. Returns what was written.
        """
        params = {"session_id": session_id, "messages": messages, "date": date, "memory_hint": memory_hint}
        result = answer(lambda: write_memory(params))
        if not result.get("success"):
            raise ToolError(str(result.get("answer") or "remember failed"))
        return result

    return server


def serve(config: Config, write_memory: Remember) -> None:
    """Run the server on standard input and output until the client closes them."""
    build_server(config, write_memory).run("stdio")
