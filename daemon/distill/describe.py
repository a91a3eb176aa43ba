"""A card's description and name: what happened, in one to three sentences, and its subject.

The description leads with substance — what was asked, done, decided, learned or
planned, with the names, numbers and dates that matter — and ends with who and when.
It is never a keyword list. The date is stated only when the messages carried
timestamps. First-person statements are turned into the third person where that
is safe ("I went …" → "Caroline went …"); otherwise they are attributed as said.

The name is the conversation's subject in two to five words, from its key phrases
(never from markup, a speaker's name or filler).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from datetime import date

from daemon.distill.lexicon import (
    _ADVISING, _CJK_RE, _DROPPED_I, _EVENT_RE, _FIRST_PERSON, _NAMED, _OUTCOME, _PROBLEM, _PROMISE, _PRONOUN_START, _SETTLED,
    _SHOWING, _VERDICT, _WORKING,
)
from daemon.distill.phrases import phrase_counts, ranked, slugify, topics

MONTHS = "January February March April May June July August September October November December".split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_NAME_SUFFIX = {"en": {"decision": "decision", "state": "plans", "procedure": "howto", "work": "work",
                       "preference": "preferences", "fact": "notes", "advice": "advice", "question": "question"},
                "zh": {"decision": "决定", "state": "计划", "procedure": "步骤", "work": "工作",
                       "preference": "偏好", "fact": "笔记", "advice": "建议", "question": "问题"}}


@dataclass(frozen=True)
class Point:
    """A statement offered to the description: its speaker's label, text and kind."""

    who: str
    text: str
    kind: str
    role: str = ""
    answered: bool = False  # said after the other side had answered (a user's outcome comes then, not before)
    at: int = 0  # where in the conversation it was said


def when(day: date) -> str:
    """Spelled out and locale-free: the card's folder already carries the ISO date."""
    return f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]} {day.year}"


def describe(points: list[Point], *, context: str = "", request: str = "", verdict: str = "", asker: str = "",
             task: bool = False,
             work: str = "",
             people: list[str] | None = None, day: date | None = None, lang: str = "en",
             limit: int = 420, topic: str = "") -> str:
    """One to three sentences: the ask, the work, the highlights; then who, about what (a meeting's agenda), and
    when."""
    people = people or []
    sentences: list[str] = []
    context_at = 0 if context else None  # (where the context's sentence is: it may be cut to its telling one)
    if context:
        sentences.append(_as_note(Point(asker or ("用户" if lang == "zh" else "The user"), context, "fact"),
                                  lang, False))
    if request and (asked := _ask(request, asker, lang, task)):
        sentences.append(asked + (f" Answer: {verdict}" if verdict and asked.endswith("”") else ""))
    if work:
        sentences.append(work)
    # People chatting: a highlight from each of two speakers (their own news first), then who and when;
    # a request or agent session: up to three sentences.
    chat = len(people) > 1 and not sentences
    advised, after = False, ""
    kept: set[int] = set()  # how it turned out: the last to go when the description is too long
    chosen = _distinct(highlights(points, len(points), people=chat), 2) if chat else \
        highlights(points, 3 - len(sentences))
    # (What the user then decided, "i think i'm keeping it for one more year", says what came of the advice before it,
    # "My recommendation: sell the Fiesta…": the advice goes.)
    # (Advice the decision follows, "Switch to 1:2:2…" — "we decided to use the oven light and 1:2:2", stays.)
    decided = [p for p in chosen if p.kind == "decision" and p.role == "user"] if not chat else []
    if decided:
        chosen = [p for p in chosen if not (p.role == "assistant" and p.at < decided[-1].at and (
            _advice(p) or re.match(r"(?i)\W*(?:\*\*)?(?:my )?recommendation\b", p.text))
            and not _said_words(p.text) & _said_words(decided[-1].text))]
    # (How it turned out, "I booked the bleed at Halfway Cycles for Saturday", is told even after the ask and the fix.)
    outcomes = [p for p in highlights(points, len(points)) if _outcome(p)  # ("3 failed though" is a new problem)
                and not re.search(r"(?i)\b(?:though|still|but|again)\b", p.text)] if not chat and chosen else []
    # ("I'm appealing tonight" before "I'll put a reminder in"; what settled it, "discount approved on 3 dec", before
    # what was done on the way, "applied for the discount online")
    outcomes.sort(key=lambda p: (bool(_WILL.match(p.text)), not _SETTLED_NOW.search(p.text)))
    present = [p for p in chosen if _turned_out(p)]
    if outcomes and outcomes[0] not in chosen and (not present or _SETTLED_NOW.search(outcomes[0].text) and not any(
            _SETTLED_NOW.search(p.text) for p in present)):
        chosen = [p for p in chosen if not _outcome(p)]
        chosen = chosen[:max(1, 2 - len(sentences))] + outcomes[:1]  # (room for it: one highlight fewer)
    if not chat:  # how it turned out, then what the user will do next: "It loads: …", "I'll add that test tonight."
        chosen.sort(key=lambda p: (0 if not _outcome(p) else 2 if _WILL.match(p.text) else 1))
    for point in chosen:
        other = [p for p in people if p != point.who]
        note = _as_note(_headline(point) if chat else point, lang, len(people) > 1,
                        other[0] if len(people) == 2 and len(other) == 1 else "", after if chat else "")
        after = point.who
        if lang == "en" and not people and point.role == "assistant" and not advised and advises(note):
            lead = len(note) - len(note.lstrip("*_"))  # ("**Don't ignore it.**": the word after the emphasis)
            note = f"Advice: {note[:lead]}{note[lead:lead + 1].lower()}{note[lead + 1:]}"
            advised = True  # "Switch to 1:2:2…" is said to the user
        elif lang == "en" and not people and point.kind == "decision" and point.role == "user" and note == point.text \
                and not re.match(r"(?i)(?:the user|i|we|let'?s|going|decided|decision|agreed|final)\b", note):
            # (Not an option's letter: "A with the £150 excess, £21.40 a month" decides for option A.)
            if re.match(r"(?:The|A|An|This|That|These|Those|It|Its|Our|My|Both|All|No)\b", note) and \
                    not re.match(r"A(?=\s+(?:with|and|or|it is|then|please|for (?:me|us))\b|[,:.)!]|$)", note):
                note = note[:1].lower() + note[1:]  # ("Decided: the £2,400 goes into easy access now")
            note = re.sub(r"(?i)\s+it is(?: then)?([.!]*)$", r"\1", note)  # ("Individual tickets it is.")
            note = f"Decided: {note}"  # "Melitta Caffeo Solo + frother, and the Friday café flat white stays."
        sentences.append(note)
        if not chat and (_turned_out(point) or point.kind == "decision" or point is chosen[0]):
            kept.add(len(sentences) - 1)  # (what was decided, the first highlight and how it turned out)
    if lang == "zh":
        context = (f"{'、'.join(people)}的对话" if len(people) > 1 else "") + (f"，{day.isoformat()}" if day else "")
        text = "".join(_end(s, lang) for s in sentences) + (f"（{context.strip('，')}）" if context else "")
    else:
        context = ""
        if len(people) > 1:
            if re.match(r"\s*1[.)]\s", topic):  # an agenda's items: "1) NYE gig at the crown & anchor 2) the EP"
                items = [re.split(r"\s+(?:on|at|in|from|to|by)\s+(?:the|a|an|our|their)\b", i, maxsplit=1)[0].strip(" ,;")
                         for i in re.split(r"\s*\b\d{1,2}[.)]\s+", topic) if i.strip(" ,;")
                         and not re.fullmatch(r"(?i)\s*(?:aob|any other business|misc\w*|other)\W*", i)]
                topic = _join(items) if items else topic
            elif len(topic.split()) > 8:  # ("Aled's proposal for a public-access defibrillator", not where it goes)
                topic = re.split(r"\s+(?:on|at|in|from|to|by)\s+(?:the|a|an|our|their)\b", topic, maxsplit=1)[0]
            context = f"{_join(people)} talked" + (f" about {topic}" if topic else "") + \
                (f" on {when(day)}" if day else "") + "."
        elif people:
            context = f"Chat with {people[0]}" + (f" on {when(day)}" if day else "") + "."
        elif day:
            context = f"On {when(day)}."
        ended = [_end(s, lang) for s in sentences]
        body = _plain(" ".join(ended))
        # (A note that does not fit loses its last whole sentences before any is cut short: "…then it moves…" says less
        # than nothing; the work done goes first, the body lists it under "Work done".)
        # (Then the highlights before how it turned out: "New passport arrived by courier…" says where it ended.)
        work_at = [k for k, s in enumerate(sentences) if work and s == work][::-1]  # (the last first: the rest stay put)
        outcome = any(map(_turned_out, chosen))
        start = max(len(sentences) - len(chosen), 1)  # (the highlights' sentences, never the first of all)
        work_at += [k for k in range(len(sentences) - 1, start - 1, -1) if k not in kept and k not in work_at] \
            if outcome else []
        while len(ended) > 1 and len(body) + len(context) >= limit:
            if not work_at and outcome and context_at is not None and len(first := _first_sentence(ended[context_at])) \
                    < len(ended[context_at]):
                ended[context_at] = first  # (the context's first sentence says what it was about)
            elif not work_at and outcome and context_at is not None and len(ended) > 2:
                ended[context_at], context_at = "", None  # (then it goes before how it turned out: the ask says more)
            else:
                ended[work_at.pop(0) if work_at else -1] = ""
                ended = ended if work_at else [e for e in ended if e]
            body = _plain(" ".join(e for e in ended if e))
        body = body if len(body) + len(context) < limit else _clip(body, limit - len(context) - 1)
        return f"{body} {context}".strip()  # who and when survive the clipping
    text = _plain(text)
    return text if len(text) <= limit else _clip(text, limit)


