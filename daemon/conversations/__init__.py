"""Stages 1–2: files and messages in, source records out.

- ``exports/``: detect and read every export format (ChatGPT, Claude, Claude Code, LoCoMo, …).
- ``formats``: a message list in any accepted shape → ``Message`` values.
- ``sessions``: the source record ``session/dialog/<sid>.jsonl``: merge by id, filter.
- ``images``: image attachments: validate, decode, plan where they are saved.
- ``inbox``: which inbox files are ready, and where originals go afterwards.

May import: ``vault`` (names), the nouns (``models``, ``errors``, ``config``, ``timeutil``).
"""
