"""Stage 4, distill: the embedded extractive backend of the ``Distiller`` protocol.

``ExtractiveDistiller`` turns a session's messages into a memory card without a
model: it grounds relative dates (``reltime``), splits messages into sentences
and fenced code blocks, sorts statements into kinds (preference, key fact,
decision, state/next step, procedure), picks the most informative within a
length budget and quotes them verbatim under one heading per kind, attributed
to their speaker. Deterministic and offline; English and Chinese.

Updates only ever append: existing body lines (user edits included) are kept
byte for byte, statements already present are skipped, and the card comes back
unchanged when nothing new is worth adding.
"""

from __future__ import annotations

import heapq
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import date

from daemon.models import Card, DistillRequest, Message, Skip
from daemon.distill.reltime import ground
from daemon.distill.lexicon import (
    _ABBREV,
    _BULLET_RE,
    _CJK_RE,
    _CJK_RUN,
    _CLAUSE_SEP,
    _COMMON,
    _DEVICE_NAMES,
    _FENCE_RE,
    _FLUFF,
    _KIND_BOOST,
    _KIND_RE,
    _LEAD_FILLER,
    _PHRASE_BREAK,
    _PHRASE_STOP,
    _REACTION_RE,
    _REASON_RE,
    _SELF_RE,
    _SENT_END,
    _SMALL_TALK_EN,
    _SMALL_TALK_ZH,
    _STOP,
    _WORD_RE,
    _ZH_CUES,
    _ZH_STOP_CHARS,
)

__all__ = ["ExtractiveDistiller", "HEADINGS", "KINDS", "slugify"]

KINDS = ("preference", "fact", "decision", "state", "procedure")
HEADINGS = {
    "en": {"preference": "Preferences", "fact": "Key facts", "decision": "Decisions",
           "state": "Current state and next steps", "procedure": "Commands and procedures"},
    "zh": {"preference": "偏好", "fact": "关键事实", "decision": "决定",
           "state": "现状与下一步", "procedure": "命令与步骤"},
}
SKIP_REASON = "small talk: nothing worth remembering"
_NAME_SUFFIX = {"en": {"decision": "decision", "state": "plans", "procedure": "howto"},
                "zh": {"decision": "决定", "state": "计划", "procedure": "步骤"}}
_ROLES = {"en": {"user": "User", "assistant": "Assistant"}, "zh": {"user": "用户", "assistant": "助手"}}


# Body characters per transcript character, and a floor so short, dense chats keep their substance.
# Tuned on LoCoMo conversations 1-5 only (scripts/bench_locomo.py); 6-10 stay held out.
_BODY_RATIO = 0.26
_ASSISTANT_RATIO = 0.5
_MIN_BODY = 650
_MAX_BODY = 6000
_MAX_CODE_LINES = 40
_BULLET_COST = 12


@dataclass(frozen=True)
class _Stmt:
    """One statement: a sentence, or a lead-in sentence plus a fenced code block."""

    pos: int
    msg: int
    speaker: str
    text: str
    kind: str
    tokens: frozenset[str]
    code: str = ""
    reply: bool = False


@dataclass(frozen=True)
class ExtractiveDistiller:
    """The default, model-free distiller.

    The body gets ``body_ratio`` characters per transcript character (``assistant_ratio`` for
    assistant replies, which are reference text rather than chat), clamped to
    ``[min_body, max_body]``; code blocks come on top.
    """

    body_ratio: float = _BODY_RATIO
    assistant_ratio: float = _ASSISTANT_RATIO
    min_body: int = _MIN_BODY
    max_body: int = _MAX_BODY

    def distill(self, request: DistillRequest) -> Card | Skip:
        """Return a new or merged card, the unchanged existing card, or a ``Skip``."""
        messages = [m for m in request.messages if m.text.strip()]
        existing = request.existing
        if all(_is_small_talk(m.text) for m in messages):
            return existing if existing is not None else Skip(SKIP_REASON)
        lang = _language(" ".join(m.text for m in messages) + (existing.body if existing else ""))
        texts = [ground(m.text, m.time, request.timezone) for m in messages]
        speakers = [_speaker(m, lang) for m in messages]
        size = sum((self.assistant_ratio if m.role == "assistant" else self.body_ratio) * (len(s) + len(t))
                   for m, s, t in zip(messages, speakers, texts, strict=True))
        weights = _weights(texts, speakers, request.hint)
        budget = min(self.max_body, max(self.min_body, int(size)))
        chosen = _select(_candidates(texts, speakers), weights, budget)
        if not chosen and existing is None:  # ambiguous (only questions, say): write them down
            chosen = _select(_candidates(texts, speakers, loose=True), weights, budget)
        if existing is not None:
            return _updated_card(existing, chosen, texts, speakers, lang, request.day)
        return _new_card(chosen, texts, speakers, lang, request.day) if chosen else Skip(SKIP_REASON)


