"""Recall: the memories read back — searched from a terminal, by an MCP agent, at a session's start.

- ``search``: a query and filters (tags, project, dates) → ranked hits with snippets.
- ``memories``: one card (and its source excerpt), the recent cards, the tag list.
- ``context``: the SessionStart context for Claude Code: a project's recent cards, in a budget.
- ``mcp``: the Model Context Protocol server over stdio (imports the ``mcp`` extra, lazily).

Everything here only reads: the index (opened read-only) and vault files. Writing a
memory (``remember``) is handed in by the caller, which runs it through the daemon or
under the vault lock.

May import: ``conversations``, ``links``, ``vault``, the nouns.
"""
