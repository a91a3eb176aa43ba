"""Live integrations with the tools people chat in, each driving the pipeline on its own.

- ``claude_code/``: Claude Code hooks: the hook itself, the spool it leaves jobs in,
  the drain that records each session's increment, the ``settings.json`` installer
  and the catch-up import.

May import: ``runtime`` (the local API client), ``pipeline`` and everything below it.
"""
