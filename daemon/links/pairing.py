"""Pairing vanished paths with new ones after downtime: which deletions and additions are moves.

Exact content first, then identity (``session_id``), then similar content for a note renamed
*and* edited. Nothing here compares every deleted file with every added one: content and
identity are dictionary lookups, and similarity is computed only for pairs that share a rare
line (a prefix filter, which finds every pair at or above the threshold), so a branch switch
that deletes and adds thousands of notes costs about as much as it changes.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from typing import Mapping

from daemon.links.index import NoteRow

SIMILARITY = 0.5  # Jaccard similarity of two notes' line signatures for "renamed and edited"


def similarity(a: str, b: str) -> float:
    left, right = set(a.split()), set(b.split())
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def detect_moves(deleted: Mapping[str, NoteRow], added: Mapping[str, NoteRow]) -> dict[str, str]:
    """Pair vanished paths with new ones: same content, then same identity, then similar content."""
    moves: dict[str, str] = {}
    free = dict(added)
    by_hash: dict[str, list[str]] = defaultdict(list)
    by_identity: dict[str, list[str]] = defaultdict(list)
    for path, row in sorted(added.items()):
        by_hash[row.hash].append(path)
        if row.identity:
            by_identity[row.identity].append(path)

    def take(old: str, new: str) -> None:
        moves[old] = new
        del free[new]

    for old, row in sorted(deleted.items()):
        same = [p for p in by_hash.get(row.hash, ()) if p in free]
        if same:
            take(old, _closest(old, same))
    for old, row in sorted(deleted.items()):
        if old in moves or not row.identity:
            continue
        same = [p for p in by_identity.get(row.identity, ()) if p in free and _same_kind(old, p)]
        if len(same) == 1:
            take(old, same[0])
    rest = {p: r for p, r in deleted.items() if p not in moves and r.signature}
    candidates = _sharing_a_rare_line(rest, {p: r for p, r in free.items() if r.signature})
    for old, row in sorted(rest.items()):
        scored = sorted((similarity(row.signature, free[p].signature), p)
                        for p in candidates.get(old, ()) if p in free and _same_kind(old, p))
        if scored and scored[-1][0] >= SIMILARITY and (len(scored) < 2 or scored[-2][0] < scored[-1][0]):
            take(old, scored[-1][1])
    return moves


def _sharing_a_rare_line(deleted: Mapping[str, NoteRow], added: Mapping[str, NoteRow]) -> dict[str, set[str]]:
    """For each deleted path, the added paths that could be at least SIMILARITY alike.

    Prefix filtering, as in set-similarity joins (PPJoin): order line hashes from rarest to
    most common. Sets x, y with Jaccard >= t overlap in at least t/(1+t)·(|x|+|y|) tokens, so
    when |x| >= |y| they share a token within x's first ``|x| - ceil(t|x|) + 1`` tokens and
    y's first ``|y| - ceil(2t/(1+t)·|y|) + 1``. Each side is indexed by that shorter prefix
    and probed by the longer one from the other side; no pair at or above t is missed.
    """
    tokens = {p: sorted(set(r.signature.split())) for p, r in (*deleted.items(), *added.items())}
    frequency = Counter(t for words in tokens.values() for t in words)
    for words in tokens.values():
        words.sort(key=lambda t: (frequency[t], t))
    t = SIMILARITY

    def probe(path: str) -> list[str]:
        words = tokens[path]
        return words[: len(words) - math.ceil(t * len(words)) + 1]

    def indexed(path: str) -> list[str]:
        words = tokens[path]
        return words[: len(words) - math.ceil(2 * t / (1 + t) * len(words) - 1e-9) + 1]

    found: dict[str, set[str]] = defaultdict(set)
    for side, other, flip in ((added, deleted, False), (deleted, added, True)):
        postings: dict[str, list[str]] = defaultdict(list)
        for path in side:
            for token in indexed(path):
                postings[token].append(path)
        for path in other:
            size = len(tokens[path])
            for token in probe(path):
                for hit in postings.get(token, ()):
                    smaller = len(tokens[hit]) < size if flip else len(tokens[hit]) <= size
                    if smaller:  # each pair is found from its larger side
                        found[hit if flip else path].add(path if flip else hit)
    return found


def _same_kind(a: str, b: str) -> bool:
    return os.path.splitext(a)[1].lower() == os.path.splitext(b)[1].lower()


def _closest(old: str, candidates: list[str]) -> str:
    name = old.rpartition("/")[2].lower()
    return min(candidates, key=lambda p: (p.rpartition("/")[2].lower() != name, len(p), p))