def _turned_out(point: Point) -> bool:
    """How it turned out, not what the user will do next ("It loads now", not "I'll add that test tonight")."""
    return _outcome(point) and not _WILL.match(point.text)


_SETTLED_NOW = re.compile(r"(?i)\b(?:approved|arrived|came through|granted|paid out|went through|(?:they|it|he|she) refunded|"
                          r"(?:they|he|she)(?:'ve|’ve| have|'s| has)? accepted|"
                          r"refunded (?:me|us|the|my)|(?:got|been) refunded)\b")


def _first_sentence(text: str) -> str:
    """The context's first sentence that says something ("Slightly panicking." says too little)."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)
    return next((s for s in sentences if len(s.split()) >= 5), sentences[0])


def _distinct(points: list[Point], count: int) -> list[Point]:
    """The first ``count`` points that each say something new: "Ellie has told them yes to sunday 13th 11am" says
    again what "Sunday (13 December 2026) 11am it is" said."""
    out: list[Point] = []
    seen: set[str] = set()
    for point in points:
        if len(out) >= count:
            break
        words = _said_words(_headline(point).text)
        if out and words and len(words & seen) >= 0.75 * len(words):
            continue
        out.append(point)
        seen |= words
    return out


def _said_words(text: str) -> set[str]:
    """The words a statement says something with: "Sunday (13 December 2026) 11am it is" → sunday, 13, 11am."""
    text = re.sub(r"\b\d{4}\b", " ", text.lower())  # (a date's note says its day again: "Sunday (13 December 2026)")
    words = {re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", w) for w in re.findall(r"[\w£$€'’]+", text)}
    return {w for w in words if (len(w) > 2 or w[:1].isdigit()) and w not in _LITTLE_WORDS}


_LITTLE_WORDS = frozenset("the and for you your our their them they have has had was were are is it its that this "
                          "with from but not all can will just then than been has told yes said says say i've we've "
                          "she he her his him who what when where which there here".split())


def _plain(text: str) -> str:
    """One line without Markdown emphasis: a property is plain text."""
    text = re.sub(r"\s*[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+", "", text)  # (nor emoji: "…的事😣")
    return re.sub(r"\s+", " ", re.sub(r"\*\*(.+?)\*\*|__(.+?)__", r"\1\2", text)).strip()


_UNTITLED = re.compile(r"(?i)^(?:new (?:chat|conversation)|untitled(?: (?:chat|conversation))?|chat|conversation|"
                       r"hi|hello|hey|help|question|test|新(?:的)?(?:对话|聊天)|未命名(?:对话)?|对话|聊天)\W*$")


def name_from_title(title: str, lang: str, texts: list[str]) -> str:
    """The export's own title as a name ("SQLite Database Locked Error" → sqlite-database-locked-error):
    its author (or the app) already said what the conversation is about. A generic title ("New chat")
    or one the conversation never speaks of ("bleep bloop") does not count."""
    title = re.sub(r"\s+", " ", title or "").strip()
    if not title or _UNTITLED.match(title):
        return ""
    said = " ".join(texts).casefold()
    words = [w for w in re.findall(r"\w{3,}", title.casefold()) if not _CJK_RE.match(w)]
    if words and not any(w in said for w in words):
        return ""
    if lang == "en" and len(title.split()) > 6 and (aside := re.fullmatch(r"(.{8,}?)\s+\([^()]{2,40}\)", title)):
        title = aside.group(1)  # "SQLite database is locked (Flask + cron import)": the setting in brackets is an aside
    words = title.split()
    if lang == "en" and len(words) > 6 and (label := re.match(r"[\w.+#-]{1,20}(?: [\w.+#-]{1,20})?: ", title)) and not (
            " " in label.group(0).strip() and re.match(r"(?i)\w+ed\b", title[label.end():])):
        # ("Scam text: entered card details…": what the label did, said of it, keeps it)
        # "React: Maximum update depth exceeded in PlantTable", "Terraform for_each: ACM validation records unknown
        # until apply": the part after the topic's label
        words = words[len(label.group(0).split()):]
    elif lang == "en" and len(words) > 6 and (said := re.match(r"([^:]+?):\s", title)) and 3 <= len(said.group(1).split()) <= 5:
        words = said.group(1).split()  # "Postgres manifest query slow: Seq Scan on bookings": the problem, then its detail
    if lang == "en" and len(words) > 6 and not re.search(r"[.?!]$", title) and (
            head := re.split(r"(?i),\s+|\s+(?:in|for|with|on|after|when|from|using|via|during|while)\s+",
                             " ".join(words))[0]) \
            and 2 <= len(head.split()) <= 5 and not re.match(r"(?i)(?:i|i'm|my|we|our|you|can|could|how|why|what|"
                                                            r"help|please|need)\b", head):
        words = head.split()  # "Rust E0502 borrow error in seed packet prune": what comes before its setting
    if lang == "en" and len(words) > 6:  # a first message used as a title: too long to be one
        return ""
    slug = slugify(" ".join(words[:6]))
    return "" if not slug or slug in _NAME_SUFFIX[lang].values() else slug


def name(focus: list[str], texts: list[str], names: frozenset[str], kinds: Counter[str], lang: str) -> str:
    """The subject in two to five words.

    With a request (``focus``: what was asked and its context), the phrase of the request whose
    words recur most in the conversation; else the most recurrent key phrase. A single word gets
    the next phrase's words, or the dominant kind ("plans", "decision").
    """
    # (What was turned down names nothing: "driving up to Norwich…, not getting the train")
    focus = [re.sub(r"(?i)(?:,\s*|\s+)(?:not|rather than|instead of)\s[^,.;]*", "", f) for f in focus]
    counted = phrase_counts(texts, names)
    # "16th", "3 nights" or "time" names nothing
    found = [p for p in ranked(counted, 6) if not p[:1].isdigit() and p.lower() not in _NO_SUBJECT
             and not _deed(p) and not _FEEL_GOOD.search(p.lower())
             and not set(p.lower().split()) <= _NO_SUBJECT | _NOT_A_TAIL  # ("anyone yet")
             and not re.fullmatch(r"[a-z]{3,}ed", p)  # ("enjoyed": a verb)
             and not _WHEN_WORD.search(p)][:4]  # ("leeds fri 26th": when, not what)
    if any(focus) and lang == "en":  # Chinese phrases need recurrence to be words: the whole conversation
        recurrence = Counter({word: n for word, n in counted[0].items() if " " not in word})
        asked = [p for p in topics(focus, names, k=8) if not p[:1].isdigit()  # "120M tokens" is an amount
                 and p.lower() not in _NO_SUBJECT  # ("back to work": no subject)
                 and not re.fullmatch(r"(?i)(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?|she'll|he'll|they'll|"
                                      r"agreed|decided|decision|done|booked|carried|drives|works", p)
                 and not _deed(p) and not _WHEN_WORD.search(p)]  # ("leaving Kielder": a deed; "leeds fri 26th": when)
        said = " ".join(focus).lower()  # on a tie, what the ask names first ("dog saliva is anti bacterial")
        asked.sort(key=lambda p: said.find(p.lower()) % (len(said) + 1))
        if asked:
            found = sorted(asked, key=lambda p: -sum(1 + recurrence[w] for w in p.lower().split()) *
                           (1 + 0.5 * (len(p.split()) - 1)))
    words = found[0].split()[:4] if found else []
    if len(words) == 1 and not _CJK_RE.search(words[0]) and not any(focus):
        # One recurring word is not a subject; a phrase said twice that holds it is ("video game tournament").
        counts = counted[0]
        top = words[0].lower()
        phrases = [p for p in counts if " " in p and counts[p] > 1 and not p[:1].isdigit()
                   and not _VAGUE.search(p) and p.split()[0] not in _NOT_A_HEAD
                   and not _deed(counted[1][p]) and not _WHEN_WORD.search(p)]
        # (Holding the recurring word, or said three times: a chosen statement is counted twice.)
        phrases = [p for p in phrases if top in p.split()] or [p for p in phrases if counts[p] > 2]
        if phrases:
            best = max(phrases, key=lambda p: (counts[p] * len(p.split()), sum(counts[w] for w in p.split()), p))
            words = counted[1][best].split()[:4]
    if len(words) == 1 and not _CJK_RE.search(words[0]) and len(found) > 1:
        said = " ".join(focus)
        more = found[1].split()[:2]
        # ("the … test is flaky again": a flaky test, not "test-flaky")
        before = len(more) == 1 and re.search(rf"(?i)\b{re.escape(words[0])}\W+(?:is|are|was|were|seems|looks|got|keeps being)"
                                              rf"\s+(?:\w+ly\s+|so\s+|really\s+|still\s+)?{re.escape(more[0])}\b", said)
        words = more + words if before else words + more
    if len(words) < 2 and not (words and _CJK_RE.search(words[0]) and len(words[0]) >= 3):
        top = max(kinds, key=lambda k: (kinds[k], k)) if kinds else "fact"
        words.append(_NAME_SUFFIX[lang][top])
    while len(words) > 2 and re.fullmatch(r"[a-z]{3,}ed", words[-1]):
        words = words[:-1]  # "crumbling infrastructure affected": a name does not end on a verb
    while len(words) > 1 and words[-1].lower() in _NOT_A_TAIL:
        words = words[:-1]  # "wheatsheaf yet": nor on an adverb
        if len(words) == 1 and not _CJK_RE.search(words[0]):
            words.append(_NAME_SUFFIX[lang][max(kinds, key=lambda k: (kinds[k], k)) if kinds else "fact"])
    slug = slugify(" ".join(words))
    if not slug or slug in _NAME_SUFFIX[lang].values():
        return GENERIC_NAMES[lang == "zh"]
    return slug


_WHEN_WORD = re.compile(r"(?i)\b(?:\d{1,2}(?:st|nd|rd|th)|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?)$|"
                        r"\b\d{1,2}(?:st|nd|rd|th)\b")
# A decision that says a choice was made ("Decision made: NightDrive it is!"), before a plan that follows it ("I'll set
# the car to charge 00:30 to 05:30")
_CHOICE_MADE = re.compile(r"(?i)\b(?:it is|decision made|decided|going with|went with|chose|picked|settled on|opted for)\b|"
                          r"^\W*\*\*(?:buying|booking|booked|chosen|going with)\*\*|^\W*(?:final(?: plan)?|summary)\s*:")
_RECAP = re.compile(r"\W*\*\*[A-Z][\w ]{2,20}\*\*\s*:")
GENERIC_NAMES = ("conversation-notes", "对话记录")  # when nothing in a conversation names it


def _deed(phrase: str) -> bool:
    """Something someone did names no subject: "Lou refused", "visited home", "worked hard", "ate yummy food"."""
    return bool(re.fullmatch(r"\S+\s[a-z]{3,}ed|[a-z]{4,}(?<!e)ed", phrase) or _DID.match(phrase + " ")
                or re.fullmatch(r"\S+\s(?:stays|goes|works|looks|comes|says|gets|seems|needs|wants|keeps|moves|sounds)",
                                phrase))  # ("price stays": something said of it)


_STATE_NEWS = {"engaged": "engagement", "married": "wedding", "pregnant": "baby news", "expecting": "baby news",
               "promoted": "promotion", "graduated": "graduation", "retired": "retirement", "eloped": "elopement",
               "approved as foster carers": "fostering", "approved to foster": "fostering",
               "approved to adopt": "adoption", "approved as adopters": "adoption"}
_NEWS_VERB = re.compile(r"(?i)(?:[a-z]+ and i|me and [a-z]+|i|we)(?:'ve|'m|'re| have| am| are)?\s+(?:just\s+|finally\s+|officially\s+|actually\s+)?"
                        r"(?:(?:got|am|'m|are|'re|have been|'ve been)\s+)?(?P<state>" + "|".join(_STATE_NEWS) + r")\b"
                        # "We're moving to Frome": femi-move-to-frome
                        r"|(?:i'?m|i am|we'?re|we are|[a-z]+ and i are)\s+(?:finally\s+|officially\s+)?moving\s+(?:to|into)\s+"
                        r"(?P<place>(?-i:[A-Z])[\w'’-]+(?:\s(?-i:[A-Z])[\w'’-]+)?|[a-z][\w'’-]+(?:\s[a-z][\w'’-]+)?(?=\s*[.!?]|$))"
                        r"|(?:i|we)(?:'ve| have)?\s+(?:just\s+|finally\s+|officially\s+|actually\s+)?"
                        r"(?:got (?:accepted|picked|chosen|selected|offered) (?:for|into|to|onto|on)|got into|got|passed|won|"
                        r"ran|completed|finished|"
                        r"bought|adopted|opened|launched|published|signed with|exchanged)\s+"
                        r"(?:(?:the|a|an|my|our|first|new|own)\s+)*(?P<thing>[a-z][\w'’&-]*(?:\s+[a-z][\w'’&-]*){0,2}?)"
                        r"(?=\s*(?:[.!?,;:(]|$|\s(?:at|on|in|for|from|with|last|this|yesterday|today|after|and|so|-|i|we|"
                        r"you|they|he|she)\b))")


_MOVED_TO_PLACE = re.compile(r"(?i)(?:(?:i|we)(?:'ve| have)?\s+)?(?:just\s+|finally\s+)?moved\s+(?:in(?:to)?\s+(?:the\s+|a\s+|"
                             r"my\s+|our\s+)?(?:new\s+)?(?:flat|house|place|home|apartment)\s+)?(?:in|to)\s+"
                             r"(?P<place>[A-Za-z][\w'’-]+)")


def news_name(point: Point, told: list[Point] | None = None) -> str:
    """A catch-up led by big news is named by whose news and what: "We got engaged!!" (Beatriz) is
    beatriz-engagement, "I got the job!" (Arjun) arjun-new-job, "I passed my driving test!" elif-driving-test. (``told``:
    what else was said, where "We're moving to Frome" names the home "we exchanged contracts!!" is about.)"""
    text = _opened(point.text)
    if _big_news(point, True) and point.who and (moved := _MOVED_TO_PLACE.match(text)) and \
            moved.group("place").lower() not in ("the", "a", "my", "our", "with"):
        return slugify(f"{point.who} move to {moved.group('place')}")  # ("Moved into the new flat in glasgow")
    born = _CHILD_BORN.match(text)
    if born and point.who:  # ("My sister Leah had a little girl": maya-new-niece)
        kin, child = born.group("kin").lower(), born.group("child").lower()
        thing = ("niece" if child == "girl" else "nephew" if child == "boy" else "baby") \
            if kin in ("sister", "brother") else "grandchild" if kin in ("daughter", "son") else "baby"
        return slugify(f"{point.who} new {thing}")
    if not (_big_news(point, True) and point.who and (m := _NEWS_VERB.match(text))):
        return ""
    thing = _STATE_NEWS[m.group("state").lower()] if m.group("state") else \
        f"move to {m.group('place')}" if m.group("place") else m.group("thing")
    # ("we exchanged contracts this morning!! We're moving to Frome": femi-move-to-frome)
    said = " ".join([text] + [p.text for p in told or [] if p.who == point.who])  # (what else they told)
    if (not thing or thing.lower() in ("contracts", "keys", "house", "flat")) and \
            (move := re.search(r"\bmoving (?:to|into) ([A-Z][\w'’-]+(?:\s[A-Z][\w'’-]+)?)", said)):
        thing = f"move to {move.group(1)}"
    if _deed(thing) or thing.lower() in {"it", "them", "one", "that", "this", "there", "back", "home", "here", "her", "him",
                                         "some", "some new"} or thing.lower().startswith(("some ", "her ", "him ")):
        thing = ""  # ("I got accepted…" names no "accepted")
    # ("I got the job with the British Antarctic Survey": tariq-british-antarctic-survey-job; "We got the keys": new home)
    where = re.match(r"\s+(?:with|at|from)\s+(?:the\s+)?((?:[A-Z][\w&'’-]*\s*){1,3})", text[m.end():])
    # ("I got a place on the midwifery degree at Leeds!!": rosa-midwifery-degree; "on the primary PGCE": primary-pgce)
    course = re.match(r"(?i)\s+(?:on|at|in)\s+(?:the|a)\s+((?:[\w-]+\s+){0,2}(?:degree|course|programme|program|scheme|apprenticeship|"
                      r"masters|pgce|msc|mba|phd|bsc))\b",
                      text[m.end():])
    if thing.lower() == "place" and course:
        thing = course.group(1)
    elif thing.lower() in ("job", "offer", "postdoc", "place") and where:
        thing = f"{where.group(1).strip()} {thing}"
    else:
        thing = {"job": "new job", "flat": "new flat", "house": "new house", "keys": "new home", "contracts": "new home",
                 "dog": "new dog", "puppy": "new puppy", "cat": "new cat", "kitten": "new kitten"}.get(thing.lower(), thing)
    return slugify(f"{point.who} {thing}") if thing else ""


# ---- pieces ------------------------------------------------------------------------

def highlights(points: list[Point], count: int, people: bool = False) -> list[Point]:
    """The statements most worth a first glance: decisions, then plans, then the weightiest facts.

    Among ``people`` (named speakers chatting), decisions first, then each speaker's news about
    themselves ("I adopted…" over "We should…"), one speaker at a time.
    """
    if count <= 0:
        return []
    # (News the other asked about, "“The one in Easton?” — That's the one.", is what the talk dwelt on.)
    dwelt: dict[str, int] = {}
    converted = []
    for p in points:
        q = replace(p, text=_plain_math(_got(p.text) if people else p.text))
        if people and _big_news(q, True) and (opened := _opened(q.text)) != q.text:
            q = replace(q, text=opened[:1].upper() + opened[1:])  # ("“Honestly?” — so... we adopted a dog!": the news)
        dwelt[q.text] = p.text.count(" “")
        converted.append(q)
    points = converted
    fit = [p for p in points if (_substantial(p) or _outcome(p) or _big_news(p, people))
           and (p.kind != "procedure" or _advice(p) and "`" in p.text)
           and not p.text.startswith(("`", "Also considered: ", "也考虑过："))  # (nor options not taken)
           and not p.text.rstrip().endswith(("?", "？"))  # a question is not what happened
           and not re.search(r"\\(?:int|frac|sum|\(|\[)|\$\$", p.text)  # nor is a formula, in one line of prose
           and not _SHOWING.match(p.text)  # nor a photo shown ("Check out this photo of…")
           and not _WORKING.search(p.text)  # nor a step of arithmetic ("€89 × (1 − 0.40) + €3 ≈ €56")
           and not p.text.lstrip().startswith("|")  # nor a table's row, away from its header
           and not re.match(r"(?i)\W*(?:(?:re|subject)\s*:|dear\b)", p.text)  # nor a letter's heading ("Re: Parking…")
           and not re.match(r"\*\*[^*]{1,40}\(\S*\d[^)]*\)\.?\*\*", p.text)]  # nor an item's label ("**Repainting (£200).**")
    if not people:  # what was decided, then the fix or advice given, then how it turned out
        # (A sentence that leans on one before it, "Its decision binds the operator.", heads nothing.)
        # (What the advice comes to, "That's a clear result: … means condensation", before the advice itself; a fix
        # named as such, "The fix is to give pandas the exact format", is what it comes to already.)
        named_fix = any(re.match(r"(?i)(?:\*\*)?the (?:\w+ )?(?:fix|solution)\b", p.text) for p in fit)
        # (Of a chat's decisions, the one that settles it all: "那就这么定：主卧装空调…" over "那就改成下周三上午吧".)
        fit = sorted(fit, key=lambda p: (0 if p.kind == "decision" and _SETTLES.search(p.text) and len(re.sub(
            r"[\W_]|就这么定了?|这么定了?|定了|同意了?|也|都|那就|吧", "", p.text)) >= 8 else
                                         # (of those, the last made: "Final: college class £295 + italki…")
                                         0.4 - p.at / 1e6 if p.kind == "decision" and _CHOICE_MADE.search(p.text)
                                         and not re.search(r"[\"“]", p.text) else  # (not a reply drafted: "Something like: “…”")
                                         0.5 if p.kind == "decision" else 1 if _problem(p) else
                                         1.5 if _VERDICT.match(p.text.lstrip("*")) and not named_fix else
                                         4.5 if _WARNING.search(p.text) else 2 if _advice(p)
                                         and not re.match(r"(?i)\W*(?:if|when|should|in case)\b", p.text)  # (what to do
                                         # one day, "If the car sits for a week or more…", is no summary either)
                                         else 3 if _outcome(p) else 4, bool(re.match(r"(?i)(?:\*\*)?(?:its|it|this|that|these|"
                                                                                     r"those|they|their|then|and|also)\b", p.text))
                                         # ("That did it: INV-2026-041 now comes out at £1,291.36" says what "that" did)
                                         and not _DID_IT.match(p.text),
                                         # (a recap's lines in the order they were said: "**Buying**: …" first)
                                         p.at if p.kind == "decision" and _RECAP.match(p.text) else 0))
    else:
        fit = [p for p in fit if not _PRONOUN_START.match(p.text)]
        # (A plan called off is news whoever's it was: "Work do's cancelled. The Botanist had a kitchen fire…")
        off = [p for p in fit if re.match(r"(?i)[^.!?]{0,40}\b(?:is |are |was |'s |’s )?(?:cancell?ed|called off)\b", p.text)]
        own = [p for p in fit if p.kind == "decision" or _FIRST_PERSON.match(p.text) or _OWN_NEWS.search(p.text)
               or _DROPPED_I.match(p.text) or re.match(r"(?i)we\b", p.text) or p in off or _big_news(p, True)]
        # A plan with its date ("Viewing is tomorrow (10 July 2026) at 17:30") is news whoever's it is.
        dated = [p for p in fit if (p.kind == "state" and _DATED.search(p.text) or _booked_for_a_day(p))
                 and not _PROMISE.search(p.text)]
        # (News about "it" says what only beside the sentence that names it: "I first watched it 3 years ago".)
        # (A promise with its day is news too: "I'll pick up the van the day after tomorrow (20 November 2026)".)
        news = [p for p in own if p.kind == "decision" or (_EVENT_RE.search(p.text) or _DROPPED_I.match(p.text) or _big_news(p, True)
                                                            or _PROMISE.search(p.text) and _DATED.search(p.text))
                and (not re.search(r"\b(?:it|them)\b", p.text) or _big_news(p, True))]  # ("i got head of science!
        # They announced it on friday": the news names its thing first)
        news = _unique(news + dated + off)
        # News that happened and names something ("I got the job at Greenfield") before a promise ("I will ask").
        # (And one that says whom it is about before one that says "him": "I pick him up on Saturday".)
        # (And one that stands alone before one that leans on what was said: "I'm working from home that day anyway".)
        # (And news before a memory of long ago: "Growing up, I saw…".)
        # (Big news in the order it was told: a friend opens with the biggest, "We got engaged!!".)
        # (A vote's result, "Decision (5 to 0): …", before what was decided on the way to it.)
        # (Life-changing news leads even a decision: "I got the job with…" before "Agreed: drinks, this thursday…")
        # ("Cheese it is.", what the dog gets as a treat, is settled, but says what only beside its question.)
        news.sort(key=lambda p: (0 if _life_changing(p) else 1 if _big_news(p, True) and not p.text.startswith(
                                     ("Decision (", "Carried")) else 2 if p.kind == "decision" and not _BARE_CHOICE.match(
                                     p.text) else 3,
                                 not p.text.startswith(("Decision (", "Carried")),
                                 not _big_news(p, True), not _life_changing(p),
                                 # (and votes in the order they were taken)
                                 p.at if _big_news(p, True) or p.text.startswith(("Decision (", "Carried")) else 0,
                                 bool(re.search(r"(?i)\b(?:that day|anyway|growing up|as a kid|"
                                                                      r"when i was (?:a|little|young)|used to)\b", p.text)),
                                 bool(_PROMISE.search(p.text)),
                                 # (what is booked for a day, "Mum's booked them on the 11:20 tomorrow (11 December)",
                                 # before an aside, "took 3 hours and i found my old skateboard")
                                 not _booked_for_a_day(p),
                                 bool(re.search(r"\b(?:him|her|them|he|she|it)\b", p.text)), not _NAMED.search(p.text),
                                 -min(dwelt.get(p.text, 0), 3)))
        # ("Frozen it is", of raspberries said before it, is settled, but heads nothing: it needs its question. "Mine it
        # is" says where: at the speaker's.)
        fit = [p for p in _unique(news + own + fit) if not _BARE_CHOICE.match(p.text)
               or re.match(r"(?i)\W*(?:mine|ours|yours|his|hers|theirs)\b", p.text)]
        # (Away from what it refers to, "I first watched it around 3 years ago" says nothing: a glance needs its thing.)
        # (One that names its thing first, "finished my first full screenplay and printed it", is fine.)
        named = [p for p in fit if p.kind == "decision" or not _UNNAMED_IT.match(p.text)
                 or _booked_for_a_day(p)]  # ("Mum's booked them on the 11:20 tomorrow")
        fit = named or fit
        # (One piece each, but an undated promise, "We'll leave at 8 then", takes no one's turn.)
        spread = [p for i, p in enumerate(fit) if p.kind == "decision" or p.who not in {q.who for q in fit[:i]}
                  and not (_PROMISE.search(p.text) and not _DATED.search(p.text) and not _CLOCK_AT.search(p.text))]
        fit = spread + [p for p in fit if p not in spread]
    return fit[:count]


_BOOKED_NEWS = re.compile(r"(?i)\b(?:booked|confirmed|sorted|bought|got (?:the )?tickets|reserved)\b")


def _booked_for_a_day(point: Point) -> bool:
    """What is booked for a day: "Mum's booked them on the 11:20 tomorrow (11 December 2026)"."""
    return bool(_DATED.search(point.text) and _BOOKED_NEWS.search(point.text))
_BARE_CHOICE = re.compile(r"(?i)\W*(?!(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|tomorrow\b|tonight\b)[a-z]+(?:\s[a-z]+)?"
                          r"\s+it\s+is\W*$")
# The safety net every answer of its kind gives, "Red flags, stop and act straight away: if you smell gas…": true,
# and the same for everyone, so no summary of this conversation.
_WARNING = re.compile(r"(?i)\b(?:red flags?|warning signs?|seek (?:urgent|immediate|emergency) (?:medical )?(?:help|care|"
                      r"attention)|call (?:999|911|112|the (?:national )?gas emergency)|go to a&e|if you smell gas|"
                      r"not (?:a substitute for|legal|medical|financial) advice|i'?m not a (?:lawyer|doctor|"
                      r"financial adviser))")
_DID_IT = re.compile(r"(?i)(?:that|this|it)(?:'s| is| was)? (?:did it|did the trick|worked|fixed it|solved it|sorted it)\b")
_SETTLES = re.compile(r"这么定|就这么|决定了|最后定|最终")

# "it"/"them" with no thing named before it in the sentence: no determiner and a noun, no name after the first word.
_UNNAMED_IT = re.compile(r"^[\w'’,-]+\s+(?:(?!(?i:the|a|an|my|our|their|his|her|your|this|that|these|those)\s)"
                         r"[a-z0-9][\w'’,-]*\s+)*?(?i:it|them|him|her(?=\s+(?:in|on|at|for|from|to|last|this|up|back|"
                         r"home|off|out|yesterday|today)\b|[.,!]|$))\b(?!['’]s)")  # ("I bought her in October": the boat)


_CLOCK_AT = re.compile(r"(?i)\b(?:on|at|by)\s+\d{1,2}(?::\d{2})?\s?(?:am|pm)\b")


@lru_cache(maxsize=8192)
def _life_changing(point: Point) -> bool:
    """Big news of the life-changing kind: a job, a place at university, an engagement, a move, a baby."""
    return _big_news(point, True) and bool(_MAJOR.search(_opened(point.text)))


@lru_cache(maxsize=8192)
def _opened(text: str) -> str:
    """A statement without the word it opens on, or the question it answers: "But… i passed my driving test!!" →
    "i passed my driving test!!"; "“After five years?” — Yep. I got into the MSc." → "I got into the MSc."."""
    text = re.sub(r"(?i)^“[^”]*” — (?:(?:yes|yep|yeah|yup|nope|no|it did|i did|we did|she did|he did)\b[.!,]*)?\s*", "",
                  text)  # (a question it answers)
    text = re.sub(r"(?i)^(?:(?:big|good|great|some|other|exciting|real|actual|proper|smaller|small|minor) news)"
                  r"(?: though| then| but)?\W+", "",
                  text)  # ("Big news, we exchanged…", "real news though: i got head of science!")
    text = re.sub(r"(?i)^[^:.!?“”]{0,40}:\s+(?=(?:i|we)\b)", "", text)  # ("Mine is much smaller but: I PASSED…")
    return re.sub(r"(?i)^(?:but|and|so|oh|well|also|ok(?:ay)?)\W+", "", text)


@lru_cache(maxsize=8192)
def _big_news(point: Point, people: bool) -> bool:
    """Between people, news said in a few words and an exclamation: "We got engaged!!", "I passed!", "I ran a half
    marathon on Sunday!! The Cardiff Bay Winter Half." (the exclamation ends its first sentence)."""
    # (Its first sentence ends on the exclamation: "…at St. Mary's!! I start on the 1st" is news, "Lou's fine. We won!"
    # is not this news.)
    # (Or news of the life-changing kind, however calmly told: "I got the job with the British Antarctic Survey.")
    text = _opened(point.text)
    if not people or not _LIFE_EVENT.match(text):
        return False
    sentence = re.sub(r"\b(St|Dr|Mr|Mrs|Ms|Mt|Jr|Sr)\.", r"\1", text)
    first = sentence[:sentence.find("!") + 1] if "!" in sentence else ""
    if not first and (shout := _SHOUTING.match(sentence)):  # ("I PASSED MY DRIVING TEST.": said at the top of the voice)
        first = shout.group(0) + "!"
    if first and 2 <= len(first.split()) <= 25 and not re.search(r"[.?]\s+[A-Z]", first):
        return True
    return bool(_CALM_MAJOR.match(sentence))