# ---- reading messages ---------------------------------------------------------

def _language(text: str) -> str:
    latin = len(re.findall(r"[A-Za-z]+", _FENCE_RE.sub("", text)))
    return "zh" if len(_CJK_RE.findall(text)) > latin else "en"


def _speaker(message: Message, lang: str) -> str:
    # The name heads a "- Name: text" bullet, so it may not hold a colon or a line break.
    if name := re.sub(r"[:：\s]+", " ", message.name).strip()[:40].strip():
        return name
    role = message.role or "?"
    return _ROLES[lang].get(role, role.capitalize())


def _is_small_talk(text: str) -> bool:
    if _CJK_RE.search(text):
        rest = _SMALL_TALK_ZH.sub("", text)
        return not _CJK_RE.search(rest) and not re.search(r"[a-z0-9]{2,}", rest, re.I)
    return all(w.strip("'") in _SMALL_TALK_EN for w in re.findall(r"[a-z0-9']+", text.lower()))


def _tokens(text: str) -> frozenset[str]:
    """Content words (lower-case, possessive 's dropped); Chinese runs as character bigrams."""
    out: set[str] = set()
    for word in _WORD_RE.findall(text.lower()):
        if _CJK_RE.match(word):
            run = "".join(" " if ch in _ZH_STOP_CHARS else ch for ch in word)
            out.update(p[i:i + 2] for p in run.split() for i in range(max(1, len(p) - 1)))
        elif word not in _STOP and word not in _FLUFF and (len(word) > 1 or word.isdigit()):
            out.add(re.sub(r"['’]s$", "", word).replace("’", "'"))
    return frozenset(out)


def _sentences(prose: str) -> list[str]:
    out: list[str] = []
    for piece in _SENT_END.split(prose):
        piece = re.sub(r"^\s*(?:[-*+]\s+|#+\s+|>\s*)", "", piece or "").strip()
        if out and _ABBREV.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}".strip()
        elif piece:
            out.append(piece)
    return out


def _classify(sentence: str, previous: str | None) -> str:
    kind = next((k for k, cue in _KIND_RE.items() if cue.search(sentence)), "fact")
    # "Because ..." right after a decision is that decision's reason.
    return "decision" if kind == "fact" and previous == "decision" and _REASON_RE.match(sentence) else kind


def _trim(sentence: str, names: frozenset[str]) -> str:
    """Drop clauses that carry no content (", which is so exciting!"); the rest stays verbatim."""
    parts = _CLAUSE_SEP.split(sentence)
    clauses, seps = parts[0::2], parts[1::2]
    keep = [bool(_tokens(c) - names) for c in clauses]
    if all(keep) or not any(keep):
        return sentence
    out = ""
    for i, clause in enumerate(clauses):
        if keep[i]:
            out += (seps[i - 1] if out else "") + clause
    end = re.search(r"[.!?。！？…]+[\"'”’)]*$", sentence)
    return out.rstrip(" ,;:-–—，") + (end.group(0) if end and not out.endswith(end.group(0)) else "")


def _is_question(sentence: str) -> bool:
    return sentence.rstrip("\"'”’)").endswith(("?", "？")) or bool(re.search(r"[吗呢]\W*$", sentence))


