"""Claude Code writes its memory by itself (hooks in ``~/.claude/settings.json``).

- ``hook``: ``memvault hook claude-code``: reads the hook's JSON, leaves a job in the
  spool and hands it on; never blocks, never fails, prints nothing. Imports almost nothing.
- ``spool``: the job files in the state folder and the one-drainer lock.
- ``transcripts``: find a session's transcript and subagent files; the increment by ``uuid``.
- ``sessions``: what is remembered per session (seen uuids, project, when last distilled).
- ``drain``: the jobs → the pipeline's live flow, throttled per session.
- ``settings``: install / uninstall / status of the hooks in a ``settings.json``.
- ``catchup``: import every session already on disk.

May import: ``runtime`` (the local API client), ``pipeline`` and everything below it.
"""