# Big news of the life-changing kind comes before the rest ("I got the job!" before "I bought a van!").
_MAJOR = re.compile(r"(?i)^[^.!?]*\b(?:had (?:a|her|their) (?:little |baby )?(?:girl|boy)|job|postdoc|phd|promot\w*|"
                    r"engaged|married|wedding|pregnant|expecting|baby|"
                    r"graduat\w*|degree|offer|moving|moved|house|flat|retir\w*|twins|born|msc|masters|university|"
                    r"marathon|contracts|head of|kidneys?|donor|transplant|surgery|diagnos\w*|cancer|foster\w*|adopt\w*|"
                    r"driving test)\b")
# A child born to one's kin: "My sister Leah had a little girl" (a niece), "our son had a baby boy".
_BORN = (r"(?:my|our)\s+(?P<kin>sister|brother|cousin|daughter|son|best friend)\s+(?:[A-Z][a-z]+\s+)?(?:just\s+)?had\s+"
         r"(?:a|her|their)\s+(?:little\s+|baby\s+)?(?P<child>girl|boy|baby)\b")
_CHILD_BORN = re.compile(r"(?i)" + _BORN)
# Told calmly, the life change follows its verb closely: "I got the job with…", "we got engaged", "I got promoted".
_CALM_MAJOR = re.compile(r"(?i)" + _BORN + r"|"
                         r"(?:[a-z]+ and i|me and [a-z]+|i|we)(?:'ve| have)?\s+(?:just\s+|finally\s+|officially\s+|"
                         r"actually\s+)?(?:got|passed|bought|became|am|'m|are|'re)\s+(?:(?:the|a|an|my|our|new|first|dream)\s+){0,3}"
                         r"(?:job|postdoc|phd|place|offer|promotion|promoted|engaged|married|pregnant|house|flat|keys|"
                         r"contracts|approved as (?:foster|adopt)\w*)\b"
                         r"|(?i:(?:i'?m|i am|we'?re|we are)\s+(?:now\s+|finally\s+|officially\s+)?(?:engaged|married|"
                         r"pregnant|expecting)\b)|(?i:(?:i'?m|i am|we'?re|we are|[a-z]+ and i are|me and [a-z]+ are)\s+moving\s+(?:to|into|house)\b)"
                         r"|(?i:(?:(?:i|we)(?:'ve| have)?\s+)?(?:just\s+|finally\s+)?moved\s+(?:in(?:to)?|to)\s+(?:the\s+|a\s+|"
                         r"my\s+|our\s+)?(?:new\s+)?(?:flat|house|place|home|apartment)\b)"
                         r"|(?i:(?:i'?m|i am)\s+(?:giving|donating)\b[^.!?]{0,40}\b(?:kidneys?|liver|bone marrow|organ)\b)"
                         r"|(?i:(?:i|we)\s+(?:just\s+|finally\s+)?got into\s+(?:the\s+|my\s+)?(?:msc|ma|mba|phd|masters|"
                         r"master's|uni|university|college|course|programme|program|school)\b)")
