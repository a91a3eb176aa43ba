"""The link graph: parse, resolve, plan, store, detect moves.

- ``scan``: find every link in a note, exactly as Obsidian does.
- ``resolve``: where a link points (exact path, the note's folder, shortest path).
- ``plan``: which link targets a move must rewrite, byte for byte.
- ``index``: the SQLite store of notes, links, tags, the inbox ledger and card state.
- ``graph``: the vault and the index kept in step; moves found after downtime.
- ``events``, ``moves``: file events as values, and what a batch of them means.

May import: ``vault``, the nouns.
"""