def _candidates(texts: list[str], speakers: list[str], loose: bool = False) -> list[_Stmt]:
    """Statements in conversation order; a code block takes the sentence before it as its lead-in."""
    out: list[_Stmt] = []
    names, seen_code = _names(speakers), set[str]()
    for i, (text, speaker) in enumerate(zip(texts, speakers, strict=True)):
        pos, previous = 0, None
        reply = i > 0 and speakers[i - 1] != speaker and any(map(_is_question, _sentences(texts[i - 1])))
        for fence in [*_FENCE_RE.finditer(text), None]:
            sentences = _sentences(text[pos:fence.start()] if fence else text[pos:])
            lead = sentences.pop() if fence and sentences else ""
            for sentence in sentences:
                sentence = _trim(_LEAD_FILLER.sub("", sentence).strip(), names)
                previous, words = _classify(sentence, previous), _tokens(sentence)
                if not _is_small_talk(sentence) and (
                        len(words) >= 2 and not _is_question(sentence) or loose and words):
                    out.append(_Stmt(len(out), i, speaker, sentence, previous, words, "", reply))
            if fence:
                code, pos = fence.group(0), fence.end()
                if code.count("\n") <= _MAX_CODE_LINES and code not in seen_code:
                    seen_code.add(code)
                    out.append(_Stmt(len(out), i, speaker, lead, "procedure", _tokens(lead + code), code))
    return out


def _weights(texts: list[str], speakers: list[str], hint: str | None) -> dict[str, float]:
    """Token weights: recurring, proper-noun, numeric and hinted words count more; names less."""
    counts = Counter(t for text in texts for t in _tokens(text))
    proper = {w.lower() for t in texts for w in re.findall(r"(?<=[a-z,;] )[A-Z][a-zA-Z]+", t)}
    names, hinted = _names(speakers), _tokens(hint or "")
    weights: dict[str, float] = {}
    for token, n in counts.items():
        w = (1.0 + 0.25 * math.log(n)) * (0.6 if token in _COMMON else 1.0)
        w *= 1.5 if token in proper or token.isdigit() else 1.0
        w *= 0.3 if token in names else 1.0
        weights[token] = w * (3.0 if token in hinted else 1.0)
    return weights


# ---- choosing statements ------------------------------------------------------

def _density(stmt: _Stmt, weights: dict[str, float], covered: set[str]) -> float:
    """Weight added per character. Covered words still count 30 %: a second fact about a thing is news."""
    new = sum(weights.get(t, 0.0) for t in stmt.tokens - covered)
    old = sum(weights.get(t, 0.0) for t in stmt.tokens & covered)
    gain = (new + 0.3 * old) * _KIND_BOOST[stmt.kind]
    # A speaker's news about themselves ("I adopted...") beats reactions ("That's so cool").
    gain *= 1.3 if _SELF_RE.match(stmt.text) else 0.6 if _REACTION_RE.match(stmt.text) else 1.0
    # Answers to the other speaker's questions carry the facts ("How long?" "Five years.").
    gain *= 1.7 if stmt.reply else 1.0
    return gain / math.pow(len(stmt.text) + _BULLET_COST, 0.8)


def _select(candidates: list[_Stmt], weights: dict[str, float], budget: int) -> list[_Stmt]:
    """Greedy budgeted coverage (lazy: densities only fall as words get covered).

    Code blocks are always kept whole and outside the budget: reusable commands are what cards
    are for, and the source conversation keeps anything longer than ``_MAX_CODE_LINES``.
    """
    chosen = [s for s in candidates if s.code]
    covered = set().union(*(s.tokens for s in chosen))
    heap = [(-_density(s, weights, covered), s.pos, s) for s in candidates if not s.code]
    heapq.heapify(heap)
    used = 0
    while heap:
        _, pos, stmt = heapq.heappop(heap)
        density = _density(stmt, weights, covered)
        if heap and density < -heap[0][0]:
            heapq.heappush(heap, (-density, pos, stmt))
        elif density <= 0.02:
            break
        elif used + len(stmt.text) + _BULLET_COST <= budget:
            chosen.append(stmt)
            covered |= stmt.tokens
            used += len(stmt.text) + _BULLET_COST
    return sorted(chosen, key=lambda s: s.pos)


# ---- writing the card ---------------------------------------------------------

def _blocks(stmts: list[_Stmt], lang: str) -> dict[str, list[str]]:
    """Markdown per kind: one bullet per message, a code block whole below its lead-in bullet."""
    sep = "：" if lang == "zh" else ": "
    out: dict[str, list[str]] = {k: [] for k in KINDS}
    for kind in KINDS:
        group: list[_Stmt] = []
        for stmt in [*(s for s in stmts if s.kind == kind), None]:
            if group and (stmt is None or stmt.msg != group[0].msg or stmt.code or group[-1].code):
                text = " ".join(s.text for s in group if s.text)
                if group[-1].code and not text:
                    text = "给出：" if lang == "zh" else "shared:"
                line = f"- {group[0].speaker}{sep}{text}"
                out[kind].append(line + (f"\n\n{group[-1].code}" if group[-1].code else ""))
                group = []
            if stmt is not None:
                group.append(stmt)
    return out