_LIFE_EVENT = re.compile(r"(?i)" + _BORN + r"|"  # a niece born
                         r"(?:just\s+|finally\s+)?moved\s+(?:in(?:to)?|to)\s+(?:the\s+|a\s+|my\s+|our\s+)?(?:new\s+)?"
                         r"(?:flat|house|place|home|apartment)\b|"  # ("Moved into the new flat in glasgow on the 14th")
                         r"(?:[a-z]+ and i|me and [a-z]+)\s+are\s+(?:moving|engaged|getting married|expecting)\b|"
                         r"(?:(?:[a-z]+ and i|me and [a-z]+)(?=\s+(?:just\s+|finally\s+|officially\s+)?got\b)|i|we)"
                         r"(?:'ve| have)?\s+(?:just\s+|finally\s+|officially\s+|actually\s+)?(?:got|passed|won|bought|"
                         r"exchanged|ran|completed|climbed|swam|cycled|"
                         r"adopted|graduated|moved|quit|finished|started|booked|became|signed|sold|opened|launched|"
                         r"published|proposed|eloped)\b|(?:i'?m|i am|we'?re|we are)\s+(?:now\s+|finally\s+|officially\s+)?"
                         r"(?:engaged|pregnant|married|expecting|moving|an? (?:auntie|aunt|uncle|dad|mum|mom|homeowners?|"
                         r"grandma|grandpa|godmother|godfather))\b"
                         # ("i'm a match. i'm giving my brother one of my kidneys")
                         r"|(?:i'?m|i am|we'?re|we are)\s+(?:giving|donating)\b[^.!?]{0,40}\b(?:kidneys?|liver|bone marrow|"
                         r"organ)\b")


