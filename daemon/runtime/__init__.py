"""The daemon's drivers: thin loops around the pipeline.

- ``watcher``: watchdog events → ``FileEvent`` values on one queue.
- ``worker``: the one thread that drains the queue in order.
- ``jobs``: APScheduler wiring (re-tagging, inbox rescan, reconcile, heartbeat).
- ``api``: the loopback endpoint the CLI talks to while a daemon runs.
- ``autostart``: the systemd unit or launchd plist.

May import: ``pipeline`` and everything below it.
"""
