"""The link graph: parse, resolve, plan, store, detect moves.

- ``scan``: find every link in a note, exactly as Obsidian does.
- ``resolve``: where a link points (exact path, the note's folder, shortest path).
- ``plan``: which link targets a move must rewrite, byte for byte.
- ``index``: the SQLite store of notes, links, tags, the full-text search table, the inbox ledger and card state.
- ``fulltext``: what the search table holds for a note, and a user's words as a safe FTS5 query.
- ``graph``: the vault and the index kept in step.
- ``pairing``: which deletions and additions found after downtime are moves.
- ``events``, ``moves``: file events as values, and what a batch of them means.

May import: ``vault``, the nouns.
"""