def _plain_math(text: str) -> str:
    """Inline math a sentence can say in plain text: "\\( \\frac{1}{3} \\)" → "1/3", "\\( x \\)" → "x"."""
    def plain(m: re.Match[str]) -> str:
        inner = re.sub(r"\\frac\{([^{}]+)\}\{([^{}]+)\}", r"\1/\2", m.group(1).strip())
        return m.group(0) if "\\" in inner or "{" in inner else inner
    return re.sub(r"\\\((.+?)\\\)", plain, text)


_CLAUSE = re.compile(r"(?<![)）\d])\s+[-–—]\s+(?!(?:mon|tue|wed|thu|fri|sat|sun)\w*\s+\d)|;\s*|,\s+(?:but|and|so|which|because|'cause|since|maybe|if|though|hope)\s+"
                     r"|\s+(?:because|'cause)\s+")


_AGREED = re.compile(r"(?i)“(?:so,? |ok(?:ay)?,? )?(?:can|could|shall|should) we ([^”?]{8,})\?*” — "
                     r"(?:yes|yeah|yep|yup|sure|definitely|of course)\b")


def _headline(point: Point) -> Point:
    """A chat's statement as a headline: its first clause, when that says enough on its own. (A yes with its
    question, "“Did you get the flat?” — Yes! Moving on the 14th", heads with what follows the yes.)"""
    if settled := re.match(r"“([^”?]{2,25})\?” — ([^.!?]{1,30}) it is\W*$", point.text):  # “Price?” — £14 it is.
        return Point(point.who, f"{settled.group(1)}: {settled.group(2)}.", point.kind, point.role)
    if (settled := re.match(r"(?i)(?:ok(?:ay)?,?\s+|right,?\s+|so\s+)?(.{2,60}?)\s+it is(?: then)?(?:\W*$|[.!]+\s+(.+))",
                            point.text)) and \
            not re.match(r"(?i)(?:what|that|this|it|there|here|so|of course|yes|yeah|yep|sure|no|because|maybe)\b",
                         settled.group(1)):  # "Sunday 11am it is"; "Sunday 24th it is then. Earlier though, 6pm…"
        return Point(point.who, f"Agreed: {settled.group(1)}." + (f" {settled.group(2)}" if settled.group(2) else ""),
                     "decision", point.role)
    if agreed := _AGREED.match(point.text):  # "“Can we meet Monday…?” — Yes, Monday works.": Sam agreed to meet Monday…
        return Point(point.who, f"I agreed to {agreed.group(1)}.", "state", point.role)
    if (answered := re.match(r"“[^”]*” — [^.!?]{1,40}[.!] (.+)$", point.text)) and len(answered.group(1).split()) >= 3:
        point = Point(point.who, answered.group(1), point.kind, point.role, point.answered)
    if not point.text.startswith("“") and " “" in point.text:  # up to the follow-up joined to it
        point = Point(point.who, point.text.split(" “", 1)[0], point.kind, point.role, point.answered)
    head = _CLAUSE.split(point.text, maxsplit=1)[0]
    if head == point.text or len(re.sub(r"[(（][^)）]*[)）]", "", head).split()) < 4:
        return point
    # ("I signed with a new team - excited for the season! The Minnesota Wolves!": the name told after it goes with it)
    named = re.search(r"[.!?]\s+((?:The |A |An )?[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*){0,4})!*$", point.text)
    if named and named.group(1) not in head and re.search(r"\b(?:a|an|the|new|my|our)\s+\w+$", head.rstrip(" ,:-–—")):
        fragment = re.sub(r"^(The|A|An) ", lambda m: m.group(1).lower() + " ", named.group(1))
        return Point(point.who, f"{head.rstrip(' ,:-–—')}, {fragment}.", point.kind, point.role)
    return Point(point.who, head.rstrip(",:") + ".", point.kind, point.role)


