"""Stages 4 and 7 without a model: conversation → card, card → tags.

- ``extractive``: the embedded offline distiller (the default ``Distiller``).
- ``lexicon``: the word lists it reads (filler, cues, stop words).
- ``reltime``: relative dates ("next Tuesday", "下周一") grounded to absolute ones.
- ``tagging``: the extractive tagger and the tag property it writes.

May import: ``vault``, the nouns. Never a model library.
"""
