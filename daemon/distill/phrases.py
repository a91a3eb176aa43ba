"""Key phrases of a conversation, and the slug a card is named by.

Phrases are runs of content words between stopwords (Chinese: character runs), ranked by
how often they recur, longer phrases first. Markup, speakers' names and filler never make
a phrase. Shared by the distiller (names) and the tagger (topics when no entity is named).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Iterable

from daemon.distill.lexicon import (
    _CJK_RE,
    _CJK_RUN,
    _DEVICE_NAMES,
    _FENCE_RE,
    _PHRASE_BREAK,
    _PHRASE_STOP_WORDS,
    _ZH_CUE_WORDS,
)

_CONTRACTION = re.compile(r"(?i)\w(?:n['’]t|['’](?:ve|re|ll|d|m))\b")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
# A grounded date note, "(7 May 2023)", "(week of 1 May 2023)", "（2024-03-18）": the date is not a topic.
_DATE_NOTE = re.compile(r"[(（](?:around |约|weekend of |week of )?[^()（）]{0,20}\d{4}[^()（）]{0,6}[)）]")
_URL = re.compile(r"https?://\S+|\S+\.(?:py|js|ts|md|json|toml|yaml|yml|txt|sh|go|rs|java|c|h|cpp)\b")


def topics(texts: Iterable[str], names: frozenset[str], k: int = 4) -> list[str]:
    """The ``k`` most recurrent key phrases, none overlapping another, none holding a name."""
    return ranked(phrase_counts(texts, names), k)


def phrase_counts(texts: Iterable[str], names: frozenset[str]) -> tuple[Counter[str], dict[str, str]]:
    """How often each candidate phrase occurs (lower-cased), and its first spelling."""
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for text in texts:
        prose = _DATE_NOTE.sub(" ", _URL.sub(" ", _INLINE_CODE.sub(" ", _FENCE_RE.sub(" ", text))))
        prose = re.sub(r"['’]s\b", "", _ZH_CUE_WORDS.sub(" ", re.sub(r"(?i)(?<!\w)['’]cause\b", " because ", prose)))
        for chunk in _PHRASE_BREAK.split(prose):
            for gram in (g for run in _runs(chunk) for g in _grams(run)):
                key = gram.lower()
                if len(key) > (1 if _CJK_RE.match(key) else 2) and not set(key.split()) & names:
                    counts[key] += 1
                    surface.setdefault(key, gram)
    return counts, surface


def ranked(found: tuple[Counter[str], dict[str, str]], k: int) -> list[str]:
    counts, surface = found
    size = {key: len(key.split()) + len(_CJK_RE.findall(key)) for key in counts}
    out: list[str] = []
    taken: set[str] = set()
    # Recurrence first; a longer phrase counts a little more ("revocation list design" once is not the subject).
    for key in sorted(counts, key=lambda g: (-counts[g] * (1 + 0.5 * (size[g] - 1)), -size[g], g)):
        stems = {w.rstrip("s") for w in key.split()}  # "token" and "tokens" are one topic
        overlaps = stems & taken or any(key in o or o in key for o in out)
        # A Chinese n-gram seen once is usually a fragment across word boundaries.
        if not overlaps and (counts[key] > 1 or not _CJK_RE.match(key)):
            out.append(key)
            taken |= stems
            if len(out) == k:
                break
    return [surface[key] for key in out]


def _runs(chunk: str) -> list[str]:
    """Runs of content words: a stopword or a bare number ends a run."""
    runs, run = [], []
    for word in chunk.split():
        # (A contraction ends a run too: "office haven't" is no phrase.)
        if word.lower().strip("-'’") in _PHRASE_STOP_WORDS or word.isdigit() or _CONTRACTION.search(word):
            if run:
                runs.append(" ".join(run))
            run = []
        else:
            run.append(word)
    if run:
        runs.append(" ".join(run))
    return runs


def _grams(run: str) -> list[str]:
    """Candidate phrases of a run: 1-3 word windows; 2-4 character windows of Chinese words."""
    # "-minute" is what is left of "15-minute" once numbers split the run: a unit, never a topic.
    words = [w.strip("-'’") for w in run.split() if not w.startswith("-")]
    words = [w for w in words if w and not (len(w) > 4 and w.lower().endswith("ly"))
             and (len(w) > 1 or _CJK_RE.match(w))]  # "120M tokens" leaves an "M": not a word
    if any(_CJK_RE.match(w) for w in words):
        return [w[i:i + n] for w in words if _CJK_RUN.fullmatch(w) for n in (2, 3, 4)
                for i in range(len(w) - n + 1)] + [w for w in words if not _CJK_RE.match(w)]
    return [" ".join(words[i:i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)]


def slugify(text: str, limit: int = 60) -> str:
    """Lower-case letters and digits joined by single hyphens: always one linkable file name."""
    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower())
    slug = "-".join("".join(ch for ch in w if ch.isalnum()) for w in words)
    slug = re.sub(r"-{2,}", "-", slug).strip("-")
    if len(slug) > limit:
        slug = slug[:limit + 1].rsplit("-", 1)[0] if "-" in slug[:limit + 1] else slug[:limit]
    return f"{slug}-notes" if slug in _DEVICE_NAMES else slug