_DID_YOU = re.compile(r"“(?:so,? |and |oh,? )?did you (\w+) ([^”?]{2,60})\?*” — (?:yes|yeah|yep|yup|i did)\b[!.,]*\s*(.*)$",
                      re.I)
_PAST = {"get": "got", "find": "found", "buy": "bought", "win": "won", "make": "made", "take": "took", "go": "went",
         "do": "did", "hear": "heard", "see": "saw", "sell": "sold", "meet": "met", "have": "had", "give": "gave",
         "run": "ran", "leave": "left", "send": "sent", "tell": "told", "write": "wrote", "pay": "paid"}


def _got(text: str) -> str:
    """A yes to "Did you get the job?" is news of the answerer's own: "I got the job. Start on the 3rd."."""
    if not (m := _DID_YOU.match(text)):
        return text
    verb = m.group(1).lower()
    past = _PAST.get(verb) or (verb + "d" if verb.endswith("e") else verb + "ed")
    rest = re.split(r"\s+“", m.group(3))[0].strip()  # (up to the next question joined to it)
    return f"I {past} {m.group(2).strip()}" + (f". {rest}" if rest else ".")


def _advice(point: Point) -> bool:
    """The assistant's fix or recommendation ("Switch the database to WAL mode.", "**Use a lock.**"), or what
    either speaker says it comes to ("Basically: solar yes, battery no for now")."""
    fix = re.match(r"(?i)\*\*|(?:the (?:\w+ )?(?:fix|cause|problem|solution)|switch|replace|upgrade|downgrade|enable|"
                   r"disable)\b|fix\s*:", point.text)
    optional = re.match(r"(?i)\W*(?:optional|bonus|also|tip|side note)\b", point.text)  # ("Optional: make it loud")
    return bool(_VERDICT.match(point.text)) or point.role == "assistant" and bool(fix) and not optional


def _problem(point: Point) -> bool:
    """The user's own problem, said in the present: "My flask app keeps throwing…"."""
    return point.role == "user" and point.kind == "fact" and bool(_PROBLEM.match(point.text))


_WILL = re.compile(r"(?i)i(?:'ll| will|'m going to| am going to)\b")


def _outcome(point: Point) -> bool:
    """The user saying how it turned out: "zero errors", "that fixed it", "went from 18,412 rows to 15,977". (Before
    any answer, "there's no error in the mail" is the problem.)"""
    # (Or what they will do now, with its day: "I'll ring Worcester on Monday (30 November 2026) about the guarantee".)
    if re.search(r"(?i)\bbut\b", point.text):
        return False  # ("the tagline error is gone but now I get a different one": a new problem)
    if re.match(r"(?=[^:]*(?:[\"“]|[A-Z]\w*\s+(?!I\b)[A-Z]))[\w\s\"'“”&.-]{3,40}:\s", point.text):
        return False  # (an option's specs, 'Lumen Energy "Fix & Go 12": fixed for 12 months…', is no outcome)
    return point.role == "user" and point.answered and (any(_OUTCOME.search(said) for said in re.split(
        r"(?<=[.!?])\s+", point.text)) or bool(
        re.match(r"(?i)i(?:'ll| will|'m \w+ing| am \w+ing)\b", point.text)) and bool(_DATED.search(point.text)))


_NO_SUBJECT = frozenset("time times thing things way ways lot lots day days people stuff week weeks year years "
                        "today tonight moment bit back work help ugh argh meh hmm ooh oh ah wow yay fine ok okay yeah "
                        "yes nope yep lol haha anyone someone everyone anything something everything nothing nobody".split())
# ("Fine fine i'm brainstorming", "ugh the … test", "anyone": no subject)
_NOT_A_TAIL = frozenset("yet though anyway already still again too ever even just now then".split())
_NOT_A_HEAD = frozenset("yet still interesting considering really hard good great so just even also very pretty "
                        "best nice".split())  # "yet stayed optimistic" is no subject
# Words that say how life felt, not what it was about: "lasting memories", "finding silver linings", "people smile".
_FEEL_GOOD = re.compile(r"\b(?:memor(?:y|ies)|difference|silver linings?|tough times?|hard times?|worries|smiles?|breeze|"
                        r"vibes?|comfy|successful|bright|another|notes?|brings?|sharing ideas|life|lives|ups and downs|"
                        r"yummy|special|awesome|amazing|wonderful|great|fun|cool|nice|lovely|tough|hard|joy|carefree)\b")
_VAGUE = re.compile(r"\b(?:positive|impact|journey|passion|happiness|joy|strength|moments?|hard work|dedication|"
                    r"cute|pics?|photos?|pictures?|amazing|awesome|feel|feels|feeling)\b")
# A sentence that starts on a verb: a word other than a determiner, a pronoun or a name, then its object.
_BARE_VERB = re.compile(r"^(?!(?:the|a|an|my|our|this|that|these|those|it|we|i|you|they|he|she|there|here|"
                        r"decided|decision|on|in|at|for|with|by|from|to|if|when|after|before|since|as|of)\b)[A-Za-z][a-z]+ (?:the|a|an|my|our|it|them|with|to|for|on|in|up)\b",
                        re.I)
_DATED = re.compile(r"[(（](?:around |weekend of |week of )?\d{1,2} [A-Z][a-z]+ \d{4}[)）]|[(（]\d{4}-\d{2}-\d{2}[)）]")


def advises(text: str) -> bool:
    """Said as an instruction ("Switch to 1:2:2 and feed every 12 hours."): advice, when the assistant says it."""
    return bool(_BARE_VERB.match(text)) or bool(re.match(r"(?i)(?:switch|use|try|move|go)\b", text)) or \
        bool(_ADVISING.match(text)) and not re.match(r"(?i)you\b", text)


_OWN_NEWS = re.compile(r"\bI(?:'m|'ve|'ll| am| have| will| was)?\b")


def _unique(points: list[Point]) -> list[Point]:
    return list(dict.fromkeys(points))


def _substantial(point: Point) -> bool:
    words = re.sub(r"[(（][^)）]*[)）]", "", point.text).split()  # dates in brackets are not substance
    # (A decision says enough in a few words: "Going for the Yaris.")
    return len(words) >= (3 if point.kind == "decision" else 5) or \
        len(_CJK_RE.findall(point.text)) >= (4 if point.kind == "decision" else 10)  # ("我们决定报围棋了！")


_ZH_KIN_WORDS = {"爸妈": "父母", "爸": "父亲", "妈": "母亲", "哥": "哥哥", "姐": "姐姐", "弟": "弟弟", "妹": "妹妹", "老公": "丈夫",
                 "老婆": "妻子", "爸爸": "父亲", "妈妈": "母亲", "儿子": "儿子", "女儿": "女儿"}
_ZH_KIN = re.compile(r"我(爸妈|爸爸|妈妈|老公|老婆|儿子|女儿|爸|妈|哥|姐|弟|妹)(?![们])")


def _ask(request: str, asker: str, lang: str, task: bool) -> str:
    text = _clip(request.strip(), 180).rstrip(":：")
    who = asker or ("用户" if lang == "zh" else "The user")
    if lang == "zh":
        if m := re.match(r"(?:我)?想(?:请你|让你|麻烦你)(?:帮我|帮忙)?", text):  # "想请你帮我参谋一下…": 用户请助手帮忙参谋一下…
            rest = _ZH_KIN.sub(lambda k: "用户的" + _ZH_KIN_WORDS[k.group(1)], text[m.end():])
            return f"{who}请助手帮忙{rest.rstrip('。.！!')}。"
        if task or re.search(r"[？?吗呢]$|^(?:请|帮我|帮忙|能不能|能否|可以帮|麻烦|给我)", text):
            return f"{who}{'的任务' if task else '问'}：{text}"
        return text
    lowered = text if re.match(r"[A-Z][A-Z0-9_]", text) else text[:1].lower() + text[1:]  # ("GET /api/…" keeps case)
    # "I'm trying to get organised, can you recommend…": the lead-in is context, the ask is the rest.
    text = re.sub(r"(?i)^[^?]{0,120}?,\s*(?=(?:can|could|would|will) you\b)", "", text)
    if m := re.match(r"(?i)^(?:can|could|would|will) you (?:please )?help me (.+?)\??$", text):
        return third_person(f"{who} asked for help {'' if m.group(1).startswith(('with ', 'on ', 'for ')) else 'to '}{m.group(1)}", who)
    if m := re.match(r"(?i)^(?:can|could|would|will) you (?:please )?(.+?)\??$", text):
        return third_person(f"{who} asked the assistant to {m.group(1)}", who)
    if m := re.match(r"(?i)^how (?:do|can|should|would|could|might) (?:i|we|you|one) (.+?)\??$", text):
        return third_person(f"{who} asked how to {m.group(1)}", who)
    if m := re.match(r"(?i)^(?:please )?(?:tell me|explain|teach me) (about|how|why|what|whether) (.+?)[.?!]*$", text):
        return f"{who} asked {m.group(1)} {m.group(2)}"
    if text.rstrip().endswith("?"):  # "What's wrong?" says nothing the context does not
        return f"{who} asked: “{text}”" if len(re.findall(r"[A-Za-z]{3,}", text)) >= 4 else ""
    if task and _CARRY_ON.match(text):
        return ""  # ("continue implementation": the work done says what the session was)
    if task:
        plain = re.match(r"[a-z]+\b(?![_.])(?!\s+\S*[._/]\w)", text)  # "mix phx.server …": a command keeps its case
        return "Task: " + (text[:1].upper() + text[1:] if plain else text)
    if _PROBLEM.match(text) and not _FIRST_PERSON.match(text):  # "`cargo build` fails and I don't get why"
        return _as_note(Point(who, text, "fact"), lang, False)
    if _FIRST_PERSON.match(text):  # "… was wondering if you could recommend" → "if the assistant could"
        text = re.sub(r"(?i)\b(?:if|whether) you (could|can|would|might)\b", r"if the assistant \1", text)
        return _as_note(Point(who, text, "fact"), lang, False)
    if m := re.match(r"(?i)^(?:please\s+|pls\s+)?help[,!:]?\s+((?:my|our)\s.+?)[.?!]*$", text):
        return third_person(f"{who} asked for help: {m.group(1)}", who)  # "help my washing machine won't drain"
    if m := re.match(r"(?i)^(?:please\s+)?help me (.+?)[.?!]*$", text):  # "Help me plan a long weekend for me and…"
        return third_person(f"{who} asked for help {'' if m.group(1).startswith(('with ', 'on ', 'for ')) else 'to '}{m.group(1)}", who)
    if not re.match(r"(?i)^(?:the|a|an|this|that|it|there|my|our|we|you|he|she|they)\b", text):
        return f"{who} asked to " + re.sub(r"(?i)^please\s+", "", lowered)
    return f"{who} asked about: {text}"


