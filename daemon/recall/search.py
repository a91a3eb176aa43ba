"""A search over the index's full-text table: a query and filters in, ranked hits with snippets out.

Filters combine as in the reference's ``memory_search``: tags match any of the
given ones, and the tag set is ANDed with project and dates. A ``--tag`` list
with no usable tag left after normalising is an error, not "no filter".
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, Sequence

from daemon.errors import InputError
from daemon.links.fulltext import keywords, match_expression, project_key
from daemon.links.graph import normalize_tag
from daemon.links.index import Index

MAX_LIMIT = 100
SNIPPET_CHARS = 200
_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")
_MARKUP = re.compile(r"(?m)^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|```\w*)")  # headings, bullets, fences


@dataclass(frozen=True)
class Hit:
    """One search result."""

    path: str
    name: str
    date: str | None
    score: float
    snippet: str
    description: str
    tags: tuple[str, ...]
    project: str
    session_id: str | None
    kind: str

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "tags": list(self.tags)}


@dataclass(frozen=True)
class Filters:
    """What a search is limited to; validated by ``filters``."""

    tags: tuple[str, ...] = ()
    project: str | None = None
    since: str | None = None
    until: str | None = None
    kind: str | None = None


def filters(tags: Sequence[str] | None = None, project: str | None = None, since: str | None = None,
            until: str | None = None, kind: str | None = None) -> Filters:
    """Validate filter values as a user typed them.

    Raises:
        InputError: no valid tag remains, a date is not YYYY-MM-DD, or since is after until.
    """
    clean: tuple[str, ...] = ()
    if tags:
        clean = tuple(dict.fromkeys(t for t in (normalize_tag(str(x)) for x in tags) if t))
        if not clean:
            raise InputError(f"no valid tag in {list(tags)!r}: a tag needs at least one letter or digit")
    since, until = _day("since", since), _day("until", until)
    if since and until and since > until:
        raise InputError(f"since ({since}) is after until ({until})")
    return Filters(clean, (project or "").strip() or None, since, until, kind)


def _day(field: str, value: str | None) -> str | None:
    if value is None or not str(value).strip():
        return None
    try:
        return date.fromisoformat(str(value).strip()).isoformat()
    except ValueError as exc:
        raise InputError(f"{field}: {value!r} is not a date (YYYY-MM-DD)") from exc


def search(index: Index, query: str, where: Filters = Filters(), limit: int = 10) -> list[Hit]:
    """The best matches for ``query`` (newest first when it holds no word), within ``where``.

    Raises:
        InputError: ``limit`` is outside 1–100.
    """
    if not 1 <= int(limit) <= MAX_LIMIT:
        raise InputError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    conditions, args = _conditions(where)
    rows = index.search(match_expression(query), " AND ".join(conditions), tuple(args), int(limit))
    words = keywords(query)
    return [Hit(path=str(r["path"]), name=str(r["name"]), date=r["day"],  # type: ignore[arg-type]
                score=float(f"{float(r['score']):.4g}"),  # type: ignore[arg-type]
                snippet=snippet(str(r["body"]), words) or snippet(str(r["description"]), words),
                description=str(r["description"]), tags=tuple(str(r["tags"]).split()),
                project=str(r["project"]), session_id=r["session_id"], kind=str(r["kind"]))  # type: ignore[arg-type]
            for r in rows]


def _conditions(where: Filters) -> tuple[list[str], list[object]]:
    conditions: list[str] = []
    args: list[object] = []
    if where.tags:
        conditions.append(f"d.path IN (SELECT path FROM tags WHERE tag IN ({', '.join('?' * len(where.tags))}))")
        args.extend(where.tags)
    if where.project:
        conditions.append("d.project_key = ?")
        args.append(project_key(where.project))
    if where.since:
        conditions.append("d.day >= ?")
        args.append(where.since)
    if where.until:
        conditions.append("d.day <= ?")
        args.append(where.until)
    if where.kind:
        conditions.append("d.kind = ?")
        args.append(where.kind)
    return conditions, args


def snippet(text: str, words: Sequence[str], width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` around the first query word, each match in ``**bold**``."""
    flat = " ".join(_MARKUP.sub("", text).split())
    if not flat:
        return ""
    stems = sorted({_stem(w) for w in words if w}, key=len, reverse=True)
    pattern = re.compile("|".join(_pattern(s) for s in stems), re.IGNORECASE) if stems else None
    found = pattern.search(flat) if pattern else None
    start = 0 if found is None else max(0, found.start() - width // 3)
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < found.start() else start  # type: ignore[union-attr]
    piece = flat[start : start + width]
    cut = piece.rfind(" ") if start + width < len(flat) else -1
    piece = piece[:cut] if cut > width // 2 else piece
    marked = pattern.sub(lambda m: f"**{m.group(0)}**", piece) if pattern else piece
    return ("…" if start else "") + marked + ("…" if start + len(piece) < len(flat) else "")


def _stem(word: str) -> str:
    return _SUFFIX.sub("", word) if len(word) > 4 and word.isascii() else word


def _pattern(stem: str) -> str:
    if stem.isascii():
        return rf"\b{re.escape(stem)}\w*"
    return re.escape(stem)
