"""The only writer of vault files, and the card format.

- ``files``: atomic, compare-and-swap writes (``Vault``), snapshots and digests.
- ``props``: surgical frontmatter edits that keep every other byte.
- ``cards``: the card file format; finding a session's card by its frontmatter.
- ``cardmerge``: three-way merge that keeps a user's edits to a card body.
- ``daily``: the daily page's generated block.
- ``statusnote``: the daemon's status block in ``Memvault.md`` (format and merge).
- ``names``: valid, linkable file names.
- ``layout``: whether a folder is a vault (commands refuse one that is not).
- ``state``: rebuildable state outside the vault (the vault lock, card merge bases).

May import: the nouns only.
"""