_CARRY_ON = re.compile(r"(?i)\W*(?:ok(?:ay)?[,\s]+|yes[,\s]+|great[,\s]+|please\s+)*(?:continue|carry on|keep going|go on|go ahead|"
                       r"proceed|resume)(?:\s+(?:with\s+)?(?:the\s+)?(?:implementation|implementing|work(?:ing)?|task|plan|"
                       r"next (?:step|task)|it|please))?\W*$")
_SHOUTING = re.compile(r"\b[A-Z]+(?:['’][A-Z]+)?(?:[\s,]+[A-Z]+(?:['’][A-Z]+)?){2,}\b")  # three words or more in capitals


def _as_note(point: Point, lang: str, named: bool, other: str = "", after: str = "") -> str:
    """A statement as a note: in the third person, its speaker named once, then "they".

    Between two people, "you" is the ``other`` one ("grateful for your help" → "for Gina's help"); ``after`` is
    who said the note before this one.
    """
    text = _clip(point.text, 200).rstrip()
    if lang == "en" and _SHOUTING.search(text):  # ("I PASSED MY DRIVING TEST": said loudly, written plainly)
        text = _SHOUTING.sub(lambda m: re.sub(r"\b(?!I\b)[A-Z]+\b", lambda w: w.group(0).lower(), m.group(0)), text)
    if point.role == "user" and not named and lang == "en":  # "went with your option 3": the assistant's
        text = re.sub(r"(?i)\byour (option|suggestion|idea|fix|approach|solution|version|code|advice|answer|plan|"
                      r"recommendation|pick)\b", r"the assistant's \1", text)
    if other and lang == "en":
        text = _YOU.sub(lambda m: other + ("'s" if m.group(0).lower() in ("your", "yours") else ""), text)
    if lang == "zh":
        if point.kind == "decision" and point.role == "user" and (
                chose := re.fullmatch(r"[^（）]{1,16}（(?:[A-D1-9]：)?((?:[^（）]|（[^（）]*）){4,})）[。！!]*", text)):
            return f"决定：{chose.group(1)}"  # ("就换铅酸的吧（换新的铅酸电池,…）": the option said, not the nod to it)
        if point.who == "用户" and not named:  # "我报名了…" → "用户报名了…"; "我哥" → "用户的哥哥"
            text = re.sub(r"^(?:对|嗯|好|好的|是的|行)[,，。!！]\s*(?=\S)", "", text)  # ("对,我们也倾向…")
            text = re.sub(r"^(?:你好[，,！!]?\s*)?(?:我)?想请教(?:一下|你)?[，,：:]?\s*", "", text)  # ("想请教一下 儿子…")
            text = re.sub(r"^(儿子|女儿|老公|老婆)", r"用户的\1", text)  # ("儿子乐乐9岁": the user's son)
            text = re.sub(r"我们(家|公司|小区|单位|学校)", r"用户\1", text)  # ("我们家那台朗逸": the user's)
            text = re.sub(r"我们的?(?=房贷|房子|车|孩子|女儿|儿子|预算|存款)", "用户家", text)  # ("我们房贷还剩82万")
            text = re.sub(r"我们", "用户他们", text)  # ("我们也倾向住家保姆": the user and theirs)
            return re.sub(r"我(?!们)", "用户", _ZH_KIN.sub(lambda m: "用户的" + _ZH_KIN_WORDS[m.group(1)], text))
        return f"{point.who}：{text}" if point.who and named else text
    if point.kind == "decision" and point.role == "user" and (chose := re.fullmatch(
            r"(?i)((?:ok(?:ay)?,? |right,? |so,? )?(?:(?:i'?m |we'?re )?going with|(?:let'?s|we'?ll|i'?ll) go with)\b"
            r"[^()]{1,40}?|[^()]{1,40}? \([A-D1-9]:) \(?((?:[^()]|\([^()]*\)){4,})\)[.!]*", text)) \
            and len(chose.group(1).split()) <= 8:
        return f"Decided: {chose.group(2)}"  # ("Going with the battery then (a new battery…)": the option said)
    if point.who and re.match(r"(?:Trying|Looking|Planning|Thinking|Going|Hoping|Wondering|Working) (?:to|for|with|"
                              r"at|about|on|into)\b|Booking (?:the|it|us|for|on)\b", text):
        # "Going for the Yaris." → "The user is going for…"; "Booking the 5th" → "Esme is booking the 5th"
        return third_person(f"{point.who} is {text[:1].lower()}{text[1:]}", point.who)
    if point.who and point.kind == "decision" and point.role == "user" and _BARE_VERB.match(text) \
            and not _SETTLED.match(text) and not re.match(r"(?i)off\b", text) \
            and not re.match(r"(?i)(?:went|chose|picked|settled|opted|switched|decided|agreed|bought|booked|ordered)\b", text):
        # "Lease the e-bike, ride March to November…" → "The user decided to lease the e-bike, …"
        return f"{point.who} decided to {text[:1].lower()}{text[1:]}"
    if point.who and (m := re.match(r"(?i)^(?:let'?s|we'?ll|we will|i'?ll|i will) (go with|use|switch to|pick|choose|"
                                    r"keep|drop|ship|take|buy|book) ", text)) and point.kind == "decision":
        return third_person(f"{point.who} decided to {m.group(1)} {text[m.end():]}", point.who)
    if point.who and (_DROPPED_I.match(text) or re.match(r"(?:ran|tried|tested|checked|did|got|made|found|added|"
                                                         r"fixed|switched|moved|went|chose|picked|settled|opted)\b",
                                                         text, re.I)):
        # "Ran the import…, zero errors." → "The user ran the import…"; "Lost my job" → "Jon lost their job"
        return third_person(f"{point.who} {text[:1].lower()}{text[1:]}", point.who)
    if point.who and not named and (m := re.match(r"(?i)(need|want|have to|would like) (?=to\b|an?\b|some\b|help\b|"
                                                  r"advice\b)", text)):
        verb = {"need": "needs", "want": "wants", "have to": "has to"}.get(m.group(1).lower(), "would like")
        return third_person(f"{point.who} {verb} {text[m.end():]}", point.who)  # "Need to sort out backups for our…"
    if point.who and not named and (m := re.match(r"We (need|want|have to|would like|'d like) ", text)):
        verb = {"need": "needs", "want": "wants", "have to": "has to"}.get(m.group(1), "would like")
        rest = re.sub(r"\b(?:we|us)\b", "they", re.sub(r"\bour\b", "their", text[m.end():]))
        return f"{point.who} {verb} {rest}"  # "We need a better way to dry laundry this winter."
    if point.who and not named and (m := re.match(r"We(?:'ve| have) got |We have (?=an? )", text)):
        rest = third_person(text[m.end():], "they")
        return f"{point.who} has {rest[:1].lower()}{rest[1:]}"  # "We've got a used Kia Niro EV."
    if point.who and not named and (m := re.match(r"We(?:'re| are) ", text)):  # "We're remortgaging."
        rest = third_person(text[m.end():], "they")
        text = f"{point.who} is {rest[:1].lower()}{rest[1:]}"
        return re.sub(r"\b(?:we|us)\b", "they", re.sub(r"\bour\b", "their", text))
    if point.who and not named and re.match(r"(?i)our\b", text):  # "Our gas boiler is 24 years old and we need…"
        rest = _WE.sub(lambda m: _WE_AS_THEY[m.group(0).lower()], text[4:])
        return third_person(f"{point.who}'s {rest}", "they")  # ("… and I don't get why": they don't)
    if point.who and named and re.match(r"(?i)we\b", text):
        return f"{point.who}: {text}"  # "We started puppy classes": who "we" are is the speaker's to say
    if point.who and (lead := re.match(r"(?i)^(?:been|gonna|going to)\b", text)):  # "Been discussing…": Tim has been
        verb = {"been": "has been", "gonna": "is going to", "going to": "is going to"}[lead.group(0).lower()]
        return third_person(f"{point.who} {verb}{text[lead.end():]}", point.who)
    if not point.who or not _FIRST_PERSON.search(text):
        # Between people, whose news it is after the other's: "Elif: The whole family is going to Izmir" (not Ronan's)
        # (A meeting's result is the meeting's, not the minute-taker's: "Decision: launch moves…", "Carried (5–0): …")
        return f"{point.who}: {text}" if after and after != point.who and not text.startswith(point.who) \
            and not re.match(r"(?:Decision|Decided|Carried|Agreed|Amendment carried)\b", text) else text
    if not re.match(r"(?i)^(?:i\b|i'|my\b|me\b)", text) and re.match(r"(?i)^(?:gonna|just|going|been|got|"
                                                                     r"finally|also|still|so)\b", text):
        return f"{point.who}: {third_person(text, 'they')}"  # no subject of its own: say who
    return third_person(text, point.who)