def _new_card(chosen: list[_Stmt], texts: list[str], speakers: list[str], lang: str, day: date) -> Card:
    blocks = _blocks(chosen, lang)
    body = "\n\n".join(f"## {HEADINGS[lang][k]}\n" + "\n".join(blocks[k]) for k in KINDS if blocks[k])
    topics = _topics(texts, _names(speakers))
    description = _describe(_unique(speakers), day, topics, chosen, lang)
    return Card(_name(topics, chosen, lang), description, body + "\n")


def _updated_card(existing: Card, chosen: list[_Stmt], texts: list[str], speakers: list[str],
                  lang: str, day: date) -> Card:
    fresh = [s for s in chosen if not _present(s, existing.body)]
    if not fresh:
        return existing
    old = _old_statements(existing.body)
    who = _unique([s.speaker for s in old] + speakers)
    topics = _topics([s.text for s in old] + texts, _names(who))
    fresh = [_Stmt(len(old) + s.pos, s.msg, s.speaker, s.text, s.kind, s.tokens, s.code) for s in fresh]
    description = _describe(who, day, topics, old + fresh, lang)
    return Card(existing.name, description, _merge(existing.body, _blocks(fresh, lang), lang))


def _names(speakers: list[str]) -> frozenset[str]:
    return frozenset(w.lower() for s in speakers for w in s.split())


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _present(stmt: _Stmt, body: str) -> bool:
    """Already in the card: verbatim, or as a lightly edited line (80 % of its words on one line)."""
    if stmt.code:
        return _norm(stmt.code) in _norm(body)
    if _norm(stmt.text) in _norm(body):
        return True
    return len(stmt.tokens) >= 3 and any(len(stmt.tokens & _tokens(line)) >= 0.8 * len(stmt.tokens)
                                         for line in body.splitlines())


def _sections(lines: list[str]) -> list[tuple[int, str | None]]:
    """(line index, kind) of each heading outside code fences; kind None for headings we don't own."""
    out: list[tuple[int, str | None]] = []
    fenced = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6}\s", line):
            title = line.lstrip("#").strip().casefold()
            out.append((i, next((k for h in HEADINGS.values() for k, v in h.items()
                                 if v.casefold() == title), None)))
    return out


def _old_statements(body: str) -> list[_Stmt]:
    """The card's attributed bullets as statements, each with the kind of its section."""
    lines, out = body.split("\n"), list[_Stmt]()
    kinds = dict(_sections(lines))
    kind = "fact"
    for i, line in enumerate(lines):
        kind = (kinds[i] or "fact") if i in kinds else kind
        if bullet := _BULLET_RE.match(line):
            out.append(_Stmt(len(out), -1, bullet[1], bullet[2], kind, _tokens(bullet[2])))
    return out


def _merge(body: str, blocks: dict[str, list[str]], lang: str) -> str:
    """Append each kind's blocks at the end of its section (made if missing); old lines stay as they are."""
    lines = body.split("\n")
    for kind in (k for k in KINDS if blocks[k]):
        new = "\n".join(blocks[kind]).split("\n")
        heads = _sections(lines)
        start = next((i for i, k in heads if k == kind), None)
        if start is None:
            while lines and not lines[-1].strip():
                lines.pop()
            lines += [""] * bool(lines) + [f"## {HEADINGS[lang][kind]}", *new, ""]
            continue
        end = next((i for i, _ in heads if i > start), len(lines))
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        lines[end:end] = new
    return "\n".join(lines)


# ---- naming and describing -----------------------------------------------------

