"""What the full-text table holds for a note, and how a user's words become a safe FTS5 query.

Both sides of a search are here so they tokenize alike. Words are matched by
SQLite's ``porter unicode61`` tokenizer. Scripts written without spaces
(Chinese, Japanese, Korean) would be one long token each, so every run of
them is also written as overlapping two-character pieces into a ``cjk``
column: "登录系统" → "登录 录系 系统", and the query "登录" is the phrase of its
pieces (``docs/choices.md`` has the measurement against the trigram tokenizer).

A query is never passed through as FTS5 syntax: only its words and CJK runs
are kept, each quoted, so quotes, ``NEAR``, ``*`` or a stray parenthesis in
what a user typed can neither fail nor change the meaning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

SCOPES = ("cards", "vault")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = f"[^\\W_{_CJK}]+"
_TERM = re.compile(f"[{_CJK}]+|{_WORD}(?:['’]{_WORD})?")
_HIGH_RUN = re.compile("[^\x00-\u303f]+")  # every CJK character is above U+303F
_CJK_LEADS = tuple(bytes([lead]) for lead in (*range(0xE3, 0xEE), 0xEF))
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SOURCE_LIMIT = 200_000  # characters of a source conversation indexed with its card
MAX_TERMS = 32  # a pasted paragraph still makes a quick query
STOPWORDS = frozenset("""a an the and or but if of to in on at by for with about as into from up down over under
then once here there all any both each few more most other some such no nor not only own same so than too very
can will just should now is are was were be been being have has had having do does did doing i me my we our you
your he him his she her it its they them their what which who whom whose this that these those am would could
when where why how""".split())


@dataclass(frozen=True)
class SearchDoc:
    """One note's row in the search table."""

    path: str
    kind: str  # "card" or "note"
    name: str
    description: str
    tags: str
    project: str
    day: str | None
    session_id: str | None
    body: str
    source: str = ""  # the card's source conversation (``source_text``), ranked no higher than the body
    cjk: str = ""  # the CJK pieces of every field (``with_pieces``), written by the parsing process


def search_doc(rel: str, text: str, properties: Mapping[str, Any], tags: Iterable[str],
               scope: str = "cards", source: str = "") -> SearchDoc | None:
    """A note's search row, or None when the scope leaves it out (``cards``: notes with a ``session_id``).

    ``source`` is the card's source conversation as text: a card is found by what was said
    as well as by what it kept (its own fields still rank above it).
    """
    from daemon.vault import props  # here, not above: the SessionStart hook imports this module and not YAML

    session = _text(properties.get("session_id")) or None
    if session is None and (scope != "vault" or not rel.lower().endswith(".md")):
        return None
    folder, _, filename = rel.rpartition("/")
    stem = filename[:-3] if filename.lower().endswith(".md") else filename
    parent = folder.rpartition("/")[2]
    doc = SearchDoc(
        path=rel,
        kind="card" if session else "note",
        name=_text(properties.get("name")) or stem,
        description=_text(properties.get("description")),
        tags=" ".join(tags),
        project=_text(properties.get("project")),
        day=parent if _DAY.match(parent) else _text(properties.get("date"))[:10] or None,
        session_id=session,
        body=props.body(text),
        source=source if session else "",
    )
    return with_pieces(doc)


def with_pieces(doc: SearchDoc) -> SearchDoc:
    """The document with its ``cjk`` column filled from its other fields."""
    fields = (doc.name, doc.description, doc.tags, doc.project, doc.body, doc.source)
    return replace(doc, cjk=cjk_pieces(" ".join(fields)))


def source_path(properties: Mapping[str, Any]) -> str | None:
    """The vault path in a card's ``source_conversation`` link (``"[[session/dialog/s.jsonl]]"``)."""
    link = _text(properties.get("source_conversation")).strip('"')
    if not (link.startswith("[[") and link.endswith("]]")):
        return None
    rel = link[2:-2].split("|")[0].split("#")[0].strip()
    return rel if rel.endswith(".jsonl") and ".." not in rel.split("/") else None


def source_text(record: str, limit: int = SOURCE_LIMIT) -> str:
    """A source record (JSON lines, one message each) as ``speaker: text`` lines, at most ``limit`` chars."""
    lines: list[str] = []
    used = 0
    for raw in record.splitlines():
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        line = f"{_text(message.get('name')) or _text(message.get('role'))}: {_content(message.get('content'))}"
        lines.append(line)
        used += len(line) + 1
        if used >= limit:
            break
    return "\n".join(lines)[:limit]


def _content(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(str(b.get("text", "")) for b in value if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _text(value: Any) -> str:
    if value is None or isinstance(value, (dict, list)):
        return ""
    return str(value).strip()


def cjk_pieces(text: str) -> str:
    """Every CJK run as overlapping two-character pieces (a lone character stays itself)."""
    if not _maybe_cjk(text):
        return ""
    out: list[str] = []
    for high in _HIGH_RUN.findall(text):  # a two-range class scans twice as fast as _CJK's seven
        for run in _CJK_RUN.findall(high):
            out.append(run if len(run) == 1 else " ".join(run[i : i + 2] for i in range(len(run) - 1)))
    return " ".join(out)


def _maybe_cjk(text: str) -> bool:
    """A quick test that lets most notes skip the regex (~20x faster than scanning with it).

    Every character of ``_CJK`` is three bytes in UTF-8 led by 0xE3-0xED or 0xEF, and
    ``bytes in`` is a fast substring search; a false alarm only costs the regex scan.
    """
    if text.isascii():
        return False
    data = text.encode("utf-8", "surrogatepass")
    return any(lead in data for lead in _CJK_LEADS)


def terms(query: str) -> list[str]:
    """The searchable pieces of a query: words and CJK runs, in order, without repeats."""
    seen: list[str] = []
    for term in _TERM.findall(query):
        term = term.casefold()
        if term not in seen:
            seen.append(term)
    return seen[:MAX_TERMS]


def keywords(query: str) -> list[str]:
    """The query's terms without English function words ("when did the…"), unless nothing else is left.

    With any term allowed to match, "the" or "did" would pull in every note; BM25 ranks them
    low, but on LoCoMo's questions dropping them still lifts recall@5 (``docs/benchmarks.md``).
    """
    found = terms(query)
    return [t for t in found if t not in STOPWORDS] or found


def match_expression(query: str) -> str | None:
    """A safe FTS5 MATCH expression for a user's query (any term may match), or None when it has no words."""
    parts = []
    for term in keywords(query):
        if _CJK_RUN.fullmatch(term):
            if len(term) == 1:
                parts.append(f'cjk : "{term}"*')
            else:
                parts.append(f'cjk : "{cjk_pieces(term)}"')
        else:
            parts.append('"' + term.replace('"', '""') + '"')
    return " OR ".join(parts) if parts else None


def project_key(project: str) -> str:
    """What a project is matched by: its last path component, case-folded ("~/src/MemVault/" → "memvault").

    Cards may name a project by name or by the folder Claude Code ran in; both match either.
    """
    return project.strip().replace("\\", "/").rstrip("/").rpartition("/")[2].casefold()