_YOU = re.compile(r"\b(?:your|yours)\b|(?<!\bthank )(?<!\bsee )\byou\b(?! (?:know|guys|all)\b)(?=\s+(?:\w+ed|for|with|to|about|and|too|in|on|at|my|our|a|an|the|some|\.|,|!|$))", re.I)


_ADVERB = r"(?:really |also |just |still |always |usually |often |never |actually |definitely |totally |first |" \
          r"recently |finally |even |now |already |sometimes |mostly |only |absolutely |truly )?"
_PRONOUNS = re.compile(r"\b(?:I(?:'m| am)|I was|I(?:'ve| have)|I(?:'ll| will)|I(?:'d| would)|I had|I can|I could|"
                       r"I (" + _ADVERB + r")(don't|doesn't|didn't|haven't|can't|won't|wasn't|"
                       r"[a-z]+(?!['’]))|my|me|myself|mine)\b", re.I)
_NEGATIONS = {"don't": "doesn't", "haven't": "hasn't"}
_AS_IS = frozenset("""can could should would will must might may had did went was got made took saw came found
gave told felt left kept thought bought brought met ran began knew heard lost won sent spent built wrote read
taught caught sold held fell paid put set quit drove rode flew grew drew threw wore chose spoke broke forgot became
used""".split())
_DID = re.compile(r"(?:" + "|".join(sorted(_AS_IS - {"set", "read", "used", "can", "may", "must", "quit"})) +
                  r"|(?:visit|fac|work|start|finish|tri|talk|play|watch|join|help|learn|lov|enjoy|want|need|decid|manag|"
                  r"visit|travel|reach|receiv|show|seem|turn|wish|hop|look|walk|stay|agre)ed|done|helps|brings|makes|gets|"
                  r"leaving|going|coming|getting|doing|making|taking|having|trying|heading|paying|walking|buying|"
                  r"sending|walk)\s")
_IRREGULAR = {"have": "has", "do": "does", "go": "goes", "am": "is", "be": "is"}


_PAST_EED = ("agreed", "freed", "guaranteed", "decreed")


def third_person(text: str, who: str) -> str:
    """``I went …`` → ``Caroline went …``; later ``I``/``my``/``me`` → ``they``/``their``/``them``."""
    used = [who == "they"]

    def name(subject: bool) -> str:
        if used[0]:
            return "they" if subject else "them"
        used[0] = True
        return who

    def swap(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower().replace("’", "'")
        if low in ("my", "mine"):
            if used[0]:
                return "their" if low == "my" else "theirs"
            used[0] = True
            return f"{who}'s" if low == "my" else f"{who}'s"
        if low == "me":
            return name(False)
        if low == "myself":
            return "themselves"
        first = not used[0]
        subject = name(True)
        plural = subject == "they"
        for head, singular, many in (("i'm", "is", "'re"), ("i am", "is", " are"), ("i was", "was", " were"),
                                     ("i've", "has", "'ve"), ("i have", "has", " have"), ("i'll", "will", "'ll"),
                                     ("i will", "will", " will"), ("i'd", "would", "'d"), ("i would", "would", " would"),
                                     ("i had", "had", " had"), ("i can", "can", " can"), ("i could", "could", " could")):
            if low == head:
                return f"{subject}{many}" if plural else f"{subject} {singular}"
        adverb, verb = m.group(1) or "", m.group(2) or ""
        if verb.lower() in _NEGATIONS or "'" in verb:
            return f"{subject} {adverb}{verb if plural else _NEGATIONS.get(verb.lower(), verb)}"
        # ("need" is not past; "agreed" is)
        past = verb.lower().endswith("ed") and (not verb.lower().endswith("eed") or verb.lower().endswith(_PAST_EED))
        if plural or verb.lower() in _AS_IS or past:
            return f"{subject} {adverb}{verb}"
        return f"{subject} {adverb}{_third(verb)}" if first else f"{subject} {adverb}{verb}"

    if who != "they":  # "Lewis and I are moving…" → "Lewis and Freya are moving…"
        text = re.sub(r"^([A-Za-z][\w'’-]*) and [Ii]\b(?='m| am| are| have| were| had| will| got| just)(?:'m| am)?",
                      lambda m: f"{m.group(1)[:1].upper()}{m.group(1)[1:]} and {who}"
                      + (" are" if m.group(0).endswith(("'m", " am")) else ""), text, count=1) \
            if not re.match(r"(?i)(?:my|me)\b", text) else text
    if who != "they":  # "My brother and I are going…" → "Dev and their brother are going…"
        text = re.sub(r"^(?:my|My) ((?:\w+ ){0,2}?\w+) and I\b(?:'m| am)?",
                      lambda m: f"{who} and their {m.group(1)}" + (" are" if m.group(0).endswith(("'m", " am")) else ""),
                      text, count=1)
        used[0] = text.startswith(who)
    # "I'm 58 and take lisinopril" → "… is 58 and takes lisinopril": the second verb of a first-person subject
    text = re.sub(r"^(I(?:'m| am) [^,.;!?]{1,60}? and )(" + _COMMON_VERBS + r")\b",
                  lambda m: m.group(1) + (m.group(2) if who == "they" else _third(m.group(2))), text)
    # (words quoted are someone's own: "“Do I have to pay it all?” — No: …" keeps its "I")
    out = "".join(part if part.startswith("“") else _PRONOUNS.sub(swap, part) for part in re.split(r"(“[^”]*”)", text))
    if used[0] and who != "they":  # once the speaker is named, their "we" is "they"
        out = _WE.sub(lambda m: _WE_AS_THEY[m.group(0).lower()] if m.group(0)[0].islower()
                      else _WE_AS_THEY[m.group(0).lower()].capitalize(), out)
    if who.startswith("The "):  # "the dentist moved The user's appointment" → "the user's"
        out = out[:1] + out[1:].replace(who, "the" + who[3:])
        out = re.sub(r"(?<=[.!?] )the(?= user\b)", "The", out)
    # A new sentence starts with a capital: "The user's name is Ana. They live in Porto."
    out = re.sub(r"(?<=[.!?] )(they|their|them|theirs)\b", lambda m: m.group(1).capitalize(), out)
    return out[:1].upper() + out[1:]


_WE_AS_THEY = {"we": "they", "we're": "they're", "we've": "they've", "we'll": "they'll", "we'd": "they'd",
               "our": "their", "ours": "theirs", "us": "them", "ourselves": "themselves"}
_WE = re.compile(r"\b(?:[Ww]e(?:'re|'ve|'ll|'d)?|[Oo]urs?|us|[Oo]urselves)\b")


_COMMON_VERBS = r"(?:take|have|go|do|work|live|need|want|use|run|play|teach|study|love|like|own|drive|walk|cook)"


def _third(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _end(sentence: str, lang: str) -> str:
    if lang == "zh":
        sentence = sentence.rstrip().rstrip("；;，,、")  # ("…预算内；" ends with 。, not ；。)
    # A note does not exclaim, at its end or between its sentences ("…on Sunday!! The Cardiff Bay Winter Half.").
    sentence = re.sub(r"!+(?=[”\"]?$)" + ("" if lang == "zh" else r"|!+(?=\s+[A-Z0-9(])"), ".",
                      sentence.strip()).rstrip(":：")  # ("…wrapping it in `Expanded`:")
    if lang == "zh":
        return sentence if re.search(r"[。！？.!?”]$", sentence) else sentence + "。"
    sentence = sentence.rstrip(";,")  # ("…: condensation;" ends with a full stop, not ";.")
    sentence = re.sub(r"\s*[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+$", "", sentence)  # ("…system. 👍", not "..")
    if re.match(r"(?:\*\*)?[a-z]{2,}\b(?![.(_/-])", sentence) and not re.match(r"\S*[A-Z0-9]", sentence):
        sentence = re.sub(r"[a-z]", lambda m: m.group(0).upper(), sentence, count=1)  # ("moisture on…": a sentence)
    return sentence if re.search(r"[.!?…]$|[.!?…][”\")]$", sentence) else sentence + "."


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0] if " " in text[:limit] else text[:limit]
    if _CJK_RE.search(text[:limit]):  # Chinese has no spaces: end on a clause's mark ("…送货，" not "…下午2")
        mark = max(text.rfind(c, 0, limit) for c in "。！？；，、")
        cut = text[:mark] if mark > limit * 0.6 else cut
    else:  # nor does English stop mid-clause: "…all 7 items are loaded up front…", not "…in 2 SELECTs in…"
        mark = max(text.rfind(c, 0, limit) for c in (", ", "; ", " — ", " – ", ": "))
        cut = text[:mark] if mark > limit * 0.6 and text[:mark].count("`") % 2 == 0 else cut
    return cut.rstrip(",;:，、 ") + "…"