def _topics(texts: list[str], names: frozenset[str], k: int = 4) -> list[str]:
    """Key phrases: word runs between stopwords (Chinese: character runs), ranked by recurrence."""
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for text in texts:
        prose = re.sub(r"['’]s\b", "", _ZH_CUES.sub(" ", _FENCE_RE.sub(" ", text)))
        for chunk in _PHRASE_BREAK.split(prose):
            for gram in (g for run in _PHRASE_STOP.split(chunk) for g in _grams(run)):
                key = gram.lower()
                if len(key) > (1 if _CJK_RE.match(key) else 2) and not set(key.split()) & names:
                    counts[key] += 1
                    surface.setdefault(key, gram)
    size = {key: len(key.split()) + len(_CJK_RE.findall(key)) for key in counts}
    out: list[str] = []
    taken: set[str] = set()
    for key in sorted(counts, key=lambda g: (-counts[g] * size[g], -size[g], g)):
        stems = {w.rstrip("s") for w in key.split()}  # "token" and "tokens" are one topic
        overlaps = stems & taken or any(key in o or o in key for o in out)
        # A Chinese n-gram seen once is usually a fragment across word boundaries.
        if len(out) < k and not overlaps and (counts[key] > 1 or not _CJK_RE.match(key)):
            out.append(key)
            taken |= stems
    return [surface[key] for key in out]


def _grams(run: str) -> list[str]:
    """Candidate phrases of a run: 1-3 word windows; 2-4 character windows of Chinese words."""
    # "-minute" is what is left of "15-minute" once numbers split the run: a unit, never a topic.
    words = [w.strip("-'’") for w in run.split() if not w.startswith("-")]
    words = [w for w in words if w and not (len(w) > 4 and w.lower().endswith("ly"))]
    if any(_CJK_RE.match(w) for w in words):
        return [w[i:i + n] for w in words if _CJK_RUN.fullmatch(w) for n in (2, 3, 4)
                for i in range(len(w) - n + 1)] + [w for w in words if not _CJK_RE.match(w)]
    return [" ".join(words[i:i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)]


def _join(items: list[str], lang: str) -> str:
    if lang == "zh" or len(items) < 2:
        return "、".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_MONTHS = "January February March April May June July August September October November December"
_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"


def _describe(who: list[str], day: date, topics: list[str], stmts: list[_Stmt], lang: str) -> str:
    """One plain line: who, when, about what, the first decision and the latest state."""
    decisions = [s for s in stmts if s.kind == "decision" and s.text]
    states = [s for s in stmts if s.kind == "state" and s.text]
    sep = "：" if lang == "zh" else ": "
    said = " ".join(f"{s.speaker}{sep}{_clip(s.text)}" for s in (decisions[:1] + states[-1:]))
    if lang == "zh":
        text = f"{_join(who, lang)}在{day.isoformat()}讨论了{_join(topics, lang) or '若干事项'}。{said}"
    else:
        # Spelled out, locale-free: the card's folder already carries the ISO date.
        when = f"{_WEEKDAYS.split()[day.weekday()]} {day.day} {_MONTHS.split()[day.month - 1]} {day.year}"
        text = f"{_join(who, lang)} talked on {when} about {_join(topics, lang) or 'several things'}. {said}"
    return re.sub(r"\s+", " ", text).strip()


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(",;:，") + "…"


def _name(topics: list[str], chosen: list[_Stmt], lang: str) -> str:
    """A stable topic slug: the main named speaker, the top key phrases, the dominant kind."""
    named = Counter(s.speaker for s in chosen if s.speaker not in _ROLES[lang].values())
    parts = [min(named, key=lambda n: (-named[n], n)).split()[0]] if named and lang == "en" else []
    parts += " ".join(topics[:2]).split()[:4]
    kinds = Counter(s.kind for s in chosen)
    parts += [suffix for kind, suffix in _NAME_SUFFIX[lang].items() if 3 * kinds[kind] >= len(chosen)][:1]
    return slugify(" ".join(parts)) or ("对话记录" if lang == "zh" else "conversation-notes")


def slugify(text: str, limit: int = 60) -> str:
    """Lower-case letters and digits joined by single hyphens: always one linkable file name."""
    words = re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).lower())
    slug = "-".join("".join(ch for ch in w if ch.isalnum()) for w in words)
    slug = re.sub(r"-{2,}", "-", slug).strip("-")
    if len(slug) > limit:
        slug = slug[:limit + 1].rsplit("-", 1)[0] if "-" in slug[:limit + 1] else slug[:limit]
    return f"{slug}-notes" if slug in _DEVICE_NAMES else slug
